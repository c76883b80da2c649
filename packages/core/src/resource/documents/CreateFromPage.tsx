// "Nova … a partir de …": a new document made from a source document (the kit's links on the server:
// the picker GET <picker.endpoint>?q=&disponiveis=true&pageSize=20 and POST <create.endpoint> with the
// source id). The source is searched among those still available to the person; the chosen one is
// shown (`details`); optional `extra` fields (e.g. the centro de custo) go with it; the server's word
// on the source (not eligible, already used, not found) lands on the field, anything else in a toast;
// then the new document opens.
import { AsyncCombobox, type AsyncComboboxOption, Button, Card, PageHeader } from '@app/ui';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../../api';
import { queryKeys } from '../../queryKeys';
import { toast } from '../../toast/queue';

type Row = Record<string, unknown>;
type Page<T> = { items: T[]; total: number };

/** A row of the picker: the kit answers at least these. */
export interface CreateFromSource {
  id: string;
  numero: number;
  ano: number;
}

/** More fields of the new document chosen on this page (besides the source). */
export interface CreateFromExtra<S extends CreateFromSource> {
  /** Card title ('Pré-requisição'); the submit button goes in this card. */
  title: string;
  /** Body keys of these fields ('centroCustoId'): the server's messages for them land on them. */
  fields: readonly string[];
  /** Values set when a source is chosen and the field is still empty (e.g. the centro from the memorando's origin). */
  fromSource?: (source: S) => Record<string, string>;
  /** Messages of empty fields (checked before posting). */
  required?: Record<string, string>;
  render: (state: { values: Record<string, string>; set: (field: string, value: string) => void; errors: Record<string, string> }) => ReactNode;
}

export interface CreateFromPageProps<S extends CreateFromSource> {
  title: string;
  description: string;
  /** Back to the list: 'Voltar para Pré-requisições'. */
  back: string;
  picker: {
    /** Under /api: 'requisicoes/pre-requisicoes/memorandos-aceitos'. */
    endpoint: string;
    /** Body key of the source id: 'memorandoId'. */
    field: string;
    /** Card title ('Memorando de origem'). */
    card: string;
    label: string;
    placeholder: string;
    emptyText: string;
    hint: string;
    /** Shown when nothing is chosen: 'Escolha o memorando.'. */
    required: string;
    /** Element ids: the input, its hint and its error. */
    ids: { input: string; hint: string; error: string };
    optionLabel: (source: S) => string;
    optionDescription?: (source: S) => string;
    /** The chosen source, shown under the field. */
    details?: (source: S) => ReactNode;
  };
  extra?: CreateFromExtra<S>;
  create: {
    /** Under /api: 'requisicoes/pre-requisicoes/de-memorando'. */
    endpoint: string;
    /** The new document's resource endpoint ('/requisicoes/pre-requisicoes'): its cache gets the answer, its lists are refreshed. */
    document: string;
    submit: string;
    /** A toast after creating: 'Pré-requisição 5/2026 criada a partir do memorando 12/2026.'. */
    created: (document: Row, source: S) => string;
    /** When the POST fails without a message for the field. */
    failed: string;
    /** Where the new document opens (inside the plugin): '/edit/<id>'. */
    open: (document: Row) => string;
    /** More caches refreshed (queryKeys: a plugin's own reads). */
    invalidate?: QueryKey[];
  };
  /** A 'Cancelar' link back to the list beside the button. */
  cancel?: boolean;
}

export function CreateFromPage<S extends CreateFromSource>({ title, description, back, picker, extra, create, cancel }: CreateFromPageProps<S>) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<S | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const found = useRef(new Map<string, S>());

  const loadOptions = useCallback(
    async (q: string, signal: AbortSignal): Promise<AsyncComboboxOption[]> => {
      const page = await api.get(picker.endpoint, { searchParams: { q, disponiveis: 'true', pageSize: '20' }, signal }).json<Page<S>>();
      for (const s of page.items) found.current.set(s.id, s);
      return page.items.map((s) => ({
        value: s.id,
        label: picker.optionLabel(s),
        ...(picker.optionDescription ? { description: picker.optionDescription(s) } : {}),
      }));
    },
    [picker],
  );
  const focus = () => requestAnimationFrame(() => document.getElementById(picker.ids.input)?.focus());
  const set = (field: string, value: string) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const next: Record<string, string> = {};
    if (!source) next[picker.field] = picker.required;
    for (const [field, message] of Object.entries(extra?.required ?? {})) if (!values[field]) next[field] = message;
    setErrors(next);
    if (Object.keys(next).length || !source) {
      if (next[picker.field]) focus();
      return;
    }
    setSaving(true);
    try {
      const body: Row = { [picker.field]: source.id };
      for (const field of extra?.fields ?? []) body[field] = values[field];
      const created = await api.post(create.endpoint, { json: body }).json<Row>();
      toast.success(create.created(created, source));
      queryClient.setQueryData(queryKeys.document(create.document, String(created.id)), created);
      for (const key of [queryKeys.all(create.document), ...(create.invalidate ?? [])]) await queryClient.invalidateQueries({ queryKey: key });
      navigate(create.open(created));
    } catch (error) {
      // the server's word on the source (not eligible, already used, not found) goes on the field
      const fields = apiErrorBody(error)?.fields ?? {};
      const status = apiErrorStatus(error);
      const onFields: Record<string, string> = {};
      for (const field of [picker.field, ...(extra?.fields ?? [])]) if (fields[field]) onFields[field] = fields[field];
      if (!onFields[picker.field] && (status === 404 || status === 409)) onFields[picker.field] = apiErrorMessage(error);
      setErrors(onFields);
      if (onFields[picker.field]) focus();
      else toast.error(apiErrorMessage(error, create.failed));
    } finally {
      setSaving(false);
    }
  };

  const sourceError = errors[picker.field];
  const actions = (
    <div className="form-actions">
      {cancel ? (
        <Link href="/" className="button button--secondary">
          Cancelar
        </Link>
      ) : null}
      <Button type="submit" loading={saving}>
        {create.submit}
      </Button>
    </div>
  );
  return (
    <>
      <PageHeader title={title} description={description} before={<Link href="/">{back}</Link>} />
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
        <Card title={picker.card}>
          <div className={sourceError ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor={picker.ids.input}>
              {picker.label}
              <span className="field__required" aria-hidden="true">
                {' '}
                *
              </span>
            </label>
            <AsyncCombobox
              id={picker.ids.input}
              label={picker.label}
              value={source?.id ?? null}
              selectedLabel={source ? picker.optionLabel(source) : undefined}
              loadOptions={loadOptions}
              placeholder={picker.placeholder}
              emptyText={picker.emptyText}
              required
              invalid={Boolean(sourceError)}
              describedBy={sourceError ? `${picker.ids.hint} ${picker.ids.error}` : picker.ids.hint}
              onChange={(value) => {
                const chosen = value ? (found.current.get(value) ?? null) : null;
                setSource(chosen);
                setErrors(({ [picker.field]: _gone, ...rest }) => rest);
                if (chosen && extra?.fromSource) {
                  const defaults = extra.fromSource(chosen);
                  setValues((current) => {
                    const next = { ...current };
                    for (const [field, value] of Object.entries(defaults)) if (!next[field] && value) next[field] = value;
                    return next;
                  });
                }
              }}
            />
            <p id={picker.ids.hint} className="field__hint">
              {picker.hint}
            </p>
            {sourceError ? (
              <p id={picker.ids.error} className="field__error">
                {sourceError}
              </p>
            ) : null}
          </div>
          {source && picker.details ? picker.details(source) : null}
          {extra ? null : actions}
        </Card>
        {extra ? (
          <Card title={extra.title}>
            {extra.render({ values, set, errors })}
            {actions}
          </Card>
        ) : null}
      </form>
    </>
  );
}
