// The list, new, edit and duplicar pages of /api/__ID____BASE_PATH__, from the document kit (a lazy
// chunk): the status column and filter, the items grid with its live total, the action bar of the
// flow (only what the server says this person may do now), Duplicar, Imprimir (PDF) and the timeline.
import { defineDocumentPages } from '@app/core';
import { formatMoney } from '@app/documents';
import { __CONST___PATH, __CONST___TITLES, __CAMEL__Schema, fluxo } from '../../shared/index.js';

type Row = Record<string, unknown>;

const dataBr = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');

export default defineDocumentPages({
  endpoint: `/__ID__${__CONST___PATH}`,
  ...__CONST___TITLES,
  documento: 'Documento',
  flow: fluxo,
  schema: __CAMEL__Schema,
  // numbered documents are cancelled with a reason, never deleted
  noDelete: true,
  columns: [
    { key: 'data', header: 'Data', width: '7rem', value: (row: Row) => dataBr(row.data) },
    { key: 'assunto', header: 'Assunto' },
    { key: 'solicitanteNome', header: 'Solicitante' },
    { key: 'valorTotal', header: 'Valor total', width: '9rem', align: 'end', value: (row: Row) => formatMoney(row.valorTotal as string) },
  ],
  fields: [
    { name: 'assunto', type: 'text', label: 'Assunto', required: true, maxLength: 200, wide: true },
    { name: 'observacao', type: 'textarea', label: 'Observação', rows: 3, maxLength: 2000, wide: true },
  ],
  items: {
    required: true,
    unitField: 'unidadeSigla',
    product: {
      endpoint: '/__ID__/produtos',
      label: (p) => `${String(p.codigo)} – ${String(p.descricao)}`,
      fill: (p) => ({ unidadeSigla: p.unidadeSigla }),
    },
  },
  timelineLabels: { solicitanteId: 'Solicitante', valorTotal: 'Valor total' },
});
