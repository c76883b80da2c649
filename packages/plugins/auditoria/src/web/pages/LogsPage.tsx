import { formatDateTime } from '@app/br';
import {
  AUDIT_ACTION_LABELS,
  AuditChangeList,
  LoadErrorAlert,
  type PluginManifest,
  apiErrorMessage,
  auditActionLabel,
  auditEntrySummary,
  queryKeys,
  toast,
  useApi,
  useMutation,
  usePlugins,
  useQuery,
} from '@app/core';
import { Alert, Button, Card, EmptyState, PageHeader, SelectField, Spinner, TextField, VisuallyHidden } from '@app/ui';
import { type FormEvent, Fragment, useId, useState } from 'react';
import { useSearchParams } from 'wouter';
import {
  BUSCA_MAX_ROWS,
  BUSCA_MIN,
  DEFAULT_LIMIT,
  FILTER_KEYS,
  type LogFilters,
  type LogItem,
  type LogPage,
  PLUGIN_CORE_NOME,
  type Verificacao,
} from '../../shared/index';

type FilterKey = (typeof FILTER_KEYS)[number];
type Draft = Record<FilterKey, string>;

function filtersFrom(params: URLSearchParams): LogFilters {
  const out: LogFilters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) out[key] = value;
  }
  return out;
}

const searchParamsOf = (filters: LogFilters): Record<string, string> =>
  Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));

const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label, 'pt-BR');

/** Plugin id → what the table shows: the web plugin's title, 'Sistema' for core, else the id. */
function pluginTitles(plugins: readonly PluginManifest[]): Map<string, string> {
  return new Map([['core', PLUGIN_CORE_NOME], ...plugins.map((p) => [p.id, p.title] as [string, string])]);
}

/** The options of a select, with the current value kept when it is not one of them (a URL typed by hand). */
function withCurrent(options: { value: string; label: string }[], current: string, label: (value: string) => string) {
  return current && !options.some((o) => o.value === current) ? [...options, { value: current, label: label(current) }] : options;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Filters({ initial, onApply }: { initial: LogFilters; onApply: (filters: LogFilters) => void }) {
  const titles = pluginTitles(usePlugins());
  const [draft, setDraft] = useState<Draft>(() => ({
    de: initial.de ?? '',
    ate: initial.ate ?? '',
    usuario: initial.usuario ?? '',
    plugin: initial.plugin ?? '',
    registro: initial.registro ?? '',
    acao: initial.acao ?? '',
    busca: initial.busca ?? '',
  }));
  const [error, setError] = useState<string | null>(null);
  const [buscaError, setBuscaError] = useState<string | null>(null);
  const moreId = useId();
  // user, plugin, action and record sit behind 'Mais filtros': open when one of them is applied
  const hiddenSet = (['usuario', 'plugin', 'acao', 'registro'] as const).filter((key) => initial[key]).length;
  const [moreOpen, setMoreOpen] = useState(hiddenSet > 0);
  const set = (key: FilterKey) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const pluginOptions = withCurrent([...titles].map(([value, label]) => ({ value, label })).sort(byLabel), draft.plugin, (v) => v);
  const acaoOptions = withCurrent(
    Object.entries(AUDIT_ACTION_LABELS)
      .map(([value, label]) => ({ value, label }))
      .sort(byLabel),
    draft.acao,
    (v) => auditActionLabel(v),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const periodo = draft.de && draft.ate && draft.de > draft.ate;
    const busca = draft.busca.trim() && draft.busca.trim().length < BUSCA_MIN;
    setError(periodo ? 'A data inicial deve ser anterior ou igual à final.' : null);
    setBuscaError(busca ? `Digite ao menos ${BUSCA_MIN} caracteres.` : null);
    if (periodo || busca) return;
    const next: LogFilters = {};
    for (const key of FILTER_KEYS) if (draft[key].trim()) next[key] = draft[key].trim();
    onApply(next);
  };
  // one bar (issue 24: the filter card filled the screen at 1366×768): search, period and the buttons
  return (
    <search aria-label="Filtros dos logs" className="list-filters">
      <form onSubmit={submit} data-allow-enter>
        <div className="list-filters__bar">
          <TextField
            className="list-filters__search"
            label="Pesquisa"
            placeholder="Código, descrição ou nome do registro"
            value={draft.busca}
            onChange={set('busca')}
            error={buscaError ?? undefined}
            autoComplete="off"
          />
          <fieldset className="list-filters__period">
            <legend className="visually-hidden">Período</legend>
            <div>
              <TextField label="Período: de" type="date" value={draft.de} onChange={set('de')} />
              <TextField label="Período: até" type="date" value={draft.ate} onChange={set('ate')} error={error ?? undefined} />
            </div>
          </fieldset>
          <Button variant="secondary" aria-expanded={moreOpen} aria-controls={moreId} onClick={() => setMoreOpen((open) => !open)}>
            {moreOpen ? 'Menos filtros' : 'Mais filtros'}
            {hiddenSet ? ` (${hiddenSet})` : ''}
          </Button>
          <Button variant="secondary" onClick={() => onApply({})}>
            Limpar filtros
          </Button>
          <Button type="submit" icon="search">
            Filtrar
          </Button>
        </div>
        <div id={moreId} className="list-filters__more" hidden={!moreOpen}>
          <TextField label="Usuário" hint="Login ou parte do nome" value={draft.usuario} onChange={set('usuario')} autoComplete="off" />
          <SelectField label="Plugin" value={draft.plugin} onChange={set('plugin')} placeholder="Todos" options={pluginOptions} />
          <SelectField label="Ação" value={draft.acao} onChange={set('acao')} placeholder="Todas" options={acaoOptions} />
          <TextField label="Registro" hint="Identificador do registro" value={draft.registro} onChange={set('registro')} autoComplete="off" />
        </div>
      </form>
    </search>
  );
}

/** A row's details: its changes in the wording of the document timelines (@app/core's AuditChangeList), the reason, the IP. */
function Changes({ item, id }: { item: LogItem; id: string }) {
  return (
    <div id={id} className="field__hint">
      {item.duplicadoDe ? <p>{auditEntrySummary(item)}</p> : null}
      {item.motivo ? <p>Motivo: {item.motivo}</p> : null}
      {item.mudancas.length === 0 ? (
        <p>Sem campos alterados.</p>
      ) : (
        <AuditChangeList changes={item.mudancas} acao={item.acao} label={`Alterações do registro ${item.id}`} />
      )}
      {item.ip ? <p>IP: {item.ip}</p> : null}
    </div>
  );
}

const hasDetails = (item: LogItem) => item.mudancas.length > 0 || Boolean(item.motivo) || Boolean(item.duplicadoDe);

function usuarioText(item: LogItem): string {
  if (item.usuarioNome) return item.usuarioNome;
  return item.usuarioId ? `Usuário ${item.usuarioId}` : 'Sistema';
}

function LogTable({ filters }: { filters: LogFilters }) {
  const api = useApi();
  const titles = pluginTitles(usePlugins());
  const baseId = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const [previous, setPrevious] = useState<LogItem[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const page = useQuery({
    queryKey: queryKeys.plugin('auditoria', 'logs', filters, cursor ?? ''),
    queryFn: () =>
      api.get('auditoria/logs', { searchParams: { ...searchParamsOf(filters), ...(cursor ? { cursor } : {}), limit: DEFAULT_LIMIT } }).json<LogPage>(),
  });
  const rows = [...previous, ...(page.data?.items ?? [])];
  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const loadMore = () => {
    if (!page.data?.nextCursor) return;
    setPrevious(rows);
    setCursor(page.data.nextCursor);
  };

  return (
    <Card flush>
      {page.isError ? <LoadErrorAlert title="Não foi possível carregar os logs" error={page.error} onRetry={() => void page.refetch()} /> : null}
      <div className="data-table">
        <div className="data-table__scroll">
          <table className="data-table__table" data-testid="logs-tabela" aria-busy={page.isFetching || undefined}>
            <caption className="visually-hidden">Registros de auditoria, mais recentes primeiro</caption>
            <thead>
              <tr>
                <th scope="col">Quando</th>
                <th scope="col">Usuário</th>
                <th scope="col">Plugin</th>
                <th scope="col">Registro</th>
                <th scope="col">Ação</th>
                <th scope="col">Alterações</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((item) => {
                const expanded = open.has(item.id);
                const detailId = `${baseId}-log-${item.id}`;
                return (
                  <Fragment key={item.id}>
                    <tr data-log-id={item.id}>
                      {/* one line per row (≥ 12 rows at 1366×768): date and time, name and login, action */}
                      <td className="data-table__nowrap">
                        <time dateTime={item.at}>{formatDateTime(item.at)}</time>
                      </td>
                      <th scope="row" className="data-table__nowrap">
                        {usuarioText(item)}
                        {item.usuarioLogin ? <span className="field__hint"> ({item.usuarioLogin})</span> : null}
                      </th>
                      <td>
                        <span className="data-table__clamp" title={titles.get(item.plugin) ?? item.plugin}>
                          {titles.get(item.plugin) ?? item.plugin}
                        </span>
                      </td>
                      {/* a record without a name is not shown by its id (the id stays in the title, and in the CSV);
                          a long name on one line (the rows stay 33 px), whole under the keyboard focus */}
                      <td>
                        <span className="data-table__clamp" title={item.registro ?? undefined}>
                          {item.registroNome ?? (item.registro && UUID.test(item.registro) ? 'sem nome' : (item.registro ?? '—'))}
                        </span>
                      </td>
                      <td className="data-table__nowrap">{auditActionLabel(item.acao)}</td>
                      <td>
                        {!hasDetails(item) ? (
                          '—'
                        ) : (
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-expanded={expanded}
                            aria-controls={expanded ? detailId : undefined}
                            onClick={() => toggle(item.id)}
                          >
                            {expanded ? 'Ocultar alterações' : 'Ver alterações'}
                            <VisuallyHidden> do registro {item.id}</VisuallyHidden>
                          </Button>
                        )}
                      </td>
                    </tr>
                    {expanded ? (
                      <tr>
                        <td colSpan={6}>
                          <Changes item={item} id={detailId} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
              {rows.length === 0 && page.isPending ? (
                <tr className="data-table__state-row">
                  <td colSpan={6}>
                    <Spinner label="Carregando os logs…" />
                  </td>
                </tr>
              ) : null}
              {rows.length === 0 && page.isSuccess ? (
                <tr className="data-table__state-row">
                  <td colSpan={6}>
                    <EmptyState icon="search" title="Nenhum registro encontrado." description="Ajuste os filtros e tente novamente." />
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </div>
      {page.data?.buscaLimitada ? (
        <p className="field__hint" style={{ textAlign: 'center' }}>
          A pesquisa encontrou muitos registros: são mostrados os dos {BUSCA_MAX_ROWS.toLocaleString('pt-BR')} mais recentes que contêm o texto. Refine a
          pesquisa ou use os outros filtros.
        </p>
      ) : null}
      <div className="form-actions" style={{ justifyContent: 'center', margin: 'var(--space-4, 1rem) 0' }}>
        {page.data?.nextCursor ? (
          <Button variant="secondary" loading={page.isFetching} onClick={loadMore}>
            Carregar mais
          </Button>
        ) : rows.length > 0 && page.isSuccess ? (
          <p className="field__hint">Fim dos registros ({rows.length.toLocaleString('pt-BR')}).</p>
        ) : null}
      </div>
    </Card>
  );
}

function fileName(disposition: string | null): string {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ?? 'logs-auditoria.csv';
}

/** '/logs': the audit trail of the entidade, filtered by the URL's query string. */
export default function LogsPage() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const key = JSON.stringify(filters);
  const [verificacao, setVerificacao] = useState<Verificacao | null>(null);

  const exportCsv = useMutation({
    mutationFn: async () => {
      const response = await api.get('auditoria/logs.csv', { searchParams: searchParamsOf(filters), timeout: false });
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName(response.headers.get('content-disposition'));
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
    onSuccess: () => toast.success('Arquivo CSV gerado.'),
    onError: (error) => toast.error(apiErrorMessage(error), 'Não foi possível exportar'),
  });

  const verify = useMutation({
    mutationFn: () => api.get('auditoria/verificacao', { timeout: false }).json<Verificacao>(),
    onSuccess: setVerificacao,
    onError: (error) => toast.error(apiErrorMessage(error), 'Não foi possível verificar'),
  });

  return (
    <div data-testid="logs">
      <PageHeader
        title="Logs de Auditoria"
        description="Quem fez o quê, quando, em cada registro desta entidade. A trilha não pode ser editada."
        actions={
          <>
            <Button variant="secondary" loading={verify.isPending} onClick={() => verify.mutate()}>
              Verificar integridade
            </Button>
            <Button variant="secondary" loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
              Exportar CSV
            </Button>
          </>
        }
      />
      {verificacao ? (
        <div style={{ marginBottom: 'var(--space-5)' }}>
          <Alert
            variant={verificacao.ok ? 'success' : 'error'}
            title={verificacao.ok ? 'Integridade verificada' : 'Integridade comprometida'}
            onDismiss={() => setVerificacao(null)}
          >
            {verificacao.mensagem}
            {verificacao.ancora ? <p style={{ marginTop: 'var(--space-2)' }}>{verificacao.ancora}</p> : null}
          </Alert>
        </div>
      ) : null}
      <Filters key={`filtros:${key}`} initial={filters} onApply={(next) => setParams(searchParamsOf(next))} />
      <LogTable key={`tabela:${key}`} filters={filters} />
    </div>
  );
}
