// The PENDENCIAS extension point and GET /api/pendencias: a fixture plugin contributes two providers
// counting its own rows set-based in SQL; the route answers them only to a person holding each
// provider's tag, counted in the person's scope (here: the person's own rows).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { PENDENCIAS, contribute, defineServerPlugin } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

const TAG_A = 910;
const TAG_B = 911;

const fixture = defineServerPlugin({
  id: 'pendfix',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [
    { tag: TAG_A, nome: 'Pendências A' },
    { tag: TAG_B, nome: 'Pendências B' },
  ],
  contributes: [
    contribute(PENDENCIAS, {
      id: 'pendfix.a-responder',
      label: 'Pedidos a responder',
      href: '/pendfix?responder=1',
      tag: TAG_A,
      count: async (db, ctx) => {
        // the audit rows of the person in the entidade stand for "documents waiting for them"
        const { rows } = await db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM audit_log WHERE usuario_id = ${ctx.user.id}::uuid AND entidade_id = ${ctx.entidadeId}::uuid AND acao = 'devtools_aberto'`,
        );
        return Number(rows[0]?.n ?? 0);
      },
      desde: async (db, ctx) => {
        const { rows } = await db.execute<{ at: Date | string | null }>(
          sql`SELECT min(at) AS at FROM audit_log WHERE usuario_id = ${ctx.user.id}::uuid AND entidade_id = ${ctx.entidadeId}::uuid AND acao = 'devtools_aberto'`,
        );
        return rows[0]?.at ? new Date(rows[0].at) : null;
      },
    }),
    contribute(PENDENCIAS, {
      id: 'pendfix.devolvidos',
      label: 'Pedidos devolvidos a mim',
      href: '/pendfix?devolvidos=1',
      tag: TAG_B,
      count: async () => 0,
      // no document waits: no age, whatever this says
      desde: async () => new Date('2020-01-01T12:00:00Z'),
    }),
    contribute(PENDENCIAS, {
      id: 'pendfix.antigos',
      label: 'Pedidos antigos',
      href: '/pendfix?antigos=1',
      tag: TAG_A,
      count: async () => 1,
      // exactly three days ago: three calendar days in America/Sao_Paulo, whatever the hour
      desde: async () => new Date(Date.now() - 3 * 86_400_000),
    }),
  ],
  routes: () => undefined,
});

describeEachDatabase('GET /api/pendencias (kit)', { plugins: [fixture], seed: true }, (t) => {
  it('answers each contributed provider only to a person holding its tag, with the count in the person’s scope', async () => {
    const ana = await t.server.createUser({ login: 'pend.ana', tags: [TAG_A, TAG_B] });
    const bia = await t.server.createUser({ login: 'pend.bia', tags: [TAG_A] });
    const caio = await t.server.createUser({ login: 'pend.caio', tags: [] });
    // two "pending" rows for Ana, one for Bia
    for (const [token, n] of [
      [ana.token, 2],
      [bia.token, 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const res = await t.server.request('/api/devtools', { token, method: 'POST', json: { open: true, route: '/' } });
        expect(res.status).toBe(204);
      }
    }
    const get = async (token: string) => {
      const res = await t.server.request('/api/pendencias', { token });
      expect(res.status).toBe(200);
      return (await res.json()) as { items: { id: string; label: string; href: string; total: number }[] };
    };
    expect(await get(ana.token)).toEqual({
      items: [
        { id: 'pendfix.a-responder', label: 'Pedidos a responder', href: '/pendfix?responder=1', total: 2, dias: 0 },
        { id: 'pendfix.devolvidos', label: 'Pedidos devolvidos a mim', href: '/pendfix?devolvidos=1', total: 0 },
        { id: 'pendfix.antigos', label: 'Pedidos antigos', href: '/pendfix?antigos=1', total: 1, dias: 3 },
      ],
    });
    expect(await get(bia.token)).toEqual({
      items: [
        { id: 'pendfix.a-responder', label: 'Pedidos a responder', href: '/pendfix?responder=1', total: 1, dias: 0 },
        { id: 'pendfix.antigos', label: 'Pedidos antigos', href: '/pendfix?antigos=1', total: 1, dias: 3 },
      ],
    });
    expect(await get(caio.token)).toEqual({ items: [] });
  });

  it('is for signed-in people only', async () => {
    expect((await t.server.request('/api/pendencias')).status).toBe(401);
  });
});
