import { formatDateTime } from '@app/br';
import { LoadErrorAlert, buildMenu, queryKeys, useApi, useHasTag, usePlugins, useQuery, useSession } from '@app/core';
import { Card, EmptyState, PageHeader, Spinner } from '@app/ui';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type ResumoCard, toCards } from '../resumo';

function Figure({ card }: { card: ResumoCard }) {
  const allowed = useHasTag(card.tag ?? 0);
  if (!allowed) return null;
  const value = typeof card.value === 'number' ? card.value.toLocaleString('pt-BR') : card.value;
  return (
    <div data-testid="dashboard-card">
      <p className="field__label">{card.label}</p>
      <p className="page-header__title">{value}</p>
      {card.hint ? <p className="field__hint">{card.hint}</p> : null}
      {card.href ? (
        <p>
          {/* visible text "Abrir" only, so the figure's label exists once in the page text */}
          <Link href={card.href} aria-label={`Abrir ${card.label}`}>
            Abrir
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function Summary() {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.plugin('dashboard', 'resumo'),
    queryFn: () => api.get('dashboard/resumo').json<unknown>(),
  });

  if (query.isPending) return <Spinner label="Carregando o resumo…" />;
  if (query.isError) {
    return (
      <LoadErrorAlert
        title="Não foi possível carregar o resumo"
        error={query.error}
        fallback={'Tente novamente em instantes.'}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const { cards, geradoEm } = toCards(query.data);
  if (cards.length === 0) {
    return <EmptyState icon="info" title="Nada para resumir ainda" description="Os números aparecem aqui assim que houver registros." />;
  }
  return (
    <>
      <div className="form-grid">
        {cards.map((card) => (
          <Figure key={card.id} card={card} />
        ))}
      </div>
      {geradoEm ? <p className="field__hint">Atualizado em {formatDateTime(geradoEm)}.</p> : null}
    </>
  );
}

/** One pending list of GET /api/pendencias (server-core's PENDENCIAS, contributed by the documents). */
interface Pendencia {
  id: string;
  label: string;
  href: string;
  total: number;
  /** Days the oldest one has waited, when the document tells. */
  dias?: number;
}

/** ' — a mais antiga desde hoje', ' — a mais antiga há 1 dia', ' — a mais antiga há 12 dias'. */
function idade(dias: number | undefined): string {
  if (dias === undefined) return '';
  if (dias === 0) return ' — a mais antiga desde hoje';
  return ` — a mais antiga há ${dias.toLocaleString('pt-BR')} ${dias === 1 ? 'dia' : 'dias'}`;
}

/**
 * What the user must act on: the lists the documents contribute to the kit's PENDENCIAS (only those
 * whose tag the user holds come back), the ones above 0 with a link to the filtered list. No card
 * when no document contributes one to this user.
 */
function Pendencias() {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.pendencias(),
    queryFn: () => api.get('pendencias').json<{ items: Pendencia[] }>(),
  });
  let body: ReactNode;
  if (query.isPending) body = <Spinner label="Carregando as pendências…" />;
  else if (query.isError) {
    body = <LoadErrorAlert title="Não foi possível carregar as pendências" error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    const todas = query.data.items ?? [];
    if (todas.length === 0) return null;
    const items = todas.filter((p) => p.total > 0);
    body = items.length ? (
      <ul className="dashboard__links" data-testid="dashboard-pendencias">
        {items.map((p) => (
          <li key={p.id}>
            <Link href={p.href}>{`${p.label}: ${p.total.toLocaleString('pt-BR')}`}</Link>
            {p.dias !== undefined ? <span className="field__hint">{idade(p.dias)}</span> : null}
          </li>
        ))}
      </ul>
    ) : (
      <p className="field__hint">Nada aguarda você no momento.</p>
    );
  }
  return <Card title="Suas pendências">{body}</Card>;
}

/** One indicator of GET /api/indicadores (server-core's INDICADORES, contributed by the modules). */
interface Indicador {
  id: string;
  label: string;
  href: string;
  valor: string;
  nivel: 'normal' | 'atencao' | 'critico';
  detalhe: string;
}

/** The level in words (never by colour alone) and its tone. */
const NIVEIS: Record<Indicador['nivel'], { texto: string; background: string; color: string }> = {
  normal: { texto: 'Normal', background: 'var(--color-success-subtle, #e7f5ea)', color: 'var(--color-success-text, #17622a)' },
  atencao: { texto: 'Atenção', background: 'var(--color-warning-subtle, #fff4e0)', color: 'var(--color-warning-text, #7a3e00)' },
  critico: { texto: 'Crítico', background: 'var(--color-danger-subtle, #fdecea)', color: 'var(--color-danger-text, #9b1c12)' },
};

/**
 * The indicators the modules contribute for this person (only those whose tag the person holds, each
 * measured in the person's centros): the figure, its level in words, one sentence, and the report
 * behind it. No card when no module has a figure for this person.
 */
function Indicadores() {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.plugin('dashboard', 'indicadores'),
    queryFn: () => api.get('indicadores').json<{ items: Indicador[] }>(),
  });
  if (query.isPending) return <Spinner label="Carregando os indicadores…" />;
  if (query.isError) {
    return <LoadErrorAlert title="Não foi possível carregar os indicadores" error={query.error} onRetry={() => void query.refetch()} />;
  }
  const items = query.data.items ?? [];
  if (items.length === 0) return null;
  return (
    <Card title="Indicadores">
      <ul className="form-grid" data-testid="dashboard-indicadores" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((i) => {
          const nivel = NIVEIS[i.nivel] ?? NIVEIS.normal;
          return (
            <li key={i.id} data-nivel={i.nivel}>
              <p className="field__label">{i.label}</p>
              <p className="page-header__title">{i.valor}</p>
              <p className="field__hint">
                <span
                  style={{
                    background: nivel.background,
                    color: nivel.color,
                    border: '1px solid currentColor',
                    borderRadius: 'var(--radius-full, 999px)',
                    padding: '0 0.5rem',
                    fontWeight: 600,
                    marginRight: '0.25rem',
                  }}
                >
                  {nivel.texto}
                </span>{' '}
                {i.detalhe}
              </p>
              <p>
                <Link href={i.href} aria-label={`Ver relatório: ${i.label}`}>
                  Ver relatório
                </Link>
              </p>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** Links to the sections of the side menu the user may open (the same rule as the menu). */
function Sections() {
  const session = useSession();
  const entries = buildMenu(usePlugins(), session?.tags).filter((item) => item.href !== '/');
  if (entries.length === 0) return null;
  return (
    <Card title="Acesso rápido">
      <ul className="dashboard__links">
        {entries.map((item) => (
          <li key={item.href}>
            <Link href={item.href}>{item.label}</Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Home page: welcome with user and entidade, summary cards, links to the sections. */
export default function DashboardPage() {
  const session = useSession();
  const firstName = session?.user.nome.split(' ')[0] ?? '';
  return (
    <div className="dashboard" data-testid="dashboard">
      <PageHeader title={`Olá, ${firstName}`} description={session ? `Você está trabalhando em ${session.entidade.nome}.` : undefined} />
      <Pendencias />
      <Indicadores />
      <Card title="Resumo">
        <Summary />
      </Card>
      <Sections />
    </div>
  );
}
