// @vitest-environment jsdom
import { mockApi, pageOf, renderPlugin, signInForTest } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { MensagemCaixaSaida, PageOf } from '../../src/shared/index';
import usuarios from '../../src/web/index';
import { textParts } from '../../src/web/links';
import { makeSession } from './helpers';

const start = (path: string) => renderPlugin(usuarios, { path });

const T = { timeout: 5000 };
const LINK = 'http://127.0.0.1:4310/recoveryPass?token=Abc_123-xyz';

const recuperacao: MensagemCaixaSaida = {
  id: '7',
  to: 'requisitante@exemplo.gov.br',
  subject: 'Compras: criar nova senha',
  body: [
    'Olá, Rita Requisitante.',
    '',
    'Para criar a nova senha, abra o link abaixo em até 30 minutos:',
    '',
    LINK,
    '',
    'O link só pode ser usado uma vez.',
  ].join('\n'),
  // 13:05 UTC is 10:05 in America/Sao_Paulo
  createdAt: '2025-03-10T13:05:00.000Z',
};
const antiga: MensagemCaixaSaida = {
  id: '3',
  to: 'comprador@exemplo.gov.br',
  subject: 'Compras: aviso',
  body: 'Sem links aqui.',
  createdAt: '2025-03-09T02:30:00.000Z',
};

const pagina = (items: MensagemCaixaSaida[], total = items.length): PageOf<MensagemCaixaSaida> => ({ ...pageOf(items), total });

describe('outbox page (/usuarios/caixa-de-saida)', () => {
  it('lists Data (São Paulo time), Para and Assunto as the API orders them, with the total and the SMTP explanation', async () => {
    signInForTest(makeSession());
    const { calls } = mockApi({ 'GET /api/auth/outbox': () => Response.json(pagina([recuperacao, antiga])) });
    start('/usuarios/caixa-de-saida');
    expect(await screen.findByRole('heading', { level: 1, name: 'Caixa de saída' }, T)).toBeTruthy();
    expect(screen.getByText(/SMTP_URL/).textContent).toMatch(/30 minutos.*uma vez/);
    expect(screen.getByRole('link', { name: 'Voltar para Usuários' }).getAttribute('href')).toBe('/usuarios');

    const table = await screen.findByRole('table', { name: 'Mensagens da caixa de saída, mais recentes primeiro' }, T);
    await within(table).findByRole('rowheader', { name: /Compras: criar nova senha/ }, T);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Data', 'Para', 'Assunto']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['10/03/2025 10:05', 'requisitante@exemplo.gov.br'],
      ['08/03/2025 23:30', 'comprador@exemplo.gov.br'],
    ]);
    expect(rows.map((r) => within(r).getByRole('button').textContent)).toEqual([
      'Compras: criar nova senha (mensagem para requisitante@exemplo.gov.br, 10/03/2025 10:05)',
      'Compras: aviso (mensagem para comprador@exemplo.gov.br, 08/03/2025 23:30)',
    ]);
    expect(screen.getByRole('navigation', { name: 'Paginação' }).textContent).toContain('2 mensagens');

    const call = calls.find((c) => c.path === '/api/auth/outbox')!;
    expect(call.method).toBe('GET');
    expect(call.search.get('page')).toBe('1');
    expect(call.search.get('pageSize')).toBe('20');
    expect(call.search.has('q')).toBe(false);
  });

  it('search sends q to the API and keeps it in the URL; paging keeps the search', async () => {
    signInForTest(makeSession());
    const { calls } = mockApi({ 'GET /api/auth/outbox': () => Response.json(pagina([recuperacao], 45)) });
    start('/usuarios/caixa-de-saida');
    await screen.findByRole('rowheader', { name: /Compras: criar nova senha/ }, T);
    expect(screen.getByRole('navigation', { name: 'Paginação' }).textContent).toContain('45 mensagens');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Pesquisar' }), { target: { value: '  requisitante ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(calls.some((c) => c.search.get('q') === 'requisitante')).toBe(true), T);
    expect(window.location.pathname).toBe('/usuarios/caixa-de-saida');
    expect(window.location.search).toBe('?q=requisitante');

    fireEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    await waitFor(() => expect(calls.some((c) => c.search.get('page') === '2' && c.search.get('q') === 'requisitante')).toBe(true), T);
    expect(new URLSearchParams(window.location.search).get('page')).toBe('2');
    expect(new URLSearchParams(window.location.search).get('q')).toBe('requisitante');
  });

  it('the search and page of the URL go to the API on the first load', async () => {
    signInForTest(makeSession());
    const { calls } = mockApi({ 'GET /api/auth/outbox': () => Response.json({ ...pagina([antiga], 30), page: 2 }) });
    start('/usuarios/caixa-de-saida?q=aviso&page=2');
    await screen.findByRole('rowheader', { name: /Compras: aviso/ }, T);
    expect((screen.getByRole('searchbox', { name: 'Pesquisar' }) as HTMLInputElement).value).toBe('aviso');
    expect(calls.map((c) => [c.search.get('q'), c.search.get('page')])).toEqual([['aviso', '2']]);
  });

  it('opening a message shows its body as plain text with the recovery link clickable; it closes again', async () => {
    signInForTest(makeSession());
    mockApi({ 'GET /api/auth/outbox': () => Response.json(pagina([recuperacao, antiga])) });
    start('/usuarios/caixa-de-saida');
    const toggle = await screen.findByRole('button', { name: /^Compras: criar nova senha/ }, T);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('mensagem-corpo')).toBeNull();
    expect(screen.queryByRole('link', { name: /recoveryPass/ })).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const body = document.getElementById(toggle.getAttribute('aria-controls') ?? '')!;
    expect(body).toBeTruthy();
    // in a full-width row right under the message's row
    const detailRow = toggle.closest('tr')!.nextElementSibling!;
    expect(detailRow.contains(body)).toBe(true);
    expect(
      within(detailRow as HTMLElement)
        .getByRole('cell')
        .getAttribute('colspan'),
    ).toBe('3');
    expect(body.style.whiteSpace).toBe('pre-wrap');
    expect(body.textContent).toContain('Olá, Rita Requisitante.\n\nPara criar a nova senha');
    const link = within(body).getByRole('link', { name: /recoveryPass/ });
    expect(link.getAttribute('href')).toBe(LINK);
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.textContent).toBe(`${LINK} (abre em nova aba)`);
    // only the opened message shows its body
    expect(screen.getAllByTestId('mensagem-corpo')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /^Compras: aviso/ }).getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-controls')).toBeNull();
    expect(screen.queryByTestId('mensagem-corpo')).toBeNull();
  });

  it('a message with files says how many; opened, it lists each by name and size, downloaded through the API', async () => {
    const had = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:anexo'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    onTestFinished(() => {
      click.mockRestore();
      Object.assign(URL, { createObjectURL: had.create, revokeObjectURL: had.revoke });
    });
    const convite: MensagemCaixaSaida = {
      id: '9',
      to: 'vendas@alfa.com.br',
      subject: 'Pedido de cotação 12/2026',
      body: 'Prezados(as), Alfa Papelaria.',
      createdAt: '2025-03-10T13:05:00.000Z',
      anexos: [
        { ordem: 1, nome: 'formulario-cotacao-12-2026-alfa-papelaria.xlsx', tipo: 'application/octet-stream', tamanho: 12_800 },
        { ordem: 2, nome: 'instrucoes.pdf', tipo: 'application/pdf', tamanho: 900 },
      ],
    };
    signInForTest(makeSession());
    const { calls } = mockApi({
      'GET /api/auth/outbox': () => Response.json(pagina([convite, antiga])),
      'GET /api/auth/outbox/9/anexos/1': () => new Response('planilha', { headers: { 'content-type': 'application/octet-stream' } }),
    });
    start('/usuarios/caixa-de-saida');
    const toggle = await screen.findByRole('button', { name: /^Pedido de cotação 12\/2026 · 2 anexos/ }, T);
    expect(screen.getByRole('button', { name: /^Compras: aviso/ }).textContent).not.toContain('anexo');
    fireEvent.click(toggle);
    const lista = screen.getByRole('list', { name: 'Anexos da mensagem' });
    expect(
      within(lista)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Baixar formulario-cotacao-12-2026-alfa-papelaria.xlsx (13 KB)', 'Baixar instrucoes.pdf (900 bytes)']);
    fireEvent.click(within(lista).getByRole('button', { name: 'Baixar formulario-cotacao-12-2026-alfa-papelaria.xlsx' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/auth/outbox/9/anexos/1');
  });

  it("empty outbox: 'Nenhuma mensagem na caixa de saída.' and no pagination", async () => {
    signInForTest(makeSession());
    mockApi({ 'GET /api/auth/outbox': () => Response.json(pagina([])) });
    start('/usuarios/caixa-de-saida');
    expect(await screen.findByText('Nenhuma mensagem na caixa de saída.', {}, T)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Paginação' })).toBeNull();
  });

  it('an API error shows the standard alert with the message and a retry', async () => {
    signInForTest(makeSession());
    let fail = true;
    const { calls } = mockApi({
      'GET /api/auth/outbox': () =>
        fail ? Response.json({ error: { code: 'internal', message: 'Erro interno. Tente novamente.' } }, { status: 500 }) : Response.json(pagina([antiga])),
    });
    start('/usuarios/caixa-de-saida');
    const alert = await screen.findByRole('alert', {}, T);
    expect(alert.textContent).toContain('Não foi possível carregar a caixa de saída');
    expect(alert.textContent).toContain('Erro interno. Tente novamente.');
    expect(screen.queryByText('Nenhuma mensagem na caixa de saída.')).toBeNull();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('rowheader', { name: /Compras: aviso/ }, T)).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  it("the users list links to the outbox next to 'Perfis'", async () => {
    signInForTest(makeSession());
    mockApi({ 'GET /api/usuarios/usuarios': () => Response.json(pageOf([])) });
    start('/usuarios');
    const link = await screen.findByRole('link', { name: 'Caixa de saída' }, T);
    expect(link.getAttribute('href')).toBe('/usuarios/caixa-de-saida');
    expect(screen.getByRole('link', { name: 'Perfis' }).nextElementSibling).toBe(link);
  });
});

describe('textParts', () => {
  it('splits http(s) addresses out of plain text, trailing punctuation left as text', () => {
    expect(textParts('Abra https://x.gov.br/a?token=1_2-3. Ou (http://y/b), ou ftp://z.')).toEqual([
      { kind: 'text', text: 'Abra ' },
      { kind: 'link', href: 'https://x.gov.br/a?token=1_2-3' },
      { kind: 'text', text: '. Ou (' },
      { kind: 'link', href: 'http://y/b' },
      { kind: 'text', text: '), ou ftp://z.' },
    ]);
    expect(textParts('sem links\n<b>nada</b>')).toEqual([{ kind: 'text', text: 'sem links\n<b>nada</b>' }]);
    expect(textParts('https:// só')).toEqual([{ kind: 'text', text: 'https:// só' }]);
    expect(textParts('')).toEqual([]);
  });
});
