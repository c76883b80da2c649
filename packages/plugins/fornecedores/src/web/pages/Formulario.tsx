import { UFS, formatCpfCnpj, maskCpfCnpjInput, normalizeDocument } from '@app/br';
import { apiErrorBody, apiErrorMessage, apiErrorStatus, toast, useApi, useMutation, useQuery, useQueryClient } from '@app/core';
import { Alert, Button, Card, CheckboxField, PageHeader, PageLoading, SelectField, TextField, TextareaField, maskCep, maskPhone } from '@app/ui';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { type Fornecedor, SITUACAO_LABEL, type Situacao, TIPO_PESSOA_LABEL, fornecedorInputSchema } from '../../shared/index.js';
import { ENDPOINT, TITLES } from '../titles';

interface ContatoForm {
  nome: string;
  email: string;
  telefone: string;
}

interface FormValues {
  documento: string;
  razaoSocial: string;
  nomeFantasia: string;
  cep: string;
  logradouro: string;
  numero: string;
  complemento: string;
  bairro: string;
  municipio: string;
  uf: string;
  contatos: ContatoForm[];
  ramoIds: string[];
  situacao: Situacao;
  impedimentoMotivo: string;
  impedimentoDe: string;
  impedimentoAte: string;
}

type Errors = Record<string, string>;

const EMPTY: FormValues = {
  documento: '',
  razaoSocial: '',
  nomeFantasia: '',
  cep: '',
  logradouro: '',
  numero: '',
  complemento: '',
  bairro: '',
  municipio: '',
  uf: '',
  contatos: [],
  ramoIds: [],
  situacao: 'ativo',
  impedimentoMotivo: '',
  impedimentoDe: '',
  impedimentoAte: '',
};

const apiPath = ENDPOINT.replace(/^\//, '');
const s = (v: string | null | undefined) => v ?? '';

function valuesOf(f: Fornecedor): FormValues {
  return {
    documento: formatCpfCnpj(f.documento),
    razaoSocial: f.razaoSocial,
    nomeFantasia: s(f.nomeFantasia),
    cep: maskCep(f.cep),
    logradouro: f.logradouro,
    numero: s(f.numero),
    complemento: s(f.complemento),
    bairro: s(f.bairro),
    municipio: f.municipio,
    uf: f.uf,
    contatos: f.contatos.map((c) => ({ nome: c.nome, email: s(c.email), telefone: maskPhone(c.telefone) })),
    ramoIds: [...f.ramoIds],
    situacao: f.situacao,
    impedimentoMotivo: s(f.impedimentoMotivo),
    impedimentoDe: s(f.impedimentoDe),
    impedimentoAte: s(f.impedimentoAte),
  };
}

/** Client-side check with the schema the API uses: field path → first pt-BR message. */
export function validateFornecedor(values: FormValues): Errors {
  const result = fornecedorInputSchema.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

const fieldId = (path: string) => `fornecedor-${path.replace(/\./g, '-')}`;

function useRamos(current: { id: string; nome: string }[]) {
  const api = useApi();
  const list = useQuery({
    queryKey: ['resource', '/registros/ramos-atividade', 'options', { ativo: 'true', pageSize: '200', sort: 'nome' }],
    queryFn: () =>
      api
        .get('registros/ramos-atividade', { searchParams: { ativo: 'true', pageSize: '200', sort: 'nome' } })
        .json<{ items: { id: string; nome: string; cnae: string | null }[] }>(),
    staleTime: 30_000,
  });
  const options = useMemo(() => {
    const items = (list.data?.items ?? []).map((r) => ({ value: r.id, label: r.cnae ? `${r.nome} (CNAE ${r.cnae})` : r.nome }));
    for (const r of current) if (!items.some((o) => o.value === r.id)) items.push({ value: r.id, label: `${r.nome} (inativo)` });
    return items;
  }, [list.data, current]);
  return { options, loading: list.isLoading, error: list.isError };
}

/** '/fornecedor/new' and '/fornecedor/edit/:id': the supplier form (CPF/CNPJ, address, contacts, ramos, situação). */
export default function FormularioFornecedor() {
  const { id } = useParams<{ id?: string }>();
  const api = useApi();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const editing = Boolean(id);

  const item = useQuery({
    queryKey: ['resource', ENDPOINT, 'item', id ?? ''],
    enabled: editing,
    queryFn: () => api.get(`${apiPath}/${encodeURIComponent(id!)}`).json<Fornecedor>(),
  });

  const [values, setValues] = useState<FormValues>(EMPTY);
  const [record, setRecord] = useState<Fornecedor | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  useEffect(() => {
    if (item.data && item.data.id !== record?.id) {
      setRecord(item.data);
      setValues(valuesOf(item.data));
    }
  }, [item.data, record?.id]);

  const ramos = useRamos(record?.ramos ?? []);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!(key in e)) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  };
  const setContato = (index: number, key: keyof ContatoForm, value: string) =>
    setValues((v) => ({ ...v, contatos: v.contatos.map((c, i) => (i === index ? { ...c, [key]: value } : c)) }));

  const focusFirst = (errs: Errors) => {
    const first = Object.keys(errs)[0];
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['resource', ENDPOINT] });

  const save = useMutation({
    mutationFn: (body: FormValues) =>
      id
        ? api.put(`${apiPath}/${encodeURIComponent(id)}`, { json: { ...body, version: record?.version } }).json<Fornecedor>()
        : api.post(apiPath, { json: body }).json<Fornecedor>(),
    onSuccess: async () => {
      toast.success('Fornecedor salvo.');
      await invalidate();
      navigate('');
    },
    onError: (error) => {
      const body = apiErrorBody(error);
      if (apiErrorStatus(error) === 409 && body?.code === 'stale') {
        setStale(body.message);
        return;
      }
      if (body?.fields && Object.keys(body.fields).length) {
        setErrors(body.fields);
        setFormError(body.message);
        focusFirst(body.fields);
        return;
      }
      toast.error(apiErrorMessage(error, 'Não foi possível salvar o fornecedor.'));
    },
  });

  const remove = useMutation({
    mutationFn: () => api.delete(`${apiPath}/${encodeURIComponent(id!)}`),
    onSuccess: async () => {
      toast.success('Fornecedor excluído.');
      queryClient.removeQueries({ queryKey: ['resource', ENDPOINT, 'item', id] });
      await invalidate();
      navigate('');
    },
    onError: (error) => {
      setConfirmDelete(false);
      toast.error(apiErrorMessage(error, 'Não foi possível excluir o fornecedor.'), 'Exclusão recusada');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const errs = validateFornecedor(values);
    setErrors(errs);
    if (Object.keys(errs).length) {
      setFormError('Verifique os campos destacados.');
      focusFirst(errs);
      return;
    }
    setFormError(null);
    save.mutate(values);
  };

  const reload = async () => {
    const fresh = await item.refetch();
    if (fresh.data) {
      setRecord(fresh.data);
      setValues(valuesOf(fresh.data));
      setErrors({});
      setStale(null);
    }
  };

  const title = editing ? TITLES.editTitle : TITLES.newTitle;
  const back = (
    <Link href="" className="button button--ghost button--sm">
      ← Voltar para Fornecedores
    </Link>
  );
  if (editing && item.isError) {
    return (
      <div data-testid="fornecedor-form">
        <PageHeader title={title} before={back} />
        <Alert variant="error" title={apiErrorStatus(item.error) === 404 ? 'Fornecedor não encontrado.' : 'Não foi possível carregar o fornecedor.'}>
          {apiErrorStatus(item.error) === 404 ? 'Ele pode ter sido excluído ou pertencer a outra entidade.' : apiErrorMessage(item.error)}
        </Alert>
      </div>
    );
  }
  if (editing && !record) return <PageLoading />;

  const doc = normalizeDocument(values.documento).replace(/[^0-9A-Z]/g, '');
  const tipoPessoa = doc.length === 11 && /^\d+$/.test(doc) ? 'fisica' : doc.length === 14 ? 'juridica' : null;
  const err = (path: string) => errors[path];
  const text = (path: keyof FormValues, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      id={fieldId(path)}
      label={label}
      value={String(values[path])}
      error={err(path)}
      onChange={(e) => set(path, e.target.value as never)}
      {...extra}
    />
  );

  return (
    <div data-testid="fornecedor-form">
      <PageHeader
        title={title}
        before={back}
        description={record ? `${formatCpfCnpj(record.documento)} · ${record.razaoSocial} · ${SITUACAO_LABEL[record.situacao]}` : undefined}
      />
      {stale ? (
        <Alert
          variant="warning"
          title="Registro alterado por outra pessoa"
          actions={
            <Button size="sm" loading={item.isFetching} onClick={() => void reload()}>
              Recarregar
            </Button>
          }
        >
          {stale} Suas alterações não salvas serão descartadas.
        </Alert>
      ) : null}
      {formError ? <Alert variant="error" title={formError} /> : null}
      <form noValidate onSubmit={onSubmit} aria-label={title}>
        <Card title="Identificação">
          <div className="form-grid">
            {text('documento', 'CPF ou CNPJ', {
              required: true,
              autoComplete: 'off',
              spellCheck: false,
              hint: tipoPessoa ? `${TIPO_PESSOA_LABEL[tipoPessoa]}.` : 'Com ou sem máscara; o CNPJ pode ter letras (ex.: 12.ABC.345/01DE-35).',
              onChange: (e) => set('documento', maskCpfCnpjInput(e.target.value)),
            })}
            {text('razaoSocial', tipoPessoa === 'fisica' ? 'Nome' : 'Razão social', { required: true, maxLength: 200 })}
            {text('nomeFantasia', 'Nome fantasia', { maxLength: 200 })}
          </div>
        </Card>
        <Card title="Endereço">
          <div className="form-grid">
            {text('cep', 'CEP', { required: true, inputMode: 'numeric', placeholder: '00000-000', onChange: (e) => set('cep', maskCep(e.target.value)) })}
            {text('logradouro', 'Logradouro', { required: true, maxLength: 200 })}
            {text('numero', 'Número', { maxLength: 20 })}
            {text('complemento', 'Complemento', { maxLength: 100 })}
            {text('bairro', 'Bairro', { maxLength: 100 })}
            {text('municipio', 'Município', { required: true, maxLength: 100 })}
            <SelectField
              id={fieldId('uf')}
              label="UF"
              required
              value={values.uf}
              error={err('uf')}
              placeholder="Selecione…"
              options={UFS.map((uf) => ({ value: uf, label: uf }))}
              onChange={(e) => set('uf', e.target.value)}
            />
          </div>
        </Card>
        <Card
          title="Contatos"
          actions={
            <Button
              variant="secondary"
              size="sm"
              icon="plus"
              onClick={() => setValues((v) => ({ ...v, contatos: [...v.contatos, { nome: '', email: '', telefone: '' }] }))}
            >
              Adicionar contato
            </Button>
          }
        >
          {values.contatos.length === 0 ? <p className="field__hint">Nenhum contato. Use “Adicionar contato”.</p> : null}
          {values.contatos.map((c, i) => {
            const n = i + 1;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: contacts have no id; the position is their identity here
              <fieldset key={i} className="form-grid" style={{ border: 0, padding: 0, margin: '0 0 1rem' }}>
                <legend className="visually-hidden">Contato {n}</legend>
                <TextField
                  id={fieldId(`contatos.${i}.nome`)}
                  label={`Nome do contato ${n}`}
                  value={c.nome}
                  error={err(`contatos.${i}.nome`)}
                  onChange={(e) => setContato(i, 'nome', e.target.value)}
                />
                <TextField
                  id={fieldId(`contatos.${i}.email`)}
                  label={`E-mail do contato ${n}`}
                  type="email"
                  value={c.email}
                  error={err(`contatos.${i}.email`)}
                  onChange={(e) => setContato(i, 'email', e.target.value)}
                />
                <TextField
                  id={fieldId(`contatos.${i}.telefone`)}
                  label={`Telefone do contato ${n}`}
                  type="tel"
                  placeholder="(00) 00000-0000"
                  value={c.telefone}
                  error={err(`contatos.${i}.telefone`)}
                  onChange={(e) => setContato(i, 'telefone', maskPhone(e.target.value))}
                />
                <div style={{ alignSelf: 'end' }}>
                  <Button
                    variant="ghost"
                    size="sm"
                    icon="trash"
                    onClick={() => setValues((v) => ({ ...v, contatos: v.contatos.filter((_c, j) => j !== i) }))}
                  >
                    Remover contato {n}
                  </Button>
                </div>
              </fieldset>
            );
          })}
        </Card>
        <Card title="Ramos de atividade">
          <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby={err('ramoIds') ? `${fieldId('ramoIds')}-erro` : undefined}>
            <legend className="field__label">
              Ramos de atividade <span className="field__required" aria-hidden="true">*</span>
            </legend>
            <p className="field__hint">{ramos.error ? 'Não foi possível carregar os ramos.' : ramos.loading ? 'Carregando…' : 'Escolha ao menos um.'}</p>
            <div id={fieldId('ramoIds')} tabIndex={-1} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(18rem, 1fr))', gap: '0.25rem 1rem' }}>
              {ramos.options.map((o) => (
                <CheckboxField
                  key={o.value}
                  label={o.label}
                  checked={values.ramoIds.includes(o.value)}
                  onChange={(e) =>
                    set(
                      'ramoIds',
                      e.target.checked ? [...values.ramoIds, o.value] : values.ramoIds.filter((x) => x !== o.value),
                    )
                  }
                />
              ))}
            </div>
            {err('ramoIds') ? (
              <p id={`${fieldId('ramoIds')}-erro`} className="field__error">
                {err('ramoIds')}
              </p>
            ) : null}
          </fieldset>
        </Card>
        <Card title="Situação">
          <div className="form-grid">
            <SelectField
              id={fieldId('situacao')}
              label="Situação"
              required
              value={values.situacao}
              error={err('situacao')}
              options={Object.entries(SITUACAO_LABEL).map(([value, label]) => ({ value, label }))}
              hint="Inativo: sai das listas de escolha. Impedido: exige motivo e período."
              onChange={(e) => set('situacao', e.target.value as Situacao)}
            />
            {values.situacao === 'impedido' ? (
              <>
                {text('impedimentoDe', 'Impedido de', { type: 'date', required: true })}
                {text('impedimentoAte', 'Impedido até', { type: 'date', required: true })}
                <div style={{ gridColumn: '1 / -1' }}>
                  <TextareaField
                    id={fieldId('impedimentoMotivo')}
                    label="Motivo do impedimento"
                    required
                    rows={3}
                    value={values.impedimentoMotivo}
                    error={err('impedimentoMotivo')}
                    onChange={(e) => set('impedimentoMotivo', e.target.value)}
                  />
                </div>
              </>
            ) : null}
          </div>
        </Card>
        {confirmDelete ? (
          <Alert
            variant="warning"
            title="Excluir este fornecedor?"
            actions={
              <>
                <Button variant="danger" size="sm" loading={remove.isPending} onClick={() => remove.mutate()}>
                  Confirmar exclusão
                </Button>
                <Button variant="secondary" size="sm" onClick={() => setConfirmDelete(false)}>
                  Manter
                </Button>
              </>
            }
          >
            <strong>{record?.razaoSocial}</strong> será excluído definitivamente. Fornecedores já usados em documentos não podem ser excluídos:
            mude a situação para Inativo.
          </Alert>
        ) : null}
        <div className="form-actions">
          {editing ? (
            <Button variant="danger" icon="trash" style={{ marginInlineEnd: 'auto' }} onClick={() => setConfirmDelete(true)}>
              Excluir
            </Button>
          ) : null}
          <Link href="" className="button button--secondary">
            Cancelar
          </Link>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </div>
      </form>
    </div>
  );
}
