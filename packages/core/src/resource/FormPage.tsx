import { maskCpfCnpjInput, normalizeDocument } from '@app/br';
import { Alert, Button, Card, CheckboxField, PageHeader, PageLoading, SelectField, TextareaField, TextField, maskCep, maskPhone } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../api';
import { toast } from '../toast/queue';
import { ConfirmDialog, apiPath, listHref, queryKeys, recordLabel, useResourceOptions } from './common';
import type { FieldDescriptor, GroupFieldDescriptor, MaskPreset, ResourceConfig } from './types';
import { applyMask } from './urlState';

type Row = Record<string, unknown>;
type Values = Record<string, unknown>;
type Errors = Record<string, string>;

export const UNSAVED_MESSAGE = 'Há alterações não salvas. Deseja sair sem salvar?';
export const INVALID_MESSAGE = 'Verifique os campos destacados.';

// ---------------------------------------------------------------------------- values

const isPreset = (mask: string): mask is MaskPreset => mask === 'cep' || mask === 'telefone';
const maskValue = (mask: string, value: string) => (mask === 'cep' ? maskCep(value) : mask === 'telefone' ? maskPhone(value) : applyMask(mask, value));

/** Shown for these values (no `visibleWhen`, or it says so). */
export const isVisible = (field: FieldDescriptor, values: Values): boolean => !field.visibleWhen || field.visibleWhen(values);
const labelOf = (field: FieldDescriptor, values: Values): string => (typeof field.label === 'function' ? field.label(values) : field.label);

function valuesOfFields(fields: readonly FieldDescriptor[], source: Row): Values {
  const values: Values = {};
  for (const field of fields) values[field.name] = toFormValue(field, source[field.name]);
  return values;
}

function bodyOfFields(fields: readonly FieldDescriptor[], values: Values): Row {
  const body: Row = {};
  for (const field of fields) if (isVisible(field, values)) body[field.name] = fromFormValue(field, values[field.name]);
  return body;
}

const emptyRow = (group: GroupFieldDescriptor): Values => valuesOfFields(group.fields, {});

/** API value → what the control holds. */
export function toFormValue(field: FieldDescriptor, value: unknown): unknown {
  const text = value === null || value === undefined ? '' : String(value);
  switch (field.type) {
    case 'group': {
      const rows = (Array.isArray(value) ? value : []).map((row) => valuesOfFields(field.fields, row && typeof row === 'object' ? (row as Row) : {}));
      while (rows.length < (field.min ?? 0)) rows.push(emptyRow(field));
      return rows;
    }
    case 'checkbox':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value.map(String) : [];
    case 'number':
      return text === '' ? '' : text.replace('.', ',');
    case 'masked':
      return text === '' ? '' : maskValue(field.mask, text);
    case 'document':
      return maskCpfCnpjInput(text);
    case 'date':
      return text.slice(0, 10);
    default:
      return text;
  }
}

/** What the control holds → the body validated by the schema and sent to the API. */
export function fromFormValue(field: FieldDescriptor, value: unknown): unknown {
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  switch (field.type) {
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
      return (Array.isArray(value) ? (value as Values[]) : []).map((row) => bodyOfFields(field.fields, row));
    case 'masked':
      return isPreset(field.mask) ? text.replace(/\D/g, '') : text;
    case 'document':
      return normalizeDocument(text);
    case 'date':
      return text.trim() === '' ? null : text.trim();
    default:
      return text;
  }
}

export function formValuesOf(config: ResourceConfig, row: Row | undefined): Values {
  return valuesOfFields(config.fields, row ?? config.defaults ?? {});
}

/** The body of the form: visible fields only (a hidden field is absent), each as the API takes it. */
export function bodyOf(config: ResourceConfig, values: Values): Row {
  return bodyOfFields(config.fields, values);
}

/** Client-side validation with the shared schema: path ('nome', 'contatos.1.email') → first pt-BR message. */
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

/** Paths of the rendered fields, in order (a group, then each row's fields): where the first error is. */
export function fieldPaths(fields: readonly FieldDescriptor[], values: Values, prefix = ''): string[] {
  const out: string[] = [];
  for (const field of fields) {
    if (!isVisible(field, values)) continue;
    const path = `${prefix}${field.name}`;
    out.push(path);
    if (field.type === 'group') {
      const rows = Array.isArray(values[field.name]) ? (values[field.name] as Values[]) : [];
      for (const [i, row] of rows.entries()) out.push(...fieldPaths(field.fields, row, `${path}.${i}.`));
    }
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const fieldId = (path: string) => `campo-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;

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
  /** 'nome', or 'contatos.1.email' inside a group (the id and the error key). */
  path: string;
  /** The label as shown (a group's rows number theirs). */
  label: string;
  value: unknown;
  error: string | undefined;
  /** The form's values (a row's, inside a group). */
  values: Values;
  selfId: string | undefined;
  onChange: (value: unknown) => void;
}

type SourceField = Extract<FieldDescriptor, { source: unknown }>;

function SourceSelect({ field, path, label, value, error, values, selfId, onChange }: FieldProps & { field: SourceField }) {
  const current = field.type === 'multiselect' ? ((value as string[]) ?? []) : value ? [String(value)] : [];
  const { options, loading, error: loadError, truncated } = useResourceOptions(field.source, values, current, selfId);
  const hint = loadError ? 'Não foi possível carregar as opções.' : truncated ? 'Mostrando as 200 primeiras opções.' : field.hint;
  if (field.type === 'multiselect') {
    const selected = new Set(current);
    return (
      <fieldset className="field" aria-describedby={error ? `${fieldId(path)}-erro` : undefined} style={{ gridColumn: '1 / -1', border: 0, padding: 0, margin: 0 }}>
        <legend className="field__label">
          {label}
          {field.required ? <span className="field__required" aria-hidden="true"> *</span> : null}
        </legend>
        {hint ? <p className="field__hint">{hint}</p> : null}
        {loading ? <p className="field__hint">Carregando…</p> : null}
        <div id={fieldId(path)} tabIndex={-1} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))', gap: '0.25rem 1rem' }}>
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
          <p id={`${fieldId(path)}-erro`} className="field__error">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  return (
    <SelectField
      id={fieldId(path)}
      label={label}
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

/** 'Pessoa física.' / 'Pessoa jurídica.' once a document has the length of a CPF / CNPJ. */
function tipoPessoaHint(value: unknown): string | undefined {
  const doc = normalizeDocument(String(value ?? '')).replace(/[^0-9A-Z]/g, '');
  if (doc.length === 11 && /^\d+$/.test(doc)) return 'Pessoa física.';
  if (doc.length === 14) return 'Pessoa jurídica.';
  return undefined;
}

const PRESET_PLACEHOLDER: Record<MaskPreset, string> = { cep: '00000-000', telefone: '(00) 00000-0000' };

function Field(props: FieldProps) {
  const { field, path, label, value, error, onChange } = props;
  const common = {
    id: fieldId(path),
    label,
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
          <CheckboxField id={common.id} label={label} hint={field.hint} error={error} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
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
    case 'masked': {
      const preset = isPreset(field.mask) ? field.mask : null;
      return (
        <TextField
          {...common}
          type={preset === 'telefone' ? 'tel' : 'text'}
          inputMode={field.inputMode ?? (preset || /^[9\W]*$/.test(field.mask) ? 'numeric' : 'text')}
          maxLength={preset ? PRESET_PLACEHOLDER[preset].length : field.mask.length}
          placeholder={field.placeholder ?? (preset ? PRESET_PLACEHOLDER[preset] : field.mask.replace(/9/g, '0'))}
          value={String(value ?? '')}
          onChange={(e) => onChange(maskValue(field.mask, e.target.value))}
        />
      );
    }
    case 'document':
      return (
        <TextField
          {...common}
          hint={tipoPessoaHint(value) ?? field.hint ?? 'Com ou sem máscara; o CNPJ pode ter letras (ex.: 12.ABC.345/01DE-35).'}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={String(value ?? '')}
          onChange={(e) => onChange(maskCpfCnpjInput(e.target.value))}
        />
      );
    case 'date':
      return <TextField {...common} type="date" min={field.min} max={field.max} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />;
    case 'select':
      if ('source' in field) return <SourceSelect {...props} field={field} />;
      return (
        <SelectField {...common} placeholder={field.placeholder ?? 'Selecione…'} options={field.options} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
      );
    case 'multiselect':
      return <SourceSelect {...props} field={field} />;
    case 'group':
      // rendered by GroupField (it needs every error of its rows)
      return null;
    default:
      return (
        <div {...wide}>
          <TextField
            {...common}
            type={field.inputType ?? 'text'}
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

interface GroupFieldProps {
  field: GroupFieldDescriptor;
  label: string;
  rows: Values[];
  errors: Errors;
  selfId: string | undefined;
  /** `clear`: the error key to drop (one input), or every error of the group when absent. */
  onRows: (update: (rows: Values[]) => Values[], clear?: string) => void;
}

/** A repeating group: a fieldset per row ('Contato 2'), 'Remover contato 2' on each, 'Adicionar contato' after them. */
function GroupField({ field, label, rows, errors, selfId, onRows }: GroupFieldProps) {
  const path = field.name;
  const id = fieldId(path);
  const error = errors[path];
  const item = field.itemLabel.toLowerCase();
  const rowLabel = field.rowLabel ?? ((l: string, n: number) => `${l} (${item} ${n})`);
  const min = field.min ?? 0;
  const full = field.max !== undefined && rows.length >= field.max;
  const add = () => {
    const index = rows.length;
    onRows((current) => [...current, emptyRow(field)]);
    const first = field.fields.find((sub) => isVisible(sub, emptyRow(field)));
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(`${path}.${index}.${first.name}`))?.focus());
  };
  const remove = (index: number) => {
    onRows((current) => current.filter((_row, j) => j !== index));
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
        {field.required ? <span className="field__required" aria-hidden="true"> *</span> : null}
      </legend>
      {field.hint ? <p className="field__hint">{field.hint}</p> : null}
      {rows.length === 0 && field.emptyText ? <p className="field__hint">{field.emptyText}</p> : null}
      {rows.map((row, i) => {
        const n = i + 1;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; their position is their identity (and their inputs' ids)
          <fieldset key={i} className="form-grid" style={{ border: 0, padding: 0, margin: '0 0 1rem' }}>
            <legend className="visually-hidden">
              {field.itemLabel} {n}
            </legend>
            {field.fields
              .filter((sub) => isVisible(sub, row))
              .map((sub) => {
                const subPath = `${path}.${i}.${sub.name}`;
                return (
                  <Field
                    key={sub.name}
                    field={sub}
                    path={subPath}
                    label={rowLabel(labelOf(sub, row), n)}
                    value={row[sub.name]}
                    error={errors[subPath]}
                    values={row}
                    selfId={selfId}
                    onChange={(value) => onRows((current) => current.map((r, j) => (j === i ? { ...r, [sub.name]: value } : r)), subPath)}
                  />
                );
              })}
            <div style={{ alignSelf: 'end' }}>
              <Button variant="ghost" size="sm" icon="trash" disabled={rows.length <= min} onClick={() => remove(i)}>
                Remover {item} {n}
              </Button>
            </div>
          </fieldset>
        );
      })}
      <div>
        <Button id={`${id}-adicionar`} variant="secondary" size="sm" icon="plus" disabled={full} onClick={add}>
          {field.addLabel ?? `Adicionar ${item}`}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-erro`} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

// ---------------------------------------------------------------------------- page

/** Consecutive fields with the same `section` go in one card. */
function sections(fields: FieldDescriptor[]): { section: string | undefined; fields: FieldDescriptor[] }[] {
  const out: { section: string | undefined; fields: FieldDescriptor[] }[] = [];
  for (const field of fields) {
    const last = out[out.length - 1];
    if (last && last.section === field.section) last.fields.push(field);
    else out.push({ section: field.section, fields: [field] });
  }
  return out;
}

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

  // what would be sent differs from what was loaded (hidden fields and '1,0' vs '1' do not count)
  const dirty = !same(bodyOf(config, values), bodyOf(config, baseline));
  const guard = useUnsavedChangesGuard(dirty && !leaving.current);
  const goToList = () => {
    leaving.current = true;
    navigate(listHref(config), { replace: guard.release() });
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: queryKeys.all(config.endpoint) });

  const focusFirstError = (errs: Errors) => {
    const first = fieldPaths(config.fields, values).find((path) => errs[path]);
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
  };

  const save = useMutation({
    mutationFn: (body: Row) =>
      id
        ? api.put(`${apiPath(config.endpoint)}/${encodeURIComponent(id)}`, { json: { ...body, version: record?.version } }).json<Row>()
        : api.post(apiPath(config.endpoint), { json: body }).json<Row>(),
    onSuccess: async (row) => {
      setBaseline(values);
      toast.success(config.messages?.saved ?? 'Registro salvo.');
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
      toast.success(config.messages?.deleted ?? 'Registro excluído.');
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

  const change = (fieldName: string, update: (current: unknown) => unknown, clear?: string) => {
    setValues((current) => ({ ...current, [fieldName]: update(current[fieldName]) }));
    // an input's own error goes when it changes; all of a group's when rows are added or removed
    const drop = (key: string) => (clear === undefined ? key === fieldName || key.startsWith(`${fieldName}.`) : key === clear);
    setErrors((current) => (Object.keys(current).some(drop) ? Object.fromEntries(Object.entries(current).filter(([key]) => !drop(key))) : current));
  };
  const renderGrid = (fields: FieldDescriptor[]) => (
    <div className="form-grid">
      {fields.map((field) => (
        <Fragment key={field.name}>{renderField(field)}</Fragment>
      ))}
    </div>
  );
  const renderField = (field: FieldDescriptor) =>
    field.type === 'group' ? (
      <GroupField
        field={field}
        label={labelOf(field, values)}
        rows={Array.isArray(values[field.name]) ? (values[field.name] as Values[]) : []}
        errors={errors}
        selfId={id}
        onRows={(update, clear) => change(field.name, (rows) => update(Array.isArray(rows) ? (rows as Values[]) : []), clear)}
      />
    ) : (
      <Field
        field={field}
        path={field.name}
        label={labelOf(field, values)}
        value={values[field.name]}
        error={errors[field.name]}
        values={values}
        selfId={id}
        onChange={(value) => change(field.name, () => value)}
      />
    );

  return (
    <div data-testid="resource-form">
      <PageHeader
        title={title}
        description={mode === 'edit' ? (config.describe && record ? config.describe(record) : `${name} · ${ativo ? 'Ativo' : 'Inativo'}`) : config.description}
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
        {sections(config.fields.filter((field) => isVisible(field, values))).map(({ section, fields }, i) =>
          // biome-ignore lint/suspicious/noArrayIndexKey: runs of fields in the declared order
          section ? <Card key={i} title={section}>{renderGrid(fields)}</Card> : <Fragment key={i}>{renderGrid(fields)}</Fragment>,
        )}
        <div className="form-actions">
          {mode === 'edit' ? (
            <>
              <Button variant="danger" icon="trash" onClick={() => setConfirm('excluir')} style={{ marginInlineEnd: 'auto' }}>
                Excluir
              </Button>
              {config.noToggle ? null : ativo ? (
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
          <strong>{name}</strong> será excluído definitivamente.{' '}
          {config.messages?.deleteNote ?? 'Registros em uso não podem ser excluídos: desative-os.'}
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
