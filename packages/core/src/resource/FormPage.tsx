import { Alert, Button, CheckboxField, PageHeader, PageLoading, SelectField, TextareaField, TextField } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../api';
import { toast } from '../toast/queue';
import { ConfirmDialog, apiPath, listHref, queryKeys, recordLabel, useResourceOptions } from './common';
import type { FieldDescriptor, ResourceConfig } from './types';
import { applyMask } from './urlState';

type Row = Record<string, unknown>;
type Values = Record<string, unknown>;
type Errors = Record<string, string>;

export const UNSAVED_MESSAGE = 'Há alterações não salvas. Deseja sair sem salvar?';
export const INVALID_MESSAGE = 'Verifique os campos destacados.';

// ---------------------------------------------------------------------------- values

/** API value → what the control holds. */
export function toFormValue(field: FieldDescriptor, value: unknown): unknown {
  switch (field.type) {
    case 'checkbox':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value.map(String) : [];
    case 'number':
      return value === null || value === undefined || value === '' ? '' : String(value).replace('.', ',');
    case 'masked':
      return value === null || value === undefined ? '' : applyMask(field.mask, String(value));
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

/** What the control holds → the body validated by the schema and sent to the API. */
export function fromFormValue(field: FieldDescriptor, value: unknown): unknown {
  if (field.type === 'number') {
    const text = String(value ?? '').trim();
    if (text === '') return null;
    const normalized = text.includes(',') ? text.replace(/\./g, '').replace(',', '.') : text;
    const n = Number(normalized);
    return Number.isFinite(n) ? n : text;
  }
  if (field.type === 'checkbox') return value === true;
  if (field.type === 'multiselect') return Array.isArray(value) ? value : [];
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

export function formValuesOf(config: ResourceConfig, row: Row | undefined): Values {
  const source: Row = row ?? config.defaults ?? {};
  const values: Values = {};
  for (const field of config.fields) values[field.name] = toFormValue(field, source[field.name]);
  return values;
}

export function bodyOf(config: ResourceConfig, values: Values): Row {
  const body: Row = {};
  for (const field of config.fields) body[field.name] = fromFormValue(field, values[field.name]);
  return body;
}

/** Client-side validation with the shared schema: field → first pt-BR message. */
export function validate(config: ResourceConfig, body: Row): Errors {
  const result = config.schema.safeParse(body);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

const same = (a: Values, b: Values) => JSON.stringify(a) === JSON.stringify(b);
const fieldId = (name: string) => `campo-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

// ---------------------------------------------------------------------------- leaving guard

/**
 * While `active` (unsaved changes): the browser asks before closing/reloading (beforeunload), and
 * in-app links and the Back button ask `UNSAVED_MESSAGE` first.
 *
 * Back cannot be cancelled after the router has seen it (the router re-renders, and this page is gone,
 * before a popstate listener of the page runs). So when the form becomes dirty a guard entry with the
 * same URL is pushed: Back only leaves the guard (nothing re-renders), then the page asks and either
 * pushes the guard again or goes back for real. Leaving through a link or `release()` replaces the
 * guard entry, so history keeps no duplicate of the form.
 */
export function useUnsavedChangesGuard(active: boolean, message = UNSAVED_MESSAGE): { release: () => boolean } {
  const activeRef = useRef(active);
  activeRef.current = active;
  const guarded = useRef(false);

  useEffect(() => {
    if (active && !guarded.current) {
      window.history.pushState({ ...(window.history.state ?? {}), comprasGuard: true }, '', window.location.href);
      guarded.current = true;
    }
  }, [active]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!activeRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    const onPopState = () => {
      if (!guarded.current) return;
      // Back left the guard entry: this is the form's own entry (same URL)
      guarded.current = false;
      if (activeRef.current && !window.confirm(message)) {
        window.history.pushState({ ...(window.history.state ?? {}), comprasGuard: true }, '', window.location.href);
        guarded.current = true;
        return;
      }
      window.history.back();
    };
    const onClick = (event: MouseEvent) => {
      if (!guarded.current) return;
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!anchor || anchor.hasAttribute('download') || (anchor.target && anchor.target !== '_self')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      event.stopPropagation();
      if (activeRef.current && !window.confirm(message)) return;
      // leave: the destination replaces the guard entry (the router follows replaceState)
      guarded.current = false;
      window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('popstate', onPopState);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      document.removeEventListener('click', onClick, true);
    };
  }, [message]);

  return {
    /** Before navigating away in code: true when the guard entry is on top (navigate with replace). */
    release: () => {
      const was = guarded.current;
      guarded.current = false;
      return was;
    },
  };
}

// ---------------------------------------------------------------------------- fields

interface FieldProps {
  field: FieldDescriptor;
  value: unknown;
  error: string | undefined;
  values: Values;
  selfId: string | undefined;
  onChange: (value: unknown) => void;
}

function SourceSelect({ field, value, error, values, selfId, onChange }: FieldProps & { field: Extract<FieldDescriptor, { source: unknown }> }) {
  const current = field.type === 'multiselect' ? ((value as string[]) ?? []) : value ? [String(value)] : [];
  const { options, loading, error: loadError, truncated } = useResourceOptions(field.source, values, current, selfId);
  const hint = loadError ? 'Não foi possível carregar as opções.' : truncated ? 'Mostrando as 200 primeiras opções.' : field.hint;
  if (field.type === 'multiselect') {
    const selected = new Set(current);
    return (
      <fieldset className="field" aria-describedby={error ? `${fieldId(field.name)}-erro` : undefined} style={{ gridColumn: '1 / -1', border: 0, padding: 0, margin: 0 }}>
        <legend className="field__label">
          {field.label}
          {field.required ? <span className="field__required" aria-hidden="true"> *</span> : null}
        </legend>
        {hint ? <p className="field__hint">{hint}</p> : null}
        {loading ? <p className="field__hint">Carregando…</p> : null}
        <div id={fieldId(field.name)} tabIndex={-1} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))', gap: '0.25rem 1rem' }}>
          {options.map((o) => (
            <CheckboxField
              key={o.value}
              label={o.label}
              checked={selected.has(o.value)}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(o.value);
                else next.delete(o.value);
                onChange(options.map((opt) => opt.value).filter((v) => next.has(v)));
              }}
            />
          ))}
        </div>
        {error ? (
          <p id={`${fieldId(field.name)}-erro`} className="field__error">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  return (
    <SelectField
      id={fieldId(field.name)}
      label={field.label}
      hint={hint}
      error={error}
      required={field.required}
      value={String(value ?? '')}
      placeholder={field.placeholder ?? (loading ? 'Carregando…' : 'Selecione…')}
      options={options}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function Field(props: FieldProps) {
  const { field, value, error, onChange } = props;
  const common = {
    id: fieldId(field.name),
    label: field.label,
    hint: field.hint,
    error,
    required: field.required,
    placeholder: field.placeholder,
  };
  const wide = field.wide || field.type === 'textarea' ? { style: { gridColumn: '1 / -1' } } : {};
  switch (field.type) {
    case 'textarea':
      return (
        <div {...wide}>
          <TextareaField {...common} rows={field.rows} maxLength={field.maxLength} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
        </div>
      );
    case 'checkbox':
      return (
        <div style={{ alignSelf: 'end' }}>
          <CheckboxField id={common.id} label={field.label} hint={field.hint} error={error} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        </div>
      );
    case 'number':
      return (
        <TextField
          {...common}
          inputMode="decimal"
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value.replace(/[^\d,.-]/g, ''))}
        />
      );
    case 'masked':
      return (
        <TextField
          {...common}
          inputMode={field.inputMode ?? (/^[9\W]*$/.test(field.mask) ? 'numeric' : 'text')}
          maxLength={field.mask.length}
          placeholder={field.placeholder ?? field.mask.replace(/9/g, '0')}
          value={String(value ?? '')}
          onChange={(e) => onChange(applyMask(field.mask, e.target.value))}
        />
      );
    case 'select':
      if ('source' in field) return <SourceSelect {...props} field={field} />;
      return (
        <SelectField {...common} placeholder={field.placeholder ?? 'Selecione…'} options={field.options} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
      );
    case 'multiselect':
      return <SourceSelect {...props} field={field} />;
    default:
      return (
        <div {...wide}>
          <TextField
            {...common}
            maxLength={field.maxLength}
            autoComplete={field.autoComplete ?? 'off'}
            style={field.uppercase ? { textTransform: 'uppercase' } : undefined}
            value={String(value ?? '')}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      );
  }
}

// ---------------------------------------------------------------------------- page

/** New / Edit page of a resource. */
export default function FormPage({ config, mode }: { config: ResourceConfig; mode: 'new' | 'edit' }) {
  const params = useParams<{ id?: string }>();
  const id = mode === 'edit' ? params.id : undefined;
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();

  const item = useQuery({
    queryKey: queryKeys.item(config.endpoint, id ?? ''),
    enabled: Boolean(id),
    queryFn: ({ signal }) => api.get(`${apiPath(config.endpoint)}/${encodeURIComponent(id!)}`, { signal }).json<Row>(),
  });

  const [values, setValues] = useState<Values>(() => formValuesOf(config, undefined));
  const [baseline, setBaseline] = useState<Values>(values);
  const [record, setRecord] = useState<Row | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'excluir' | 'desativar' | null>(null);
  const leaving = useRef(false);

  const load = useCallback(
    (row: Row) => {
      const next = formValuesOf(config, row);
      setRecord(row);
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

  const dirty = !same(values, baseline);
  const guard = useUnsavedChangesGuard(dirty && !leaving.current);
  const goToList = () => {
    leaving.current = true;
    navigate(listHref(config), { replace: guard.release() });
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.all(config.endpoint) });

  const focusFirstError = (errs: Errors) => {
    const first = config.fields.find((f) => errs[f.name]);
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first.name))?.focus());
  };

  const save = useMutation({
    mutationFn: (body: Row) =>
      id
        ? api.put(`${apiPath(config.endpoint)}/${encodeURIComponent(id)}`, { json: { ...body, version: record?.version } }).json<Row>()
        : api.post(apiPath(config.endpoint), { json: body }).json<Row>(),
    onSuccess: async (row) => {
      setBaseline(values);
      toast.success('Registro salvo.');
      queryClient.setQueryData(queryKeys.item(config.endpoint, String(row.id)), row);
      await invalidate();
      goToList();
    },
    onError: (error) => {
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const body = bodyOf(config, values);
    const errs = validate(config, body);
    setErrors(errs);
    if (Object.keys(errs).length > 0) {
      setFormError(INVALID_MESSAGE);
      focusFirstError(errs);
      return;
    }
    setFormError(null);
    save.mutate(body);
  };

  const remove = useMutation({
    mutationFn: () => api.delete(`${apiPath(config.endpoint)}/${encodeURIComponent(id!)}`),
    onSuccess: async () => {
      setConfirm(null);
      toast.success('Registro excluído.');
      queryClient.removeQueries({ queryKey: queryKeys.item(config.endpoint, id!) });
      await invalidate();
      goToList();
    },
    onError: (error) => {
      setConfirm(null);
      toast.error(apiErrorMessage(error, 'Não foi possível excluir o registro.'), 'Exclusão recusada');
    },
  });

  const toggle = useMutation({
    mutationFn: (action: 'ativar' | 'desativar') => api.post(`${apiPath(config.endpoint)}/${encodeURIComponent(id!)}/${action}`).json<Row>(),
    onSuccess: async (row, action) => {
      setConfirm(null);
      // keep what is being typed; only the version and the status change
      setRecord(row);
      queryClient.setQueryData(queryKeys.item(config.endpoint, id!), row);
      toast.success(action === 'ativar' ? 'Registro ativado.' : 'Registro desativado.');
      await invalidate();
    },
    onError: (error) => {
      setConfirm(null);
      toast.error(apiErrorMessage(error, 'Não foi possível alterar a situação do registro.'));
    },
  });

  const reload = async () => {
    const fresh = await item.refetch();
    if (fresh.data) load(fresh.data);
  };

  const title = mode === 'new' ? config.newTitle : config.editTitle;
  const back = (
    <Link href={listHref(config)} className="button button--ghost button--sm">
      ← Voltar para {config.title}
    </Link>
  );

  if (mode === 'edit' && item.isError) {
    return (
      <div data-testid="resource-form">
        <PageHeader title={title} before={back} />
        <Alert variant="error" title={apiErrorStatus(item.error) === 404 ? 'Registro não encontrado.' : 'Não foi possível carregar o registro.'}>
          {apiErrorStatus(item.error) === 404 ? 'Ele pode ter sido excluído ou pertencer a outra entidade.' : apiErrorMessage(item.error)}
        </Alert>
      </div>
    );
  }
  if (mode === 'edit' && !record) return <PageLoading />;

  const ativo = record?.ativo !== false;
  const name = record ? recordLabel(config, record) : '';

  return (
    <div data-testid="resource-form">
      <PageHeader
        title={title}
        description={mode === 'edit' ? `${name} · ${ativo ? 'Ativo' : 'Inativo'}` : config.description}
        before={back}
      />
      {stale ? (
        <Alert
          variant="warning"
          title="Registro alterado por outra pessoa"
          actions={
            <Button variant="primary" size="sm" loading={item.isFetching} onClick={() => void reload()}>
              Recarregar
            </Button>
          }
        >
          {stale} Suas alterações não salvas serão descartadas.
        </Alert>
      ) : null}
      {formError ? <Alert variant="error" title={formError} /> : null}
      <form noValidate onSubmit={onSubmit} aria-label={title}>
        <div className="form-grid">
          {config.fields.map((field) => (
            <Field
              key={field.name}
              field={field}
              value={values[field.name]}
              error={errors[field.name]}
              values={values}
              selfId={id}
              onChange={(value) => {
                setValues((current) => ({ ...current, [field.name]: value }));
                if (errors[field.name]) {
                  setErrors((current) => {
                    const next = { ...current };
                    delete next[field.name];
                    return next;
                  });
                }
              }}
            />
          ))}
        </div>
        <div className="form-actions">
          {mode === 'edit' ? (
            <>
              <Button variant="danger" icon="trash" onClick={() => setConfirm('excluir')} style={{ marginInlineEnd: 'auto' }}>
                Excluir
              </Button>
              {ativo ? (
                <Button variant="secondary" onClick={() => setConfirm('desativar')}>
                  Desativar
                </Button>
              ) : (
                <Button variant="secondary" loading={toggle.isPending} onClick={() => toggle.mutate('ativar')}>
                  Ativar
                </Button>
              )}
            </>
          ) : null}
          <Link href={listHref(config)} className="button button--secondary">
            Cancelar
          </Link>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirm === 'excluir'}
        title="Excluir este registro?"
        confirmLabel="Excluir"
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => remove.mutate()}
      >
        <p>
          <strong>{name}</strong> será excluído definitivamente. Registros em uso não podem ser excluídos: desative-os.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'desativar'}
        title="Desativar este registro?"
        confirmLabel="Desativar"
        variant="primary"
        busy={toggle.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => toggle.mutate('desativar')}
      >
        <p>
          <strong>{name}</strong> deixa de aparecer nas listas de escolha, mas continua nos documentos que já o usam.
        </p>
      </ConfirmDialog>
    </div>
  );
}
