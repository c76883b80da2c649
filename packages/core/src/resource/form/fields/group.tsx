// A repeating group: a fieldset per row ('Contato 2'), 'Remover contato 2' on each, 'Adicionar contato' after them.
import { Button } from '@app/ui';
import type { GroupFieldDescriptor } from '../../types';
import { type FieldRenderProps, fieldId } from '../registry';
import { ROW_KEY, type Values, emptyGroupRow, isVisible, labelOf } from '../values';
import { ScalarSlot } from './scalar';

const rowsOf = (value: unknown): Values[] => (Array.isArray(value) ? (value as Values[]) : []);

export function GroupField({ field, path, id, label, value, error, errors, record, selfId, readOnly, onUpdate }: FieldRenderProps<GroupFieldDescriptor>) {
  const rows = rowsOf(value);
  const item = field.itemLabel.toLowerCase();
  const rowLabel = field.rowLabel ?? ((l: string, n: number) => `${l} (${item} ${n})`);
  const min = field.min ?? 0;
  const full = field.max !== undefined && rows.length >= field.max;
  const setRows = (update: (rows: Values[]) => Values[], clear?: string) => onUpdate((current) => update(rowsOf(current)), clear);
  const add = () => {
    const index = rows.length;
    const row = emptyGroupRow(field);
    setRows((current) => [...current, row]);
    const first = field.fields.find((sub) => isVisible(sub, row));
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(`${path}.${index}.${first.name}`))?.focus());
  };
  const remove = (key: unknown) => {
    setRows((current) => current.filter((r) => r[ROW_KEY] !== key));
    requestAnimationFrame(() => document.getElementById(`${id}-adicionar`)?.focus());
  };
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className="field"
      aria-describedby={error ? `${id}-erro` : undefined}
      style={{ gridColumn: '1 / -1', border: 0, padding: 0, margin: 0 }}
    >
      <legend className="field__label">
        {label}
        {field.required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </legend>
      {field.hint ? <p className="field__hint">{field.hint}</p> : null}
      {rows.length === 0 && field.emptyText ? <p className="field__hint">{field.emptyText}</p> : null}
      {rows.map((row, i) => {
        const n = i + 1;
        const key = row[ROW_KEY];
        return (
          <fieldset key={String(key)} className="form-grid" style={{ border: 0, padding: 0, margin: '0 0 1rem' }}>
            <legend className="visually-hidden">
              {field.itemLabel} {n}
            </legend>
            {field.fields
              .filter((sub) => isVisible(sub, row))
              .map((sub) => {
                const subPath = `${path}.${i}.${sub.name}`;
                const update = (patch: (r: Values) => Values, clear?: string) =>
                  setRows((current) => current.map((r) => (r[ROW_KEY] === key ? patch(r) : r)), clear);
                return (
                  <ScalarSlot
                    key={sub.name}
                    field={sub}
                    path={subPath}
                    id={fieldId(subPath)}
                    label={rowLabel(labelOf(sub, row), n)}
                    value={row[sub.name]}
                    error={errors[subPath]}
                    errors={errors}
                    values={row}
                    record={record}
                    selfId={selfId}
                    readOnly={readOnly || Boolean(sub.readOnlyWhen?.(row, record))}
                    onChange={(next, clear) => update((r) => ({ ...r, [sub.name]: next }), clear ?? subPath)}
                    onUpdate={(fn, clear) => update((r) => ({ ...r, [sub.name]: fn(r[sub.name]) }), clear ?? subPath)}
                    onPatch={(patch) => update((r) => ({ ...r, ...patch }), subPath)}
                  />
                );
              })}
            {readOnly ? null : (
              <div style={{ alignSelf: 'end' }}>
                <Button variant="ghost" size="sm" icon="trash" disabled={rows.length <= min} onClick={() => remove(key)}>
                  Remover {item} {n}
                </Button>
              </div>
            )}
          </fieldset>
        );
      })}
      {readOnly ? null : (
        <div>
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
