/** Titles of the routes of 'Produtos e Serviços' (registered on navigation; also the h1 of each page). */
export const TITLES = {
  title: 'Produtos e Serviços',
  newTitle: 'Novo produto ou serviço',
  editTitle: 'Editar produto ou serviço',
  importTitle: 'Importar produtos e serviços',
} as const;

/** Tag of the section (spec §6 does not show it; 25 here). */
export const PRODUTOS_WEB_TAG = 25;
