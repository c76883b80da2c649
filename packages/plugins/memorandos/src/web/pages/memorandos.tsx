import { type ResourceOptionsSource, defineDocumentPages } from '@app/core';
import { formatMoney } from '@app/documents';
import { CATEGORIAS_ITEM_PCA, PRIORIDADE_LABEL, PRIORIDADES, type Prioridade, fluxo, memorandoInputSchema } from '../../shared/index.js';
import { TITLES } from '../titles';

type Row = Record<string, unknown>;

// the plugin's own pickers (tag 29): a requisitante holds neither Cadastros nor Produtos
const centros: ResourceOptionsSource = { endpoint: '/memorandos/centros-custo', label: (c) => `${String(c.codigo)} – ${String(c.nome)}` };
const prioridades = PRIORIDADES.map((value) => ({ value, label: PRIORIDADE_LABEL[value] }));
const categorias = Object.entries(CATEGORIAS_ITEM_PCA).map(([value, label]) => ({ value, label: `${value} – ${label}` }));
const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');

export default defineDocumentPages({
  endpoint: '/memorandos/memorandos',
  ...TITLES,
  description: 'Demandas das áreas requisitantes (DFD): o que se precisa, por quê, quanto e para quando.',
  documento: 'Memorando',
  flow: fluxo,
  schema: memorandoInputSchema,
  // a new memorando starts from the person's own centro; none is deleted (cancelled, it keeps its number)
  defaults: (session) => ({ prioridade: 'media', origemId: session?.centrosCusto?.[0] ?? '' }),
  noDelete: true,
  columns: [
    { key: 'data', header: 'Data', width: '7rem', value: (row: Row) => dataBr(row.data) },
    { key: 'assunto', header: 'Assunto' },
    { key: 'origemNome', header: 'Origem' },
    { key: 'destinoNome', header: 'Destino' },
    { key: 'prioridade', header: 'Prioridade', width: '7rem', value: (row: Row) => PRIORIDADE_LABEL[row.prioridade as Prioridade] ?? '' },
    { key: 'valorTotal', header: 'Valor estimado', width: '9rem', align: 'end', value: (row: Row) => formatMoney(row.valorTotal as string) },
  ],
  filters: [
    { name: 'origemId', label: 'Origem', source: centros },
    { name: 'destinoId', label: 'Destino', source: centros },
    { name: 'prioridade', label: 'Prioridade', options: prioridades, multiple: true },
  ],
  fields: [
    { name: 'origemId', type: 'select', label: 'Origem (centro de custo)', required: true, source: { ...centros, params: { origem: 'true' } } },
    { name: 'destinoId', type: 'select', label: 'Destino', required: true, source: centros, hint: 'O setor de compras ou outro centro de custo.' },
    { name: 'prioridade', type: 'select', label: 'Prioridade', required: true, options: prioridades },
    { name: 'dataDesejada', type: 'date', label: 'Data desejada' },
    { name: 'anoPca', type: 'number', label: 'Ano do PCA', hint: 'O ano do Plano de Contratações Anual a que esta demanda se destina.' },
    { name: 'assunto', type: 'text', label: 'Assunto', required: true, maxLength: 200, wide: true },
    { name: 'justificativa', type: 'textarea', label: 'Justificativa da necessidade', required: true, rows: 5, maxLength: 5000, wide: true },
  ],
  items: {
    required: true,
    unitField: 'unidadeSigla',
    totalLabel: 'Valor total estimado',
    headers: { unitValue: 'Valor unitário estimado' },
    product: {
      endpoint: '/memorandos/produtos',
      label: (p) => `${String(p.codigo)} – ${String(p.descricao)}`,
      description: (p) => [p.unidadeSigla, p.grupoNome].filter(Boolean).join(' · '),
      fill: (p) => ({ unidadeSigla: p.unidadeSigla }),
    },
    // the PCA category of the line, empty: the server takes the product's (material → 1, serviço → 2); editable while a draft
    fields: [{ name: 'categoriaItemPca', type: 'select', label: 'Categoria no PCA', options: categorias }],
  },
  timelineLabels: { origemId: 'Origem', destinoId: 'Destino', solicitanteId: 'Solicitante', valorTotal: 'Valor total estimado', motivo: 'Motivo' },
});
