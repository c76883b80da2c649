// Field registry of the resource kit: the form renders each field through the definition of its
// `type`. The built-in types live in the form's lazy chunk; this module only holds the types plugins
// add, so importing `registerFieldType` costs the first page nothing.
import type { ComponentType } from 'react';

type Row = Record<string, unknown>;

/** What a field type's component gets. */
export interface FieldRenderProps<F = { name: string }> {
  field: F;
  /** Error key and path of the value: 'nome', or 'contatos.1.email' inside a group. */
  path: string;
  /** DOM id of the control (a label's `for`; the form focuses it when its error is the first). */
  id: string;
  /** The label as shown (resolved when it is a function of the values). */
  label: string;
  value: unknown;
  /** The schema's (or the API's) message for `path`. */
  error: string | undefined;
  /** Every error of the form by path: a composite type shows 'itens.2.quantidade' on its cell. */
  errors: Readonly<Record<string, string>>;
  /** Values the field lives in: the form's, or its row's inside a group. */
  values: Row;
  /** The record as the API returned it (null on a New form). */
  record: Row | null;
  /** Id of the record being edited. */
  selfId: string | undefined;
  /** The value cannot change (the record's state, `readOnlyWhen`): show it, do not offer to edit it. */
  readOnly: boolean;
  /** Sets the value. Drops the error of `clear` (default: this field's errors, nested ones included). */
  onChange: (value: unknown, clear?: string) => void;
  /** Updates the value from the current one (rows of a group: several changes in one event). Same `clear`. */
  onUpdate: (update: (current: unknown) => unknown, clear?: string) => void;
  /** Sets other fields of the same values (the row's, inside a group), e.g. a label beside an id. */
  onPatch: (patch: Row) => void;
}

/** A field type: how it renders and how its value travels between the API and the control. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds definitions of any descriptor type
export interface FieldTypeDefinition<F = any> {
  render: ComponentType<FieldRenderProps<F>>;
  /** API value → what the control holds (default: the value, '' for null). `source` is the record (or row). */
  toForm?: (field: F, value: unknown, source: Row) => unknown;
  /** What the control holds → the body the schema validates and the API receives (default: as held). */
  fromForm?: (field: F, value: unknown) => unknown;
  /** Paths of nested inputs in the order shown ('itens.0.produtoId', …): where the first error is. */
  paths?: (field: F, value: unknown, path: string) => string[];
  /** Takes the whole row of the form grid. */
  wide?: boolean;
}

/** Types the kit renders itself (a plugin cannot replace them). */
export const BUILTIN_FIELD_TYPES: readonly string[] = [
  'text',
  'textarea',
  'number',
  'checkbox',
  'masked',
  'document',
  'date',
  'datetime',
  'select',
  'multiselect',
  'reference',
  'group',
  'items',
];

const registered = new Map<string, FieldTypeDefinition>();

/**
 * Adds a field type every resource form can use (`{ type: 'cor', … }`). Call it in the lazy page
 * module that uses it (not in the plugin manifest), or pass `fieldTypes` to one resource instead.
 * Declare the descriptor with module augmentation of `CustomFieldTypes`. Registering a type again
 * replaces it (a page module evaluated again in development).
 */
// biome-ignore lint/suspicious/noExplicitAny: see FieldTypeDefinition
export function registerFieldType<F = any>(type: string, definition: FieldTypeDefinition<F>): void {
  if (BUILTIN_FIELD_TYPES.includes(type)) throw new Error(`registerFieldType: '${type}' is a built-in field type.`);
  registered.set(type, definition as FieldTypeDefinition);
}

/** A type added with `registerFieldType`. */
export function registeredFieldType(type: string): FieldTypeDefinition | undefined {
  return registered.get(type);
}

/** DOM id of the control of a path: 'itens.2.quantidade' → 'campo-itens-2-quantidade'. */
export const fieldId = (path: string): string => `campo-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
