// '/usuarios/perfis/new' and '/usuarios/perfis/edit/:id': the resource kit's form with the perfil's
// tags picker (a usuários field type), built once the tags declared by the plugins are loaded.
import { apiErrorMessage, type ResourceConfig, ResourceForm, useApi, useQuery, useSession } from '@app/core';
import { Alert, PageHeader, PageLoading } from '@app/ui';
import { useMemo } from 'react';
import { Link, useParams } from 'wouter';
import { MENSAGENS, type Perfil, perfilBodySchema, type TagInfo } from '../../shared/index';
import { PERFIS_ENDPOINT, perfisKeys } from '../endpoints';
import { registerUsuariosFieldTypes } from '../fields';

registerUsuariosFieldTypes();

/** The perfil form; `declared`: the tags of the enabled plugins; `todosCentros`: the caller sees every centro de custo. */
export function perfilConfig(declared: readonly TagInfo[], todosCentros: boolean): ResourceConfig<Perfil> {
  return {
    endpoint: PERFIS_ENDPOINT,
    base: '/perfis',
    title: 'Perfis',
    newTitle: 'Novo perfil',
    editTitle: 'Editar perfil',
    columns: [{ key: 'nome', header: 'Nome' }],
    recordLabel: (p) => p.nome,
    describe: (p) =>
      `${p.nome} · ${p.usuarios > 0 ? `atribuído a ${p.usuarios} ${p.usuarios === 1 ? 'usuário' : 'usuários'}` : 'nenhum usuário tem este perfil'}`,
    createAnswer: 'id',
    schema: perfilBodySchema,
    ativo: false,
    messages: {
      deleted: 'Perfil excluído.',
      deleteTitle: 'Excluir este perfil?',
      deleteNote: 'Um perfil atribuído a usuários não pode ser excluído: troque o perfil deles antes.',
    },
    fields: [
      { name: 'nome', type: 'text', label: 'Nome do perfil', required: true, section: 'Perfil' },
      {
        name: 'tags',
        type: 'usuarios.tags',
        label: 'Tags concedidas por este perfil',
        hint: 'Você só pode conceder permissões que possui; as demais aparecem desabilitadas.',
        section: 'Permissões',
        declared,
      },
      {
        name: 'todosCentros',
        type: 'checkbox',
        label: MENSAGENS.todosCentros,
        hint: todosCentros ? MENSAGENS.todosCentrosDica : `${MENSAGENS.todosCentrosDica} Só quem acessa todos os centros de custo pode dar esse acesso.`,
        section: 'Centros de custo',
        // as with tags: only who sees every centro gives that access (one the perfil already has can be kept or removed)
        readOnlyWhen: (values, record) => !todosCentros && record?.todosCentros !== true && values.todosCentros !== true,
      },
    ],
  };
}

export default function PerfilEdit() {
  const api = useApi();
  const todosCentros = useSession()?.todosCentros === true;
  const { id } = useParams<{ id?: string }>();
  const tags = useQuery({ queryKey: perfisKeys.tags, queryFn: () => api.get('usuarios/tags').json<{ items: TagInfo[] }>() });
  const config = useMemo(() => (tags.data ? perfilConfig(tags.data.items, todosCentros) : null), [tags.data, todosCentros]);
  if (tags.error) {
    return (
      <div data-testid="resource-form">
        <PageHeader title={id ? 'Editar perfil' : 'Novo perfil'} before={<Link href="/perfis">← Voltar para Perfis</Link>} />
        <Alert variant="error" title="Não foi possível carregar o perfil">
          {apiErrorMessage(tags.error)}
        </Alert>
      </div>
    );
  }
  return config ? <ResourceForm config={config} mode={id ? 'edit' : 'new'} /> : <PageLoading />;
}
