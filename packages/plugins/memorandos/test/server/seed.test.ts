// The demo memorandos on top of the real seeds of registros, usuarios and produtos: one in each
// state, numbered by the counter, with items and exact totals, a timeline, and visible to whom the
// row scope says.
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import { describeEachDatabase } from '@app/server-core/testing';
import usuarios from '@app/usuarios/server';
import { expect, it } from 'vitest';
import memorandos from '../../src/server/index.js';

type Memorando = { id: string; numero: number; ano: number; status: string; valorTotal: string; transicoes: string[]; origemNome: string };

describeEachDatabase('memorandos demo seed', { plugins: [registros, usuarios, produtos, memorandos] }, (t) => {
  const list = async (login: string) => {
    const { token } = await t.server.signIn(login, 'demo1234');
    const res = await t.server.request('/api/memorandos/memorandos?pageSize=50', { token });
    expect(res.status).toBe(200);
    return { token, items: ((await res.json()) as { items: Memorando[] }).items };
  };

  it('seeds a memorando in each state, numbered 1…n by the counter, with items whose totals add up', async () => {
    const rows = await t.server.sql<{ numero: number; status: string; valor_total: string; soma: string; itens: number }>(`
      SELECT m.numero, m.status, m.valor_total::text AS valor_total, sum(i.valor_total)::text AS soma, count(i.id)::int AS itens
        FROM memorandos m JOIN memorando_itens i ON i.memorando_id = m.id
       GROUP BY m.id ORDER BY m.numero`);
    expect(rows.map((r) => r.status).sort()).toEqual(['aceito', 'arquivado', 'cancelado', 'devolvido', 'enviado', 'rascunho']);
    expect(rows.map((r) => r.numero)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const r of rows) {
      expect(r.valor_total).toBe(r.soma);
      expect(r.itens).toBeGreaterThanOrEqual(1);
    }
    const [counter] = await t.server.sql<{ ultimo: number }>("SELECT ultimo FROM document_counters WHERE tipo = 'memorandos/memorandos'");
    expect(Number(counter?.ultimo)).toBe(6);
    // the products are in use (they cannot be deleted under the memorandos)
    const [usos] = await t.server.sql<{ n: number }>("SELECT count(DISTINCT documento_id)::int AS n FROM produto_usos WHERE origem = 'memorandos'");
    expect(usos?.n).toBe(6);
  });

  it('the requisitante sees the memorandos of Educação only; the comprador sees all and may accept the one sent', async () => {
    const rita = await list('requisitante');
    expect(rita.items.length).toBe(5);
    expect(new Set(rita.items.map((m) => m.origemNome))).toEqual(new Set(['Secretaria Municipal de Educação']));
    expect(rita.items.find((m) => m.status === 'devolvido')?.transicoes).toEqual(['enviar', 'cancelar']);
    const carla = await list('comprador');
    expect(carla.items.length).toBe(6);
    expect(carla.items.find((m) => m.status === 'enviado')?.transicoes).toEqual(['aceitar', 'devolver']);
  });

  it('each memorando has its timeline; the returned one carries the reason', async () => {
    const { token, items } = await list('comprador');
    const devolvido = items.find((m) => m.status === 'devolvido')!;
    const res = await t.server.request(`/api/memorandos/memorandos/${devolvido.id}/historico`, { token });
    const body = (await res.json()) as { items: { acao: string }[] };
    expect(body.items.map((i) => i.acao)).toEqual(['devolver', 'enviar', 'criar']);
    expect(JSON.stringify(body.items[0])).toContain('Informe as quantidades por unidade escolar');
  });
});
