import { LoadErrorAlert, useApi, useQuery } from '@app/core';
import { DataTable, type DataTableColumn, PageHeader, Pagination, VisuallyHidden } from '@app/ui';
import { Link, useSearchParams } from 'wouter';
import { isExemptTag, type PageOf, type Perfil, type TagInfo, tagNome } from '../../shared/index';
import { perfisKeys } from '../endpoints';

const PAGE_SIZE = 50;

/** '/usuarios/perfis': perfis of the entidade and the permissions each grants. */
export default function PerfisList() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useQuery({
    queryKey: perfisKeys.list(page),
    queryFn: () => api.get('usuarios/perfis', { searchParams: { page, pageSize: PAGE_SIZE } }).json<PageOf<Perfil>>(),
    placeholderData: (previous) => previous,
  });
  const tags = useQuery({ queryKey: perfisKeys.tags, queryFn: () => api.get('usuarios/tags').json<{ items: TagInfo[] }>() });
  const declared = tags.data?.items ?? [];

  const columns: DataTableColumn<Perfil>[] = [
    { key: 'nome', header: 'Nome', rowHeader: true },
    {
      key: 'tags',
      header: 'Permissões',
      render: (p) => {
        const tags = p.tags.filter((t) => !isExemptTag(t));
        return tags.length ? tags.map((t) => `${tagNome(t, declared)} (${t})`).join(', ') : 'Nenhuma';
      },
    },
    { key: 'usuarios', header: 'Usuários', align: 'end' },
    { key: 'todosCentros', header: 'Documentos', render: (p) => (p.todosCentros ? 'Todos os centros de custo' : 'Dos centros do usuário') },
    {
      key: 'acoes',
      header: <VisuallyHidden>Ações</VisuallyHidden>,
      align: 'end',
      render: (p) => (
        <Link href={`/perfis/edit/${p.id}`} className="button button--secondary button--sm" aria-label={`Editar perfil ${p.nome}`}>
          Editar
        </Link>
      ),
    },
  ];

  return (
    <div data-testid="perfis-lista">
      <PageHeader
        title="Perfis"
        description="Cada perfil reúne as permissões (tags) que concede aos usuários desta entidade."
        before={<Link href="">Voltar para Usuários</Link>}
        actions={
          <Link href="/perfis/new" className="button button--primary">
            Novo perfil
          </Link>
        }
      />
      {query.isError ? <LoadErrorAlert title="Não foi possível carregar os perfis" error={query.error} onRetry={() => void query.refetch()} /> : null}
      <DataTable caption="Perfis da entidade" captionHidden columns={columns} rows={query.data?.items ?? []} loading={query.isFetching} />
      {query.data && query.data.total > PAGE_SIZE ? (
        <Pagination page={page} pageSize={PAGE_SIZE} total={query.data.total} onPageChange={(next) => setParams({ page: String(next) })} />
      ) : null}
    </div>
  );
}
