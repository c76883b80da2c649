// The tags of the PNCP integration (zod-free: the web manifest imports it).
/** 'Publicar no PNCP': publish an approved PCA, follow the publications, retry or cancel them. */
export const PNCP_TAG = 103;
export const PNCP_TAG_NOME = 'Publicar no PNCP';
/** 'Configurar a integração com o PNCP': the entidade's PNCP system user (login and password). */
export const PNCP_CONFIG_TAG = 104;
export const PNCP_CONFIG_TAG_NOME = 'Configurar a integração com o PNCP';
