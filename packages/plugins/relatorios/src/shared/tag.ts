// The tag of /reports (zod-free: the web manifest imports it).
/** 'Relatórios': opens the catalogue at /reports; each report also asks for its own tag. */
export const RELATORIOS_TAG = 105;
export const RELATORIOS_TAG_NOME = 'Relatórios';
