import { Button, CheckboxField, DataTable, type DataTableColumn, PageHeader, Pagination, SelectField, TextField } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactElement, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { LoadErrorAlert } from '../errors/LoadErrorAlert';
import { useSomenteLeitura } from '../routing/RouteMeta';
import { downloadExport, editHref, listStateKey, newHref, recordLabel, useResourceOptions } from './common';
import { filterNames, listDefaults, listQuery } from './listQuery';
import type { ListFilter, ResourceConfig } from './types';
import { type AtivoFilter, type ListDefaults, PAGE_SIZES, apiParams, parseListState, serializeListState, sortToState, stateToSort } from './urlState';

type Row = Record<string, unknown>;

/** Debounce of the search box before the list is asked again (ms). */
export const SEARCH_DEBOUNCE_MS = 300;

const ATIVO_OPTIONS: { value: AtivoFilter; label: string }[] = [
  { value: 'true', label: 'Ativos' },
  { value: 'false', label: 'Inativos' },
  { value: 'todos', label: 'Todos' },
];

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') return value.toLocaleString('pt-BR');
  return String(value);
}

/** URL/API names of a filter: a period is two ('dataDe', 'dataAte'). */
export { filterNames };

type FilterValues = Record<string, string>;

function FilterControl({ filter, values, onChange }: { filter: ListFilter; values: FilterValues; onChange: (patch: FilterValues) => void }) {
  if ('period' in filter) return <PeriodFilter filter={filter} values={values} onChange={onChange} />;
  const value = values[filter.name] ?? '';
  const set = (v: string) => onChange({ [filter.name]: v });
  if ('options' in filter) {
    if (filter.multiple) return <MultiFilter label={filter.label} options={filter.options} value={value} onChange={set} />;
    return <SelectField label={filter.label} value={value} placeholder="Todos" options={filter.options} onChange={(e) => set(e.target.value)} />;
  }
  return <SourceFilterSelect filter={filter} value={value} onChange={set} />;
}

/** Filters shown in the bar beside the search; the others open with 'Mais filtros'. */
const INLINE_FILTERS = 2;

/** A set filter as a chip's text: the options' labels, or a period 'de 01/03/2026 até 31/03/2026'. */
function chipValue(filter: ListFilter, values: FilterValues): string {
  if ('period' in filter) {
    const [de, ate] = filterNames(filter).map((n) => values[n] ?? '');
    const br = (iso: string) => iso.split('-').reverse().join('/');
    return [de ? `de ${br(de)}` : '', ate ? `até ${br(ate)}` : ''].filter(Boolean).join(' ');
  }
  const value = values[filter.name] ?? '';
  if ('options' in filter) {
    const chosen = value.split(',');
    return filter.options
      .filter((o) => chosen.includes(o.value))
      .map((o) => o.label)
      .join(', ');
  }
  return value;
}

/** Two dates ('De', 'Até'): `${name}De` and `${name}Ate`, aaaa-mm-dd. */
function PeriodFilter({ filter, values, onChange }: { filter: ListFilter; values: FilterValues; onChange: (patch: FilterValues) => void }) {
  const [de, ate] = filterNames(filter) as [string, string];
  return (
    <fieldset className="list-filters__period">
      <legend className="visually-hidden">{filter.label}</legend>
      <div>
        <TextField
          label={`${filter.label}: de`}
          type="date"
          value={values[de] ?? ''}
          max={values[ate] || undefined}
          onChange={(e) => onChange({ [de]: e.target.value })}
        />
        <TextField label="até" type="date" value={values[ate] ?? ''} min={values[de] || undefined} onChange={(e) => onChange({ [ate]: e.target.value })} />
      </div>
    </fieldset>
  );
}

/** Several options at once (sent comma-separated), in a disclosure: 'Situação: Enviado, Aceito'. */
function MultiFilter({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (v: string) => void;
}) {
  const id = useId();
  const details = useRef<HTMLDetailsElement>(null);
  // closes on Escape (focus back on its summary) and on a click outside it
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const el = details.current;
      if (el?.open && !el.contains(event.target as Node)) el.open = false;
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, []);
  const selected = new Set(value ? value.split(',') : []);
  const chosen = options.filter((o) => selected.has(o.value));
  const summary = chosen.length === 0 ? 'Todas' : chosen.map((o) => o.label).join(', ');
  return (
    <div className="field">
      <span className="field__label" id={`${id}-rotulo`}>
        {label}
      </span>
      <details
        ref={details}
        style={{ position: 'relative' }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && details.current?.open) {
            event.preventDefault();
            details.current.open = false;
            details.current.querySelector('summary')?.focus();
          }
        }}
      >
        <summary
          className="input"
          aria-describedby={`${id}-rotulo`}
          style={{ cursor: 'pointer', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          <span className="visually-hidden">{label}: </span>
          {summary}
        </summary>
        <fieldset
          style={{
            position: 'absolute',
            zIndex: 50,
            insetInlineStart: 0,
            marginTop: '0.25rem',
            minWidth: '100%',
            padding: '0.5rem 0.75rem',
            background: 'var(--color-surface, #fff)',
            border: '1px solid var(--color-border, #d5dbe3)',
            borderRadius: 'var(--radius-md, 6px)',
            boxShadow: 'var(--shadow-md)',
          }}
        >
          <legend className="visually-hidden">{label}</legend>
          {options.map((o) => (
            <CheckboxField
              key={o.value}
              label={o.label}
              checked={selected.has(o.value)}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(o.value);
                else next.delete(o.value);
                onChange(
                  options
                    .map((opt) => opt.value)
                    .filter((v) => next.has(v))
                    .join(','),
                );
              }}
            />
          ))}
        </fieldset>
      </details>
    </div>
  );
}

function SourceFilterSelect({ filter, value, onChange }: { filter: Extract<ListFilter, { source: unknown }>; value: string; onChange: (v: string) => void }) {
  const { options } = useResourceOptions(filter.source, {}, value ? [value] : [], undefined);
  return <SelectField label={filter.label} value={value} placeholder="Todos" options={options} onChange={(e) => onChange(e.target.value)} />;
}

/** The list page of a resource: every piece of its state lives in the URL query string. */
export default function ListPage({ config }: { config: ResourceConfig }) {
  // the controle interno reads the list: no Novo, no plugin list actions (they create)
  const somenteLeitura = useSomenteLeitura();
  // the same defaults and query (listQuery.ts) a navigation prefetches with, from the same URL
  const defaults: ListDefaults = useMemo(() => listDefaults(config), [config]);
  const [searchParams] = useSearchParams();
  const [location, navigate] = useLocation();
  // the list at the plugin's root is '/ggrupo?q=…', not '/ggrupo/?q=…'
  const setSearchParams = (next: string, options: { replace: boolean }) => navigate(`${location === '/' ? '' : location}${next ? `?${next}` : ''}`, options);
  const state = useMemo(() => parseListState(searchParams, defaults), [searchParams, defaults]);
  const search = serializeListState(state, defaults);

  // remember the list's state for 'Voltar' / after saving
  useEffect(() => {
    try {
      sessionStorage.setItem(listStateKey(config), search);
    } catch {
      // storage unavailable
    }
  }, [config, search]);

  const update = (patch: Partial<typeof state>, options: { replace?: boolean } = {}) => {
    const next = { ...state, ...patch, filters: { ...state.filters, ...(patch.filters ?? {}) } };
    const nextSearch = serializeListState(next, defaults);
    if (nextSearch !== search) setSearchParams(nextSearch, { replace: options.replace ?? false });
  };

  // search box: local text, pushed to the URL after a pause (replace: typing is not history)
  const [text, setText] = useState(state.q);
  const lastPushed = useRef(state.q);
  useEffect(() => {
    // Back/Forward or a link changed q: show it
    if (state.q !== lastPushed.current) {
      lastPushed.current = state.q;
      setText(state.q);
    }
  }, [state.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the typed text changes only
  useEffect(() => {
    if (text.trim() === state.q.trim()) return;
    const timer = setTimeout(() => {
      lastPushed.current = text.trim();
      update({ q: text, page: 1 }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const moreId = useId();
  const [moreOpen, setMoreOpen] = useState(false);

  const params = apiParams(state, defaults);
  const query = useQuery({ ...listQuery(config, params), placeholderData: keepPreviousData });
  const data = query.data;
  const hasAtivo = config.ativo !== false;

  const columns: DataTableColumn<Row>[] = [
    ...config.columns.map((c, index) => ({
      key: c.key,
      header: c.header,
      sortable: c.sortable !== false,
      ...(c.width ? { width: c.width } : {}),
      ...(c.align ? { align: c.align } : {}),
      rowHeader: index === 0,
      render: (row: Row) => (c.render ? c.render(row) : cellText(c.value ? c.value(row) : row[c.key])),
    })),
    ...(hasAtivo
      ? [
          {
            key: '__situacao',
            header: 'Situação',
            render: (row: Row) => (row.ativo === false ? 'Inativo' : 'Ativo'),
          },
        ]
      : []),
    {
      key: '__acoes',
      header: <span className="visually-hidden">Ações</span>,
      align: 'end',
      render: (row: Row) => {
        // a record the API says cannot be edited (a document past its editable states) is opened, not edited
        const verb = row.editavel === false ? 'Abrir' : 'Editar';
        const link = (
          <Link href={editHref(config, String(row.id))} className="button button--ghost button--sm" aria-label={`${verb} ${recordLabel(config, row)}`}>
            {verb}
          </Link>
        );
        const extra = config.slots?.rowActions?.(row);
        return extra ? (
          <span className="data-table__actions">
            {extra}
            {link}
          </span>
        ) : (
          link
        );
      },
    },
  ];

  // The filter bar: search and the first two filters inline, the rest behind 'Mais filtros'; a
  // filter set behind it shows as a chip that removes it (issue 24: the filters no longer fill the screen).
  type Control = { key: string; node: ReactElement; active: boolean; text: string; clear: () => void };
  const controls: Control[] = [
    ...(config.filters ?? []).map((f): Control => {
      const names = filterNames(f);
      const values = names.map((n) => state.filters[n] ?? '').filter(Boolean);
      return {
        key: f.name,
        node: <FilterControl key={f.name} filter={f} values={state.filters} onChange={(patch) => update({ filters: patch, page: 1 })} />,
        active: values.length > 0,
        text: 'source' in f ? f.label : `${f.label}: ${chipValue(f, state.filters)}`,
        clear: () => update({ filters: Object.fromEntries(names.map((n) => [n, ''])), page: 1 }),
      };
    }),
    ...(hasAtivo
      ? [
          {
            key: '__ativo',
            node: (
              <SelectField
                key="__ativo"
                label="Situação"
                value={state.ativo}
                options={ATIVO_OPTIONS}
                onChange={(e) => update({ ativo: e.target.value as AtivoFilter, page: 1 })}
              />
            ),
            active: state.ativo !== 'true',
            text: `Situação: ${ATIVO_OPTIONS.find((o) => o.value === state.ativo)?.label ?? state.ativo}`,
            clear: () => update({ ativo: 'true', page: 1 }),
          },
        ]
      : []),
  ];
  const inline = controls.slice(0, INLINE_FILTERS);
  const more = controls.slice(INLINE_FILTERS);
  const hiddenActive = more.filter((c) => c.active);
  const renderFilter = (c: Control) => c.node;

  const exportParams = apiParams(state, defaults, false);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const exportAs = async (ext: 'csv' | 'xlsx') => {
    setExporting(ext);
    try {
      await downloadExport(config.endpoint, ext, exportParams);
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="resource-list" data-testid="resource-list">
      <PageHeader
        title={config.title}
        description={config.description}
        actions={
          <>
            {somenteLeitura ? null : typeof config.slots?.listActions === 'function' ? config.slots.listActions() : (config.slots?.listActions ?? null)}
            {config.noExport ? null : (
              <>
                {/* short visible words (the page's actions share one row), the whole name read and shown as a title */}
                <Button variant="secondary" loading={exporting === 'csv'} aria-label="Exportar CSV" title="Exportar CSV" onClick={() => void exportAs('csv')}>
                  CSV
                </Button>
                <Button
                  variant="secondary"
                  loading={exporting === 'xlsx'}
                  aria-label="Exportar XLSX"
                  title="Exportar XLSX"
                  onClick={() => void exportAs('xlsx')}
                >
                  XLSX
                </Button>
              </>
            )}
            {somenteLeitura ? null : (
              <Link href={newHref(config)} className="button button--primary">
                {config.newTitle}
              </Link>
            )}
          </>
        }
      />
      <search aria-label={`Filtros de ${config.title}`} className="list-filters">
        <div className="list-filters__bar">
          <TextField
            className="list-filters__search"
            label="Buscar"
            type="search"
            value={text}
            placeholder="Digite parte do nome ou do código"
            autoComplete="off"
            onChange={(e) => setText(e.target.value)}
          />
          {inline.map(renderFilter)}
          {more.length ? (
            <Button variant="secondary" aria-expanded={moreOpen} aria-controls={moreId} onClick={() => setMoreOpen((open) => !open)}>
              {moreOpen ? 'Menos filtros' : 'Mais filtros'}
              {hiddenActive.length ? ` (${hiddenActive.length})` : ''}
            </Button>
          ) : null}
        </div>
        <div id={moreId} className="list-filters__more" hidden={!moreOpen}>
          {more.map(renderFilter)}
        </div>
        {!moreOpen && hiddenActive.length ? (
          <ul className="list-filters__chips" aria-label="Filtros ativos">
            {hiddenActive.map((chip) => (
              <li key={chip.key}>
                <button type="button" className="chip" onClick={chip.clear} aria-label={`Remover filtro ${chip.text}`}>
                  {chip.text} <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </search>
      {query.isError ? <LoadErrorAlert title="Não foi possível carregar a lista." error={query.error} onRetry={() => void query.refetch()} /> : null}
      <DataTable
        caption={config.title}
        captionHidden
        columns={columns}
        rows={data?.items ?? []}
        loading={query.isFetching}
        sort={sortToState(state.sort || defaults.sort)}
        onSortChange={(sort) => update({ sort: stateToSort(sort), page: 1 })}
        empty={
          state.q || (hasAtivo && state.ativo !== 'true') || Object.values(state.filters).some(Boolean)
            ? 'Nenhum registro encontrado com estes filtros.'
            : 'Nenhum registro cadastrado.'
        }
      />
      <div className="list-footer">
        <Pagination page={state.page} pageSize={state.pageSize} total={data?.total ?? 0} onPageChange={(page) => update({ page })} />
        <SelectField
          className="list-footer__page-size"
          label="Por página"
          value={String(state.pageSize)}
          options={[...new Set([...PAGE_SIZES, defaults.pageSize])].sort((a, b) => a - b).map((n) => ({ value: String(n), label: String(n) }))}
          onChange={(e) => update({ pageSize: Number(e.target.value), page: 1 })}
        />
      </div>
    </div>
  );
}
