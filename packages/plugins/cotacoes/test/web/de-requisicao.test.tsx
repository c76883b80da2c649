// @vitest-environment jsdom
// A new cotação from an approved requisição (/cotacao/de-requisicao), against a mocked API.
import { type ApiCall, makeTestSession, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import plugin from '../../src/web/index';

const T = { timeout: 8000 };
const REQ = '00000000-0000-4000-8000-0000000000e1';
const NOVA = '00000000-0000-4000-8000-0000000000c2';
const CENTRO = '00000000-0000-4000-8000-0000000000d1';

const requisicao = {
  id: REQ,
  numero: 7,
  ano: 2026,
  data: '2026-03-02',
  justificativa: 'Reposição do material de expediente das escolas no semestre.',
  centroCustoId: CENTRO,
  centroCustoNome: '02 – Secretaria de Educação',
  solicitanteNome: 'Rita Requisitante',
  valorTotal: '12000.00',
  itens: 3,
  cotacao: null,
};
const nova = {
  id: NOVA,
  numero: 13,
  ano: 2026,
  status: 'rascunho',
  objeto: requisicao.justificativa,
  centroCustoId: CENTRO,
  requisicaoId: REQ,
  requisicaoNumero: '7/2026',
  dataReferencia: '2026-03-05',
  prazo: null,
  metodo: 'media_saneada',
  iterar: false,
  version: 1,
  itens: [],
  transicoes: ['iniciar', 'cancelar'],
  editavel: true,
};

const api = (post: (call: ApiCall) => Response, searches: URLSearchParams[]) => ({
  'GET /api/cotacoes/cotacoes': () => Response.json(pageOf([])),
  'GET /api/cotacoes/centros-custo': () => Response.json(pageOf([])),
  'GET /api/cotacoes/requisicoes-aprovadas': (call: ApiCall) => {
    searches.push(call.search);
    return Response.json(pageOf(call.search.get('q') === 'nada' ? [] : [requisicao]));
  },
  'POST /api/cotacoes/cotacoes/de-requisicao': post,
});

async function escolher() {
  const combo = await screen.findByRole('combobox', { name: 'Requisição aprovada' }, T);
  combo.focus();
  fireEvent.change(combo, { target: { value: '7/2026' } });
  await screen.findByRole('option', { name: /7\/2026 – Reposição do material/ }, T);
  fireEvent.keyDown(combo, { key: 'ArrowDown' });
  fireEvent.keyDown(combo, { key: 'Enter' });
  return combo;
}

describe('cotação from an approved requisição', () => {
  it('from the list: asks for the requisição, finds it, shows items and total, posts it, names the new cotação and opens its collection', async () => {
    let posted: unknown = null;
    const searches: URLSearchParams[] = [];
    renderPlugin(plugin, {
      path: '/cotacao',
      session: makeTestSession({ tags: [73] }),
      api: api((call) => {
        posted = call.body;
        return Response.json(nova, { status: 201 });
      }, searches),
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Nova a partir de requisição' }, T));
    expect(await screen.findByRole('heading', { level: 1, name: 'Nova cotação a partir de requisição' }, T)).toBeTruthy();

    // nothing chosen: the field says so and nothing is posted
    fireEvent.click(screen.getByRole('button', { name: 'Criar cotação' }));
    expect(await screen.findByText('Escolha a requisição aprovada.', {}, T)).toBeTruthy();
    const combo = screen.getByRole('combobox', { name: 'Requisição aprovada' });
    expect(combo.getAttribute('aria-describedby')).toContain('de-requisicao-requisicao-erro');
    expect(posted).toBeNull();

    fireEvent.change(combo, { target: { value: 'nada' } });
    expect((await screen.findAllByText('Nenhuma requisição aprovada sem cotação encontrada', {}, T)).length).toBeGreaterThan(0);
    await escolher();
    const option = searches.at(-1)!;
    expect(option.get('q')).toBe('7/2026');
    expect(option.get('disponiveis')).toBe('true');
    const escolhida = await screen.findByTestId('requisicao-escolhida', {}, T);
    expect(within(escolhida).getByText('3 itens')).toBeTruthy();
    expect(within(escolhida).getByText('R$ 12.000,00')).toBeTruthy();
    expect(within(escolhida).getByText('02 – Secretaria de Educação')).toBeTruthy();
    expect(within(escolhida).getByText('02/03/2026')).toBeTruthy();
    expect(screen.queryByText('Escolha a requisição aprovada.')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Criar cotação' }));
    expect(await screen.findByText('Cotação 13/2026 criada a partir da requisição 7/2026.', {}, T)).toBeTruthy();
    expect(posted).toEqual({ requisicaoId: REQ });
    await waitFor(() => expect(window.location.pathname).toBe(`/cotacao/add/${NOVA}`), T);
  });

  it("a requisição already priced (409) is said in the server's words on the field, and the page stays", async () => {
    renderPlugin(plugin, {
      path: '/cotacao/de-requisicao',
      session: makeTestSession({ tags: [73] }),
      api: api(
        () =>
          Response.json(
            { error: { code: 'requisicao_cotada', message: 'Esta requisição já tem a cotação 12/2026: cancele-a para cotar de novo.' } },
            { status: 409 },
          ),
        [],
      ),
    });
    const combo = await escolher();
    await screen.findByTestId('requisicao-escolhida', {}, T);
    fireEvent.click(screen.getByRole('button', { name: 'Criar cotação' }));
    const erro = await screen.findByText('Esta requisição já tem a cotação 12/2026: cancele-a para cotar de novo.', {}, T);
    expect(erro.id).toBe('de-requisicao-requisicao-erro');
    expect(combo.getAttribute('aria-describedby')).toContain(erro.id);
    expect(window.location.pathname).toBe('/cotacao/de-requisicao');
  });

  it('a 400 with the field (not approved any more) shows on the field', async () => {
    renderPlugin(plugin, {
      path: '/cotacao/de-requisicao',
      session: makeTestSession({ tags: [73] }),
      api: api(
        () =>
          Response.json(
            { error: { code: 'validation_error', message: 'Verifique os campos destacados.', fields: { requisicaoId: 'Escolha uma requisição aprovada.' } } },
            { status: 400 },
          ),
        [],
      ),
    });
    await escolher();
    await screen.findByTestId('requisicao-escolhida', {}, T);
    fireEvent.click(screen.getByRole('button', { name: 'Criar cotação' }));
    expect((await screen.findByText('Escolha uma requisição aprovada.', {}, T)).id).toBe('de-requisicao-requisicao-erro');
  });

  it('without tag 73 the page answers Erro 403', async () => {
    renderPlugin(plugin, { path: '/cotacao/de-requisicao', session: makeTestSession({ tags: [39] }), api: api(() => new Response(null), []) });
    expect(await screen.findByRole('heading', { name: 'Erro 403' }, T)).toBeTruthy();
  });
});
