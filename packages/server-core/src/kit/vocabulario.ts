// What the codes a plugin stores mean to a person, for the pages that show the audit rows of every
// plugin at once (Logs de Auditoria): a document's timeline has its own form's labels, but the Logs
// page knows only the plugin of a row. Each plugin contributes the labels of the values it stores
// ('media_saneada' → 'Média saneada'; a flow's `states` fit as they are) and of fields whose key does
// not read well ('metodo' → 'Método'):
//
//   contributes: [contribute(VOCABULARIO_AUDITORIA, { valores: { status: fluxo.states, metodo: METODO_LABELS } })]
import type { HistoryNames } from '../platform/audit-history.js';
import { extensionPoint } from '../platform/contributions.js';

/** Stored value → label (a flow's `states` is one). */
export type RotulosDeValores = Readonly<Record<string, string | { readonly label: string }>>;

export interface VocabularioAuditoria {
  /** Field key → pt-BR label ('metodo' → 'Método'); a line item's field as 'itens.quantidade' or 'quantidade'. */
  campos?: Readonly<Record<string, string>>;
  /** Field key → stored value → pt-BR label ('status' → the flow's states). */
  valores?: Readonly<Record<string, RotulosDeValores>>;
  /**
   * Field key → where the record an id refers to is named (the `history.names` of the plugin's
   * documents: declare them once and give both). Ids of any plugin's rows are named with them.
   */
  nomes?: HistoryNames;
}

/** The extension point the Logs de Auditoria (@app/auditoria) reads, per plugin of a row. */
export const VOCABULARIO_AUDITORIA = extensionPoint<VocabularioAuditoria>('core.vocabulario-auditoria');

/** The contributions of one plugin merged into one vocabulary (a later one wins on the same key). */
export function juntarVocabularios(vocabularios: readonly VocabularioAuditoria[]): Required<VocabularioAuditoria> {
  const campos: Record<string, string> = {};
  const valores: Record<string, Record<string, string | { readonly label: string }>> = {};
  const nomes: HistoryNames = {};
  for (const v of vocabularios) {
    Object.assign(campos, v.campos);
    Object.assign(nomes, v.nomes);
    for (const [campo, rotulos] of Object.entries(v.valores ?? {})) valores[campo] = { ...valores[campo], ...rotulos };
  }
  return { campos, valores, nomes };
}

/** The label of a stored value of `campo`, or undefined when the vocabulary has none. */
export function rotuloDeValor(vocabulario: VocabularioAuditoria, campo: string, valor: string): string | undefined {
  const rotulos = vocabulario.valores?.[campo];
  if (!rotulos || !Object.hasOwn(rotulos, valor)) return undefined;
  const r = rotulos[valor]!;
  return typeof r === 'string' ? r : r.label;
}
