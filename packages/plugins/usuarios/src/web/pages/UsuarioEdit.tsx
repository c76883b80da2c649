import {
  apiErrorMessage,
  issuesToFieldErrors,
  toast,
  useApi,
  useMutation,
  useQuery,
  useQueryClient,
  useSession,
  useUnsavedChangesGuard,
} from '@app/core';
import {
  Alert,
  Button,
  Card,
  CheckboxField,
  maskCpf,
  PageHeader,
  PageLoading,
  PasswordField,
  SelectField,
  TextField,
} from '@app/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import {
  MENSAGENS,
  type Opcoes,
  SENHA_MIN,
  type Usuario,
  usuarioCreateSchema,
  usuarioUpdateSchema,
} from '../../shared/index';
import { type FieldErrors, INVALID_MESSAGE, saveError, sortedIds } from '../forms';
import { type SaveProblem, SaveProblemAlert } from '../SaveProblemAlert';

type OpcaoEntidade = Opcoes['entidades'][number];

interface FormState {
  nome: string;
  login: string;
  email: string;
  cpf: string;
  cargo: string;
  ativo: boolean;
  senha: string;
  /** entidadeId → perfilId ('' = no access there). */
  perfis: Record<string, string>;
  /** entidadeId → ids of the user's centros de custo there. */
  centros: Record<string, string[]>;
}

function initialState(usuario: Usuario | undefined): FormState {
  return {
    nome: usuario?.nome ?? '',
    login: usuario?.login ?? '',
    email: usuario?.email ?? '',
    cpf: maskCpf(usuario?.cpf ?? ''),
    cargo: usuario?.cargo ?? '',
    ativo: usuario?.ativo ?? true,
    senha: '',
    perfis: Object.fromEntries((usuario?.entidades ?? []).map((v) => [v.entidadeId, v.perfilId])),
    centros: Object.fromEntries((usuario?.entidades ?? []).map((v) => [v.entidadeId, v.centrosCusto])),
  };
}

/** What the form would save (order-free): differs from the loaded one when there are unsaved changes. */
function snapshot(form: FormState): string {
  const entidades = Object.keys(form.perfis)
    .filter((id) => form.perfis[id])
    .sort()
    .map((id) => [id, form.perfis[id], sortedIds(form.centros[id] ?? [])]);
  const { nome, login, email, cpf, cargo, ativo, senha } = form;
  return JSON.stringify({ nome, login, email, cpf, cargo, ativo, senha, entidades });
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
  entidade,
  perfilTodos,
  selected,
  original,
  error,
  onChange,
}: {
  entidade: OpcaoEntidade;
  perfilTodos: boolean;
  selected: readonly string[];
  original: readonly string[];
  error: string | undefined;
  onChange: (ids: string[]) => void;
}) {
  const id = `centros-${entidade.id}`;
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
              disabled={!checked && (!podeDar || !c.ativo)}
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

function UsuarioForm({
  usuario,
  opcoes,
  onDirty,
  leave,
}: {
  usuario?: Usuario;
  opcoes: Opcoes;
  /** Whether there are unsaved changes (the page's guard asks before leaving). */
  onDirty: (dirty: boolean) => void;
  /** Navigates away in code (past the page's guard). */
  leave: (to: string) => void;
}) {
  const api = useApi();
  const session = useSession();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<FormState>(() => initialState(usuario));
  const [baseline] = useState(() => snapshot(initialState(usuario)));
  const dirty = snapshot(form) !== baseline;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const editing = Boolean(usuario);
  const self = usuario?.id === session?.user.id;
  // the account row is shared with an entidade the caller does not administer: the server refuses changes (403)
  const contaBloqueada = usuario ? !usuario.podeAlterarConta : false;
  const original = new Map((usuario?.entidades ?? []).map((v) => [v.entidadeId, v.perfilId]));
  const originalCentros = new Map((usuario?.entidades ?? []).map((v) => [v.entidadeId, v.centrosCusto]));

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['usuarios'] });
    toast.success(message);
    leave('');
  };
  const failed = (error: unknown) => {
    const e = saveError(error);
    setErrors(e.fields);
    setProblem({ message: e.message, stale: e.stale });
  };

  const save = useMutation({
    mutationFn: (body: unknown) =>
      usuario ? api.put(`usuarios/usuarios/${usuario.id}`, { json: body }).json() : api.post('usuarios/usuarios', { json: body }).json(),
    onSuccess: () => done(editing ? 'Usuário salvo.' : 'Usuário criado.'),
    onError: failed,
  });
  const setAtivo = useMutation({
    mutationFn: (ativo: boolean) =>
      api.post(`usuarios/usuarios/${usuario!.id}/${ativo ? 'reativar' : 'desativar'}`, { json: { version: usuario!.version } }).json(),
    onSuccess: (_data, ativo) => done(ativo ? 'Usuário reativado.' : 'Usuário desativado.'),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => api.delete(`usuarios/usuarios/${usuario!.id}`),
    onSuccess: () => done('Usuário removido desta entidade.'),
    onError: (error) => {
      setConfirmRemove(false);
      failed(error);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = {
      nome: form.nome,
      login: form.login,
      email: form.email,
      cpf: form.cpf,
      cargo: form.cargo,
      ativo: form.ativo,
      entidades: opcoes.entidades
        .filter((e) => form.perfis[e.id])
        .map((e) => ({
          entidadeId: e.id,
          perfilId: form.perfis[e.id]!,
          // only centros the form offers (an id no longer registered is dropped)
          centrosCusto: e.centrosCusto.map((c) => c.id).filter((id) => (form.centros[e.id] ?? []).includes(id)),
        })),
      ...(form.senha || !editing ? { senha: form.senha } : {}),
      ...(usuario ? { version: usuario.version } : {}),
    };
    const parsed = (editing ? usuarioUpdateSchema : usuarioCreateSchema).safeParse(body);
    const fields = parsed.success ? {} : issuesToFieldErrors(parsed.error.issues);
    const atual = opcoes.entidades.find((e) => e.atual);
    if (atual && !form.perfis[atual.id]) fields[`perfil.${atual.id}`] = MENSAGENS.entidadeAtualObrigatoria;
    setErrors(fields);
    if (Object.keys(fields).length > 0) {
      setProblem({ message: INVALID_MESSAGE, stale: false });
      return;
    }
    save.mutate(body);
  };

  const indexOf = (e: OpcaoEntidade) => opcoes.entidades.filter((x) => form.perfis[x.id]).findIndex((x) => x.id === e.id);
  const perfilError = (e: OpcaoEntidade) => {
    const index = indexOf(e);
    return errors[`perfil.${e.id}`] ?? errors[`entidades.${index}.perfilId`] ?? errors[`entidades.${index}.entidadeId`];
  };

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Editar usuário' : 'Novo usuário'}>
      <SaveProblemAlert problem={problem} />
      <Card title="Dados do usuário">
        {contaBloqueada ? (
          <Alert variant="info" title="Conta compartilhada com outra entidade">
            {MENSAGENS.contaCompartilhadaAviso}
          </Alert>
        ) : null}
        <div className="form-grid">
          <TextField label="Nome" required disabled={contaBloqueada} value={form.nome} error={errors.nome} onChange={(e) => set('nome', e.target.value)} autoComplete="off" />
          <TextField label="Login" required disabled={contaBloqueada} value={form.login} error={errors.login} onChange={(e) => set('login', e.target.value)} autoComplete="off" spellCheck={false} />
          <TextField label="E-mail" type="email" required disabled={contaBloqueada} value={form.email} error={errors.email} onChange={(e) => set('email', e.target.value)} autoComplete="off" />
          <TextField
            label="CPF"
            inputMode="numeric"
            disabled={contaBloqueada}
            value={form.cpf}
            error={errors.cpf}
            hint="Opcional"
            onChange={(e) => set('cpf', maskCpf(e.target.value))}
            autoComplete="off"
          />
          <TextField label="Cargo" disabled={contaBloqueada} value={form.cargo} error={errors.cargo} onChange={(e) => set('cargo', e.target.value)} />
          {contaBloqueada ? null : (
            <PasswordField
              label={editing ? 'Nova senha' : 'Senha inicial'}
              required={!editing}
              autoComplete="new-password"
              hint={editing ? `Deixe em branco para manter a senha atual. Mínimo de ${SENHA_MIN} caracteres.` : `Mínimo de ${SENHA_MIN} caracteres.`}
              value={form.senha}
              error={errors.senha}
              onChange={(e) => set('senha', e.target.value)}
            />
          )}
        </div>
        <CheckboxField
          label="Ativo"
          hint={self ? 'Você não pode desativar o seu próprio usuário.' : 'Um usuário inativo não consegue entrar.'}
          checked={form.ativo}
          disabled={self || contaBloqueada}
          error={errors.ativo}
          onChange={(e) => set('ativo', e.target.checked)}
        />
      </Card>
      <Card title="Perfis por entidade">
        {errors.entidades ? <Alert variant="error">{errors.entidades}</Alert> : null}
        <div className="form-grid">
          {opcoes.entidades.map((e) => (
            <SelectField
              key={e.id}
              label={`Perfil em ${e.nome}`}
              required={e.atual}
              placeholder={e.atual ? 'Selecione…' : 'Sem acesso'}
              value={form.perfis[e.id] ?? ''}
              error={perfilError(e)}
              onChange={(event) => set('perfis', { ...form.perfis, [e.id]: event.target.value })}
              options={e.perfis.map((p) => {
                const bloqueio = original.get(e.id) === p.id ? null : perfilBloqueio(p, e);
                return {
                  value: p.id,
                  label: bloqueio ? `${p.nome} (${bloqueio})` : p.nome,
                  disabled: bloqueio !== null,
                };
              })}
            />
          ))}
        </div>
      </Card>
      {opcoes.entidades.some((e) => form.perfis[e.id]) ? (
        <Card title="Centros de custo">
          {opcoes.entidades
            .filter((e) => form.perfis[e.id])
            .map((e) => (
              <CentrosCustoField
                key={e.id}
                entidade={e}
                perfilTodos={e.perfis.find((p) => p.id === form.perfis[e.id])?.todosCentros ?? false}
                selected={form.centros[e.id] ?? []}
                original={originalCentros.get(e.id) ?? []}
                error={errors[`entidades.${indexOf(e)}.centrosCusto`]}
                onChange={(ids) => set('centros', { ...form.centros, [e.id]: ids })}
              />
            ))}
        </Card>
      ) : null}
      <div className="form-actions" style={{ marginBottom: 'var(--space-6)' }}>
        <Link href="" className="button button--secondary">
          Cancelar
        </Link>
        <Button type="submit" loading={save.isPending}>
          Salvar
        </Button>
      </div>
      {usuario && !self ? (
        <Card title="Acesso">
          <p>
            {contaBloqueada
              ? 'Remover desta entidade retira só o acesso a esta entidade; o acesso às outras entidades continua.'
              : usuario.ativo
                ? 'Desativar impede o usuário de entrar em qualquer entidade; o histórico é mantido.'
                : 'Este usuário está desativado e não consegue entrar.'}
          </p>
          <div className="form-actions" style={{ justifyContent: 'flex-start', marginTop: 0 }}>
            {contaBloqueada ? null : (
              <Button variant="secondary" loading={setAtivo.isPending} onClick={() => setAtivo.mutate(!usuario.ativo)}>
                {usuario.ativo ? 'Desativar usuário' : 'Reativar usuário'}
              </Button>
            )}
            {confirmRemove ? (
              <>
                <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>
                  Confirmar remoção
                </Button>
                <Button variant="ghost" onClick={() => setConfirmRemove(false)}>
                  Cancelar remoção
                </Button>
              </>
            ) : (
              <Button variant="danger" icon="trash" onClick={() => setConfirmRemove(true)}>
                Remover desta entidade
              </Button>
            )}
          </div>
        </Card>
      ) : null}
    </form>
  );
}

/** '/usuarios/new' and '/usuarios/edit/:id'. */
export default function UsuarioEdit() {
  const api = useApi();
  const [, navigate] = useLocation();
  const { id } = useParams<{ id?: string }>();
  // the guard lives here, not in the form: the form is mounted again on each version (after 'Recarregar')
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);
  const leave = (to: string) => navigate(to, { replace: guard.release() });
  const opcoes = useQuery({ queryKey: ['usuarios', 'opcoes'], queryFn: () => api.get('usuarios/opcoes').json<Opcoes>() });
  const usuario = useQuery({
    queryKey: ['usuarios', 'usuario', id],
    queryFn: () => api.get(`usuarios/usuarios/${id}`).json<Usuario>(),
    enabled: Boolean(id),
  });
  const title = id ? 'Editar usuário' : 'Novo usuário';
  const error = opcoes.error ?? usuario.error;
  return (
    <div data-testid="usuario-form">
      <PageHeader
        title={title}
        description={usuario.data ? `${usuario.data.nome} (${usuario.data.login})` : undefined}
        before={<Link href="">Voltar para Usuários</Link>}
      />
      {error ? (
        <Alert variant="error" title="Não foi possível carregar o usuário">
          {apiErrorMessage(error)}
        </Alert>
      ) : opcoes.data && (!id || usuario.data) ? (
        <UsuarioForm
          key={`${id ?? 'novo'}:${usuario.data?.version ?? 0}`}
          usuario={usuario.data}
          opcoes={opcoes.data}
          onDirty={setDirty}
          leave={leave}
        />
      ) : (
        <PageLoading />
      )}
      {guard.dialog}
    </div>
  );
}
