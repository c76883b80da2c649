// The tags, path and titles of the Plano de Contratações Anual (zod-free: the web manifest imports it).
import { ADMIN_TAG as TAG_ADMINISTRACAO } from '@app/core/tags';
/** Permission tag of the section: elaborate and consolidate the plan (setor de contratações). */
export const PCA_TAG = 101;
export const PCA_TAG_NOME = 'Plano de Contratações Anual';
/** The autoridade competente: approves or returns the plan (never who consolidated it). */
export const PCA_APROVAR_TAG = 102;
export const PCA_APROVAR_TAG_NOME = 'Aprovar o Plano de Contratações Anual (autoridade competente)';

/**
 * @deprecated The platform's `ADMIN_TAG` of `@app/core/tags` (tag 3, the administration); kept for the 1.x API.
 * @public
 */
export const PCA_ADMIN_TAG: number = TAG_ADMINISTRACAO;

/** The plans' path under /api/pca (the list is GET /api/pca/planos). */
export const PCA_PATH = '/planos';

export const PCA_TITLES = {
  title: 'Plano de Contratações Anual',
  newTitle: 'Novo plano',
  editTitle: 'Plano de Contratações Anual',
} as const;

/** The publication of each year's budget law (LOA): a setting of the entidade, GET /api/pca/loas. */
export const LOA_PATH = '/loas';
export const LOA_TITLES = { title: 'Publicação da LOA', newTitle: 'Nova publicação da LOA', editTitle: 'Publicação da LOA' } as const;
