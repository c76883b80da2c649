import { CORE_VERSION, useRouteInfo, useSession } from '@app/core';
import { Card, PageHeader } from '@app/ui';
import { Link } from 'wouter';

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="field__label">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** '/about/sistema' (tag 3): technical details of this installation and session. */
export default function SystemPage() {
  const session = useSession();
  const route = useRouteInfo();
  const theme = typeof document === 'undefined' ? '' : (document.documentElement.dataset.theme ?? '');
  return (
    <div data-testid="about-system">
      <PageHeader title="Sistema" description="Detalhes técnicos desta instalação, úteis para o suporte." before={<Link href="/">Voltar para Sobre</Link>} />
      <Card title="Instalação">
        <dl className="form-grid">
          <Row label="Aplicação" value={session?.config.appName ?? 'Compras'} />
          <Row label="Build do servidor" value={session?.config.buildId || '—'} />
          <Row label="@app/core" value={CORE_VERSION} />
          <Row label="Ferramentas do desenvolvedor" value={session?.config.devtools.policy === 'report' ? 'Abertura registrada na auditoria' : 'Ignoradas'} />
          <Row label="Telefone do suporte" value={session?.config.supportPhone || '—'} />
        </dl>
      </Card>
      <Card title="Sessão">
        <dl className="form-grid">
          <Row label="Usuário" value={session ? `${session.user.nome} (${session.user.login})` : '—'} />
          <Row label="Entidade" value={session ? `${session.entidade.nome} — ${session.entidade.municipio}/${session.entidade.uf}` : '—'} />
          <Row label="Tags de permissão" value={session?.tags.length ? session.tags.join(', ') : 'nenhuma'} />
          <Row label="Página" value={route ? `${route.title} (tag ${route.tag})` : '—'} />
          <Row label="Tema aplicado" value={theme === 'dark' ? 'Escuro' : 'Claro'} />
          <Row label="Navegador" value={typeof navigator === 'undefined' ? '—' : navigator.userAgent} />
        </dl>
      </Card>
    </div>
  );
}
