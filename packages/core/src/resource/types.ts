import type { ReactNode } from 'react';

type Row = Record<string, unknown>;

/** What the kit needs of a zod schema (the one shared with the server): `safeParse`. */
export interface SchemaLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: readonly SchemaIssue[] } };
}
export interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** A column of the list (same shape as the server kit's export columns, plus `render`). */
export interface ResourceColumn<T = Row> {
  key: string;
  header: string;
  /** Text of the cell (default: the field; booleans Sim/Não). */
  value?: (row: T) => string | number | boolean | null;
  /** Custom cell. */
  render?: (row: T) => ReactNode;
  /** Default true: sort by clicking the header (the server must list the key in `sortable`). */
  sortable?: boolean;
  width?: string;
  align?: 'start' | 'center' | 'end';
}

/** Options of a select taken from another resource's list endpoint (active records). */
export interface ResourceOptionsSource<T = Row> {
  /** e.g. '/registros/grupos' (under /api). */
  endpoint: string;
  /** Text of an option, e.g. (g) => `${g.codigo} – ${g.nome}`. */
  label: (row: T) => string;
  /** Extra query, or a function of the form values (dependent selects: { grupoId: values.grupoId }). */
  params?: Record<string, string> | ((values: Row) => Record<string, string | undefined | null>);
  /** Sort of the options (default: the endpoint's default). */
  sort?: string;
  /** Leave the record being edited out of the options (a parent of itself). */
  excludeSelf?: boolean;
}

interface FieldBase {
  /** Field of the form values / API body. */
  name: string;
  /** Visible label; a function of the form values when it depends on them (e.g. 'Nome' for a CPF, 'Razão social' for a CNPJ). */
  label: string | ((values: Row) => string);
  hint?: string;
  /** Shows the required mark (validation itself comes from the schema). */
  required?: boolean;
  /** Spans the whole row of the form grid. */
  wide?: boolean;
  placeholder?: string;
  /**
   * Conditional field: shown only while this returns true for the form values (what the controls
   * hold; inside a group, the values of its row). A hidden field is not rendered, and it is left
   * out of the body the schema validates and the API receives (absent, so a `.nullish()` field of
   * the schema reads null); what was typed in it is kept for when it shows again.
   *   { name: 'impedimentoMotivo', …, visibleWhen: (v) => v.situacao === 'impedido' }
   */
  visibleWhen?: (values: Row) => boolean;
  /** Title of the card the field goes in: consecutive fields with the same section share one card. */
  section?: string;
}

/**
 * Named masks of `masked` fields. Shown masked, sent unmasked (digits only):
 * 'cep' 01310-100; 'telefone' (11) 3456-7890 or (11) 98765-4321 (10 or 11 digits, DDD included).
 */
export type MaskPreset = 'cep' | 'telefone';

/** A field of the form that holds one value. */
export type ScalarFieldDescriptor =
  | (FieldBase & { type: 'text'; maxLength?: number; autoComplete?: string; uppercase?: boolean; inputType?: 'text' | 'email' | 'tel' | 'url' })
  | (FieldBase & { type: 'textarea'; rows?: number; maxLength?: number })
  | (FieldBase & { type: 'number'; min?: number; max?: number; step?: number })
  | (FieldBase & { type: 'checkbox' })
  /**
   * A pattern ('9' digit, 'A' letter, '*' letter or digit, anything else literal: '9999-9/99',
   * '99.999-999'; sent as shown) or a `MaskPreset` ('cep', 'telefone'; sent unmasked).
   */
  | (FieldBase & { type: 'masked'; mask: MaskPreset | (string & {}); inputMode?: 'numeric' | 'text' })
  /**
   * CPF or CNPJ, the 2026 alphanumeric CNPJ included, decided by length: shown masked as typed
   * ('123.456.789-09', '12.ABC.345/01DE-35', letters upper-cased), sent unmasked ('12ABC34501DE35').
   * The hint says 'Pessoa física.' / 'Pessoa jurídica.' once the length is one of the two.
   */
  | (FieldBase & { type: 'document' })
  /** A date (native date input): 'aaaa-mm-dd'; empty is sent as null. */
  | (FieldBase & { type: 'date'; min?: string; max?: string })
  | (FieldBase & { type: 'select'; options: { value: string; label: string }[] })
  | (FieldBase & { type: 'select'; source: ResourceOptionsSource })
  /** Several ids of another resource (checkbox list). */
  | (FieldBase & { type: 'multiselect'; source: ResourceOptionsSource });

/**
 * A repeating group: a list of rows, each with the same fields (their names are relative to the
 * row), with 'Adicionar …' and 'Remover … n' buttons. The value is an array of row objects; the
 * schema's errors on `contatos.1.email` show on that row's input.
 *   { type: 'group', name: 'contatos', label: 'Contatos', itemLabel: 'Contato',
 *     rowLabel: (label, n) => `${label} do contato ${n}`, max: 20,
 *     fields: [{ name: 'nome', type: 'text', label: 'Nome' }, { name: 'telefone', type: 'masked', mask: 'telefone', label: 'Telefone' }] }
 */
export type GroupFieldDescriptor = FieldBase & {
  type: 'group';
  fields: ScalarFieldDescriptor[];
  /** One row, capitalised: 'Contato' → legend 'Contato 2', buttons 'Adicionar contato', 'Remover contato 2'. */
  itemLabel: string;
  /** Text of the add button (default `Adicionar ${itemLabel in lower case}`). */
  addLabel?: string;
  /** Label of a row's input (default `${label} (${itemLabel} ${n})`); must tell the rows apart. */
  rowLabel?: (label: string, n: number) => string;
  /** Shown when there are no rows. */
  emptyText?: string;
  /** Rows the New form starts with, and below which rows cannot be removed (default 0). */
  min?: number;
  /** No 'Adicionar' beyond this many rows. */
  max?: number;
};

export type FieldDescriptor = ScalarFieldDescriptor | GroupFieldDescriptor;

/** A filter of the list (kept in the URL), e.g. sub-grupos of one grupo. */
export type ListFilter =
  | { name: string; label: string; options: { value: string; label: string }[] }
  | { name: string; label: string; source: ResourceOptionsSource };

export interface ResourceConfig<T = Row> {
  /** API endpoint of the resource under /api, e.g. '/registros/grupos'. */
  endpoint: string;
  /** List page title (h1), e.g. 'Grupos de Produto ou Serviço'. */
  title: string;
  /** New page title, e.g. 'Novo grupo' (also the list's button). */
  newTitle: string;
  /** Edit page title, e.g. 'Editar grupo'. */
  editTitle: string;
  description?: string;
  columns: ResourceColumn<T>[];
  fields: FieldDescriptor[];
  /** The zod schema shared with the server: same pt-BR messages on both sides. */
  schema: SchemaLike;
  /** Initial values of the New form (merged over empty values per field type). */
  defaults?: Row;
  /** Default sort (must match the server's defaultSort); default: the first column. */
  defaultSort?: string;
  /** Extra list filters. */
  filters?: ListFilter[];
  /** Default page size (20). */
  pageSize?: number;
  /** Path of the list inside the plugin (default '/'; new = base + '/new', edit = base + '/edit/:id'). */
  base?: string;
  /** Text of a record in confirmations and links (default: first column). */
  recordLabel?: (row: T) => string;
  /** Hide the CSV/XLSX buttons. */
  noExport?: boolean;
  /** Hide Ativar/Desativar on the Edit page (the record's status is one of its own fields). */
  noToggle?: boolean;
  /** Description of the Edit page (default: `${recordLabel} · Ativo|Inativo`). */
  describe?: (row: T) => string;
  /** Texts of the form: toast after saving / deleting, the note of the delete confirmation. */
  messages?: { saved?: string; deleted?: string; deleteNote?: string };
}

/** Page components of a resource (give them to `resourceRoutes`). */
export interface ResourcePages {
  List: () => ReactNode;
  New: () => ReactNode;
  Edit: () => ReactNode;
  config: ResourceConfig;
}
