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
  label: string;
  hint?: string;
  /** Shows the required mark (validation itself comes from the schema). */
  required?: boolean;
  /** Spans the whole row of the form grid. */
  wide?: boolean;
  placeholder?: string;
}

export type FieldDescriptor =
  | (FieldBase & { type: 'text'; maxLength?: number; autoComplete?: string; uppercase?: boolean })
  | (FieldBase & { type: 'textarea'; rows?: number; maxLength?: number })
  | (FieldBase & { type: 'number'; min?: number; max?: number; step?: number })
  | (FieldBase & { type: 'checkbox' })
  /** '9' digit, 'A' letter, '*' letter or digit, anything else literal: '9999-9/99', '99.999-999'. */
  | (FieldBase & { type: 'masked'; mask: string; inputMode?: 'numeric' | 'text' })
  | (FieldBase & { type: 'select'; options: { value: string; label: string }[] })
  | (FieldBase & { type: 'select'; source: ResourceOptionsSource })
  /** Several ids of another resource (checkbox list). */
  | (FieldBase & { type: 'multiselect'; source: ResourceOptionsSource });

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
}

/** Page components of a resource (give them to `resourceRoutes`). */
export interface ResourcePages {
  List: () => ReactNode;
  New: () => ReactNode;
  Edit: () => ReactNode;
  config: ResourceConfig;
}
