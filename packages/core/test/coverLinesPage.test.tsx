// CoverLinesPage (the kit's "convert lines of a source" page): every pending line included with all
// that is pending, a quantity above it refused before the API, the body from the plugin, the server's
// `itens.N.*` message on the line, then the created document opens.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CoverLinesPage } from '../src/index';
import { getCoreStore, tokenAtom } from '../src/store';
import { json, makeToken, mockApi } from './helpers';

type Linha = { id: string; pendente: string; nome: string; valorUnitario: string };
const T = { timeout: 5000 };

function renderPage(post: (body: Record<string, unknown>) => Response) {
  getCoreStore().set(tokenAtom, makeToken());
  const posted: Record<string, unknown>[] = [];
  const api = mockApi({
    'GET /api/x/demandas/d1': () => json({ id: 'd1', numero: 4, ano: 2026, titulo: 'Material' }),
    'GET /api/x/demandas/pendentes': () =>
      json({
        items: [
          { id: 'l1', pendente: '60.0000', nome: 'Lápis', valorUnitario: '2.5000' },
          { id: 'l2', pendente: '10.0000', nome: 'Borracha', valorUnitario: '1.0000' },
        ],
      }),
    'POST /api/x/pedidos': async (req) => {
      const body = (await req.json()) as Record<string, unknown>;
      posted.push(body);
      return post(body);
    },
  });
  const memory = memoryLocation({ path: '/converter/d1', record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Router hook={memory.hook}>
        <CoverLinesPage<Linha>
          source={{ endpoint: '/x/demandas', id: 'd1' }}
          pending={{ path: 'x/demandas/pendentes', searchParams: { demandaId: 'd1' } }}
          target={{ endpoint: '/x/pedidos', documento: 'Pedido', editHref: (id) => `/pedido/${id}` }}
          title={(row) => `Atender a demanda ${String(row.numero)}/${String(row.ano)}`}
          back={<a href="/">Voltar</a>}
          errorTitle={{ page: 'Atender a demanda', alert: 'Não foi possível carregar a demanda' }}
          columns={({ include, quantity }) => [include, { key: 'nome', header: 'Item' }, quantity('Quantidade no pedido')]}
          lines={{
            title: 'Itens',
            caption: 'Itens pendentes',
            empty: 'Nada pendente.',
            name: (l) => l.nome,
            unitValue: (l) => l.valorUnitario,
            toBody: (l, quantidade) => ({ demandaItemId: l.id, quantidade }),
          }}
          body={(row, itens) => ({ titulo: row.titulo, itens })}
          submitLabel="Criar pedido"
          created={(created) => `Pedido ${String(created.numero)} criado.`}
        />
      </Router>
    </QueryClientProvider>,
  );
  return { posted, memory, api };
}

describe('CoverLinesPage', () => {
  it('includes every pending line with all that is pending; above it is refused before the API; posts the chosen lines and opens the new document', async () => {
    const { posted, memory } = renderPage(() => json({ id: 'p9', numero: 9, ano: 2026 }, 201));
    expect(await screen.findByRole('heading', { level: 1, name: 'Atender a demanda 4/2026' }, T)).toBeTruthy();
    const lapis = screen.getByLabelText('Quantidade de Lápis no pedido') as HTMLInputElement;
    expect(lapis.value).toBe('60');
    expect(screen.getByText('R$ 160,00')).toBeTruthy();
    fireEvent.change(lapis, { target: { value: '61' } });
    fireEvent.click(screen.getByRole('button', { name: 'Criar pedido' }));
    expect(await screen.findByText('A quantidade passa do pendente (60).', {}, T)).toBeTruthy();
    expect(posted).toEqual([]);
    fireEvent.change(lapis, { target: { value: '2,5' } });
    fireEvent.click(screen.getByLabelText('Incluir Borracha'));
    expect(screen.getByText('R$ 6,25')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Criar pedido' }));
    await waitFor(() => expect(memory.history?.at(-1)).toBe('/pedido/p9'), T);
    expect(posted).toEqual([{ titulo: 'Material', itens: [{ demandaItemId: 'l1', quantidade: '2.5' }] }]);
  });

  it("puts the server's message for itens.N on that line", async () => {
    renderPage(() =>
      json(
        {
          error: {
            code: 'demanda_indisponivel',
            message: 'A demanda não está mais enviada.',
            fields: { 'itens.1.demandaItemId': 'A demanda deste item não está enviada.' },
          },
        },
        409,
      ),
    );
    await screen.findByRole('heading', { level: 1, name: 'Atender a demanda 4/2026' }, T);
    fireEvent.click(screen.getByRole('button', { name: 'Criar pedido' }));
    expect(await screen.findByText('A demanda deste item não está enviada.', {}, T)).toBeTruthy();
    const borracha = screen.getByLabelText('Quantidade de Borracha no pedido');
    expect(borracha.getAttribute('aria-invalid')).toBe('true');
  });
});
