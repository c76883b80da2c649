// Controle interno (CONTROLE_INTERNO_TAG): a perfil with that tag reads every document of the entidade
// (list, exports, record, PDF, timeline, `<path>/:id/…`), in every centro de custo, and changes none.
// Through the test document plugin (fixtures/documents-plugin.ts), on PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { CONTROLE_INTERNO_TAG, defineServerPlugin } from '../src/index.js';
import { createPluginRouter } from '../src/platform/router.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { DOC_TAG, documentsPlugin } from './fixtures/documents-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;

/** Routes of the same router that are not reads of a document: never opened by the controle interno. */
const extrasPlugin = defineServerPlugin({
  id: 'extras',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [],
  routes(router) {
    router.route({
      method: 'get',
      path: '/resumo',
      tag: DOC_TAG,
      summary: 'Resumo (não é leitura de documento)',
      handler: (c) => c.json({ ok: true }, 200),
    });
    router.route({
      method: 'get',
      path: '/painel/:id',
      tag: DOC_TAG,
      controleInterno: true,
      summary: 'Aberto ao controle interno por declaração',
      request: { params: z.object({ id: z.string() }) },
      handler: (c, ctx) => c.json({ id: c.req.valid('param').id, leitura: ctx.leituraControleInterno === true }, 200),
    });
  },
});

it('a write route cannot be opened to the controle interno', () => {
  const router = createPluginRouter(new OpenAPIHono(), { plugin: { id: 'ruim' } } as never, {} as never);
  const declare = (method: 'get' | 'post' | 'put' | 'delete') => () =>
    router.route({ method, path: `/x-${method}`, tag: DOC_TAG, controleInterno: true, summary: 'x', handler: (c) => c.json({}, 200) });
  for (const method of ['post', 'put', 'delete'] as const) expect(declare(method)).toThrow(/cannot be opened to the controle interno/);
  expect(declare('get')).not.toThrow();
});

describeEachDatabase('controle interno: reads every document, writes none', { plugins: [documentsPlugin, extrasPlugin] }, (t) => {
  let prefeituraId: string;
  let origem: string; // tag of the document, centro A
  let auditor: string; // only the controle interno tag, no centro, todosCentros false
  let ambos: string; // tag of the document (centro C) and the controle interno
  let semTag: string; // signed in, neither tag
  const centroA = randomUUID();
  const centroB = randomUUID();
  const centroC = randomUUID();
  let produto: string;
  let memo: Doc; // A → B, sent (not editable by anyone)
  let rascunho: Doc; // A → B, draft (editable by origem)
  let proprio: Doc; // C → B, draft of `ambos`

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/docs${path}`, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const novo = (origemId: string) => ({
    origemId,
    destinoId: centroB,
    assunto: 'Material de limpeza',
    itens: [{ produtoId: produto, quantidade: '2', valorUnitario: '10,50' }],
  });

  async function userWith(login: string, tags: number[], centros: string[]): Promise<string> {
    const [perfil] = await t.server.sql<{ id: string }>(
      'INSERT INTO perfis (entidade_id, nome, tags, todos_centros) VALUES ($1, $2, $3::int[], false) RETURNING id',
      [prefeituraId, `Perfil ${login}`, `{${tags.join(',')}}`],
    );
    const [user] = await t.server.sql<{ id: string }>(
      `INSERT INTO usuarios (nome, login, email, senha_hash)
       SELECT $1, $2, $3, senha_hash FROM usuarios WHERE login = $4 RETURNING id`,
      [`Servidor ${login}`, login, `${login}@exemplo.gov.br`, DEMO.consulta.login],
    );
    await t.server.sql('INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo) VALUES ($1, $2, $3, $4::uuid[])', [
      user!.id,
      prefeituraId,
      perfil!.id,
      `{${centros.join(',')}}`,
    ]);
    return (await t.server.signIn(login, DEMO.senha)).token;
  }

  beforeAll(async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    prefeituraId = pref!.id;
    const [p] = await t.server.sql<{ id: string }>('INSERT INTO doc_produtos (entidade_id, descricao) VALUES ($1, $2) RETURNING id', [
      prefeituraId,
      'Detergente neutro',
    ]);
    produto = p!.id;
    origem = await userWith('origem-ci', [DOC_TAG], [centroA]);
    auditor = await userWith('auditor-ci', [CONTROLE_INTERNO_TAG], []);
    ambos = await userWith('ambos-ci', [DOC_TAG, CONTROLE_INTERNO_TAG], [centroC]);
    semTag = await userWith('sem-tag-ci', [], [centroA]);
    const criado = await body(await req('/memorandos', origem, { json: novo(centroA) }), 201);
    memo = await body(await req(`/memorandos/${criado.id}/enviar`, origem, { json: { version: criado.version } }), 200);
    rascunho = await body(await req('/memorandos', origem, { json: novo(centroA) }), 201);
    proprio = await body(await req('/memorandos', ambos, { json: novo(centroC) }), 201);
  });

  it('lists and reads the documents of every centro, with no transition and nothing editable', async () => {
    const page = await body<{ items: Doc[]; total: number }>(await req('/memorandos?pageSize=50', auditor), 200);
    expect(page.items.map((d) => d.id).sort()).toEqual([memo.id, rascunho.id, proprio.id].sort());
    for (const d of page.items) expect(d).toMatchObject({ transicoes: [], editavel: false });
    const one = await body(await req(`/memorandos/${rascunho.id}`, auditor), 200);
    expect(one).toMatchObject({ id: rascunho.id, status: 'rascunho', transicoes: [], editavel: false, total: '21.00' });
    expect(one.itens).toHaveLength(1);
  });

  it('gets the exports, the PDF and the timeline of any document', async () => {
    const csv = await req('/memorandos.csv', auditor);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\n').filter((l) => l.includes('Material de limpeza'))).toHaveLength(3);
    expect((await req('/memorandos.xlsx', auditor)).status).toBe(200);
    const pdf = await req(`/memorandos/${memo.id}.pdf`, auditor);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const history = await body<{ items: Doc[] }>(await req(`/memorandos/${memo.id}/historico`, auditor), 200);
    expect(history.items.map((h) => h.acao)).toEqual(['enviar', 'criar']);
  });

  it('is refused (403) every write: create, update, delete, transition, duplicate', async () => {
    const refused = async (path: string, init: { method?: string; json?: unknown }) => {
      const res = await req(path, auditor, init);
      expect(res.status, `${init.method ?? 'POST'} ${path}`).toBe(403);
    };
    await refused('/memorandos', { json: novo(centroA) });
    await refused(`/memorandos/${rascunho.id}`, { method: 'PUT', json: { ...novo(centroA), assunto: 'Alterado', version: rascunho.version } });
    await refused(`/memorandos/${rascunho.id}`, { method: 'DELETE' });
    await refused(`/memorandos/${rascunho.id}/enviar`, { json: { version: rascunho.version } });
    await refused(`/memorandos/${memo.id}/aceitar`, { json: { version: memo.version } });
    await refused(`/memorandos/${memo.id}/devolver`, { json: { version: memo.version, motivo: 'Sem justificativa' } });
    await refused(`/memorandos/${memo.id}/duplicar`, { json: {} });
    const [row] = await t.server.sql<{ status: string; version: number; n: number }>(
      'SELECT status, version, (SELECT count(*)::int FROM doc_memos) AS n FROM doc_memos WHERE id = $1',
      [rascunho.id],
    );
    expect(row).toMatchObject({ status: 'rascunho', version: rascunho.version, n: 3 });
    const denied = await t.server.sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE acao = 'acesso_negado' AND usuario_id = (SELECT id FROM usuarios WHERE login = 'auditor-ci')",
    );
    expect(denied[0]!.n).toBe(7);
  });

  it('opens only the reads of a document: other routes of the same tag stay 403', async () => {
    expect((await req('/notas', auditor)).status).toBe(403); // a registry, not a document
    expect((await req('/memorandos-por-situacao', auditor)).status).toBe(403); // a report beside the document
    expect((await t.server.request('/api/extras/resumo', { token: auditor })).status).toBe(403);
    const painel = await body(await t.server.request('/api/extras/painel/x', { token: auditor }), 200);
    expect(painel).toEqual({ id: 'x', leitura: true });
  });

  it('the OpenAPI description of each read it opens says so (tag 95, read-only); other routes do not', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { description?: string }>> };
    const note = /controle interno \(tag 95\)/;
    for (const path of [
      '/api/docs/memorandos',
      '/api/docs/memorandos/{id}',
      '/api/docs/memorandos/{id}.pdf',
      '/api/docs/memorandos/{id}/historico',
      '/api/docs/memorandos.csv',
      '/api/extras/painel/{id}',
    ]) {
      expect(doc.paths[path]?.get?.description, path).toMatch(note);
    }
    expect(doc.paths['/api/docs/memorandos/{id}.pdf']?.get?.description).toMatch(/^O memorando para imprimir/);
    for (const [path, method] of [
      ['/api/docs/memorandos', 'post'],
      ['/api/docs/memorandos/{id}', 'put'],
      ['/api/docs/notas', 'get'],
      ['/api/docs/memorandos-por-situacao', 'get'],
      ['/api/extras/resumo', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(doc.paths[path]?.[method]?.description ?? '', `${method} ${path}`).not.toMatch(note);
    }
  });

  it('someone without the tag is still refused the reads', async () => {
    for (const path of ['/memorandos', `/memorandos/${memo.id}`, `/memorandos/${memo.id}.pdf`, `/memorandos/${memo.id}/historico`, '/memorandos.csv']) {
      expect((await req(path, semTag)).status, path).toBe(403);
    }
  });

  it('with the document tag too: reads every centro, acts only in their own', async () => {
    const page = await body<{ items: Doc[] }>(await req('/memorandos?pageSize=50', ambos), 200);
    const byId = Object.fromEntries(page.items.map((d) => [d.id, d]));
    expect(Object.keys(byId).sort()).toEqual([memo.id, rascunho.id, proprio.id].sort());
    expect(byId[rascunho.id]).toMatchObject({ transicoes: [], editavel: false });
    expect(byId[proprio.id]).toMatchObject({ transicoes: ['enviar', 'cancelar'], editavel: true });
    // a write keeps the perfil's own scope: another centro's draft is not found
    const put = await req(`/memorandos/${rascunho.id}`, ambos, { method: 'PUT', json: { ...novo(centroA), version: rascunho.version } });
    expect(put.status).toBe(404);
    expect((await req(`/memorandos/${rascunho.id}/enviar`, ambos, { json: { version: rascunho.version } })).status).toBe(404);
    expect((await req(`/memorandos/${rascunho.id}/duplicar`, ambos, { json: {} })).status).toBe(404);
  });

  it('a perfil with only the document tag still sees only its centros', async () => {
    const page = await body<{ items: Doc[] }>(await req('/memorandos?pageSize=50', origem), 200);
    expect(page.items.map((d) => d.id).sort()).toEqual([memo.id, rascunho.id].sort());
    expect((await req(`/memorandos/${proprio.id}`, origem)).status).toBe(404);
  });
});
