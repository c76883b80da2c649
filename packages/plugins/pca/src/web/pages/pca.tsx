// The plans' pages from the document kit: the list, the header form (year, PNCP unit, setor), the action
// bar of the flow (enviar, aprovar, devolver with a reason, publicar, cancelar: what the server allows),
// the PDF and the timeline; the plan's own panel (items with drill-down, consolidation of the DFDs).
import { ADMIN_TAG as PCA_ADMIN_TAG, type ResourceOptionsSource, defineDocumentPages, useHasTag } from '@app/core';
import { Link } from 'wouter';
import { formatMoney } from '@app/documents';
import { LOA_TITLES, PCA_PATH, PCA_TITLES, fluxo, pcaSchema } from '../../shared/index.js';
import { PlanoPanel } from './PlanoPanel';
import { dialogoDoPlano } from './Revisao';

type Row = Record<string, unknown>;

const centros: ResourceOptionsSource = { endpoint: '/pca/centros-custo', label: (c) => `${String(c.codigo)} – ${String(c.nome)}` };

/** The administration (tag 3) reaches the LOA dates from the plans' list. */
function ListActions() {
  return useHasTag(PCA_ADMIN_TAG) ? (
    <Link href="/loa" className="button button--secondary">
      {LOA_TITLES.title}
    </Link>
  ) : null;
}

export default defineDocumentPages({
  endpoint: `/pca${PCA_PATH}`,
  ...PCA_TITLES,
  description: 'As demandas aceitas (DFD) das áreas consolidadas no plano do ano, aprovado pela autoridade competente e publicado no PNCP.',
  documento: 'Plano de Contratações Anual',
  flow: fluxo,
  schema: pcaSchema,
  defaults: (session) => ({ anoPca: new Date().getFullYear() + 1, centroCustoId: session?.centrosCusto?.[0] ?? '' }),
  noDelete: true,
  duplicate: false,
  columns: [
    { key: 'anoPca', header: 'Ano do plano', width: '8rem', value: (row: Row) => String(row.anoPca) },
    { key: 'codigoUnidade', header: 'Unidade PNCP', width: '9rem' },
    { key: 'centroCustoNome', header: 'Setor' },
    { key: 'valorTotal', header: 'Valor total', width: '11rem', align: 'end', value: (row: Row) => formatMoney(row.valorTotal as string, 4) },
  ],
  fields: [
    { name: 'anoPca', type: 'number', label: 'Ano do plano', required: true, min: 2000, max: 9999 },
    { name: 'codigoUnidade', type: 'text', label: 'Código da unidade no PNCP', required: true, maxLength: 30 },
    { name: 'centroCustoId', type: 'select', label: 'Setor de contratações', required: true, source: { ...centros, params: { origem: 'true' } } },
    { name: 'observacao', type: 'textarea', label: 'Observação', rows: 3, maxLength: 2000, wide: true },
  ],
  slots: {
    listActions: () => <ListActions />,
    panels: (record, ctx) => <PlanoPanel record={record} ctx={ctx} />,
    // revisar: the budget law's date and the justification (required outside the revision windows)
    transitionDialog: dialogoDoPlano,
  },
  // the fields' labels name the rest
  timelineLabels: {
    valorTotal: 'Valor total',
    motivo: 'Motivo',
    codigoUnidade: 'Unidade PNCP',
    versao: 'Versão',
    dataLoa: 'Publicação da LOA',
    justificativa: 'Justificativa',
    revisaoJustificativa: 'Justificativa da revisão',
  },
});
