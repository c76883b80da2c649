// The document kit registers the products a document uses (items with `productColumn`) through the
// DOCUMENT_PRODUCT_USES extension point, in the save's transaction: on create, change, duplicate; a
// cancelled document keeps them; nothing is deleted (numbered documents are never deleted). PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { DOCUMENT_PRODUCT_USES, contribute, defineServerPlugin } from '../src/index.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { FAIL_AFTER_NUMBER, documentsPlugin } from './fixtures/documents-plugin.js';

// the store the produtos plugin contributes in the application, here a plain table of this test plugin
const usosPlugin = defineServerPlugin({
  id: 'usos',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [],
  migrations: new URL('./fixtures/product-uses-migrations/', import.meta.url),
  contributes: [
    contribute(DOCUMENT_PRODUCT_USES, {
      async set(tx, documento, produtoIds) {
        await tx.execute(sql`DELETE FROM kit_produto_usos WHERE origem = ${documento.origem} AND documento_id = ${documento.documentoId}`);
        for (const produtoId of produtoIds) {
          await tx.execute(
            sql`INSERT INTO kit_produto_usos (entidade_id, produto_id, origem, documento_id, descricao)
                VALUES (${documento.entidadeId}, ${produtoId}, ${documento.origem}, ${documento.documentoId}, ${documento.descricao})`,
          );
        }
      },
      async clear(tx, documento) {
        await tx.execute(sql`DELETE FROM kit_produto_usos WHERE origem = ${documento.origem} AND documento_id = ${documento.documentoId}`);
      },
    }),
  ],
  routes() {},
});

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;

describeEachDatabase('document kit: product uses', { plugins: [documentsPlugin, usosPlugin] }, (t) => {
  let admin: string;
  let prefeituraId: string;
  const centroA = randomUUID();
  const centroB = randomUUID();
  const produto: Record<string, string> = {};

  const req = (path: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/docs${path}`, { token: admin, ...init });
  const body = async (res: Response, status: number): Promise<Doc> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as Doc;
  };
  const memo = (produtos: string[], over: Doc = {}): Doc => ({
    origemId: centroA,
    destinoId: centroB,
    assunto: 'Material de expediente',
    itens: produtos.map((key) => ({ produtoId: produto[key], quantidade: '2', valorUnitario: '1,50' })),
    ...over,
  });
  const usos = async (documentoId: string) =>
    (
      await t.server.sql<{ produto_id: string; origem: string; descricao: string; entidade_id: string }>(
        'SELECT produto_id, origem, descricao, entidade_id FROM kit_produto_usos WHERE documento_id = $1 ORDER BY produto_id',
        [documentoId],
      )
    ).map((row) => ({ ...row, produto_id: Object.entries(produto).find(([, id]) => id === row.produto_id)?.[0] }));
  const numero = (doc: Doc) => `Memorando ${doc.numero}/${doc.ano}`;

  beforeAll(async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    prefeituraId = pref!.id;
    admin = (await t.server.signIn(DEMO.admin.login, DEMO.senha, prefeituraId)).token;
    for (const key of ['papel', 'caneta', 'clipe']) {
      const [row] = await t.server.sql<{ id: string }>('INSERT INTO doc_produtos (entidade_id, descricao) VALUES ($1, $2) RETURNING id', [prefeituraId, key]);
      produto[key] = row!.id;
    }
  });

  it('records the distinct products of the items when the document is created, named by its number', async () => {
    const doc = await body(await req('/memorandos', { json: memo(['papel', 'caneta', 'papel']) }), 201);
    const esperado = (key: string) => ({ produto_id: key, origem: 'docs', descricao: numero(doc), entidade_id: prefeituraId });
    expect((await usos(doc.id)).sort((a, b) => String(a.produto_id).localeCompare(String(b.produto_id)))).toEqual([esperado('caneta'), esperado('papel')]);
  });

  it('replaces them when the items change: a product no longer in the items is no longer used', async () => {
    const doc = await body(await req('/memorandos', { json: memo(['papel', 'caneta']) }), 201);
    const changed = await body(await req(`/memorandos/${doc.id}`, { method: 'PUT', json: { ...memo(['clipe']), version: doc.version } }), 200);
    expect(await usos(doc.id)).toEqual([{ produto_id: 'clipe', origem: 'docs', descricao: numero(doc), entidade_id: prefeituraId }]);
    // every item taken out: the document uses no product
    await body(await req(`/memorandos/${doc.id}`, { method: 'PUT', json: { ...memo([]), version: changed.version } }), 200);
    expect(await usos(doc.id)).toEqual([]);
  });

  it('records them for a duplicate under its own number, and records nothing when the save is rolled back', async () => {
    const doc = await body(await req('/memorandos', { json: memo(['caneta']) }), 201);
    const copia = await body(await req(`/memorandos/${doc.id}/duplicar`, { method: 'POST' }), 201);
    expect(await usos(copia.id)).toEqual([{ produto_id: 'caneta', origem: 'docs', descricao: numero(copia), entidade_id: prefeituraId }]);
    expect((await usos(doc.id)).map((u) => u.descricao)).toEqual([numero(doc)]);

    const before = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM kit_produto_usos');
    await body(await req('/memorandos', { json: memo(['clipe'], { assunto: FAIL_AFTER_NUMBER }) }), 409);
    expect(await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM kit_produto_usos')).toEqual(before);
  });

  it('keeps the uses of a cancelled document (it still references the products) and of a draft whose deletion is refused', async () => {
    const doc = await body(await req('/memorandos', { json: memo(['papel']) }), 201);
    expect((await body(await req(`/memorandos/${doc.id}`, { method: 'DELETE' }), 409)).error.code).toBe('numerado');
    expect((await usos(doc.id)).map((u) => u.produto_id)).toEqual(['papel']);
    const cancelado = await body(
      await req(`/memorandos/${doc.id}/cancelar`, { method: 'POST', json: { version: doc.version, motivo: 'Não precisa mais' } }),
      200,
    );
    expect(cancelado.status).toBe('cancelado');
    expect((await usos(doc.id)).map((u) => u.produto_id)).toEqual(['papel']);
  });
});
