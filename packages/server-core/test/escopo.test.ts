// Row-level scope by centro de custo: the request context carries the user's centros (loaded with the
// session), /api/session answers them, centroCustoScope restricts queries, and migration 0010 keeps
// existing perfis seeing everything while new ones start restricted.
import { readFileSync } from 'node:fs';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { centroCustoScope, defineServerPlugin, type RequestContext } from '../src/index.js';
import { DEMO, describeEachDatabase, type TestServer } from '../src/testing.js';

const docs = pgTable('escopo_docs', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  titulo: text('titulo').notNull(),
  origem: uuid('origem'),
  destino: uuid('destino'),
});

const escopoPlugin = defineServerPlugin({
  id: 'escopo',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [],
  routes(router) {
    router.route({
      method: 'get',
      path: '/contexto',
      tag: 0,
      summary: 'Centros de custo da requisição',
      responses: { 200: z.object({ centrosCusto: z.array(z.string()), todosCentros: z.boolean() }) },
      handler: (c, ctx) => c.json({ centrosCusto: [...ctx.centrosCusto], todosCentros: ctx.todosCentros }, 200),
    });
    router.route({
      method: 'get',
      path: '/docs',
      tag: 0,
      summary: 'Documentos visíveis (origem ou destino num centro do usuário)',
      responses: { 200: z.object({ titulos: z.array(z.string()) }) },
      handler: async (c, ctx) => {
        const rows = await ctx.db
          .select({ titulo: docs.titulo })
          .from(docs)
          .where(and(eq(docs.entidadeId, ctx.entidadeId), centroCustoScope(ctx, docs.origem, docs.destino)))
          .orderBy(asc(docs.titulo));
        return c.json({ titulos: rows.map((r) => r.titulo) }, 200);
      },
    });
  },
});

// three centros de custo: ids only matter (the array holds ids of registros_centros_custo, no FK)
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

async function prefeituraId(server: TestServer): Promise<string> {
  const [row] = await server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
  return row!.id;
}

async function setCentros(server: TestServer, login: string, centros: string[]): Promise<void> {
  await server.sql(
    `UPDATE usuario_entidades ue SET centros_custo = $1::uuid[]
       FROM usuarios u, entidades e
      WHERE u.id = ue.usuario_id AND e.id = ue.entidade_id AND u.login = $2 AND e.cnpj = $3`,
    [`{${centros.join(',')}}`, login, DEMO.prefeitura.cnpj],
  );
}

type Ctx = Pick<RequestContext, 'centrosCusto' | 'todosCentros'>;

describeEachDatabase('escopo por centro de custo', { plugins: [escopoPlugin] }, (t) => {
  let entidadeId: string;
  let consulta: string;
  let admin: string;
  beforeAll(async () => {
    entidadeId = await prefeituraId(t.server);
    await t.server.sql(
      `CREATE TABLE escopo_docs (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), entidade_id uuid NOT NULL,
         titulo text NOT NULL, origem uuid, destino uuid)`,
    );
    await t.server.sql(
      `INSERT INTO escopo_docs (entidade_id, titulo, origem, destino) VALUES
         ($1, 'de A para B', $2, $3), ($1, 'de B para C', $3, $4), ($1, 'de C sem destino', $4, NULL),
         ($1, 'sem centros', NULL, NULL)`,
      [entidadeId, A, B, C],
    );
    consulta = (await t.server.signIn('consulta', DEMO.senha)).token;
    admin = (await t.server.signIn(DEMO.admin.login, DEMO.senha, entidadeId)).token;
  });

  const contexto = async (token: string) => (await t.server.request('/api/escopo/contexto', { token })).json();
  const titulos = async (token: string) => ((await (await t.server.request('/api/escopo/docs', { token })).json()) as { titulos: string[] }).titulos;

  it('seeds the demo Administrador seeing every centro and Consulta none', async () => {
    expect(await contexto(admin)).toEqual({ centrosCusto: [], todosCentros: true });
    expect(await contexto(consulta)).toEqual({ centrosCusto: [], todosCentros: false });
    expect(await titulos(admin)).toEqual(['de A para B', 'de B para C', 'de C sem destino', 'sem centros']);
    // no centro: matches nothing (not even rows without a centro)
    expect(await titulos(consulta)).toEqual([]);
  });

  it('carries the user centros of the session entidade on every request (no new sign-in needed)', async () => {
    await setCentros(t.server, 'consulta', [C, A, A]);
    expect(await contexto(consulta)).toEqual({ centrosCusto: [A, C], todosCentros: false });
    // origem OR destino in the user's centros
    expect(await titulos(consulta)).toEqual(['de A para B', 'de B para C', 'de C sem destino']);
    await setCentros(t.server, 'consulta', [B]);
    expect(await titulos(consulta)).toEqual(['de A para B', 'de B para C']);
    await setCentros(t.server, 'consulta', []);
    expect(await titulos(consulta)).toEqual([]);
  });

  it('follows the perfil: todos_centros grants every centro, whatever the user centros', async () => {
    await setCentros(t.server, 'consulta', [A]);
    await t.server.sql(`UPDATE perfis SET todos_centros = true WHERE nome = 'Consulta' AND entidade_id = $1`, [entidadeId]);
    try {
      expect(await contexto(consulta)).toEqual({ centrosCusto: [A], todosCentros: true });
      expect(await titulos(consulta)).toHaveLength(4);
    } finally {
      await t.server.sql(`UPDATE perfis SET todos_centros = false WHERE nome = 'Consulta' AND entidade_id = $1`, [entidadeId]);
      await setCentros(t.server, 'consulta', []);
    }
    expect(await contexto(consulta)).toEqual({ centrosCusto: [], todosCentros: false });
  });

  it('answers centrosCusto and todosCentros in /api/session', async () => {
    await setCentros(t.server, 'consulta', [B, A]);
    try {
      const session = (await (await t.server.request('/api/session', { token: consulta })).json()) as Record<string, unknown>;
      expect(session.centrosCusto).toEqual([A, B]);
      expect(session.todosCentros).toBe(false);
      const adminSession = (await (await t.server.request('/api/session', { token: admin })).json()) as Record<string, unknown>;
      expect(adminSession).toMatchObject({ centrosCusto: [], todosCentros: true });
    } finally {
      await setCentros(t.server, 'consulta', []);
    }
  });

  it('centroCustoScope: undefined for todosCentros, false without centros, OR over the columns', async () => {
    const { db } = t.server.database;
    const run = (where: SQL | undefined) =>
      db
        .select({ titulo: docs.titulo })
        .from(docs)
        .where(and(eq(docs.entidadeId, entidadeId), where))
        .orderBy(asc(docs.titulo))
        .then((rows) => rows.map((r) => r.titulo));
    const todos: Ctx = { centrosCusto: [A], todosCentros: true };
    expect(centroCustoScope(todos, docs.origem, docs.destino)).toBeUndefined();
    expect(await run(centroCustoScope(todos, docs.origem))).toHaveLength(4);
    const nenhum: Ctx = { centrosCusto: [], todosCentros: false };
    expect(centroCustoScope(nenhum, docs.origem)).toBeDefined();
    expect(await run(centroCustoScope(nenhum, docs.origem, docs.destino))).toEqual([]);
    const soB: Ctx = { centrosCusto: [B], todosCentros: false };
    expect(await run(centroCustoScope(soB, docs.origem))).toEqual(['de B para C']);
    expect(await run(centroCustoScope(soB, docs.destino))).toEqual(['de A para B']);
    expect(await run(centroCustoScope(soB, docs.origem, docs.destino))).toEqual(['de A para B', 'de B para C']);
    // a malformed id grants nothing and does not break the query
    expect(await run(centroCustoScope({ centrosCusto: ['nao-e-uuid'], todosCentros: false }, docs.origem))).toEqual([]);
    expect(await run(centroCustoScope({ centrosCusto: ['nao-e-uuid', C], todosCentros: false }, docs.origem))).toEqual(['de C sem destino']);
    // combined with another condition by AND (OR stays inside the parentheses)
    const combined = and(centroCustoScope(soB, docs.origem, docs.destino), eq(docs.titulo, 'de B para C'));
    expect(await run(combined)).toEqual(['de B para C']);
    // many centros in one parameter
    const many = Array.from({ length: 500 }, (_, i) => `00000000-0000-4000-8000-${String(i + 100).padStart(12, '0')}`);
    expect(await run(centroCustoScope({ centrosCusto: [...many, A], todosCentros: false }, docs.origem))).toEqual(['de A para B']);
    expect(() => centroCustoScope(soB)).toThrow(/ao menos uma coluna/);
  });

  it('refuses a non-uuid element in usuario_entidades.centros_custo (uuid[] column)', async () => {
    await expect(t.server.sql(`UPDATE usuario_entidades SET centros_custo = '{x}' WHERE entidade_id = $1`, [entidadeId])).rejects.toThrow();
  });
});

describeEachDatabase('migração 0010: perfis existentes continuam vendo todos os centros', { seed: true }, (t) => {
  it('sets todos_centros true on the perfis that existed and false by default on new ones', async () => {
    // replay the migration on this database as if it were an older installation (column absent)
    await t.server.sql('ALTER TABLE perfis DROP COLUMN todos_centros');
    await t.server.sql('ALTER TABLE usuario_entidades DROP COLUMN centros_custo');
    const migration = readFileSync(new URL('../migrations/0010_escopo_centros_custo.sql', import.meta.url), 'utf8');
    await t.server.withRawClient((raw) => raw.exec(migration));
    const perfis = await t.server.sql<{ nome: string; todos_centros: boolean }>('SELECT nome, todos_centros FROM perfis ORDER BY nome');
    expect(perfis.length).toBeGreaterThan(0);
    expect(perfis.every((p) => p.todos_centros === true)).toBe(true);
    const membros = await t.server.sql<{ centros_custo: unknown }>('SELECT centros_custo FROM usuario_entidades');
    expect(membros.length).toBeGreaterThan(0);
    for (const m of membros) expect(m.centros_custo).toEqual([]);
    const [novo] = await t.server.sql<{ todos_centros: boolean }>(
      `INSERT INTO perfis (entidade_id, nome) SELECT id, 'Novo perfil' FROM entidades LIMIT 1 RETURNING todos_centros`,
    );
    expect(novo!.todos_centros).toBe(false);
  });
});
