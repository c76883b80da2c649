// '/usuarios/new' and '/usuarios/edit/:id': the resource kit's form (controller, field registry, view)
// with the usuários field types, built once the entidades, perfis and centros de custo are loaded.
import {
  apiErrorMessage,
  type RecordSlotContext,
  type ResourceConfig,
  ResourceForm,
  queryKeys,
  toast,
  useApi,
  useMutation,
  useQuery,
  useQueryClient,
  useSession,
} from '@app/core';
import { Alert, Button, Card, PageHeader, PageLoading } from '@app/ui';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'wouter';
import { MENSAGENS, type Opcoes, SENHA_MIN, type Usuario, usuarioCreateSchema, usuarioUpdateSchema } from '../../shared/index';
import { USUARIOS_ENDPOINT, usuariosKeys } from '../endpoints';
import { perfilErrorKey, registerUsuariosFieldTypes } from '../fields';

registerUsuariosFieldTypes();

type Row = Record<string, unknown>;

/** The account row is shared with an entidade the caller does not administer: the server refuses changes to it (403). */
const contaBloqueada = (_values: Row, record: Row | null) => record?.podeAlterarConta === false;

/** Desativar/Ativar and 'Remover desta entidade' (not for the caller's own user). */
function AcessoPanel({ usuario, ctx }: { usuario: Usuario; ctx: RecordSlotContext<Usuario> }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const bloqueada = !usuario.podeAlterarConta;
  const failed = (error: unknown) => toast.error(apiErrorMessage(error, 'Não foi possível concluir.'), 'Não foi possível concluir');
  const setAtivo = useMutation({
    mutationFn: (ativo: boolean) =>
      api.post(`usuarios/usuarios/${usuario.id}/${ativo ? 'ativar' : 'desativar'}`, { json: { version: usuario.version } }).json<Usuario>(),
    onSuccess: (row, ativo) => {
      ctx.setRecord(row);
      toast.success(ativo ? 'Usuário ativado.' : 'Usuário desativado.');
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => api.delete(`usuarios/usuarios/${usuario.id}`),
    onSuccess: async () => {
      toast.success('Usuário removido desta entidade.');
      await queryClient.invalidateQueries({ queryKey: queryKeys.all(USUARIOS_ENDPOINT) });
      ctx.goToList();
    },
    onError: (error) => {
      setConfirmRemove(false);
      failed(error);
    },
  });
  return (
    <Card title="Acesso">
      <p>
        {bloqueada
          ? 'Remover desta entidade retira só o acesso a esta entidade; o acesso às outras entidades continua.'
          : usuario.ativo
            ? 'Desativar impede o usuário de entrar em qualquer entidade; o histórico é mantido.'
            : 'Este usuário está desativado e não consegue entrar.'}
      </p>
      <div className="form-actions" style={{ justifyContent: 'flex-start', marginTop: 0 }}>
        {bloqueada ? null : (
          <Button variant="secondary" loading={setAtivo.isPending} onClick={() => setAtivo.mutate(!usuario.ativo)}>
            {usuario.ativo ? 'Desativar usuário' : 'Ativar usuário'}
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
  );
}

/** The user form for these entidades (those the caller administers), new or editing `id`. */
export function usuarioConfig(entidades: Opcoes['entidades'], id: string | undefined, sessionUserId: string | undefined): ResourceConfig<Usuario> {
  const editing = Boolean(id);
  const self = editing && id === sessionUserId;
  const conta = 'Dados do usuário';
  return {
    endpoint: USUARIOS_ENDPOINT,
    title: 'Usuários',
    newTitle: 'Novo usuário',
    editTitle: 'Editar usuário',
    columns: [{ key: 'nome', header: 'Nome' }],
    recordLabel: (u) => u.nome,
    describe: (u) => `${u.nome} (${u.login})`,
    // POST answers { id }; the PUT's answer is the user
    createAnswer: 'id',
    // the version goes in the PUT (the controller adds it); the password only on creation is required
    schema: editing ? usuarioUpdateSchema.omit({ version: true }) : usuarioCreateSchema,
    validate: (body) => {
      const atual = entidades.find((e) => e.atual);
      const vinculos = Array.isArray(body.entidades) ? (body.entidades as { entidadeId: string }[]) : [];
      return atual && !vinculos.some((v) => v.entidadeId === atual.id) ? { [perfilErrorKey(atual.id)]: MENSAGENS.entidadeAtualObrigatoria } : {};
    },
    defaults: { ativo: true },
    noDelete: true,
    noToggle: true,
    fields: [
      { name: 'nome', type: 'text', label: 'Nome', required: true, section: conta, readOnlyWhen: contaBloqueada },
      { name: 'login', type: 'text', label: 'Login', required: true, section: conta, readOnlyWhen: contaBloqueada },
      { name: 'email', type: 'text', inputType: 'email', label: 'E-mail', required: true, section: conta, readOnlyWhen: contaBloqueada },
      { name: 'cpf', type: 'masked', mask: '999.999.999-99', label: 'CPF', hint: 'Opcional', section: conta, readOnlyWhen: contaBloqueada },
      { name: 'cargo', type: 'text', label: 'Cargo', section: conta, readOnlyWhen: contaBloqueada },
      {
        name: 'senha',
        type: 'usuarios.senha',
        label: editing ? 'Nova senha' : 'Senha inicial',
        required: !editing,
        hint: editing ? `Deixe em branco para manter a senha atual. Mínimo de ${SENHA_MIN} caracteres.` : `Mínimo de ${SENHA_MIN} caracteres.`,
        section: conta,
      },
      {
        name: 'ativo',
        type: 'checkbox',
        label: 'Ativo',
        hint: self ? MENSAGENS.desativarProprio : 'Um usuário inativo não consegue entrar.',
        section: conta,
        readOnlyWhen: (values, record) => self || contaBloqueada(values, record),
      },
      { name: 'entidades', type: 'usuarios.entidades', label: 'Perfis por entidade', entidades },
    ],
    slots: {
      notices: (u) =>
        u.podeAlterarConta ? null : (
          <Alert variant="info" title="Conta compartilhada com outra entidade">
            {MENSAGENS.contaCompartilhadaAviso}
          </Alert>
        ),
      panels: (u, ctx) => (self ? null : <AcessoPanel key={u.version} usuario={u} ctx={ctx} />),
    },
  };
}

export default function UsuarioEdit() {
  const api = useApi();
  const userId = useSession()?.user.id;
  const { id } = useParams<{ id?: string }>();
  const opcoes = useQuery({ queryKey: usuariosKeys.opcoes, queryFn: () => api.get('usuarios/opcoes').json<Opcoes>() });
  const config = useMemo(() => (opcoes.data ? usuarioConfig(opcoes.data.entidades, id, userId) : null), [opcoes.data, id, userId]);
  if (opcoes.error) {
    return (
      <div data-testid="resource-form">
        <PageHeader title={id ? 'Editar usuário' : 'Novo usuário'} before={<Link href="">← Voltar para Usuários</Link>} />
        <Alert variant="error" title="Não foi possível carregar o usuário">
          {apiErrorMessage(opcoes.error)}
        </Alert>
      </div>
    );
  }
  return config ? <ResourceForm config={config} mode={id ? 'edit' : 'new'} /> : <PageLoading />;
}
