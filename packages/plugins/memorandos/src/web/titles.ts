/** Titles of the routes of 'Memorandos' (registered on navigation; also the h1 of each page). */
export const TITLES = { title: 'Memorandos', newTitle: 'Novo memorando', editTitle: 'Editar memorando' } as const;
