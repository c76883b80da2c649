import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../src/testing.js';
import { crudPlugin } from './fixtures/crud-plugin.js';

type PageBody = { items: { nome: string }[]; total: number };

/** One list request (in-process, through auth, zod and drizzle). */
async function list(server: TestServer, token: string, query: string): Promise<{ body: PageBody }> {
  const res = await server.request(`/api/crud/grupos?${query}`, { token });
  expect(res.status).toBe(200);
  return { body: (await res.json()) as PageBody };
}

// Search, sort and paging stay right at 100 000 rows on the embedded database (accent-insensitive
// through the pg_trgm index on `busca`). How fast is measured by `pnpm bench`, never asserted in a
// test: a busy 2-core CI machine would make any time limit flaky.
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
    await server.sql(`INSERT INTO crud_grupos (entidade_id, codigo, nome) SELECT $1, 'A' || g, 'Açúcar cristal ' || g FROM generate_series(1, 100) g`, [
      prefeitura,
    ]);
    await server.sql('ANALYZE crud_grupos');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('searches "acucar" (finds "Açúcar")', async () => {
    const { body } = await list(server, token, 'q=acucar&sort=nome');
    expect(body.total).toBe(100);
    expect(body.items[0]!.nome).toBe('Açúcar cristal 1');
  });

  it('searches two words, sorts descending and pages', async () => {
    const { body } = await list(server, token, 'q=LUVA%20procedimento&sort=-codigo&page=3&pageSize=20');
    expect(body.total).toBe(100);
    expect(body.items.every((i) => i.nome.startsWith('Luva de procedimento'))).toBe(true);
  });

  it('searches one common word (2 498 rows match), sorted by name', async () => {
    const { body } = await list(server, token, 'q=lampada&sort=nome');
    expect(body.total).toBe(2498);
  });

  it('searches a letter found in almost every row, sorted by name', async () => {
    const { body } = await list(server, token, 'q=a&sort=nome&page=2');
    expect(body.total).toBeGreaterThan(90_000);
  });

  it('lists the first page of all 100 000 rows by name', async () => {
    const { body } = await list(server, token, 'sort=nome');
    expect(body.total).toBe(100_000);
  });
});
