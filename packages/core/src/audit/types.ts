// The answer of GET <document>/:id/historico (server-core's recordHistory): the web's copy of its types.

/** One changed field: values as stored, except ids of other records, already replaced by their names. */
export interface HistoryFieldChange {
  campo: string;
  /** The field's label when the server sends it (the Logs de Auditoria); wins over `labels`. */
  rotulo?: string;
  /** null: no value before (always on 'criar'). For line items: how many there were. */
  antes: unknown;
  /** null: no value after (always on 'excluir'). For line items: how many there are. */
  depois: unknown;
  /** Only for a list of line items (a document's `itens`). */
  itens?: HistoryItemsChange;
}

/** What changed in a list of line items, each item named (its product, or 'Item n'). */
export interface HistoryItemsChange {
  adicionados: string[];
  removidos: string[];
  alterados: { item: string; mudancas: HistoryFieldChange[] }[];
}

export interface HistoryEntry {
  id: number;
  /** ISO 8601 (UTC). */
  at: string;
  /** null: done by the system. */
  usuario: { id: string; nome: string } | null;
  acao: string;
  /** Reason of a transition, if given. */
  motivo: string | null;
  /** Number (or name) of the document this one was duplicated from. */
  duplicadoDe?: string | null;
  mudancas: HistoryFieldChange[];
}

export interface RecordHistory {
  /** Newest first. */
  items: HistoryEntry[];
  /** Older rows were left out. */
  truncated?: boolean;
}

/** How a field's value is shown when the built-in guesses would not fit. */
export type AuditValueFormat = 'text' | 'date' | 'datetime' | 'decimal' | 'money' | 'boolean';

/** An action label, or a flow transition (`flow.transitions[name]`: its past tense `done` is used). */
export type AuditActionLabel = string | { label: string; done?: string };

export interface AuditRenderOptions {
  /**
   * Field key → pt-BR label (a form's field labels); the order of the keys also orders the changes.
   * A line item's field is looked up as 'itens.quantidade', then 'quantidade'.
   */
  labels?: Readonly<Record<string, string>>;
  /** Action → label: the flow's transitions (`flow.transitions`) or plain strings; wins over the built-in ones. */
  actions?: Readonly<Record<string, AuditActionLabel>>;
  /** Field → stored value → label, e.g. `{ status: flow.states, prioridade: { alta: 'Alta' } }`. */
  values?: Readonly<Record<string, Readonly<Record<string, string | { label: string }>>>>;
  /** Field → format (e.g. `{ valorUnitario: 'money', codigo: 'text' }`). */
  formats?: Readonly<Record<string, AuditValueFormat>>;
}
