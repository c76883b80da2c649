// Line items of a document: one table row per item (product picker, unit, quantity, unit value,
// line total, remove), 'Adicionar item', and the totals computed live with the server's functions
// (lineTotal/sumMoney of @app/documents: exact decimals, the total shown is the total stored).
import { formatMoney, lineTotal, parseDecimalInput, sumMoney } from '@app/documents';
import { AsyncCombobox, Button } from '@app/ui';
import type { ReactNode } from 'react';
import type { ItemsFieldDescriptor } from '../../types';
import { type FieldRenderProps, fieldId, registeredFieldType } from '../registry';
import { ROW_KEY, type Values, emptyItemRow, itemsNames, labelOf, quantityText, unitValueText } from '../values';
import { useReferenceLabel, useReferenceSearch } from './reference';
import { ScalarSlot } from './scalar';

type Row = Record<string, unknown>;

const rowsOf = (value: unknown): Values[] => (Array.isArray(value) ? (value as Values[]) : []);

/** Line total of a row as typed ('3' × '0,3333' → '1.00'), or null while either is not a number. */
export function rowTotal(quantity: unknown, unitValue: unknown): string | null {
  const q = parseDecimalInput(String(quantity ?? ''));
  const v = parseDecimalInput(String(unitValue ?? ''));
  if (q === null || v === null) return null;
  return lineTotal(q, v);
}

/** Document total of the rows as typed: the sum of the line totals that can be computed. */
export function itemsTotal(field: ItemsFieldDescriptor, rows: readonly Values[]): string {
  const n = itemsNames(field);
  return sumMoney(rows.map((row) => rowTotal(row[n.quantity], row[n.unitValue])).filter((t): t is string => t !== null));
}

/** 'Quantidade' shown (stacked rows), 'Quantidade do item 2' read: the column and the row. */
function CellLabel({ htmlFor, column, row }: { htmlFor?: string; column: string; row: string }) {
  const content = (
    <>
      {column}
      <span className="visually-hidden"> {row}</span>
    </>
  );
  return htmlFor ? (
    <label className="items-grid__cell-label" htmlFor={htmlFor}>
      {content}
    </label>
  ) : (
    <span className="items-grid__cell-label">{content}</span>
  );
}

interface CellProps {
  id: string;
  /** Column header ('Quantidade'). */
  column: string;
  /** 'do item 2'. */
  row: string;
  error: string | undefined;
  children: (described: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}

/** A labelled cell input with its error under it. */
function CellInput({ id, column, row, error, children }: CellProps) {
  const errorId = `${id}-erro`;
  return (
    <>
      <CellLabel htmlFor={id} column={column} row={row} />
      {children(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

interface ItemRowProps {
  field: ItemsFieldDescriptor;
  path: string;
  index: number;
  row: Values;
  errors: Readonly<Record<string, string>>;
  record: Row | null;
  selfId: string | undefined;
  readOnly: boolean;
  canRemove: boolean;
  item: string;
  update: (key: unknown, patch: (row: Values) => Values, clear: string) => void;
  remove: (key: unknown) => void;
}

function ProductCell({ field, path, index, row, errors, readOnly, item, update }: ItemRowProps) {
  const n = itemsNames(field);
  const cellPath = `${path}.${index}.${n.product}`;
  const id = fieldId(cellPath);
  const selected = String(row[n.product] ?? '');
  const { label: selectedLabel } = useReferenceLabel(field.product, selected, String(row[n.productLabel] ?? ''));
  const { loadOptions, rowOf } = useReferenceSearch(field.product, row);
  const column = field.product.header ?? 'Produto ou serviço';
  const label = `${column} do ${item} ${index + 1}`;
  const error = errors[cellPath];
  if (readOnly) return <span>{selectedLabel}</span>;
  return (
    <>
      <CellLabel htmlFor={id} column={column} row={`do ${item} ${index + 1}`} />
      <AsyncCombobox
        id={id}
        label={label}
        value={selected || null}
        selectedLabel={selectedLabel}
        loadOptions={loadOptions}
        placeholder="Digite para buscar…"
        invalid={Boolean(error)}
        describedBy={error ? `${id}-erro` : undefined}
        onChange={(next, option) => {
          const value = next ?? '';
          const product = value ? rowOf(value) : undefined;
          update(
            row[ROW_KEY],
            (r) => ({
              ...r,
              [n.product]: value,
              [n.productLabel]: option?.label ?? '',
              ...(n.unit && !value ? { [n.unit]: '' } : {}),
              ...(product && field.product.fill ? field.product.fill(product) : {}),
            }),
            cellPath,
          );
        }}
      />
      {error ? (
        <p id={`${id}-erro`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

function ItemRow(props: ItemRowProps) {
  const { field, path, index, row, errors, record, selfId, readOnly, canRemove, item, update, remove } = props;
  const n = itemsNames(field);
  const number = index + 1;
  const key = row[ROW_KEY];
  const total = rowTotal(row[n.quantity], row[n.unitValue]);
  const headers = field.headers ?? {};
  const decimalCell = (name: string, header: string, format: (canonical: string) => string) => {
    const cellPath = `${path}.${index}.${name}`;
    const id = fieldId(cellPath);
    return (
      <CellInput id={id} column={header} row={`do ${item} ${number}`} error={errors[cellPath]}>
        {(described) => (
          <input
            id={id}
            className="input"
            inputMode="decimal"
            autoComplete="off"
            readOnly={readOnly}
            value={String(row[name] ?? '')}
            {...described}
            onChange={(e) => {
              const text = e.target.value.replace(/[^\d,.]/g, '');
              update(key, (r) => ({ ...r, [name]: text }), cellPath);
            }}
            onBlur={(e) => {
              // '1234,5' → '1.234,5' (a value: '1.234,50'); what is not a number stays as typed
              const canonical = parseDecimalInput(e.target.value);
              if (canonical === null) return;
              const shown = format(canonical);
              if (shown !== e.target.value) update(key, (r) => ({ ...r, [name]: shown }), cellPath);
            }}
          />
        )}
      </CellInput>
    );
  };
  return (
    <tr>
      <th scope="row" className="items-grid__num">
        <span className="visually-hidden">{item} </span>
        {number}
      </th>
      <td className="items-grid__product">
        <ProductCell {...props} />
      </td>
      {n.unit ? (
        <td className="items-grid__unit">
          <CellLabel column={headers.unit ?? 'Unidade'} row={`do ${item} ${number}`} />
          {String(row[n.unit] ?? '') || '—'}
        </td>
      ) : null}
      <td className="items-grid__qty">{decimalCell(n.quantity, headers.quantity ?? 'Quantidade', quantityText)}</td>
      <td className="items-grid__value">{decimalCell(n.unitValue, headers.unitValue ?? 'Valor unitário', unitValueText)}</td>
      {(field.fields ?? []).map((sub) => {
        const subPath = `${path}.${index}.${sub.name}`;
        // a column of a type added with registerFieldType renders through it (e.g. a read-only origin)
        const Cell = registeredFieldType((sub as { type: string }).type)?.render ?? ScalarSlot;
        return (
          <td key={sub.name} className="items-grid__extra">
            <Cell
              field={sub}
              path={subPath}
              id={fieldId(subPath)}
              label={`${labelOf(sub, row)} do ${item} ${number}`}
              value={row[sub.name]}
              error={errors[subPath]}
              errors={errors}
              values={row}
              record={record}
              selfId={selfId}
              readOnly={readOnly || Boolean(sub.readOnlyWhen?.(row, record))}
              onChange={(next, clear) => update(key, (r) => ({ ...r, [sub.name]: next }), clear ?? subPath)}
              onUpdate={(fn, clear) => update(key, (r) => ({ ...r, [sub.name]: fn(r[sub.name]) }), clear ?? subPath)}
              onPatch={(patch) => update(key, (r) => ({ ...r, ...patch }), subPath)}
            />
          </td>
        );
      })}
      <td className="items-grid__total">
        <CellLabel column={headers.total ?? 'Valor total'} row={`do ${item} ${number}`} />
        {total === null ? '—' : formatMoney(total)}
      </td>
      {readOnly ? null : (
        <td className="items-grid__actions">
          <Button
            variant="ghost"
            size="sm"
            icon="trash"
            disabled={!canRemove}
            aria-label={`Remover ${item} ${number}`}
            title={`Remover ${item} ${number}`}
            onClick={() => remove(key)}
          />
        </td>
      )}
    </tr>
  );
}

export function ItemsField({ field, path, id, label, value, error, errors, record, selfId, readOnly, onUpdate }: FieldRenderProps<ItemsFieldDescriptor>) {
  const rows = rowsOf(value);
  const n = itemsNames(field);
  const item = (field.itemLabel ?? 'item').toLowerCase();
  const headers = field.headers ?? {};
  const min = field.min ?? 0;
  const full = field.max !== undefined && rows.length >= field.max;
  const total = itemsTotal(field, rows);
  const extra = field.fields ?? [];
  const columns = 5 + (n.unit ? 1 : 0) + extra.length + (readOnly ? 0 : 1);

  const update = (key: unknown, patch: (row: Values) => Values, clear: string) =>
    onUpdate((current) => rowsOf(current).map((r) => (r[ROW_KEY] === key ? patch(r) : r)), clear);
  const add = () => {
    const index = rows.length;
    onUpdate((current) => [...rowsOf(current), emptyItemRow(field)]);
    requestAnimationFrame(() => document.getElementById(fieldId(`${path}.${index}.${n.product}`))?.focus());
  };
  const remove = (key: unknown) => {
    onUpdate((current) => rowsOf(current).filter((r) => r[ROW_KEY] !== key));
    requestAnimationFrame(() => document.getElementById(`${id}-adicionar`)?.focus());
  };

  return (
    <fieldset id={id} tabIndex={-1} className="field items-grid" aria-describedby={error ? `${id}-erro` : undefined}>
      {/* inside a card of the same name the legend is read, not shown twice */}
      <legend className={field.section === label ? 'visually-hidden' : 'field__label'}>
        {label}
        {field.required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </legend>
      {field.hint ? <p className="field__hint">{field.hint}</p> : null}
      <div style={{ overflowX: 'auto' }}>
        <table className="items-grid__table">
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              <th scope="col" className="items-grid__num">
                <span className="visually-hidden">Número do {item}</span>
                <span aria-hidden="true">#</span>
              </th>
              <th scope="col" className="items-grid__product">
                {field.product.header ?? 'Produto ou serviço'}
              </th>
              {n.unit ? (
                <th scope="col" className="items-grid__unit">
                  {headers.unit ?? 'Unidade'}
                </th>
              ) : null}
              <th scope="col" className="items-grid__qty">
                {headers.quantity ?? 'Quantidade'}
              </th>
              <th scope="col" className="items-grid__value">
                {headers.unitValue ?? 'Valor unitário'}
              </th>
              {extra.map((sub) => (
                <th key={sub.name} scope="col" className="items-grid__extra">
                  {labelOf(sub, {})}
                </th>
              ))}
              <th scope="col" className="items-grid__total">
                {headers.total ?? 'Valor total'}
              </th>
              {readOnly ? null : (
                <th scope="col" className="items-grid__actions">
                  <span className="visually-hidden">Ações</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns} className="field__hint">
                  {field.emptyText ?? 'Nenhum item.'}
                </td>
              </tr>
            ) : (
              rows.map((row, index) => (
                <ItemRow
                  key={String(row[ROW_KEY])}
                  field={field}
                  path={path}
                  index={index}
                  row={row}
                  errors={errors}
                  record={record}
                  selfId={selfId}
                  readOnly={readOnly}
                  canRemove={rows.length > min}
                  item={item}
                  update={update}
                  remove={remove}
                />
              ))
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={columns - 1 - (readOnly ? 0 : 1)} style={{ textAlign: 'end' }}>
                {field.totalLabel ?? 'Valor total'}
              </th>
              <td className="items-grid__total items-grid__sum">
                <span id={`${id}-total`}>{formatMoney(total)}</span>
              </td>
              {readOnly ? null : <td />}
            </tr>
          </tfoot>
        </table>
      </div>
      {readOnly ? null : (
        <div className="items-grid__footer">
          <Button id={`${id}-adicionar`} variant="secondary" size="sm" icon="plus" disabled={full} onClick={add}>
            {field.addLabel ?? `Adicionar ${item}`}
          </Button>
        </div>
      )}
      {error ? (
        <p id={`${id}-erro`} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
