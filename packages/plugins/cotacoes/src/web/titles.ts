// Page titles of the section (read by the cheap manifest and by the lazy pages).
export const COTACAO_TITLES = {
  title: 'Cotações',
  newTitle: 'Nova cotação',
  editTitle: 'Editar cotação',
  duplicateTitle: 'Duplicar cotação',
  fromRequisicaoTitle: 'Nova cotação a partir de requisição',
  addTitle: 'Coleta de preços',
  mapaTitle: 'Mapa comparativo',
  configTitle: 'Configuração das cotações',
} as const;
