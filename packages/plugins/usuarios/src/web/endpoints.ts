// Endpoints of the user and perfil forms and the query keys of their lists: core's queryKeys, under
// the resource kit's, so a save in a kit form refreshes the lists too.
import { queryKeys } from '@app/core';

export const USUARIOS_ENDPOINT = '/usuarios/usuarios';
export const PERFIS_ENDPOINT = '/usuarios/perfis';

export const usuariosKeys = {
  list: (q: string, page: number) => queryKeys.list(USUARIOS_ENDPOINT, { q, page }),
  /** Entidades, perfis and centros de custo a user can be given (changes with the perfis). */
  opcoes: queryKeys.extra(PERFIS_ENDPOINT, 'opcoes'),
};

export const perfisKeys = {
  list: (page: number) => queryKeys.list(PERFIS_ENDPOINT, { page }),
  tags: queryKeys.plugin('usuarios', 'tags'),
};
