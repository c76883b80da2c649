// A reference to another resource's record, chosen in a searchable combobox that asks the server:
// never the whole list (100 000 products), 20 options per search.
import { AsyncCombobox } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { api } from '../../../api';
import { type PageBody, apiPath, queryKeys } from '../../common';
import type { ReferenceFieldDescriptor, ReferenceSource } from '../../types';
import type { FieldRenderProps } from '../registry';

type Row = Record<string, unknown>;

export interface ReferenceOption {
  value: string;
  label: string;
  description?: string;
}

/** Query of a search: the source's params (of these values), `q`, `pageSize`, `ativo=true`, `sort`. */
export function referenceParams(source: ReferenceSource, values: Row, query: string): Record<string, string> {
  const params: Record<string, string> = { pageSize: String(source.pageSize ?? 20) };
  if (source.activeOnly !== false) params.ativo = 'true';
  if (source.sort) params.sort = source.sort;
  const extra = typeof source.params === 'function' ? source.params(values) : (source.params ?? {});
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') params[k] = String(v);
  const q = query.trim();
  if (q) params[source.searchParam ?? 'q'] = q;
  return params;
}

/**
 * Searching a source: `loadOptions` for the combobox (asks the server, remembers the rows it got),
 * `rowOf(id)` the row of an option found (to fill other values from it).
 */
export function useReferenceSearch(source: ReferenceSource, values: Row) {
  const rows = useRef(new Map<string, Row>());
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const loadOptions = useCallback(
    async (query: string, signal: AbortSignal): Promise<ReferenceOption[]> => {
      const page = await api.get(apiPath(source.endpoint), { searchParams: referenceParams(source, valuesRef.current, query), signal }).json<PageBody>();
      return page.items.map((row) => {
        const value = String(row.id);
        rows.current.set(value, row);
        const description = source.description?.(row);
        return description ? { value, label: source.label(row), description } : { value, label: source.label(row) };
      });
    },
    [source],
  );
  return { loadOptions, rowOf: (id: string) => rows.current.get(id) };
}

/**
 * Label of the chosen record: `known` (from a label field of the values) when there is one, else one
 * GET by id (cached with the resource's records).
 */
export function useReferenceLabel(source: ReferenceSource, id: string, known: string): { label: string; loading: boolean } {
  const byId = useQuery({
    queryKey: queryKeys.item(source.endpoint, id),
    enabled: Boolean(id) && !known,
    queryFn: ({ signal }) => api.get(`${apiPath(source.endpoint)}/${encodeURIComponent(id)}`, { signal }).json<Row>(),
    staleTime: 30_000,
  });
  if (known || !id) return { label: known, loading: false };
  return { label: byId.data ? source.label(byId.data) : '', loading: byId.isLoading };
}

export function ReferenceField({ field, id, label, value, error, values, readOnly, onPatch }: FieldRenderProps<ReferenceFieldDescriptor>) {
  const selected = String(value ?? '');
  const known = field.labelField ? String(values[field.labelField] ?? '') : '';
  const { label: selectedLabel } = useReferenceLabel(field.source, selected, known);
  const { loadOptions, rowOf } = useReferenceSearch(field.source, values);
  const hintId = `${id}-dica`;
  const errorId = `${id}-erro`;
  const describedBy = [field.hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'} style={field.wide ? { gridColumn: '1 / -1' } : undefined}>
      <label className="field__label" htmlFor={id}>
        {label}
        {field.required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      <AsyncCombobox
        id={id}
        label={label}
        value={selected || null}
        selectedLabel={selectedLabel}
        loadOptions={loadOptions}
        placeholder={field.placeholder ?? 'Digite para buscar…'}
        emptyText={field.emptyText}
        disabled={readOnly}
        required={field.required}
        invalid={Boolean(error)}
        describedBy={describedBy}
        onChange={(next, option) => {
          const nextValue = next ?? '';
          const row = nextValue ? rowOf(nextValue) : undefined;
          const patch: Row = { [field.name]: nextValue };
          if (field.labelField) patch[field.labelField] = option?.label ?? '';
          if (row && field.fill) Object.assign(patch, field.fill(row));
          onPatch(patch);
        }}
      />
      {field.hint ? (
        <p id={hintId} className="field__hint">
          {field.hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
