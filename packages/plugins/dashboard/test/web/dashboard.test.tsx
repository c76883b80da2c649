// @vitest-environment jsdom
import { definePlugin } from '@app/core';
import { makeTestSession, mockApi, renderPlugin, signInForTest } from '@app/core/testing';
import { screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import dashboard from '../../src/web/index';
import { toCards } from '../../src/web/resumo';

const memorandos = definePlugin({
  id: 'memorandos',
  title: 'Memorandos',
  basePath: '/memorando',
  tag: 29,
  core: '^1.0.0',
  menu: { label: 'Memorandos' },
  routes: [{ path: '/', title: 'Memorandos', load: async () => ({ default: () => null }) }],
});
const fornecedores = definePlugin({
  id: 'fornecedores',
  title: 'Fornecedores',
  basePath: '/fornecedor',
  tag: 73,
  core: '^1.0.0',
  menu: { label: 'Fornecedores' },
  routes: [{ path: '/', title: 'Fornecedores', load: async () => ({ default: () => null }) }],
});

const requisicoes = definePlugin({
  id: 'requisicoes',
  title: 'Requisições',
  basePath: '/requisicao',
  tag: 39,
  core: '^1.0.0',
  menu: { label: 'Requisições' },
  routes: [{ path: '/', title: 'Requisições', load: async () => ({ default: () => null }) }],
});

const start = () => renderPlugin([dashboard, memorandos, fornecedores]);

describe('@app/dashboard manifest', () => {
  it("is the home plugin: id 'dashboard', basePath '/', tag 0, menu 'Início' in 'Geral'", () => {
    expect(dashboard).toMatchObject({
      id: 'dashboard',
      basePath: '/',
      tag: 0,
      title: 'Dashboard',
      packageName: '@app/dashboard',
      menu: { label: 'Início', group: 'Geral', order: 0 },
    });
    expect(dashboard.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(dashboard.routes.map((r) => r.path)).toEqual(['/']);
  });

  it('keeps the manifest module cheap: pages are only dynamic imports', () => {
    const source = readFileSync('src/web/index.ts', 'utf8');
    expect(source).not.toMatch(/^import .*pages/m);
    expect(source).toMatch(/import\('\.\/pages\/DashboardPage'\)/);
  });
});

/** GET /api/pendencias for a user no document contributes pending work to. */
const semPendencias = { 'GET /api/pendencias': () => Response.json({ items: [] }), 'GET /api/indicadores': () => Response.json({ items: [] }) };

describe('dashboard page', () => {
  it('welcomes the user with the entidade, shows the summary and links to the allowed sections', async () => {
    signInForTest(makeTestSession({ tags: [29] }));
    mockApi({
      ...semPendencias,
      'GET /api/dashboard/resumo': () =>
        Response.json({
          cards: [
            { id: 'memorandos', label: 'Memorandos em aberto', value: 1234, href: '/memorando', tag: 29 },
            { id: 'fornecedores', label: 'Fornecedores', value: 7, tag: 73 },
          ],
        }),
    });
    start();
    expect(await screen.findByRole('heading', { level: 1, name: 'Olá, Maria' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Você está trabalhando em Prefeitura de Exemplo.')).toBeTruthy();
    const cards = await screen.findAllByTestId('dashboard-card');
    expect(cards).toHaveLength(1); // the 73 card is hidden: the user lacks the tag
    expect(within(cards[0]!).getByText('1.234')).toBeTruthy();
    const quick = screen.getByRole('region', { name: 'Acesso rápido' });
    expect(within(quick).getByRole('link', { name: 'Memorandos' }).getAttribute('href')).toBe('/memorando');
    expect(within(quick).queryByRole('link', { name: 'Fornecedores' })).toBeNull();
  });

  it('a user without the audit tag: only the figures the server sent, none empty or zeroed', async () => {
    signInForTest(makeTestSession({ tags: [] }));
    mockApi({
      ...semPendencias,
      'GET /api/dashboard/resumo': () =>
        Response.json({
          eventosHoje: { meus: 2 },
          cards: [
            { id: 'minhas-acoes-hoje', label: 'Suas ações hoje', value: 2, hint: 'Registradas na auditoria.' },
            // a figure without value (absent for this user) is not shown
            { id: 'usuarios', label: 'Usuários com acesso', value: null },
            {
              id: 'ultimo-acesso',
              label: 'Seu acesso anterior',
              value: '01/02/2026 08:00',
              hint: 'Nenhuma tentativa de entrada sem sucesso com seu login desde então.',
            },
          ],
        }),
    });
    start();
    const cards = await screen.findAllByTestId('dashboard-card', {}, { timeout: 5000 });
    expect(cards.map((c) => within(c).getAllByText(/./)[0]!.textContent)).toEqual(['Suas ações hoje', 'Seu acesso anterior']);
    expect(screen.queryByText('Eventos registrados hoje')).toBeNull();
    expect(screen.queryByText('Usuários com acesso')).toBeNull();
  });

  it('shows a pt-BR error with a retry when the summary fails', async () => {
    signInForTest(makeTestSession());
    mockApi({
      ...semPendencias,
      'GET /api/dashboard/resumo': () => Response.json({ error: { code: 'erro', message: 'Banco de dados indisponível.' } }, { status: 503 }),
    });
    start();
    await screen.findByRole('heading', { level: 1, name: 'Olá, Maria' }, { timeout: 5000 });
    expect(await screen.findByText('Não foi possível carregar o resumo')).toBeTruthy();
    expect(screen.getByText('Banco de dados indisponível.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });
});

describe('pendências (what the user must act on)', () => {
  const resumo = () => Response.json({ cards: [] });
  it('lists the pending work GET /api/pendencias answers, those above 0, with links', async () => {
    signInForTest(makeTestSession({ tags: [39] }));
    const { calls } = mockApi({
      'GET /api/dashboard/resumo': resumo,
      'GET /api/indicadores': () => Response.json({ items: [] }),
      'GET /api/pendencias': () =>
        Response.json({
          items: [
            {
              id: 'requisicoes.aguardando-minha-aprovacao',
              label: 'Requisições aguardando a minha aprovação',
              href: '/requisicao?aguardandoMinha=1',
              total: 2,
              dias: 12,
            },
            { id: 'requisicoes.minhas-devolvidas', label: 'Minhas requisições devolvidas para correção', href: '/requisicao?status=devolvida', total: 1 },
            { id: 'requisicoes.minhas-pre-requisicoes-abertas', label: 'Minhas pré-requisições em aberto', href: '/pre-requisicao', total: 0 },
          ],
        }),
    });
    renderPlugin([dashboard, requisicoes]);
    const list = await screen.findByTestId('dashboard-pendencias', {}, { timeout: 5000 });
    expect(within(list).getByRole('link', { name: 'Requisições aguardando a minha aprovação: 2' }).getAttribute('href')).toBe('/requisicao?aguardandoMinha=1');
    expect(within(list).getByRole('link', { name: 'Minhas requisições devolvidas para correção: 1' }).getAttribute('href')).toBe(
      '/requisicao?status=devolvida',
    );
    expect(within(list).queryByText(/pré-requisiç/)).toBeNull();
    // the age of the oldest, when the document tells it
    expect(within(list).getByText('— a mais antiga há 12 dias')).toBeTruthy();
    expect(within(list).getAllByText(/a mais antiga/)).toHaveLength(1);
    expect(calls.filter((c) => c.path === '/api/pendencias')).toHaveLength(1);
    // the dashboard no longer calls another plugin's URL
    expect(calls.some((c) => c.path.startsWith('/api/requisicoes/'))).toBe(false);
  });

  it('all at 0: the card says nothing waits', async () => {
    signInForTest(makeTestSession({ tags: [39] }));
    mockApi({
      'GET /api/dashboard/resumo': resumo,
      'GET /api/indicadores': () => Response.json({ items: [] }),
      'GET /api/pendencias': () =>
        Response.json({
          items: [
            { id: 'requisicoes.minhas-devolvidas', label: 'Minhas requisições devolvidas para correção', href: '/requisicao?status=devolvida', total: 0 },
          ],
        }),
    });
    renderPlugin([dashboard, requisicoes]);
    expect(await screen.findByText('Nada aguarda você no momento.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByTestId('dashboard-pendencias')).toBeNull();
  });

  it('no pending list for this user (no tag of a contributing document): no card', async () => {
    signInForTest(makeTestSession({ tags: [29] }));
    const { calls } = mockApi({ 'GET /api/dashboard/resumo': resumo, ...semPendencias });
    renderPlugin([dashboard, requisicoes]);
    await screen.findByRole('heading', { level: 1, name: 'Olá, Maria' }, { timeout: 5000 });
    await screen.findByRole('region', { name: 'Resumo' });
    expect(calls.some((c) => c.path === '/api/pendencias')).toBe(true);
    expect(screen.queryByRole('heading', { name: 'Suas pendências' })).toBeNull();
    expect(calls.some((c) => c.path === '/api/requisicoes/pendencias')).toBe(false);
  });
});

describe('indicadores', () => {
  it('shows each indicator GET /api/indicadores answers: figure, level in words, sentence and the report behind it; none: no card', async () => {
    signInForTest(makeTestSession({ tags: [101] }));
    mockApi({
      ...semPendencias,
      'GET /api/dashboard/resumo': () => Response.json({ cards: [] }),
      'GET /api/indicadores': () =>
        Response.json({
          items: [
            {
              id: 'pca.gasto-contra-plano',
              label: 'Solicitado no ano × Plano de Contratações Anual',
              href: '/reports/pca.por-categoria?ano=2026',
              valor: 'R$ 800,00 de R$ 1.000,00',
              nivel: 'atencao',
              detalhe: '80,0 % do planejado para 2026: perto do total do plano.',
            },
          ],
        }),
    });
    renderPlugin([dashboard]);
    const lista = await screen.findByTestId('dashboard-indicadores', {}, { timeout: 5000 });
    expect(within(lista).getByText('R$ 800,00 de R$ 1.000,00')).toBeTruthy();
    expect(within(lista).getByText('Atenção')).toBeTruthy();
    expect(within(lista).getByText('80,0 % do planejado para 2026: perto do total do plano.')).toBeTruthy();
    expect(within(lista).getByRole('link', { name: 'Ver relatório: Solicitado no ano × Plano de Contratações Anual' }).getAttribute('href')).toBe(
      '/reports/pca.por-categoria?ano=2026',
    );
  });

  it('no indicator for this person: no card', async () => {
    signInForTest(makeTestSession({ tags: [29] }));
    const { calls } = mockApi({ ...semPendencias, 'GET /api/dashboard/resumo': () => Response.json({ cards: [] }) });
    renderPlugin([dashboard]);
    await screen.findByRole('region', { name: 'Resumo' }, { timeout: 5000 });
    await expect.poll(() => calls.some((c) => c.path === '/api/indicadores')).toBe(true);
    expect(screen.queryByRole('heading', { name: 'Indicadores' })).toBeNull();
  });
});

describe('toCards', () => {
  it('accepts { cards } and a flat map of numbers', () => {
    expect(toCards({ cards: [{ label: 'A', value: 1 }] }).cards).toEqual([{ id: '0', label: 'A', value: 1 }]);
    expect(toCards({ requisicoesPendentes: 3, texto: 'x' }).cards).toEqual([{ id: 'requisicoesPendentes', label: 'Requisicoes Pendentes', value: 3 }]);
    expect(toCards(null).cards).toEqual([]);
  });
});
