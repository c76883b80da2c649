import { LoadErrorAlert, useApi, useQuery, useSession } from '@app/core';
import { DataTable, type DataTableColumn, PageHeader, Pagination, SearchForm } from '@app/ui';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { PageOf, UsuarioListItem } from '../../shared/index';
import { usuariosKeys } from '../endpoints';

const PAGE_SIZE = 20;

function perfisText(row: UsuarioListItem, entidadeId: string | undefined): string {
  if (row.perfis.length === 0) return '—';
  return row.perfis.map((p) => (p.entidadeId === entidadeId ? p.perfilNome : `${p.perfilNome} (${p.entidadeNome})`)).join('; ');
}

/** '/usuarios': users of the entidade, with search and pagination (search and page kept in the URL). */
export default function UsuariosList() {
  const api = useApi();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);

  const query = useQuery({
    queryKey: usuariosKeys.list(q, page),
    queryFn: () => api.get('usuarios/usuarios', { searchParams: { q, page, pageSize: PAGE_SIZE } }).json<PageOf<UsuarioListItem>>(),
    placeholderData: (previous) => previous,
  });

  const search = () => {
    setParams(text.trim() ? { q: text.trim() } : {});
  };

  const columns: DataTableColumn<UsuarioListItem>[] = [
    { key: 'nome', header: 'Nome', rowHeader: true },
    { key: 'login', header: 'Login' },
    { key: 'email', header: 'E-mail' },
    { key: 'cpf', header: 'CPF', render: (r) => r.cpfMascarado ?? '—' },
    { key: 'cargo', header: 'Cargo', render: (r) => r.cargo ?? '—' },
    { key: 'perfis', header: 'Perfis', render: (r) => perfisText(r, session?.entidade.id) },
    { key: 'ativo', header: 'Ativo', render: (r) => (r.ativo ? 'Sim' : 'Não') },
    {
      key: 'acoes',
      header: <span className="visually-hidden">Ações</span>,
      align: 'end',
      render: (r) => (
        <Link href={`/edit/${r.id}`} className="button button--secondary button--sm" aria-label={`Editar ${r.nome}`}>
          Editar
        </Link>
      ),
    },
  ];

  return (
    <div data-testid="usuarios-lista">
      <PageHeader
        title="Usuários"
        description="Quem acessa esta entidade e com qual perfil."
        actions={
          <>
            <Link href="/perfis" className="button button--secondary">
              Perfis
            </Link>
            <Link href="/caixa-de-saida" className="button button--secondary">
              Caixa de saída
            </Link>
            <Link href="/new" className="button button--primary">
              Novo usuário
            </Link>
          </>
        }
      />
      <SearchForm aria-label="Pesquisar usuários" hint="Nome, login, e-mail ou CPF" value={text} onChange={setText} onSubmit={search} />
      {query.isError ? <LoadErrorAlert title="Não foi possível carregar os usuários" error={query.error} onRetry={() => void query.refetch()} /> : null}
      <DataTable caption="Usuários da entidade" captionHidden columns={columns} rows={query.data?.items ?? []} loading={query.isFetching} />
      {query.data && query.data.total > 0 ? (
        <Pagination
          page={page}
          pageSize={PAGE_SIZE}
          total={query.data.total}
          onPageChange={(next) => setParams(q ? { q, page: String(next) } : { page: String(next) })}
        />
      ) : null}
    </div>
  );
}
