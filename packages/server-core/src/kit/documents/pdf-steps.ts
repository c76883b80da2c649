// The processing of a document as printed on its PDF ('Tramitação'): the steps of its flow read from
// its audit trail, oldest first, each with when, what, who and the reason given. Memorandos and
// requisições print it; any document with a flow can.
import { formatDateTime } from '@app/br';
import type { PdfBlock } from '../../formats/pdf.js';
import { type HistoryEntry, recordHistory } from '../../platform/audit-history.js';
import type { DbOrTx } from '../../platform/db/types.js';
import { pdfTable } from '../../formats/columns.js';

export interface DocumentStepsOptions {
  entidadeId: string;
  plugin: string;
  /** The document's id. */
  registro: string;
  /** Which audit actions are steps: the flow's transitions (`(acao) => flow.isTransition(acao)`), and any other. */
  isStep: (acao: string) => boolean;
}

/** The steps of a document, oldest first (the last 500 audit rows are read). */
export async function documentSteps(db: DbOrTx, options: DocumentStepsOptions): Promise<HistoryEntry[]> {
  const { isStep, ...where } = options;
  const history = await recordHistory(db, { ...where, limit: 500 });
  return [...history.items].reverse().filter((h) => isStep(h.acao));
}

/**
 * 'Tramitação': a heading and a table (date and time, step, who, reason), nothing without steps.
 * `step(h)` names a step (default: `labels[acao]`, else the action).
 */
export function documentStepsPdf(
  steps: readonly HistoryEntry[],
  options: { labels: Record<string, string>; step?: (h: HistoryEntry) => string; reasonHeader?: string },
): PdfBlock[] {
  if (steps.length === 0) return [];
  const step = options.step ?? ((h: HistoryEntry) => options.labels[h.acao] ?? h.acao);
  return [
    { heading: 'Tramitação' },
    {
      table: pdfTable(steps, [
        { header: 'Data e hora', width: 'auto', cell: (h) => formatDateTime(h.at) },
        { header: 'Etapa', width: 'auto', cell: step },
        { header: 'Por', width: '*', cell: (h) => h.usuario?.nome ?? 'Sistema' },
        { header: options.reasonHeader ?? 'Motivo', width: '*', cell: (h) => h.motivo ?? '' },
      ]),
    },
  ];
}
