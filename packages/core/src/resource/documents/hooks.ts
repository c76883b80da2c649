// Headless hooks of a document (react-admin's controllers are the model): a custom page reuses the
// record, its save (optimistic version, the server's field errors), its transitions and its child
// collections with the kit's cache and errors, and draws what it likes. The kit's own pages use them.
import { type Flow, type FlowTransitionDefinition, reasonSchemaOf } from '@app/documents';
import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../../api';
import { queryKeys } from '../../queryKeys';
import type { FieldErrors } from '../form/errors';
import { OFFLINE_MESSAGE, isOfflineError } from '../form/offline';
import { numeroOf } from './numero';

type Row = Record<string, unknown>;

/** What the hooks need of a document: its endpoint and, for transitions, its flow and name. */
export interface DocumentRef {
  /** '/memorandos/memorandos' (the declaration's endpoint). */
  endpoint: string;
  flow?: Flow;
  /** 'Memorando' (messages and confirmations). */
  documento?: string;
  feminino?: boolean;
}

/** A document: its declaration (`DocumentConfig`), its pages (`defineDocumentPages(...)`), a `DocumentRef` or its endpoint. */
export type DocumentSource = string | DocumentRef | { config: DocumentRef };

/** The DocumentRef of a source. */
export function documentRef(source: DocumentSource): DocumentRef {
  if (typeof source === 'string') return { endpoint: source };
  return 'config' in source ? source.config : source;
}

/** '/memorandos/memorandos' + 'm 1' → 'memorandos/memorandos/m%201' (ky's prefix is '/api'). */
export const documentPath = (endpoint: string, id: string) => `${endpoint.replace(/^\/+/, '')}/${encodeURIComponent(id)}`;

/** Why a call failed, as a page shows it. */
export interface MutationFailure {
  ok: false;
  /**
   * - invalid: a 400 naming fields (`fields`: field → pt-BR message, shown on the inputs);
   * - stale: 409 `stale` (another person saved first: offer to reload);
   * - refused: 409 or 403 (the record moved on or the person may not: the hooks read it again, as after `stale`);
   * - offline: no connection, nothing was sent;
   * - error: anything else.
   */
  reason: 'invalid' | 'stale' | 'refused' | 'offline' | 'error';
  /** pt-BR: the server's message, or the fallback. */
  message: string;
  fields: FieldErrors;
  status: number | null;
  error: unknown;
}
export type MutationResult<T> = { ok: true; record: T } | MutationFailure;

/** A failed call → what a page shows (`fallback` when the server says nothing). */
export function failureOf(error: unknown, fallback: string): MutationFailure {
  const status = apiErrorStatus(error);
  const body = apiErrorBody(error);
  const base = { ok: false as const, status, error, fields: body?.fields ?? {} };
  if (isOfflineError(error)) return { ...base, reason: 'offline', message: OFFLINE_MESSAGE };
  if (status === 409 && body?.code === 'stale') return { ...base, reason: 'stale', message: body.message };
  if (status === 400 && body?.fields && Object.keys(body.fields).length > 0) return { ...base, reason: 'invalid', message: body.message };
  if (status === 409 || status === 403) return { ...base, reason: 'refused', message: apiErrorMessage(error, fallback) };
  return { ...base, reason: 'error', message: apiErrorMessage(error, fallback) };
}

/** Invalidates every query under `keys` (in parallel). */
function invalidateAll(queryClient: ReturnType<typeof useQueryClient>, keys: readonly QueryKey[]): Promise<void> {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
}

/**
 * One document (or any record of a resource): GET <endpoint>/:id in the kit's cache entry (the Edit
 * page and every other page reading it share it), and its save: PUT with the `version` read (a 409
 * `stale` comes back as `stale`), POST when there is no id; the server's 400 `fields` come back as
 * `fieldErrors` (path → pt-BR message, as the form shows them). After a save the record is cached
 * and the resource's lists, records and timelines are refreshed.
 *
 *   const doc = useDocument(REQ_ENDPOINT, id);
 *   if (doc.error) return <LoadErrorAlert error={doc.error} onRetry={() => void doc.reload()} />;
 *   if (!doc.record) return <PageLoading />;
 *   const result = await doc.save({ ...doc.record, justificativa });
 *   if (!result.ok && result.reason === 'stale') offerReload(result.message);
 */
export function useDocument<T extends Row = Row>(source: DocumentSource, id: string | null | undefined, options: { enabled?: boolean } = {}) {
  const { endpoint } = documentRef(source);
  const queryClient = useQueryClient();
  const key = queryKeys.document(endpoint, id ?? '');
  const query = useQuery({
    queryKey: key,
    enabled: Boolean(id) && options.enabled !== false,
    queryFn: ({ signal }) => api.get(documentPath(endpoint, id!), { signal }).json<T>(),
  });
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [stale, setStale] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  /** Refreshes the resource's lists, records (with their children and views) and timelines. */
  const invalidate = useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.all(endpoint) }), [queryClient, endpoint]);

  /** The record changed on the server (a transition's or an action's answer): cache it, refresh the rest. */
  const setRecord = useCallback(
    (row: T) => {
      queryClient.setQueryData(queryKeys.document(endpoint, String(row.id)), row);
      void invalidate();
    },
    [queryClient, endpoint, invalidate],
  );

  /** The request of a save, nothing else (the form controller handles its answer itself). */
  const send = useCallback(
    (body: Row, version?: unknown): Promise<T> =>
      id ? api.put(documentPath(endpoint, id), { json: { ...body, version } }).json<T>() : api.post(endpoint.replace(/^\/+/, ''), { json: body }).json<T>(),
    [endpoint, id],
  );

  /** Saves `body` (PUT with `version`, default the record's; POST without an id). */
  const save = async (body: Row, opts: { version?: unknown; fallback?: string } = {}): Promise<MutationResult<T>> => {
    setSaving(true);
    setSaveError(null);
    try {
      const row = await send(body, 'version' in opts ? opts.version : (body.version ?? query.data?.version));
      setFieldErrors({});
      setStale(null);
      if (row && row.id !== undefined) queryClient.setQueryData(queryKeys.document(endpoint, String(row.id)), row);
      await invalidate();
      return { ok: true, record: row };
    } catch (error) {
      const failure = failureOf(error, opts.fallback ?? 'Não foi possível salvar o registro.');
      if (failure.reason === 'stale') setStale(failure.message);
      else if (failure.reason === 'invalid') setFieldErrors(failure.fields);
      else setSaveError(failure.message);
      return failure;
    } finally {
      setSaving(false);
    }
  };

  /** Reads the record again (discarding the stale notice); the fresh record, or undefined. */
  const reload = async (): Promise<T | undefined> => {
    const fresh = await query.refetch();
    setStale(null);
    setFieldErrors({});
    return fresh.data;
  };

  return {
    endpoint,
    id: id ?? null,
    /** The cache key of the record (its children and views are under it). */
    key,
    /** The TanStack query of GET <endpoint>/:id. */
    query,
    record: query.data,
    isLoading: query.isLoading,
    /** The load error (show it with LoadErrorAlert). */
    error: query.error,
    save,
    send,
    saving,
    /** The server's field errors of the last save (path → pt-BR message). */
    fieldErrors,
    setFieldErrors,
    /** 409 `stale` of the last save: another person saved first (offer Recarregar). */
    stale,
    /** The message of the last failed save that was neither invalid nor stale. */
    saveError,
    reload,
    setRecord,
    invalidate,
  };
}

const lowerFirst = (s: string) => (/^.[\p{Ll}\s]/u.test(s) || s.length === 1 ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/** The transitions to show: those the record lists in `transicoes` that the flow declares, in the flow's order. */
export function availableTransitions(flow: Flow | undefined, record: Row | null | undefined): string[] {
  const listed = Array.isArray(record?.transicoes) ? record.transicoes.map(String) : [];
  if (!flow) return listed;
  const set = new Set(listed);
  return flow.transitionNames.filter((name) => set.has(name));
}

/** How a transition is run: its reason and the other fields of its body. */
export interface TransitionInput {
  /** Required when the flow says `reason` (checked here before anything is sent, as the server would). */
  motivo?: string;
  /** More body fields (e.g. `{ ciente: true }`), sent with `version` and `motivo`. */
  body?: Row;
}

/**
 * The transitions of a document: which ones this person may perform now (the record's `transicoes`,
 * in the flow's order), their confirmation text, and `run`: POST <endpoint>/:id/<name> with the
 * version read, the reason (checked against the flow first) and more body fields. On success the
 * answer is cached and the record, the lists, the timeline, the pendências and the menu counts are
 * refreshed; a refusal (409, 403) reads the record again. Errors come back, never thrown: a 400 with
 * `fields` (the reason, an acknowledgement) as `fieldErrors`, anything else as `error`.
 *
 *   const t = useDocumentTransition({ endpoint: REQ_ENDPOINT, flow: fluxoRequisicao, documento: 'Requisição', feminino: true }, record);
 *   t.available.map((name) => <Button onClick={() => ask(name)}>{t.transition(name)!.label}</Button>);
 *   const result = await t.run('aprovar', { body: { ciente: true } });
 *   if (result.ok) toast.success(t.doneMessage('aprovar', result.record));
 */
export function useDocumentTransition<T extends object = Row>(
  source: DocumentSource,
  record: T | null | undefined,
  options: { onSuccess?: (row: T, name: string) => void; invalidate?: readonly QueryKey[] } = {},
) {
  const ref = documentRef(source);
  const { endpoint, flow } = ref;
  const documento = ref.documento ?? 'Documento';
  const queryClient = useQueryClient();
  const [running, setRunning] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);

  const current = record as Row | null | undefined;
  const available = useMemo(() => availableTransitions(flow, current), [flow, current]);
  const transition = (name: string): FlowTransitionDefinition<string, string> | undefined => flow?.transitions[name];
  const nome = (row: Row | null | undefined) => `${documento} ${row ? numeroOf(row) : ''}`.trim();

  /**
   * 'Enviar memorando 12/2026?'; a label of several words keeps its verb first and the rest after the
   * document: 'Enviar para aprovação' → 'Enviar requisição 8/2026 para aprovação?' (or the flow's own `confirm`).
   */
  const confirmText = (name: string): string => {
    const t = transition(name);
    if (!t) return `${name}?`;
    if (t.confirm) return t.confirm;
    const [verb, ...rest] = t.label.split(' ');
    return [verb, lowerFirst(documento), current ? numeroOf(current) : '', ...rest].filter(Boolean).join(' ').concat('?');
  };
  /** 'Memorando 12/2026 enviado.' */
  const doneMessage = (name: string, row: Row | null | undefined = current): string => `${nome(row)} ${transition(name)?.done ?? 'atualizado'}.`;
  /** 'Não foi possível enviar o memorando.' */
  const failMessage = (name: string): string =>
    `Não foi possível ${lowerFirst(transition(name)?.label ?? name)} ${ref.feminino ? 'a' : 'o'} ${lowerFirst(documento)}.`;

  const reset = () => {
    setFieldErrors({});
    setError(null);
  };

  const run = async (name: string, input: TransitionInput = {}): Promise<MutationResult<T>> => {
    const id = current ? String(current.id) : '';
    const t = transition(name);
    let motivo: string | null = null;
    if (t?.reason) {
      const parsed = reasonSchemaOf(t.reasonMin ?? 3).safeParse(input.motivo ?? '');
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Informe o motivo.';
        setFieldErrors({ motivo: message });
        return { ok: false, reason: 'invalid', message, fields: { motivo: message }, status: null, error: null };
      }
      motivo = parsed.data;
    } else if (input.motivo) motivo = input.motivo;
    setRunning(name);
    reset();
    try {
      const row = await api
        .post(`${documentPath(endpoint, id)}/${name}`, { json: { ...input.body, version: current?.version, ...(motivo ? { motivo } : {}) } })
        .json<T>();
      queryClient.setQueryData(queryKeys.document(endpoint, String((row as Row).id ?? id)), row);
      options.onSuccess?.(row, name);
      void invalidateAll(queryClient, [queryKeys.all(endpoint), queryKeys.pendencias(), queryKeys.menuCounts(), ...(options.invalidate ?? [])]);
      return { ok: true, record: row };
    } catch (e) {
      const failure = failureOf(e, failMessage(name));
      if (failure.reason === 'invalid') setFieldErrors(failure.fields);
      else setError(failure.message);
      // the record moved on (another person, another tab): read what it is now
      if (failure.reason === 'refused' || failure.reason === 'stale') void queryClient.invalidateQueries({ queryKey: queryKeys.document(endpoint, id) });
      return failure;
    } finally {
      setRunning(null);
    }
  };

  return { available, transition, confirmText, doneMessage, failMessage, run, running, fieldErrors, error, reset };
}

/** A child collection's list answer: `{ items }` (as the kit answers) or a bare array. */
type ChildrenBody<C> = { items: C[] } | C[];

/**
 * A child collection of a document (a cotação's invitations, prices): GET <endpoint>/:id/<children>
 * in a cache entry under the record's, and create (POST), update (PATCH, or PUT with `method: 'put'`,
 * carrying the child's `version` read) and remove (DELETE <endpoint>/:id/<children>/:childId). After
 * any change, and after a refusal, the record with its children and views, the lists and the
 * timeline are refreshed (the parent's counts and version move with its children). Errors come back
 * as results (`fieldErrors` for a 400 naming fields), never thrown.
 *
 *   const convites = useDocumentChildren(COTACOES_ENDPOINT, id, 'fornecedores', { list: false });
 *   const result = await convites.create({ fornecedorId, motivoEscolha });
 *   if (!result.ok && result.reason === 'invalid') setErros(result.fields);
 */
export function useDocumentChildren<C extends Row = Row>(
  parent: DocumentSource,
  id: string | null | undefined,
  children: string,
  options: { list?: boolean; method?: 'patch' | 'put'; invalidate?: readonly QueryKey[] } = {},
) {
  const { endpoint } = documentRef(parent);
  const queryClient = useQueryClient();
  const key = queryKeys.children(endpoint, id ?? '', children);
  const base = `${documentPath(endpoint, id ?? '')}/${children}`;
  const query = useQuery({
    queryKey: key,
    enabled: Boolean(id) && options.list !== false,
    queryFn: async ({ signal }) => {
      const body = await api.get(base, { signal }).json<ChildrenBody<C>>();
      return Array.isArray(body) ? body : body.items;
    },
  });
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);

  const refresh = () =>
    invalidateAll(queryClient, [
      queryKeys.document(endpoint, id ?? ''),
      queryKeys.lists(endpoint),
      queryKeys.history(endpoint, id ?? ''),
      ...(options.invalidate ?? []),
    ]);

  async function mutate<R>(call: () => Promise<R>, fallback: string): Promise<MutationResult<R>> {
    setBusy(true);
    setFieldErrors({});
    setError(null);
    try {
      const record = await call();
      await refresh();
      return { ok: true, record };
    } catch (e) {
      const failure = failureOf(e, fallback);
      if (failure.reason === 'invalid') setFieldErrors(failure.fields);
      else setError(failure.message);
      // the parent may have moved on (closed, another person's change): show what it is now
      if (failure.reason !== 'invalid' && failure.reason !== 'offline') await refresh();
      return failure;
    } finally {
      setBusy(false);
    }
  }

  const versionOf = (childId: string): unknown => query.data?.find((c) => String(c.id) === childId)?.version;

  /** POST <parent>/:id/<children>. */
  const create = (body: Row, fallback = 'Não foi possível incluir o registro.') => mutate(() => api.post(base, { json: body }).json<C>(), fallback);
  /** PATCH (or PUT) <parent>/:id/<children>/:childId with `version` (the body's, else the child's as read). */
  const update = (childId: string, body: Row, fallback = 'Não foi possível salvar o registro.') => {
    const version = body.version ?? versionOf(childId);
    const json = version === undefined ? body : { ...body, version };
    const url = `${base}/${encodeURIComponent(childId)}`;
    return mutate(() => (options.method === 'put' ? api.put(url, { json }) : api.patch(url, { json })).json<C>(), fallback);
  };
  /** DELETE <parent>/:id/<children>/:childId. */
  const remove = (childId: string, fallback = 'Não foi possível excluir o registro.') =>
    mutate(async () => {
      await api.delete(`${base}/${encodeURIComponent(childId)}`);
      return null;
    }, fallback);
  /**
   * POST (or PUT with `method: 'put'`) <parent>/:id/<children>/:childId/<name>: an action on one child
   * (e.g. 'nao-respondeu', 'resposta'). An answer without a body (204) comes back as null.
   */
  const action = (childId: string, name: string, body: Row = {}, opts: { method?: 'post' | 'put'; fallback?: string } = {}) =>
    mutate(async () => {
      const url = `${base}/${encodeURIComponent(childId)}/${name}`;
      const response = opts.method === 'put' ? await api.put(url, { json: body }) : await api.post(url, { json: body });
      return response.status === 204 ? null : ((await response.json()) as C);
    }, opts.fallback ?? 'Não foi possível concluir a operação.');

  return {
    key,
    query,
    items: query.data ?? [],
    isLoading: query.isLoading,
    error: query.error,
    create,
    update,
    remove,
    action,
    busy,
    fieldErrors,
    setFieldErrors,
    /** The message of the last failed change that was not a 400 naming fields. */
    mutationError: error,
    refresh,
  };
}
