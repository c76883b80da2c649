import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../src/testing.js';
import { crudPlugin } from './fixtures/crud-plugin.js';

type PageBody = { items: { nome: string }[]; total: number };

/** Best of `runs` timings of one list request, in ms (in-process, through auth, zod and drizzle). */
async function timed(server: TestServer, token: string, query: string, runs = 5): Promise<{ ms: number; body: PageBody }> {
  let best = Number.POSITIVE_INFINITY;
  let body: PageBody | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await server.request(`/api/crud/grupos?${query}`, { token });
    body = (await res.json()) as PageBody;
    best = Math.min(best, performance.now() - t0);
    expect(res.status).toBe(200);
  }
  return { ms: best, body: body! };
}

// The embedded database is the slow one (WebAssembly, one connection): the list must stay well under
// 100 ms at 100 000 rows, searching without accents through the pg_trgm index on `busca`.
describe('defineCrudResource list at 100 000 rows [pglite]', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await createTestServer([crudPlugin]);
    const { entidades } = await server.signIn();
    const prefeitura = entidades.find((e) => e.nome.startsWith('Prefeitura'))!.id;
    token = (await server.signIn('admin', 'demo1234', prefeitura)).token;
    // 40 products × 25 variants: a word matches 1/40 or 1/25 of the rows, two words 1/1000
    await server.sql(
      `INSERT INTO crud_grupos (entidade_id, codigo, nome, quantidade)
       SELECT $1, lpad(g::text, 6, '0'),
              (ARRAY['Caneta', 'Papel', 'Detergente', 'Arroz', 'Feijão', 'Óleo', 'Luva', 'Seringa', 'Cimento', 'Lâmpada',
                     'Lápis', 'Borracha', 'Grampeador', 'Envelope', 'Pasta', 'Toner', 'Cartucho', 'Sabão', 'Desinfetante', 'Vassoura',
                     'Esponja', 'Copo', 'Guardanapo', 'Café', 'Leite', 'Macarrão', 'Farinha', 'Sal', 'Gaze', 'Atadura',
                     'Algodão', 'Máscara', 'Avental', 'Bota', 'Capacete', 'Tinta', 'Pincel', 'Parafuso', 'Prego', 'Cabo'])[1 + g % 40]
                || ' ' ||
              (ARRAY['azul', 'vermelho', 'A4', 'líquido', 'em pó', 'agulhinha', 'carioca', 'de soja', 'de procedimento', 'descartável',
                     'CP-II', 'LED', 'nº 2', 'branca', 'reforçado', 'ofício', 'suspensa', 'preto', 'colorido', 'em barra',
                     'de pelo', 'dupla face', 'plástico', 'de papel', 'integral'])[1 + (g / 40) % 25]
                || ' ' || substr(md5(g::text), 1, 10),
              g % 1000
         FROM generate_series(1, 99900) g`,
      [prefeitura],
    );
    await server.sql(
      `INSERT INTO crud_grupos (entidade_id, codigo, nome) SELECT $1, 'A' || g, 'Açúcar cristal ' || g FROM generate_series(1, 100) g`,
      [prefeitura],
    );
    await server.sql('ANALYZE crud_grupos');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('searches "acucar" (finds "Açúcar") in well under 100 ms', async () => {
    const { ms, body } = await timed(server, token, 'q=acucar&sort=nome');
    expect(body.total).toBe(100);
    expect(body.items[0]!.nome).toBe('Açúcar cristal 1');
    console.info(`list q=acucar at 100 000 rows: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(100);
  });

  it('searches two words, sorts descending and pages in well under 100 ms', async () => {
    const { ms, body } = await timed(server, token, 'q=LUVA%20procedimento&sort=-codigo&page=3&pageSize=20');
    expect(body.total).toBe(100);
    expect(body.items.every((i) => i.nome.startsWith('Luva de procedimento'))).toBe(true);
    console.info(`list q="LUVA procedimento" sort=-codigo page 3: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(100);
  });

  it('searches one common word (2 498 rows match), sorted by name, in well under 100 ms', async () => {
    const { ms, body } = await timed(server, token, 'q=lampada&sort=nome');
    expect(body.total).toBe(2498);
    console.info(`list q=lampada (2 498 rows) sort=nome: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(100);
  });

  it('searches a letter found in almost every row, sorted by name, in under 100 ms', async () => {
    const { ms, body } = await timed(server, token, 'q=a&sort=nome&page=2');
    expect(body.total).toBeGreaterThan(90_000);
    console.info(`list q=a (${body.total} rows) sort=nome page 2: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(100);
  });

  it('lists the first page of all 100 000 rows by name in under 100 ms', async () => {
    const { ms, body } = await timed(server, token, 'sort=nome');
    expect(body.total).toBe(100_000);
    console.info(`list all, sort=nome: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(100);
  });
});
