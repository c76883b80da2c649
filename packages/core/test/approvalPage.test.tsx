// DocumentApprovalPage (the approval page of a document approved by value levels): the level awaited,
// who may decide (por substituição too), the steps of the round, exactly the transitions the server
// lists (no Duplicar nor PDF here), a field the dialog requires asked before anything is sent
// (TransitionDialogState.require), and the toast naming the next level.
import { defineFlow } from '@app/documents';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { DocumentApprovalPage, type TransitionDialogState } from '../src/index';
import { getCoreStore, tokenAtom } from '../src/store';
import { toastsAtom } from '../src/toast/queue';
import { json, makeToken, mockApi } from './helpers';

const T = { timeout: 5000 };
const fluxo = defineFlow({
  initial: 'rascunho',
  states: { rascunho: { label: 'Rascunho', editable: true }, em_aprovacao: { label: 'Em aprovação' }, aprovado: { label: 'Aprovado' } },
  transitions: {
    enviar: { from: ['rascunho'], to: 'em_aprovacao', label: 'Enviar', done: 'enviado' },
    aprovar: { from: ['em_aprovacao'], to: 'aprovado', label: 'Aprovar', who: ['aprovador'], done: 'aprovado', tone: 'primary' },
    devolver: { from: ['em_aprovacao'], to: 'rascunho', label: 'Devolver', reason: true, who: ['aprovador'], done: 'devolvido' },
    cancelar: { from: ['rascunho'], to: 'rascunho', label: 'Cancelar', reason: true, done: 'cancelado' },
  },
});
const pedido = (over: Record<string, unknown> = {}) => ({
  id: 'p1',
  numero: 5,
  ano: 2026,
  version: 3,
  status: 'em_aprovacao',
  nivelAtual: 1,
  transicoes: ['aprovar', 'devolver'],
  ...over,
});
const etapas = {
  niveis: 2,
  nivelAtual: 1,
  ciclo: 1,
  etapas: [
    { nivel: 1, nome: 'Chefia', aprovadoPor: null, aprovadoEm: null, substituicao: null },
    { nivel: 2, nome: 'Ordenador', aprovadoPor: null, aprovadoEm: null, substituicao: null },
  ],
  podemDecidir: [
    { nome: 'Cláudia', via: 'titular' },
    { nome: 'Sônia', via: 'substituto' },
  ],
};

/** A dialog field required before sending (as requisições' dispensa acknowledgement). */
function Ciente({ state }: { state: TransitionDialogState }) {
  const { require } = state;
  const ok = state.body.ciente === true;
  useEffect(() => require('ciente', ok ? null : 'Marque que viu.'), [require, ok]);
  return (
    <label>
      <input type="checkbox" checked={ok} onChange={(e) => state.setBody({ ...state.body, ciente: e.target.checked })} />
      Vi o aviso
      {state.errors.ciente ? <span>{state.errors.ciente}</span> : null}
    </label>
  );
}

function renderPage(record: Record<string, unknown>, posted: Record<string, unknown>[]) {
  getCoreStore().set(tokenAtom, makeToken());
  getCoreStore().set(toastsAtom, []);
  mockApi({
    'GET /api/x/pedidos/p1': () => json(record),
    'GET /api/x/pedidos/p1/aprovacao': () => json(etapas),
    'GET /api/x/pedidos/p1/historico': () => json({ items: [], truncated: false }),
    'POST /api/x/pedidos/p1/aprovar': async (req) => {
      posted.push((await req.json()) as Record<string, unknown>);
      return json(pedido({ nivelAtual: 2, version: 4, transicoes: [] }));
    },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Router hook={memoryLocation({ path: '/aprovar/p1' }).hook}>
        <DocumentApprovalPage
          doc={{
            endpoint: '/x/pedidos',
            flow: fluxo,
            documento: 'Pedido',
            feminino: false,
            transitionDialog: (name, _row, state) => (name === 'aprovar' ? <Ciente state={state} /> : null),
          }}
          id="p1"
          title="Aprovação do pedido"
          back={{ href: '/', label: 'Voltar' }}
          open={{ href: '/edit/p1', label: 'Abrir pedido' }}
        >
          {(row) => <p>Conteúdo do pedido {String(row.numero)}</p>}
        </DocumentApprovalPage>
      </Router>
    </QueryClientProvider>,
  );
}

const toasts = () =>
  getCoreStore()
    .get(toastsAtom)
    .map((t) => t.message);

describe('DocumentApprovalPage', () => {
  it('shows the level awaited, who may decide, the steps and the plugin content; only the listed transitions; a required dialog field is asked before the API; the toast names the next level', async () => {
    const posted: Record<string, unknown>[] = [];
    renderPage(pedido(), posted);
    expect(await screen.findByRole('heading', { level: 1, name: 'Aprovação do pedido 5/2026' }, T)).toBeTruthy();
    expect(await screen.findByText(/Aguardando o nível 1 de 2\./, {}, T)).toBeTruthy();
    expect(screen.getByTestId('quem-decide').textContent).toBe('Pode decidir agora: Cláudia; Sônia (por substituição: substituto indicado na alçada).');
    const lista = screen.getByRole('list', { name: 'Etapas de aprovação' });
    expect(within(lista).getByText(/aguardando aprovação/)).toBeTruthy();
    expect(within(lista).getByText(/a seguir/)).toBeTruthy();
    expect(screen.getByText('Conteúdo do pedido 5')).toBeTruthy();
    for (const name of ['Aprovar', 'Devolver']) expect(screen.getByRole('button', { name })).toBeTruthy();
    for (const name of ['Duplicar', 'Imprimir (PDF)', 'Enviar']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('link', { name: 'Abrir pedido' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    const dialog = await screen.findByRole('alertdialog', {}, T);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aprovar' }));
    expect(await within(dialog).findByText('Marque que viu.', {}, T)).toBeTruthy();
    expect(posted).toEqual([]);
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Aprovar' }));
    await waitFor(() => expect(posted).toEqual([{ ciente: true, version: 3 }]), T);
    await waitFor(() => expect(toasts()).toContain('Aprovação registrada. Pedido 5/2026 segue para o nível 2.'), T);
  });

  it('a person who may not act: no buttons and why', async () => {
    renderPage(pedido({ transicoes: [] }), []);
    expect(await screen.findByText(/Você não pode aprovar este pedido agora/, {}, T)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Aprovar' })).toBeNull();
  });
});
