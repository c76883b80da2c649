// The core tables this plugin administers (declared, with their `version` column, by server-core).
export { perfis as perfisT, usuarios as usuariosT } from '@app/server-core';
