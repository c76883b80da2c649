// The tables this plugin administers: the core ones (declared, with their `version` column, by
// server-core) and the centros de custo of @app/registros (read: the user form offers them and
// usuario_entidades.centros_custo is validated against them), each imported from its owner.
export { centrosCusto as centrosCustoT } from '@app/registros/server';
export { perfis as perfisT, usuarios as usuariosT } from '@app/server-core';
