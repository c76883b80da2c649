// Field types the user and perfil forms add to the resource kit (registerFieldType): the password
// (sent only when typed), the perfil and centros de custo of each entidade, and the perfil's tags.
// Imported by the lazy form pages only; they call `registerUsuariosFieldTypes()` when evaluated.
import { type FieldRenderProps, fieldId, registerFieldType, useSession } from '@app/core';
import { Alert, Card, CheckboxField, PasswordField, SelectField } from '@app/ui';
import { isExemptTag, type Opcoes, type TagInfo } from '../shared/index';
import { tagOptions } from './tags';

type OpcaoEntidade = Opcoes['entidades'][number];

declare module '@app/core' {
  interface CustomFieldTypes {
    /** A new password: never read from the record, sent only when typed. */
    'usuarios.senha': { autoComplete?: string };
    /** The user's perfil and centros de custo in each entidade the caller administers (body: `entidades`). */
    'usuarios.entidades': { entidades: readonly OpcaoEntidade[] };
    /** The tags a perfil grants: only tags the caller holds can be added. */
    'usuarios.tags': { declared: readonly TagInfo[] };
  }
}

/** What the entidades field holds: entidadeId → perfilId ('' = no access there), entidadeId → centro ids. */
export interface Vinculos {
  perfis: Record<string, string>;
  centros: Record<string, string[]>;
}

type Row = Record<string, unknown>;
type RecordVinculo = { entidadeId: string; perfilId: string; centrosCusto: string[] };
const vinculosOf = (record: Row | null): RecordVinculo[] => (Array.isArray(record?.entidades) ? (record.entidades as RecordVinculo[]) : []);

/** The API's `entidades` → what the control holds. */
export function vinculosToForm(value: unknown): Vinculos {
  const list = Array.isArray(value) ? (value as RecordVinculo[]) : [];
  return {
    perfis: Object.fromEntries(list.map((v) => [v.entidadeId, v.perfilId])),
    centros: Object.fromEntries(list.map((v) => [v.entidadeId, v.centrosCusto])),
  };
}

/** What the control holds → `entidades` of the body: in the order of the entidades, only centros the form offers (an id no longer registered is dropped), by código. */
export function vinculosToBody(entidades: readonly OpcaoEntidade[], value: Vinculos): RecordVinculo[] {
  return entidades
    .filter((e) => value.perfis[e.id])
    .map((e) => ({
      entidadeId: e.id,
      perfilId: value.perfis[e.id]!,
      centrosCusto: e.centrosCusto.map((c) => c.id).filter((id) => (value.centros[e.id] ?? []).includes(id)),
    }));
}

const grants = (perfilTags: readonly number[], mine: readonly number[]) => perfilTags.every((t) => mine.includes(t));

/** Why the caller cannot assign a perfil there (null: can). */
function perfilBloqueio(p: OpcaoEntidade['perfis'][number], e: OpcaoEntidade): string | null {
  if (!grants(p.tags, e.minhasTags)) return 'concede permissões que você não possui';
  if (p.todosCentros && !e.meusTodosCentros) return 'acessa todos os centros de custo, o que você não possui';
  return null;
}

/**
 * 'Centros de custo em <entidade>': a checkbox per centro (active ones, and inactive ones the user
 * already has). Without access to every centro there, the caller only gives centros they belong to.
 */
function CentrosCustoField({
  id,
  entidade,
  perfilTodos,
  selected,
  original,
  error,
  readOnly,
  onChange,
}: {
  id: string;
  entidade: OpcaoEntidade;
  perfilTodos: boolean;
  selected: readonly string[];
  original: readonly string[];
  error: string | undefined;
  readOnly: boolean;
  onChange: (ids: string[]) => void;
}) {
  const shown = entidade.centrosCusto.filter((c) => c.ativo || selected.includes(c.id) || original.includes(c.id));
  const hint = `${
    perfilTodos
      ? 'O perfil escolhido acessa os documentos de todos os centros de custo; os centros marcados são a origem padrão dos documentos do usuário.'
      : 'O usuário só vê e movimenta os documentos dos centros de custo marcados.'
  }${entidade.meusTodosCentros ? '' : ' Você só pode dar os centros de custo aos quais pertence.'}`;
  return (
    <fieldset className="field" aria-describedby={`${id}-dica${error ? ` ${id}-erro` : ''}`} style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="field__label">Centros de custo em {entidade.nome}</legend>
      <p id={`${id}-dica`} className="field__hint">
        {shown.length === 0 ? 'Nenhum centro de custo cadastrado nesta entidade (Cadastros › Centros de custo).' : hint}
      </p>
      <div id={id} tabIndex={-1} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))', gap: '0.25rem 1rem' }}>
        {shown.map((c) => {
          const checked = selected.includes(c.id);
          const podeDar = entidade.meusTodosCentros || entidade.meusCentros.includes(c.id) || original.includes(c.id);
          return (
            <CheckboxField
              key={c.id}
              label={`${c.codigo} – ${c.nome}${c.ativo ? '' : ' (inativo)'}`}
              checked={checked}
              disabled={readOnly || (!checked && (!podeDar || !c.ativo))}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(c.id);
                else next.delete(c.id);
                onChange(entidade.centrosCusto.map((x) => x.id).filter((x) => next.has(x)));
              }}
            />
          );
        })}
      </div>
      {error ? (
        <p id={`${id}-erro`} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

type EntidadesField = { name: string; entidades: readonly OpcaoEntidade[] };

/** Key of the error 'this entidade needs a perfil' (the form's own rule: the entidade in use). */
export const perfilErrorKey = (entidadeId: string) => `perfil.${entidadeId}`;

/** 'Perfis por entidade' (a select per entidade) and 'Centros de custo' (a list per entidade with a perfil). */
function EntidadesRender({ field, path, label, value, error, errors, record, readOnly, onChange }: FieldRenderProps<EntidadesField>) {
  const vinculos = (value as Vinculos | undefined) ?? { perfis: {}, centros: {} };
  const original = new Map(vinculosOf(record).map((v) => [v.entidadeId, v]));
  const chosen = field.entidades.filter((e) => vinculos.perfis[e.id]);
  // the body lists the entidades with a perfil, in this order: its errors are by that index
  const indexOf = (e: OpcaoEntidade) => chosen.findIndex((x) => x.id === e.id);
  const perfilError = (e: OpcaoEntidade) => {
    const i = indexOf(e);
    return errors[perfilErrorKey(e.id)] ?? errors[`${path}.${i}.perfilId`] ?? errors[`${path}.${i}.entidadeId`];
  };
  return (
    <>
      <Card title={label}>
        {error ? <Alert variant="error">{error}</Alert> : null}
        <div className="form-grid">
          {field.entidades.map((e) => (
            <SelectField
              key={e.id}
              id={fieldId(perfilErrorKey(e.id))}
              label={`Perfil em ${e.nome}`}
              required={e.atual}
              disabled={readOnly}
              placeholder={e.atual ? 'Selecione…' : 'Sem acesso'}
              value={vinculos.perfis[e.id] ?? ''}
              error={perfilError(e)}
              onChange={(event) => onChange({ ...vinculos, perfis: { ...vinculos.perfis, [e.id]: event.target.value } }, perfilErrorKey(e.id))}
              options={e.perfis.map((p) => {
                const bloqueio = original.get(e.id)?.perfilId === p.id ? null : perfilBloqueio(p, e);
                return { value: p.id, label: bloqueio ? `${p.nome} (${bloqueio})` : p.nome, disabled: bloqueio !== null };
              })}
            />
          ))}
        </div>
      </Card>
      {chosen.length > 0 ? (
        <Card title="Centros de custo">
          {chosen.map((e, i) => (
            <CentrosCustoField
              key={e.id}
              id={fieldId(`${path}.${i}.centrosCusto`)}
              entidade={e}
              perfilTodos={e.perfis.find((p) => p.id === vinculos.perfis[e.id])?.todosCentros ?? false}
              selected={vinculos.centros[e.id] ?? []}
              original={original.get(e.id)?.centrosCusto ?? []}
              error={errors[`${path}.${i}.centrosCusto`]}
              readOnly={readOnly}
              onChange={(ids) => onChange({ ...vinculos, centros: { ...vinculos.centros, [e.id]: ids } }, `${path}.${i}.centrosCusto`)}
            />
          ))}
        </Card>
      ) : null}
    </>
  );
}

type SenhaField = { name: string; hint?: string; required?: boolean; autoComplete?: string };

/** A new password; not shown when the account cannot be changed by the caller (`podeAlterarConta: false`). */
function SenhaRender({ field, id, label, value, error, record, readOnly, onChange }: FieldRenderProps<SenhaField>) {
  if (record?.podeAlterarConta === false) return null;
  return (
    <PasswordField
      id={id}
      label={label}
      required={field.required}
      hint={field.hint}
      autoComplete={field.autoComplete ?? 'new-password'}
      readOnly={readOnly}
      value={String(value ?? '')}
      error={error}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

type TagsField = { name: string; hint?: string; declared: readonly TagInfo[] };

/** The perfil's tags: every tag declared by the enabled plugins (and the perfil's, and the caller's); only held ones can be added. */
function TagsRender({ field, id, label, value, error, record, readOnly, onChange }: FieldRenderProps<TagsField>) {
  const session = useSession();
  const tags = Array.isArray(value) ? (value as number[]) : [];
  const options = tagOptions(field.declared, Array.isArray(record?.tags) ? (record.tags as number[]) : [], session?.tags ?? []);
  return (
    <fieldset className="field" aria-describedby={`${id}-dica`} style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="field__label">{label}</legend>
      <p id={`${id}-dica`} className="field__hint">
        {field.hint}
      </p>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <div id={id} tabIndex={-1} className="form-grid" data-testid="perfil-tags">
        {options.map((o) => {
          const checked = tags.includes(o.tag);
          return (
            <CheckboxField
              key={o.tag}
              label={`${o.nome} (${o.tag})`}
              checked={checked}
              disabled={readOnly || (!o.held && !checked)}
              onChange={(e) => onChange(e.target.checked ? [...tags, o.tag] : tags.filter((t) => t !== o.tag))}
            />
          );
        })}
      </div>
    </fieldset>
  );
}

/** Registers the usuários field types (idempotent: a page evaluated again replaces them). */
export function registerUsuariosFieldTypes(): void {
  registerFieldType<SenhaField>('usuarios.senha', {
    render: SenhaRender,
    toForm: () => '',
    // typed or nothing: an empty password is left out of the body (kept on an update; the create schema asks for it)
    fromForm: (_field, value) => (typeof value === 'string' && value !== '' ? value : undefined),
  });
  registerFieldType<EntidadesField>('usuarios.entidades', {
    render: EntidadesRender,
    wide: true,
    toForm: (_field, value) => vinculosToForm(value),
    fromForm: (field, value) => vinculosToBody(field.entidades, (value as Vinculos | undefined) ?? { perfis: {}, centros: {} }),
    paths: (field, value, path) => {
      const vinculos = (value as Vinculos | undefined) ?? { perfis: {}, centros: {} };
      const chosen = field.entidades.filter((e) => vinculos.perfis[e.id]);
      return [...field.entidades.map((e) => perfilErrorKey(e.id)), ...chosen.map((_e, i) => `${path}.${i}.centrosCusto`)];
    },
  });
  registerFieldType<TagsField>('usuarios.tags', {
    render: TagsRender,
    wide: true,
    toForm: (_field, value) => (Array.isArray(value) ? (value as number[]).filter((t) => !isExemptTag(t)) : []),
    fromForm: (_field, value) => (Array.isArray(value) ? [...(value as number[])].sort((a, b) => a - b) : []),
  });
}
