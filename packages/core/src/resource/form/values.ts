// Values of a resource form: API record → what the controls hold → body the schema validates and
// the API receives. Pure functions (no React): the controller and the tests use them.
import { applyMask, dateTimeInputValue, instantFromDateTimeInput, maskCep, maskCpfCnpjInput, maskPhone, normalizeDocument } from '@app/br';
import { formatDecimal, parseDecimalInput } from '@app/documents';
import type { Session } from '../../types';
import type { FieldDescriptor, GroupFieldDescriptor, ItemsFieldDescriptor, MaskPreset, ResourceConfig, ScalarFieldDescriptor } from '../types';
import { type FieldErrors, issuesToFieldErrors } from './errors';
import { itemsNames } from './itemsNames';
import { BUILTIN_FIELD_TYPES, type FieldTypeDefinition, registeredFieldType } from './registry';

export { issuesToFieldErrors, itemsNames, type FieldErrors };

type Row = Record<string, unknown>;
export type Values = Record<string, unknown>;

/** Custom field types of a form (the resource's own, then the registered ones). */
export type FieldTypeLookup = (type: string) => FieldTypeDefinition | undefined;

export const typeLookup =
  (config?: Pick<ResourceConfig, 'fieldTypes'>): FieldTypeLookup =>
  (type) =>
    config?.fieldTypes?.[type] ?? registeredFieldType(type);

const defaultLookup: FieldTypeLookup = (type) => registeredFieldType(type);

/** Key of a row of a group or items grid in the form values (never sent): rows keep identity when others are added or removed. */
export const ROW_KEY = '_key';
let rowCounter = 0;
export const newRowKey = (): string => `linha-${++rowCounter}`;

export const isPreset = (mask: string): mask is MaskPreset => mask === 'cep' || mask === 'telefone';
export const maskValue = (mask: string, value: string) => (mask === 'cep' ? maskCep(value) : mask === 'telefone' ? maskPhone(value) : applyMask(mask, value));

/** Shown for these values (no `visibleWhen`, or it says so). */
export const isVisible = (field: FieldDescriptor, values: Values): boolean => !field.visibleWhen || field.visibleWhen(values);
export const labelOf = (field: FieldDescriptor, values: Values): string => (typeof field.label === 'function' ? field.label(values) : field.label);

function valuesOfFields(fields: readonly FieldDescriptor[], source: Row, types: FieldTypeLookup): Values {
  const values: Values = {};
  for (const field of fields) values[field.name] = toFormValue(field, source[field.name], source, types);
  return values;
}

function bodyOfFields(fields: readonly FieldDescriptor[], values: Values, types: FieldTypeLookup): Row {
  const body: Row = {};
  for (const field of fields) if (isVisible(field, values)) body[field.name] = fromFormValue(field, values[field.name], types);
  return body;
}

const rowsOf = (value: unknown): Values[] => (Array.isArray(value) ? (value as Values[]) : []);
const textOf = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export const emptyGroupRow = (group: GroupFieldDescriptor): Values => ({ [ROW_KEY]: newRowKey(), ...valuesOfFields(group.fields, {}, defaultLookup) });

// ---------------------------------------------------------------------------- items grid

/** A quantity as typed: '12,5'. */
export const quantityText = (value: unknown): string => (value === null || value === undefined || value === '' ? '' : formatDecimal(String(value)));
/** A unit value as typed: at least two places, '3,30', '0,0125'. */
export const unitValueText = (value: unknown): string =>
  value === null || value === undefined || value === '' ? '' : formatDecimal(String(value), { min: 2 });
/** What was typed → canonical ('1.234,5' → '1234.5'); '' stays '' and what is not a number is sent as typed (the schema says why). */
export const decimalBody = (text: unknown): string => {
  const t = textOf(text).trim();
  if (t === '') return '';
  return parseDecimalInput(t) ?? t;
};

export function emptyItemRow(field: ItemsFieldDescriptor): Values {
  return itemRowValues(field, {}, defaultLookup);
}

function itemRowValues(field: ItemsFieldDescriptor, source: Row, types: FieldTypeLookup): Values {
  const n = itemsNames(field);
  const row: Values = { [ROW_KEY]: newRowKey() };
  if (source.id !== undefined && source.id !== null) row.id = source.id;
  row[n.product] = textOf(source[n.product]);
  row[n.productLabel] = textOf(source[n.productLabel]);
  if (n.unit) row[n.unit] = textOf(source[n.unit]);
  row[n.quantity] = quantityText(source[n.quantity]);
  row[n.unitValue] = unitValueText(source[n.unitValue]);
  Object.assign(row, valuesOfFields(field.fields ?? [], source, types));
  return row;
}

function itemRowBody(field: ItemsFieldDescriptor, row: Values, types: FieldTypeLookup): Row {
  const n = itemsNames(field);
  const body: Row = {};
  if (row.id !== undefined && row.id !== null && row.id !== '') body.id = row.id;
  body[n.product] = textOf(row[n.product]) || null;
  body[n.quantity] = decimalBody(row[n.quantity]);
  body[n.unitValue] = decimalBody(row[n.unitValue]);
  Object.assign(body, bodyOfFields(field.fields ?? [], row, types));
  return body;
}

// ---------------------------------------------------------------------------- date and time

/** What a date-and-time input holds ('aaaa-mm-ddTHH:mm' on São Paulo's clock) for an instant; a value already in that form, or not a date, stays. */
export function dateTimeText(value: unknown): string {
  const text = textOf(value).trim();
  return dateTimeInputValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? null : text) || text;
}

/** The instant (ISO, UTC) of a date and time typed on São Paulo's clock; '' → null; what is not one stays as typed (the schema says why). */
export function dateTimeBody(value: unknown): string | null {
  const text = textOf(value).trim();
  if (text === '') return null;
  return instantFromDateTimeInput(text) ?? text;
}

// ---------------------------------------------------------------------------- codec

/** The definition of a field whose type is not built in (undefined for the built-in ones). */
export function customType(field: FieldDescriptor, types: FieldTypeLookup): FieldTypeDefinition | undefined {
  const type = (field as { type: string }).type;
  if (BUILTIN_FIELD_TYPES.includes(type)) return undefined;
  const custom = types(type);
  if (!custom) throw new Error(`Field '${field.name}': unknown type '${type}' (add it with registerFieldType or ResourceConfig.fieldTypes).`);
  return custom;
}

/** API value → what the control holds. `source` is the record (or row) the value comes from. */
export function toFormValue(field: FieldDescriptor, value: unknown, source: Row = {}, types: FieldTypeLookup = defaultLookup): unknown {
  const text = textOf(value);
  const custom = customType(field, types);
  if (custom) return custom.toForm ? custom.toForm(field, value, source) : text;
  const f = field as ScalarFieldDescriptor | GroupFieldDescriptor | ItemsFieldDescriptor;
  switch (f.type) {
    case 'group': {
      const rows: Values[] = rowsOf(value).map((row) => ({
        [ROW_KEY]: newRowKey(),
        ...valuesOfFields(f.fields, row && typeof row === 'object' ? (row as Row) : {}, types),
      }));
      while (rows.length < (f.min ?? 0)) rows.push(emptyGroupRow(f));
      return rows;
    }
    case 'items': {
      const rows = rowsOf(value).map((row) => itemRowValues(f, row && typeof row === 'object' ? (row as Row) : {}, types));
      while (rows.length < (f.min ?? 0)) rows.push(emptyItemRow(f));
      return rows;
    }
    case 'checkbox':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value.map(String) : [];
    case 'number':
      return text === '' ? '' : text.replace('.', ',');
    case 'masked':
      return text === '' ? '' : maskValue(f.mask, text);
    case 'document':
      return maskCpfCnpjInput(text);
    case 'date':
      return text.slice(0, 10);
    case 'datetime':
      return dateTimeText(value);
    default:
      return text;
  }
}

/** What the control holds → the body validated by the schema and sent to the API. */
export function fromFormValue(field: FieldDescriptor, value: unknown, types: FieldTypeLookup = defaultLookup): unknown {
  const text = typeof value === 'string' ? value : textOf(value);
  const custom = customType(field, types);
  if (custom) return custom.fromForm ? custom.fromForm(field, value) : value;
  const f = field as ScalarFieldDescriptor | GroupFieldDescriptor | ItemsFieldDescriptor;
  switch (f.type) {
    case 'number': {
      const t = text.trim();
      if (t === '') return null;
      const normalized = t.includes(',') ? t.replace(/\./g, '').replace(',', '.') : t;
      const n = Number(normalized);
      return Number.isFinite(n) ? n : t;
    }
    case 'checkbox':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value : [];
    case 'group':
      return rowsOf(value).map((row) => bodyOfFields(f.fields, row, types));
    case 'items':
      return rowsOf(value).map((row) => itemRowBody(f, row, types));
    case 'masked':
      return isPreset(f.mask) ? text.replace(/\D/g, '') : text;
    case 'document':
      return normalizeDocument(text);
    case 'date':
      return text.trim() === '' ? null : text.trim();
    case 'datetime':
      return dateTimeBody(text);
    case 'reference':
      return text === '' ? null : text;
    default:
      return text;
  }
}

/** The form values of a record (or of the New form: `defaults`, of the session when a function). */
export function formValuesOf(config: ResourceConfig, row: Row | undefined, session: Session | null = null): Values {
  const defaults = typeof config.defaults === 'function' ? config.defaults(session) : config.defaults;
  return valuesOfFields(config.fields, row ?? defaults ?? {}, typeLookup(config));
}

/** The body of the form: visible fields only (a hidden field is absent), each as the API takes it. */
export function bodyOf(config: ResourceConfig, values: Values): Row {
  return bodyOfFields(config.fields, values, typeLookup(config));
}

/** Client-side validation with the shared schema: path → first pt-BR message. */
export function validate(config: Pick<ResourceConfig, 'schema'>, body: Row): FieldErrors {
  const result = config.schema.safeParse(body);
  return result.success ? {} : issuesToFieldErrors(result.error.issues);
}

/** Paths of the rendered fields, in order (a group, then each row's fields): where the first error is. */
export function fieldPaths(fields: readonly FieldDescriptor[], values: Values, prefix = '', types: FieldTypeLookup = defaultLookup): string[] {
  const out: string[] = [];
  for (const field of fields) {
    if (!isVisible(field, values)) continue;
    const path = `${prefix}${field.name}`;
    out.push(path);
    const f = field as ScalarFieldDescriptor | GroupFieldDescriptor | ItemsFieldDescriptor;
    if (f.type === 'group') {
      for (const [i, row] of rowsOf(values[field.name]).entries()) out.push(...fieldPaths(f.fields, row, `${path}.${i}.`, types));
    } else if (f.type === 'items') {
      const n = itemsNames(f);
      for (const [i, row] of rowsOf(values[field.name]).entries()) {
        out.push(`${path}.${i}.${n.product}`, `${path}.${i}.${n.quantity}`, `${path}.${i}.${n.unitValue}`);
        out.push(...fieldPaths(f.fields ?? [], row, `${path}.${i}.`, types));
      }
    } else {
      const custom = customType(field, types);
      if (custom?.paths) out.push(...custom.paths(field, values[field.name], path));
    }
  }
  return out;
}
