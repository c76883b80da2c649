import { CORE_VERSION, LoadErrorAlert, type PluginManifest, pluginMounts, queryKeys, useApi, useHasTag, usePlugins, useQuery } from '@app/core';
import { Link } from 'wouter';
import { Card, PageHeader, Spinner } from '@app/ui';
import { SYSTEM_TAG, toServerRows } from '../versions';

function describeTag(tag: number): string {
  return tag === 0 ? '0 (todos os usuários)' : String(tag);
}

/** The tags of a plugin's sections (one plugin may mount several, e.g. @app/registros). */
function describeTags(plugin: PluginManifest): string {
  return [...new Set(pluginMounts(plugin).map((m) => m.tag))].map(describeTag).join(', ');
}

function ServerVersions() {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.plugin('about', 'versions'),
    queryFn: () => api.get('about/versions').json<unknown>(),
  });
  if (query.isPending) return <Spinner label="Carregando as versões do servidor…" />;
  if (query.isError) {
    return (
      <LoadErrorAlert
        title="Não foi possível obter as versões do servidor"
        error={query.error}
        fallback={'Tente novamente em instantes.'}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const rows = toServerRows(query.data);
  if (rows.length === 0) return <p>O servidor não informou versões.</p>;
  return (
    // a region the keyboard can scroll (the table has no links; at 360 px it is wider than the screen)
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe scrollable-region-focusable)
    <section className="data-table data-table__scroll" tabIndex={0} aria-label="Versões do servidor">
      <table className="data-table__table" data-testid="about-server-versions">
        <caption className="visually-hidden">Versões do servidor</caption>
        <thead>
          <tr>
            <th scope="col">Componente</th>
            <th scope="col">Versão</th>
            <th scope="col">Detalhes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.name}@${row.version}`}>
              <th scope="row">{row.name}</th>
              <td>{row.version}</td>
              <td>{row.detail ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** '/about': version of @app/core and of every enabled plugin (with its tag), and the server's list. */
export default function AboutPage() {
  const plugins = usePlugins();
  const canSeeSystem = useHasTag(SYSTEM_TAG);
  return (
    <div data-testid="about">
      <PageHeader
        title="Sobre"
        description="Versões dos componentes desta instalação do Compras."
        actions={
          canSeeSystem ? (
            <Link href="/sistema" className="button button--secondary">
              Detalhes do sistema
            </Link>
          ) : undefined
        }
      />
      <Card title="Aplicação web" flush>
        {/* a region the keyboard can scroll (no links inside; at 360 px it is wider than the screen) */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (axe scrollable-region-focusable) */}
        <section className="data-table data-table__scroll" tabIndex={0} aria-label="Versões da aplicação web">
          <table className="data-table__table" data-testid="about-web-versions">
            <caption className="visually-hidden">Versões da aplicação web</caption>
            <thead>
              <tr>
                <th scope="col">Pacote</th>
                <th scope="col">Versão</th>
                <th scope="col">Tag de permissão</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">@app/core</th>
                <td>{CORE_VERSION}</td>
                <td>—</td>
              </tr>
              {plugins.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    {p.packageName} <span className="field__hint">({p.title})</span>
                  </th>
                  <td>{p.version}</td>
                  <td>{describeTags(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </Card>
      <Card title="Servidor" flush>
        <ServerVersions />
      </Card>
    </div>
  );
}
