// The INDICADORES extension point and GET /api/indicadores: a fixture plugin contributes three
// indicators measured in the person's scope; the route answers each only to a person holding its
// tag, and leaves out an indicator with nothing to measure (null).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { INDICADORES, contribute, defineServerPlugin } from '../src/index.js';
import { describeEachDatabase } from '../src/testing.js';

const TAG_A = 920;
const TAG_B = 921;

const fixture = defineServerPlugin({
  id: 'indfix',
  version: '1.0.0',
  core: '^1.0.0',
  tags: [
    { tag: TAG_A, nome: 'Indicadores A' },
    { tag: TAG_B, nome: 'Indicadores B' },
  ],
  contributes: [
    contribute(INDICADORES, {
      id: 'indfix.aberturas',
      label: 'Aberturas das ferramentas',
      href: '/reports/indfix.aberturas',
      tag: TAG_A,
      medir: async (ctx) => {
        // the person's own audit rows stand for "documents in the person's scope"
        const { rows } = await ctx.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM audit_log WHERE usuario_id = ${ctx.user.id}::uuid AND entidade_id = ${ctx.entidadeId}::uuid AND acao = 'devtools_aberto'`,
        );
        const n = Number(rows[0]?.n ?? 0);
        return { valor: String(n), nivel: n > 1 ? 'atencao' : 'normal', detalhe: n > 1 ? 'Mais de uma abertura.' : 'Dentro do esperado.' };
      },
    }),
    contribute(INDICADORES, { id: 'indfix.vazio', label: 'Sem plano', href: '/x', tag: TAG_A, medir: async () => null }),
    contribute(INDICADORES, {
      id: 'indfix.b',
      label: 'Indicador B',
      href: '/b',
      tag: TAG_B,
      medir: async () => ({ valor: '3 grupos', nivel: 'critico', detalhe: '1 acima do limite.' }),
    }),
  ],
  routes: () => undefined,
});

describeEachDatabase('GET /api/indicadores (kit)', { plugins: [fixture], seed: true }, (t) => {
  it('answers each contributed indicator only to a person holding its tag, measured in the person’s scope; null figures are left out', async () => {
    const ana = await t.server.createUser({ login: 'ind.ana', tags: [TAG_A, TAG_B] });
    const bia = await t.server.createUser({ login: 'ind.bia', tags: [TAG_A] });
    const caio = await t.server.createUser({ login: 'ind.caio', tags: [] });
    for (let i = 0; i < 2; i++) {
      const res = await t.server.request('/api/devtools', { token: ana.token, method: 'POST', json: { open: true, route: '/' } });
      expect(res.status).toBe(204);
    }
    const get = async (token: string) => {
      const res = await t.server.request('/api/indicadores', { token });
      expect(res.status).toBe(200);
      return (await res.json()) as { items: unknown[] };
    };
    expect(await get(ana.token)).toEqual({
      items: [
        {
          id: 'indfix.aberturas',
          label: 'Aberturas das ferramentas',
          href: '/reports/indfix.aberturas',
          valor: '2',
          nivel: 'atencao',
          detalhe: 'Mais de uma abertura.',
        },
        { id: 'indfix.b', label: 'Indicador B', href: '/b', valor: '3 grupos', nivel: 'critico', detalhe: '1 acima do limite.' },
      ],
    });
    expect(await get(bia.token)).toEqual({
      items: [
        {
          id: 'indfix.aberturas',
          label: 'Aberturas das ferramentas',
          href: '/reports/indfix.aberturas',
          valor: '0',
          nivel: 'normal',
          detalhe: 'Dentro do esperado.',
        },
      ],
    });
    expect(await get(caio.token)).toEqual({ items: [] });
  });

  it('is for signed-in people only', async () => {
    expect((await t.server.request('/api/indicadores')).status).toBe(401);
  });
});
