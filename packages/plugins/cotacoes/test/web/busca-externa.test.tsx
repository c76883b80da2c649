// @vitest-environment jsdom
// 'Buscar no PNCP' on the collection page ('Por item'), rendered by core's App against mocked answers of
// GET /api/cotacoes/fontes-externas, GET …/fontes-externas/pncp and POST …/fontes-externas/pncp.
import { makeTestSession, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BuscaExterna, FonteExterna, MapaCotacao } from '../../src/shared/index';
import plugin from '../../src/web/index';
import { BASE, COT, MAPA_URL, P1, mapaDeExemplo } from './cotacao-fixture';

const T = { timeout: 8000 };
const session = makeTestSession({ tags: [73] });
const PNCP: FonteExterna = {
  id: 'pncp',
  nome: 'PNCP',
  acao: 'Buscar no PNCP',
  descricao: 'Preços homologados de contratações similares publicadas no Portal Nacional de Contratações Públicas.',
  fonte: 'contrato',
};
const linha = (n: number, over: Partial<BuscaExterna['itens'][number]> = {}): BuscaExterna['itens'][number] => ({
  ref: `11222333000181-1-000012/2026#${n}#1`,
  descricao: `Papel A4 sulfite, lote ${n}`,
  unidade: 'Resma',
  unidadeDiferente: false,
  quantidade: '300',
  valorUnitario: '24.3975',
  fornecedor: 'Papelaria Central Ltda',
  orgao: 'Prefeitura Municipal de Exemplo',
  local: 'Exemplo/MG',
  data: '2026-02-10',
  link: 'https://pncp.gov.br/app/editais/11222333000181/2026/12',
  fonteDescricao: `PNCP, contratação 11222333000181-1-000012/2026, item ${n}, resultado 1`,
  jaIncluido: false,
  ...over,
});
const resposta = (itens: BuscaExterna['itens'], over: Partial<BuscaExterna> = {}): BuscaExterna => ({
  itens,
  pagina: 1,
  tamanhoPagina: 20,
  totalPaginas: 1,
  total: itens.length,
  dataInicial: '2025-03-01',
  dataFinal: '2026-03-01',
  codigo: '461780',
  descricao: null,
  consultadoEm: '2026-03-02T12:15:00.000Z',
  ...over,
});

function comCodigo(): MapaCotacao {
  const mapa = mapaDeExemplo();
  mapa.itens[0]!.codigoCatalogo = '461780';
  return mapa;
}

const abrir = (mapa: MapaCotacao, rotas: Record<string, (c: { search: URLSearchParams; body: unknown }) => Response>, fontes: FonteExterna[] = [PNCP]) =>
  renderPlugin(plugin, {
    path: `/cotacao/add/${COT}?aba=item&item=${P1}`,
    session,
    api: { [`GET ${MAPA_URL}`]: () => Response.json(mapa), 'GET /api/cotacoes/fontes-externas': () => Response.json({ items: fontes }), ...rotas },
  });

describe("coleta de preços: 'Buscar no PNCP'", () => {
  it('searches by the item’s CATMAT code, lists the results (a different unit flagged, one already included) and includes the chosen one', async () => {
    let post: unknown;
    const { calls } = abrir(comCodigo(), {
      [`GET ${BASE}/fontes-externas/pncp`]: () =>
        Response.json(
          resposta([
            linha(1),
            linha(2, { unidade: 'Caixa', unidadeDiferente: true, valorUnitario: '119.9', orgao: 'Câmara Municipal de Outra Cidade', local: 'Outra Cidade/SP' }),
            linha(3, { jaIncluido: true }),
          ]),
        ),
      [`POST ${BASE}/fontes-externas/pncp`]: (c) => {
        post = c.body;
        return Response.json({ items: [{}] }, { status: 201 });
      },
    });
    const form = await screen.findByRole('form', { name: 'Buscar no PNCP: Papel sulfite A4' }, T);
    expect((within(form).getByLabelText(/Código do catálogo/) as HTMLInputElement).value).toBe('461780');
    expect((within(form).getByLabelText(/^Descrição/) as HTMLInputElement).value).toBe('');
    fireEvent.click(within(form).getByRole('button', { name: 'Buscar no PNCP' }));

    const tabela = await screen.findByRole('table', { name: 'Preços encontrados em PNCP' }, T);
    const get = calls.find((c) => c.path === `${BASE}/fontes-externas/pncp`)!;
    expect(Object.fromEntries(get.search)).toEqual({ produtoId: P1, codigo: '461780', pagina: '1' });
    expect(screen.getByText(/Resultados de 01\/03\/2025 a 01\/03\/2026/)).toBeTruthy();
    const linhas = within(tabela).getAllByRole('row').slice(1);
    expect(linhas).toHaveLength(3);
    expect(within(linhas[0]!).getByText('R$ 24,3975')).toBeTruthy();
    expect(within(linhas[0]!).getByText('10/02/2026')).toBeTruthy();
    expect(
      within(linhas[0]!)
        .getByRole('link', { name: /Ver no PNCP/ })
        .getAttribute('href'),
    ).toBe('https://pncp.gov.br/app/editais/11222333000181/2026/12');
    expect(within(linhas[1]!).getByText(/diferente de RESMA: confira antes de incluir/)).toBeTruthy();
    expect(within(linhas[2]!).getByText('Incluído')).toBeTruthy();
    expect(within(linhas[2]!).queryByRole('checkbox')).toBeNull();

    const incluir = screen.getByRole('button', { name: 'Incluir 0 preços' }) as HTMLButtonElement;
    expect(incluir.disabled).toBe(true);
    fireEvent.click(within(linhas[1]!).getByRole('checkbox', { name: /Câmara Municipal de Outra Cidade, 10\/02\/2026, R\$ 119,90/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Incluir 1 preço' }));
    expect(await screen.findByText('1 preço de PNCP incluído.', {}, T)).toBeTruthy();
    expect(post).toEqual({ produtoId: P1, codigo: '461780', pagina: 1, refs: ['11222333000181-1-000012/2026#2#1'] });
  });

  it('without a code the description is searched; nothing found says so; the source’s refusal is shown as it came', async () => {
    let vez = 0;
    abrir(mapaDeExemplo(), {
      [`GET ${BASE}/fontes-externas/pncp`]: (c) => {
        vez += 1;
        if (vez === 1) {
          expect(c.search.get('descricao')).toBe('Papel sulfite A4');
          return Response.json(resposta([], { codigo: null, descricao: 'Papel sulfite A4', totalPaginas: 0 }));
        }
        return Response.json({ error: { code: 'pncp_limite', message: 'O PNCP pediu um intervalo entre consultas. Tente de novo em 7 s.' } }, { status: 429 });
      },
    });
    const form = await screen.findByRole('form', { name: 'Buscar no PNCP: Papel sulfite A4' }, T);
    expect((within(form).getByLabelText(/^Descrição/) as HTMLInputElement).value).toBe('Papel sulfite A4');
    fireEvent.click(within(form).getByRole('button', { name: 'Buscar no PNCP' }));
    expect(await screen.findByText('Nada encontrado em PNCP no período para esta busca.', {}, T)).toBeTruthy();

    fireEvent.change(within(form).getByLabelText(/^Descrição/), { target: { value: 'pa' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Buscar no PNCP' }));
    expect(await within(form).findByText('Informe o código do catálogo ou ao menos 3 letras da descrição.', {}, T)).toBeTruthy();

    fireEvent.change(within(form).getByLabelText(/^Descrição/), { target: { value: 'papel' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Buscar no PNCP' }));
    expect(await screen.findByText('O PNCP pediu um intervalo entre consultas. Tente de novo em 7 s.', {}, T)).toBeTruthy();
  });

  it('shows nothing when no plugin offers an external source', async () => {
    abrir(mapaDeExemplo(), {}, []);
    expect(await screen.findByRole('form', { name: 'Adicionar preço de outra fonte' }, T)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('form', { name: /Buscar no/ })).toBeNull());
  });
});
