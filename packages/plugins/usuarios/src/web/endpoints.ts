// Endpoints of the user and perfil forms and the query keys of their lists: under the resource kit's
// keys (['resource', endpoint, …]), so a save in a kit form refreshes the lists too.
export const USUARIOS_ENDPOINT = '/usuarios/usuarios';
export const PERFIS_ENDPOINT = '/usuarios/perfis';

export const usuariosKeys = {
  list: (q: string, page: number) => ['resource', USUARIOS_ENDPOINT, 'list', { q, page }] as const,
  /** Entidades, perfis and centros de custo a user can be given (changes with the perfis). */
  opcoes: ['resource', PERFIS_ENDPOINT, 'opcoes'] as const,
};

export const perfisKeys = {
  list: (page: number) => ['resource', PERFIS_ENDPOINT, 'list', { page }] as const,
  tags: ['usuarios', 'tags'] as const,
};
