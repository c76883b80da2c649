/** Titles of the routes (registered on navigation; also the h1 of each page). */
export const PRE_TITLES = {
  title: 'Pré-requisições',
  newTitle: 'Nova pré-requisição',
  editTitle: 'Editar pré-requisição',
  viewTitle: 'Pré-requisição',
  fromMemorandoTitle: 'Nova pré-requisição a partir de memorando',
} as const;

export const REQ_TITLES = {
  title: 'Requisições',
  newTitle: 'Nova requisição',
  editTitle: 'Editar requisição',
  approveTitle: 'Aprovação da requisição',
  pendingTitle: 'Pré-requisições a converter',
  convertTitle: 'Converter pré-requisição em requisição',
} as const;

export const ALCADAS_TITLES = { title: 'Alçadas de aprovação', newTitle: 'Nova alçada', editTitle: 'Editar alçada' } as const;
export const LIMITES_TITLES = { title: 'Limites de dispensa', newTitle: 'Novo limite de dispensa', editTitle: 'Editar limite de dispensa' } as const;
