import { apiErrorMessage, toast, useApi, useMutation, useQuery, useQueryClient, useSession } from '@app/core';
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
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import {
  MENSAGENS,
  type Opcoes,
  SENHA_MIN,
  type Usuario,
  usuarioCreateSchema,
  usuarioUpdateSchema,
} from '../../shared/index';
import { type FieldErrors, saveError, zodFields } from '../forms';
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
  };
}

const grants = (perfilTags: readonly number[], mine: readonly number[]) => perfilTags.every((t) => mine.includes(t));

function UsuarioForm({ usuario, opcoes }: { usuario?: Usuario; opcoes: Opcoes }) {
  const api = useApi();
  const session = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<FormState>(() => initialState(usuario));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const editing = Boolean(usuario);
  const self = usuario?.id === session?.user.id;
  // the account row is shared with an entidade the caller does not administer: the server refuses changes (403)
  const contaBloqueada = usuario ? !usuario.podeAlterarConta : false;
  const original = new Map((usuario?.entidades ?? []).map((v) => [v.entidadeId, v.perfilId]));

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['usuarios'] });
    toast.success(message);
    navigate('');
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
        .map((e) => ({ entidadeId: e.id, perfilId: form.perfis[e.id]! })),
      ...(form.senha || !editing ? { senha: form.senha } : {}),
      ...(usuario ? { version: usuario.version } : {}),
    };
    const parsed = (editing ? usuarioUpdateSchema : usuarioCreateSchema).safeParse(body);
    const fields = parsed.success ? {} : zodFields(parsed.error);
    const atual = opcoes.entidades.find((e) => e.atual);
    if (atual && !form.perfis[atual.id]) fields[`perfil.${atual.id}`] = MENSAGENS.entidadeAtualObrigatoria;
    setErrors(fields);
    if (Object.keys(fields).length > 0) {
      setProblem({ message: 'Verifique os campos destacados.', stale: false });
      return;
    }
    save.mutate(body);
  };

  const perfilError = (e: OpcaoEntidade) => {
    const index = opcoes.entidades.filter((x) => form.perfis[x.id]).findIndex((x) => x.id === e.id);
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
                const allowed = grants(p.tags, e.minhasTags) || original.get(e.id) === p.id;
                return {
                  value: p.id,
                  label: allowed ? p.nome : `${p.nome} (concede permissões que você não possui)`,
                  disabled: !allowed,
                };
              })}
            />
          ))}
        </div>
      </Card>
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
  const { id } = useParams<{ id?: string }>();
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
        <UsuarioForm key={`${id ?? 'novo'}:${usuario.data?.version ?? 0}`} usuario={usuario.data} opcoes={opcoes.data} />
      ) : (
        <PageLoading />
      )}
    </div>
  );
}
