// The PNCP price source alone, with an injected fetch: answers the fake does not give (a consultation route
// that does not exist at PNCP_CONSULTA_URL, a refused query, a connection refused) and the cache.
import { expect, it } from 'vitest';
import { fontePncp } from '../../src/server/precos.js';

const consulta = { codigo: '461780', descricao: null, dataInicial: '2025-12-05', dataFinal: '2026-12-05', pagina: 1 };
const ctx = {} as never;
const erroDe = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as { status: number; code: string; message: string };
  }
  throw new Error('expected an error');
};

it('a consultation route missing at PNCP_CONSULTA_URL tells the administrator what to check', async () => {
  const fonte = fontePncp({ consultaUrl: 'https://pncp.example.gov.br/api/consulta' }, { fetch: async () => new Response('Not Found', { status: 404 }) });
  const e = await erroDe(fonte.buscar(consulta, ctx));
  expect([e.status, e.code, e.message]).toEqual([
    503,
    'pncp_indisponivel',
    'A consulta de preços do PNCP não foi encontrada em https://pncp.example.gov.br: o administrador deve conferir PNCP_CONSULTA_URL.',
  ]);
});

it("a refused query shows the PNCP's own messages; a connection refused asks to try again", async () => {
  const recusa = fontePncp(
    { consultaUrl: 'https://pncp.example.gov.br/api/consulta' },
    { fetch: async () => Response.json({ erros: [{ nomeCampo: 'dataInicial', mensagem: 'Data inicial inválida.' }] }, { status: 400 }) },
  );
  expect((await erroDe(recusa.buscar(consulta, ctx))).message).toBe('O PNCP recusou a consulta: Data inicial inválida.');
  const fora = fontePncp(
    { consultaUrl: 'https://pncp.example.gov.br/api/consulta' },
    {
      fetch: async () => {
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      },
    },
  );
  const e = await erroDe(fora.buscar(consulta, ctx));
  expect([e.status, e.message]).toEqual([503, 'Não foi possível falar com o PNCP. Tente de novo em instantes.']);
});

it('keeps an answer 5 minutes (the same page is not asked twice), then asks again', async () => {
  let agora = Date.parse('2026-12-05T12:00:00Z');
  const urls: string[] = [];
  const fonte = fontePncp(
    { consultaUrl: 'https://pncp.example.gov.br/api/consulta/' },
    {
      now: () => agora,
      fetch: async (url) => {
        urls.push(String(url));
        return new Response(null, { status: 204 });
      },
    },
  );
  await fonte.buscar(consulta, ctx);
  await fonte.buscar(consulta, ctx);
  expect(urls).toEqual([
    'https://pncp.example.gov.br/api/consulta/v1/itens-resultado?dataInicial=2025-12-05&dataFinal=2026-12-05&pagina=1&tamanhoPagina=20&codigoItemCatalogo=461780',
  ]);
  agora += 5 * 60 * 1000 + 1;
  await fonte.buscar(consulta, ctx);
  expect(urls).toHaveLength(2);
});
