// @app/core/tags: the platform's permission tags both halves of a plugin name. Plain numbers, no
// React: a plugin's `shared` and `server` halves import them from '@app/core/tags' (the web half may
// also take them from '@app/core').

/**
 * Administration of the entidade (spec §6, tag 3): its users and perfis, the outbox and each plugin's
 * settings (alçadas, limites de dispensa, the default price method, the LOA publication). A user whose
 * perfil holds it in an entidade administers that entidade. @app/server-core's OUTBOX_TAG is this
 * number.
 */
export const ADMIN_TAG = 3;
