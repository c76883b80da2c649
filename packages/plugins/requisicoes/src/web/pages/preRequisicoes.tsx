import { formatDate } from '@app/br';
import { defineDocumentPages } from '@app/core';
import { formatMoney } from '@app/documents';
import { Link } from 'wouter';
import { fluxoPreRequisicao, preRequisicaoInputSchema } from '../../shared/index.js';
import { PRE_TITLES } from '../titles';
import { PRE_ENDPOINT, type Row, centros, meusCentros, produto, tipos } from './common';

export default defineDocumentPages({
  endpoint: PRE_ENDPOINT,
  title: PRE_TITLES.title,
  newTitle: PRE_TITLES.newTitle,
  editTitle: PRE_TITLES.editTitle,
  description: 'O pedido de compra de um centro de custo, que o setor de compras converte em requisições.',
  documento: 'Pré-requisição',
  feminino: true,
  flow: fluxoPreRequisicao,
  schema: preRequisicaoInputSchema,
  // a new pré-requisição starts from the person's own centro
  defaults: (session) => ({ centroCustoId: session?.centrosCusto?.[0] ?? '' }),
  columns: [
    { key: 'data', header: 'Data', width: '7rem', value: (row: Row) => formatDate(String(row.data ?? '')) },
    { key: 'centroCustoNome', header: 'Centro de custo' },
    { key: 'tipoSolicitacaoNome', header: 'Tipo de solicitação', sortable: false },
    { key: 'solicitanteNome', header: 'Solicitante' },
    { key: 'valorTotal', header: 'Valor estimado', width: '9rem', align: 'end', value: (row: Row) => formatMoney(row.valorTotal as string) },
  ],
  filters: [
    { name: 'centroCustoId', label: 'Centro de custo', source: centros },
    { name: 'tipoSolicitacaoId', label: 'Tipo de solicitação', source: tipos },
  ],
  fields: [
    { name: 'centroCustoId', type: 'select', label: 'Centro de custo', required: true, source: meusCentros },
    { name: 'tipoSolicitacaoId', type: 'select', label: 'Tipo de solicitação', required: true, source: tipos },
    { name: 'justificativa', type: 'textarea', label: 'Justificativa', required: true, rows: 5, maxLength: 5000, wide: true },
  ],
  items: {
    required: true,
    unitField: 'unidadeSigla',
    totalLabel: 'Valor total estimado',
    headers: { unitValue: 'Valor unitário estimado' },
    product: produto,
  },
  slots: {
    listActions: () => (
      <Link href="/de-memorando" className="button button--secondary">
        Nova a partir de memorando
      </Link>
    ),
    rowActions: (row: Row) => (
      <Link
        href={`/ver/${String(row.id)}`}
        className="button button--secondary button--sm"
        aria-label={`Ver atendimento da pré-requisição ${String(row.numero)}/${String(row.ano)}`}
      >
        Atendimento
      </Link>
    ),
    actions: (row: Row) => (
      <Link href={`/ver/${String(row.id)}`} className="button button--secondary">
        Ver atendimento
      </Link>
    ),
  },
  timelineLabels: { solicitanteId: 'Solicitante', valorTotal: 'Valor total estimado', motivo: 'Motivo', memorandoId: 'Memorando' },
});
