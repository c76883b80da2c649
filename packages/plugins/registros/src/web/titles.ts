// Titles of the registries' pages (no imports: used by the cheap manifests and by the lazy pages).
export const TITLES = {
  grupos: { title: 'Grupos de Produto ou Serviço', newTitle: 'Novo grupo', editTitle: 'Editar grupo' },
  subgrupos: { title: 'Sub-Grupos', newTitle: 'Novo sub-grupo', editTitle: 'Editar sub-grupo' },
  unidades: { title: 'Unidade de Produtos', newTitle: 'Nova unidade', editTitle: 'Editar unidade' },
  tiposMaterial: { title: 'Tipo de Material', newTitle: 'Novo tipo de material', editTitle: 'Editar tipo de material' },
  centrosCusto: { title: 'Centro de Custos', newTitle: 'Novo centro de custo', editTitle: 'Editar centro de custo' },
  nucleosConsumo: { title: 'Núcleo de Consumo', newTitle: 'Novo núcleo de consumo', editTitle: 'Editar núcleo de consumo' },
  ramosAtividade: { title: 'Ramos de Atividade', newTitle: 'Novo ramo de atividade', editTitle: 'Editar ramo de atividade' },
  tiposSolicitacao: { title: 'Tipo de Solicitação', newTitle: 'Novo tipo de solicitação', editTitle: 'Editar tipo de solicitação' },
  cargos: { title: 'Cargo', newTitle: 'Novo cargo', editTitle: 'Editar cargo' },
} as const;
