import type { ReactNode } from 'react';
import type { Session } from '../types';
import type { FieldTypeDefinition } from './form/registry';

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

/** Props every field descriptor has (a plugin's field type too: `FieldBase & { type: 'cor'; … }`). */
export interface FieldBase {
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
  /**
   * Read-only while this returns true (the control shows the value but cannot change it). The whole
   * form is read-only when the record says `editavel: false` or `ResourceConfig.readOnlyWhen` holds.
   */
  readOnlyWhen?: (values: Row, record: Row | null) => boolean;
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
  /**
   * A date and time (an instant, e.g. a deadline): typed on São Paulo's clock in a native
   * date-and-time input ('aaaa-mm-ddTHH:mm', `min`/`max` the same way) and sent as an ISO date-time
   * in UTC ('2026-03-10T20:00:00.000Z', what `z.iso.datetime()` takes); the API's instant is shown
   * on São Paulo's clock. Empty is sent as null; what is not a date and time, as typed.
   */
  | (FieldBase & { type: 'datetime'; min?: string; max?: string })
  | (FieldBase & { type: 'select'; options: { value: string; label: string }[] })
  | (FieldBase & { type: 'select'; source: ResourceOptionsSource })
  /** Several ids of another resource (checkbox list). */
  | (FieldBase & { type: 'multiselect'; source: ResourceOptionsSource })
  /**
   * One id of another resource, chosen in a searchable combobox that asks the server (`q=…`,
   * 20 at a time): for catalogues too big for a select (100 000 products). The chosen record's label
   * is shown from `labelField` of the values (e.g. 'produtoDescricao', as the API returns it) or,
   * without it, read once by id.
   *   { name: 'produtoId', type: 'reference', label: 'Produto', labelField: 'produtoDescricao',
   *     source: { endpoint: '/produtos/produtos', label: (p) => `${p.codigo} – ${p.descricao}` } }
   */
  | ReferenceFieldDescriptor;

/** A searchable source of records (a reference field, the product column of an items grid). */
export interface ReferenceSource<T = Row> {
  /** List endpoint under /api, e.g. '/produtos/produtos' (GET by id is `${endpoint}/${id}`). */
  endpoint: string;
  /** Text of an option and of the chosen value. */
  label: (row: T) => string;
  /** Second line of an option (e.g. the unit and the group). */
  description?: (row: T) => string | undefined;
  /** Extra query, or a function of the form values (of the row, inside an items grid). */
  params?: Record<string, string> | ((values: Row) => Record<string, string | undefined | null>);
  /** Query parameter of the search text (default 'q'). */
  searchParam?: string;
  /** Options asked per search (default 20). */
  pageSize?: number;
  sort?: string;
  /** Only active records (`ativo=true`, the default); false for resources without `ativo`. */
  activeOnly?: boolean;
}

/** See `ScalarFieldDescriptor`, type 'reference'. */
export type ReferenceFieldDescriptor = FieldBase & {
  type: 'reference';
  source: ReferenceSource;
  /** Field of the values (and of the record) holding the chosen record's label: shown without a request, set on choosing. */
  labelField?: string;
  /** Other values set when a record is chosen, from it: (p) => ({ unidade: p.unidadeSigla }). */
  fill?: (row: Row) => Row;
  /** Text of the list when the search finds nothing. */
  emptyText?: string;
};

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

/**
 * Line items of a document: a table with one row per item (product picker, unit, quantity, unit
 * value, line total, remove button), 'Adicionar item', line totals and the document total updated
 * live with `lineTotal`/`sumMoney` of @app/documents (the server's functions: the total shown is the
 * total stored). Quantities and unit values are typed pt-BR ('12,5', '1.234,5678') and sent as
 * canonical decimal strings ('12.5'); the schema's errors on `itens.2.quantidade` show on that cell.
 * A row that came from the API keeps its `id` in the body.
 *   { type: 'items', name: 'itens', label: 'Itens', required: true,
 *     product: { endpoint: '/produtos/produtos', label: (p) => `${p.codigo} – ${p.descricao}`,
 *       fill: (p) => ({ unidade: p.unidadeSigla }) } }
 */
export type ItemsFieldDescriptor = FieldBase & {
  type: 'items';
  /** One row, lower case (default 'item'): 'Quantidade do item 2', 'Remover item 2', 'Adicionar item'. */
  itemLabel?: string;
  /** The product column: a reference picker. */
  product: ReferenceSource & {
    /** Field of a row holding the id (default 'produtoId'). */
    field?: string;
    /** Field of a row holding the product's label (default 'produtoDescricao'). */
    labelField?: string;
    /** Column header (default 'Produto ou serviço'). */
    header?: string;
    /** Values of the row set from the chosen product: (p) => ({ unidade: p.unidadeSigla }). */
    fill?: (row: Row) => Row;
  };
  /** Field of a row shown as its unit (default 'unidade'; null: no unit column). Not sent. */
  unitField?: string | null;
  /** Field of the quantity (default 'quantidade'). */
  quantityField?: string;
  /** Field of the unit value (default 'valorUnitario'). */
  unitValueField?: string;
  /** Headers of the fixed columns. */
  headers?: { unit?: string; quantity?: string; unitValue?: string; total?: string };
  /** More editable columns of a row (their names are relative to the row). */
  fields?: ScalarFieldDescriptor[];
  /** Label of the document total (default 'Valor total'). */
  totalLabel?: string;
  addLabel?: string;
  /** Shown when there are no rows (default 'Nenhum item.'). */
  emptyText?: string;
  /** Rows a New form starts with (default 0). */
  min?: number;
  max?: number;
};

/**
 * Field types a plugin adds (`registerFieldType` or `ResourceConfig.fieldTypes`) declare their
 * descriptor here, by module augmentation:
 *   declare module '@app/core' { interface CustomFieldTypes { cor: { paleta: string[] } } }
 * then `{ name: 'cor', type: 'cor', label: 'Cor', paleta: [...] }` type-checks as a field.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by plugins through module augmentation
export interface CustomFieldTypes {}

export type CustomFieldDescriptor = { [K in keyof CustomFieldTypes]: FieldBase & { type: K } & CustomFieldTypes[K] }[keyof CustomFieldTypes];

export type FieldDescriptor = ScalarFieldDescriptor | GroupFieldDescriptor | ItemsFieldDescriptor | CustomFieldDescriptor;

/** Type names of the fields the kit renders itself. */
export type BuiltinFieldType = (ScalarFieldDescriptor | GroupFieldDescriptor | ItemsFieldDescriptor)['type'];

/**
 * A filter of the list (kept in the URL), e.g. sub-grupos of one grupo. `multiple`: several options
 * at once, sent comma-separated (`status=enviado,aceito`). A `period` filter is two dates sent as
 * `${name}De` and `${name}Ate` (aaaa-mm-dd).
 */
export type ListFilter =
  | { name: string; label: string; options: { value: string; label: string }[]; multiple?: boolean }
  | { name: string; label: string; source: ResourceOptionsSource }
  | { name: string; label: string; period: true };

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
  /**
   * Initial values of the New form (merged over empty values per field type), or a function of the
   * session: `(s) => ({ origemId: s?.centrosCusto?.[0] })` (the user's own centro de custo).
   */
  defaults?: Row | ((session: Session | null) => Row);
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
  /** No 'Excluir' on the form: records that are never deleted (a document is cancelled instead, keeping its number). */
  noDelete?: boolean;
  /** Description of the Edit page (default: `${recordLabel} · Ativo|Inativo`). */
  describe?: (row: T) => string;
  /**
   * Texts of the form: toast after saving / deleting, the note of the delete confirmation. The saved
   * toast names the record: by default `${noun} ${recordLabel} salvo.` ('Grupo Medicamentos salvo.');
   * a string 'Fornecedor salvo.' gets the record's label before its last word ('Fornecedor Nova Era
   * salvo.'); a function gets the saved record.
   */
  messages?: { saved?: string | ((row: T) => string); deleted?: string; deleteTitle?: string; deleteNote?: string };
  /**
   * What a record is called in messages ('Grupo'); default from `newTitle` ('Novo grupo' → 'Grupo',
   * 'Nova unidade' → 'Unidade', feminine).
   */
  noun?: string;
  /** The noun is feminine ('salva', 'Esta'); default from `newTitle` ('Nova …'). */
  feminine?: boolean;
  /**
   * The records have an `ativo` flag (default true): the list's Situação column and filter, the
   * `ativo` query parameter, Ativar/Desativar. False for documents (their status is a flow).
   */
  ativo?: boolean;
  /**
   * The whole form is read-only while this holds (a string is the reason shown). Without it, a
   * record whose API answer says `editavel: false` is read-only.
   */
  readOnlyWhen?: (values: Row, record: Row | null) => boolean | string;
  /** After saving changes (PUT): back to the list (default) or stay on the record. After creating, the form always moves to the new record. */
  afterSave?: 'list' | 'record';
  /**
   * What the API answers to a create (POST): the record (default: the form shows it at once) or
   * only `{ id }` (the saved toast names the record from what was sent; its Edit page reads it).
   */
  createAnswer?: 'record' | 'id';
  /**
   * Checks the shared schema cannot make, because they need what the page knows (options it loaded,
   * the session): path → pt-BR message, shown like the schema's (whose message wins on the same
   * path). Runs on every save, after the schema, on the body that would be sent.
   *   validate: (body) => (body.entidades as unknown[]).length ? {} : { entidades: 'Escolha uma entidade.' }
   */
  validate?: (body: Row, context: { values: Row; record: T | null }) => Record<string, string>;
  /** Field types of this resource (beside the built-in ones and those of `registerFieldType`). */
  fieldTypes?: Record<string, FieldTypeDefinition>;
  /** Where a plugin adds its own pieces to the pages. */
  slots?: ResourceSlots<T>;
}

/** What the Edit page's slots get beside the record. */
export interface RecordSlotContext<T = Row> {
  record: T;
  /** The form has unsaved changes. */
  dirty: boolean;
  /** Reads the record again and loads it into the form (discards unsaved changes). */
  reload: () => Promise<void>;
  /** Loads this record (e.g. the API's answer to an action) into the form. */
  setRecord: (row: T) => void;
  /** Back to the list past the unsaved-changes guard (after an action that ends the record here). */
  goToList: () => void;
}

export type SlotContent<A extends unknown[]> = ReactNode | ((...args: A) => ReactNode);

export interface ResourceSlots<T = Row> {
  /** Buttons of the Edit page's header (beside the record's actions). */
  actions?: SlotContent<[T, RecordSlotContext<T>]>;
  /** Buttons of the list's header (beside Exportar and Novo). */
  listActions?: SlotContent<[]>;
  /** More buttons/links in each list row, before 'Editar'. */
  rowActions?: (row: T) => ReactNode;
  /** Above the Edit form, beside the kit's notices: why some fields cannot change, a warning about the record. */
  notices?: SlotContent<[T, RecordSlotContext<T>]>;
  /** Below the Edit form (timeline, attachments, the plugin's own panel). */
  panels?: SlotContent<[T, RecordSlotContext<T>]>;
}

/** Page components of a resource (give them to `resourceRoutes`). */
export interface ResourcePages {
  List: () => ReactNode;
  New: () => ReactNode;
  Edit: () => ReactNode;
  config: ResourceConfig;
}
