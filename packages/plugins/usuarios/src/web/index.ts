import { ADMIN_TAG, definePlugin } from '@app/core';

/** @app/usuarios, web half: users and perfis of the entidade and the e-mail outbox (tag 3). Pages are lazy chunks. */
export default definePlugin({
  id: 'usuarios',
  title: 'Usuários',
  basePath: '/usuarios',
  tag: ADMIN_TAG,
  core: '^1.0.0',
  version: __PKG_VERSION__,
  packageName: __PKG_NAME__,
  menu: { label: 'Usuários', icon: 'users', group: 'Administração', order: 10 },
  routes: [
    { path: '/', title: 'Usuários', load: () => import('./pages/UsuariosList') },
    { path: '/new', title: 'Novo usuário', load: () => import('./pages/UsuarioEdit') },
    { path: '/edit/:id', title: 'Editar usuário', load: () => import('./pages/UsuarioEdit') },
    { path: '/perfis', title: 'Perfis', load: () => import('./pages/PerfisList') },
    { path: '/perfis/new', title: 'Novo perfil', load: () => import('./pages/PerfilEdit') },
    { path: '/perfis/edit/:id', title: 'Editar perfil', load: () => import('./pages/PerfilEdit') },
    { path: '/caixa-de-saida', title: 'Caixa de saída', load: () => import('./pages/CaixaDeSaida') },
  ],
});
