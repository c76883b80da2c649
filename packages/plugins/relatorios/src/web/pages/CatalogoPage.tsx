import { LoadErrorAlert, queryKeys, useApi, useQuery } from '@app/core';
import { Card, EmptyState, PageHeader, Spinner } from '@app/ui';
import { Link } from 'wouter';
import { type RelatorioResumo, catalogoSchema } from '../../shared/index.js';

/** /reports: the reports the person may run, by group (each contributed by the plugin that owns its data). */
export default function CatalogoPage() {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.plugin('relatorios', 'catalogo'),
    queryFn: async () => catalogoSchema.parse(await api.get('relatorios').json()),
  });
  const grupos = new Map<string, RelatorioResumo[]>();
  for (const r of query.data?.items ?? []) grupos.set(r.group, [...(grupos.get(r.group) ?? []), r]);
  return (
    <>
      <PageHeader title="Relatórios" description="Escolha um relatório, ajuste os filtros, confira na tela e baixe em PDF ou XLSX." />
      {query.isPending ? <Spinner label="Carregando os relatórios…" /> : null}
      {query.isError ? <LoadErrorAlert title="Não foi possível carregar os relatórios" error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.isSuccess && grupos.size === 0 ? (
        <EmptyState icon="info" title="Nenhum relatório disponível" description="O seu perfil não dá acesso a nenhum relatório. Fale com o administrador." />
      ) : null}
      {[...grupos].map(([grupo, relatorios]) => (
        <Card key={grupo} title={grupo}>
          <ul>
            {relatorios.map((r) => (
              <li key={r.id}>
                <Link href={`/${r.id}`}>{r.title}</Link>
                <p className="field__hint">{r.description}</p>
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </>
  );
}
