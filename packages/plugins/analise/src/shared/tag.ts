// The tag of 'Análise de Consumo e Preços' (zod-free: the web manifest imports it).
export const ANALISE_TAG = 106;
export const ANALISE_TAG_NOME = 'Análise de Consumo e Preços';
