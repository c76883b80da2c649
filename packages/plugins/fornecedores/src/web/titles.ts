/** Titles of the routes of 'Fornecedores' (registered on navigation; also the h1 of each page). */
export const TITLES = {
  title: 'Fornecedores',
  newTitle: 'Novo fornecedor',
  editTitle: 'Editar fornecedor',
  importTitle: 'Importar fornecedores',
} as const;

export const FORNECEDORES_WEB_TAG = 26;

/** API endpoint (under /api) and the query-key prefix shared with the resource kit's list. */
export const ENDPOINT = '/fornecedores/fornecedores';
