// The form controller of the resource kit: loads the record, holds the values and their errors,
// validates with the shared schema, knows whether there are unsaved changes, and saves with the
// stale-record protocol (PUT carries `version`; 409 `stale` → offer to reload).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../../api';
import { useSession } from '../../hooks';
import { useSomenteLeitura } from '../../routing/RouteMeta';
import { toast } from '../../toast/queue';
import { apiPath, editHref, listHref, queryKeys, recordLabel } from '../common';
import { useDocument } from '../documents/hooks';
import type { ResourceConfig } from '../types';
import { useUnsavedChangesGuard } from './guard';
import { OFFLINE_MESSAGE, isOfflineError } from './offline';
import { fieldId } from './registry';
import { type FieldErrors, type Values, bodyOf, fieldPaths, formValuesOf, typeLookup, validate } from './values';

type Row = Record<string, unknown>;

export const INVALID_MESSAGE = 'Verifique os campos destacados.';
export { OFFLINE_MESSAGE } from './offline';

/** What a record is called in messages: `noun`, or from `newTitle` ('Novo grupo' → Grupo; 'Nova unidade' → Unidade, feminine). */
export function nounOf(config: Pick<ResourceConfig, 'noun' | 'feminine' | 'newTitle'>): { noun: string; feminine: boolean } {
  if (config.noun) return { noun: config.noun, feminine: config.feminine ?? false };
  const m = /^(Novo|Nova)\s+(.+)$/.exec(config.newTitle.trim());
  if (m) return { noun: m[2]!.charAt(0).toUpperCase() + m[2]!.slice(1), feminine: config.feminine ?? m[1] === 'Nova' };
  return { noun: 'Registro', feminine: config.feminine ?? false };
}

/** 'Grupo Medicamentos salvo.' (see `ResourceConfig.messages.saved`). */
export function savedMessage(config: ResourceConfig, row: Row): string {
  const saved = config.messages?.saved;
  if (typeof saved === 'function') return saved(row);
  const label = recordLabel(config, row).trim();
  if (typeof saved === 'string') {
    const m = /^(.*\S)\s+(\S+)\.$/.exec(saved);
    return label && m ? `${m[1]} ${label} ${m[2]}.` : saved;
  }
  const { noun, feminine } = nounOf(config);
  const verb = feminine ? 'salva' : 'salvo';
  return label ? `${noun} ${label} ${verb}.` : `${noun} ${verb}.`;
}

/** Why a page opened by the controle interno (CONTROLE_INTERNO_TAG) is read-only. */
export const SOMENTE_LEITURA_CONTROLE_INTERNO = 'Acesso do controle interno: somente leitura.';

/** Why the whole form is read-only ('' when it is not). */
export function readOnlyReason(config: ResourceConfig, values: Values, record: Row | null): string {
  const result = config.readOnlyWhen ? config.readOnlyWhen(values, record) : Boolean(record && record.editavel === false);
  if (typeof result === 'string') return result;
  if (!result) return '';
  const { noun, feminine } = nounOf(config);
  return `${feminine ? 'Esta' : 'Este'} ${noun.toLowerCase()} não pode ser ${feminine ? 'alterada' : 'alterado'}: somente leitura.`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export type FormMode = 'new' | 'edit';

export function useFormController(config: ResourceConfig, mode: FormMode) {
  const params = useParams<{ id?: string }>();
  const id = mode === 'edit' ? params.id : undefined;
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const types = typeLookup(config);

  // the record through the headless hook a custom page uses (same cache entry, same requests)
  const doc = useDocument(config.endpoint, id);
  const item = doc.query;

  const session = useSession();
  const [values, setValues] = useState<Values>(() => formValuesOf(config, undefined, session));
  const [baseline, setBaseline] = useState<Values>(values);
  const [record, setRecordState] = useState<Row | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const leaving = useRef(false);
  const valuesRef = useRef(values);
  valuesRef.current = values;

  /** Loads a record into the form (values, baseline, record); drops errors and the stale notice. */
  const load = useCallback(
    (row: Row) => {
      const next = formValuesOf(config, row);
      setRecordState(row);
      setValues(next);
      setBaseline(next);
      setErrors({});
      setFormError(null);
      setStale(null);
    },
    [config],
  );
  const loadedId = useRef<string | null>(null);
  useEffect(() => {
    if (item.data && loadedId.current !== id) {
      loadedId.current = id ?? null;
      load(item.data);
    }
  }, [item.data, id, load]);

  // what would be sent differs from what was loaded (hidden fields and '1,0' vs '1' do not count)
  const dirty = !same(bodyOf(config, values), bodyOf(config, baseline));
  const guard = useUnsavedChangesGuard(dirty && !leaving.current);
  const goTo = (href: string) => {
    leaving.current = true;
    navigate(href, { replace: guard.release() });
  };
  const goToList = () => goTo(listHref(config));

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.all(config.endpoint) });

  const focusFirstError = (errs: FieldErrors) => {
    const first = fieldPaths(config.fields, valuesRef.current, '', types).find((path) => errs[path]);
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
  };

  const offline = () => {
    setFormError(OFFLINE_MESSAGE);
    toast.error(OFFLINE_MESSAGE, 'Sem conexão');
  };

  const save = useMutation({
    mutationFn: (body: Row) => doc.send(body, record?.version),
    onSuccess: async (answer, body) => {
      // a create answered with `{ id }` only: the toast names what was sent, the Edit page reads the record
      const idOnly = !id && config.createAnswer === 'id';
      const row = idOnly ? { ...body, ...answer } : answer;
      toast.success(savedMessage(config, row));
      if (!idOnly) queryClient.setQueryData(queryKeys.item(config.endpoint, String(row.id)), row);
      if (!id) {
        // stay on the new record: its edit page (replacing the form's guard entry, if any)
        setBaseline(valuesRef.current);
        void invalidate();
        goTo(editHref(config, String(row.id)));
        return;
      }
      if (config.afterSave === 'record') {
        // what was typed since the save was sent stays typed
        const sent = same(bodyOf(config, valuesRef.current), body);
        if (sent) load(row);
        else {
          setRecordState(row);
          setBaseline(formValuesOf(config, row));
        }
        await invalidate();
        return;
      }
      setBaseline(valuesRef.current);
      await invalidate();
      goToList();
    },
    onError: (error) => {
      if (isOfflineError(error)) {
        offline();
        return;
      }
      const body = apiErrorBody(error);
      const status = apiErrorStatus(error);
      if (status === 409 && body?.code === 'stale') {
        setStale(body.message);
        return;
      }
      if (body?.fields && Object.keys(body.fields).length > 0) {
        setErrors(body.fields);
        setFormError(body.message);
        focusFirstError(body.fields);
        return;
      }
      toast.error(apiErrorMessage(error, 'Não foi possível salvar o registro.'));
    },
  });

  const somenteLeitura = useSomenteLeitura();
  const readOnly = somenteLeitura ? SOMENTE_LEITURA_CONTROLE_INTERNO : readOnlyReason(config, values, record);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (save.isPending || readOnly) return;
    const body = bodyOf(config, values);
    const errs = { ...config.validate?.(body, { values, record }), ...validate(config, body) };
    setErrors(errs);
    if (Object.keys(errs).length > 0) {
      setFormError(INVALID_MESSAGE);
      focusFirstError(errs);
      return;
    }
    if (isOfflineError()) {
      offline();
      return;
    }
    setFormError(null);
    save.mutate(body);
  };

  const remove = useMutation({
    mutationFn: () => api.delete(`${apiPath(config.endpoint)}/${encodeURIComponent(id!)}`),
    onSuccess: async () => {
      toast.success(config.messages?.deleted ?? 'Registro excluído.');
      queryClient.removeQueries({ queryKey: queryKeys.item(config.endpoint, id!) });
      await invalidate();
      goToList();
    },
    onError: (error) => {
      toast.error(
        isOfflineError(error) ? OFFLINE_MESSAGE : apiErrorMessage(error, 'Não foi possível excluir o registro.'),
        isOfflineError(error) ? 'Sem conexão' : 'Exclusão recusada',
      );
    },
  });

  const toggle = useMutation({
    mutationFn: (action: 'ativar' | 'desativar') => api.post(`${apiPath(config.endpoint)}/${encodeURIComponent(id!)}/${action}`).json<Row>(),
    onSuccess: async (row, action) => {
      // keep what is being typed; only the version and the status change
      setRecordState(row);
      queryClient.setQueryData(queryKeys.item(config.endpoint, id!), row);
      toast.success(action === 'ativar' ? 'Registro ativado.' : 'Registro desativado.');
      await invalidate();
    },
    onError: (error) => {
      toast.error(isOfflineError(error) ? OFFLINE_MESSAGE : apiErrorMessage(error, 'Não foi possível alterar a situação do registro.'));
    },
  });

  const reload = async () => {
    const fresh = await item.refetch();
    if (fresh.data) load(fresh.data);
  };

  /** The record changed on the server (a transition's answer): load it, refresh the lists. */
  const setRecord = (row: Row) => {
    const key = queryKeys.item(config.endpoint, String(row.id));
    // a hook (useDocumentTransition) that already cached this very answer has refreshed the rest too
    if (queryClient.getQueryData(key) !== row) {
      queryClient.setQueryData(key, row);
      void invalidate();
    }
    load(row);
  };

  /** Updates one field from its current value; drops the error of `clear` (default: the field's, nested ones included). */
  const updateValue = (name: string, update: (current: unknown) => unknown, clear?: string) => {
    setValues((current) => ({ ...current, [name]: update(current[name]) }));
    dropErrors((key) => (clear === undefined ? key === name || key.startsWith(`${name}.`) : key === clear));
  };
  /** Sets one field (see `updateValue`). */
  const setValue = (name: string, value: unknown, clear?: string) => updateValue(name, () => value, clear);
  /** Sets several fields at once (a reference and its label). */
  const patchValues = (patch: Values) => {
    setValues((current) => ({ ...current, ...patch }));
    const names = Object.keys(patch);
    dropErrors((key) => names.some((name) => key === name || key.startsWith(`${name}.`)));
  };
  const dropErrors = (drop: (key: string) => boolean) =>
    setErrors((current) => (Object.keys(current).some(drop) ? Object.fromEntries(Object.entries(current).filter(([key]) => !drop(key))) : current));

  return {
    config,
    mode,
    id,
    item,
    values,
    record,
    errors,
    formError,
    stale,
    dirty,
    /** Why the form is read-only ('' when editable). */
    readOnly,
    saving: save.isPending,
    submit,
    setValue,
    updateValue,
    patchValues,
    remove,
    toggle,
    reload,
    setRecord,
    goTo,
    goToList,
    /** The unsaved-changes question (render it). */
    guardDialog: guard.dialog,
  };
}

export type FormController = ReturnType<typeof useFormController>;
