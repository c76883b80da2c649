// The demo pré-requisições and requisições on top of the real seeds of registros, usuarios, produtos
// and memorandos: every state, several centros de custo, approvals per level, conversions that set
// the pré-requisições' status (audited on them), a dispensa alert, and demo users who can act on them.
import memorandos from '@app/memorandos/server';
import produtos from '@app/produtos/server';
import registros from '@app/registros/server';
import { describeEachDatabase } from '@app/server-core/testing';
import usuarios from '@app/usuarios/server';
import { expect, it } from 'vitest';
import requisicoes from '../../src/server/index.js';
import { seedDocumentos } from '../../src/server/seed.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;

describeEachDatabase('requisicoes demo seed', { plugins: [registros, usuarios, produtos, memorandos, requisicoes] }, (t) => {
  const as = async (login: string) => {
    const { token } = await t.server.signIn(login, 'demo1234');
    const get = async (path: string) => {
      const res = await t.server.request(`/api/requisicoes${path}`, { token });
      expect(res.status, path).toBe(200);
      return (await res.json()) as Doc;
    };
    return { token, get };
  };

  it('seeds every state of both documents, numbered by the counter, totals that add up, in several centros', async () => {
    const pre = await t.server.sql<{ status: string; centro: string }>(
      'SELECT p.status, c.codigo AS centro FROM pre_requisicoes p JOIN registros_centros_custo c ON c.id = p.centro_custo_id ORDER BY p.numero',
    );
    expect(pre.map((p) => p.status).sort()).toEqual(['atendida', 'cancelada', 'devolvida', 'enviada', 'parcialmente_atendida', 'rascunho']);
    const req = await t.server.sql<{ numero: number; status: string; nivel: number | null; centro: string; total: string; soma: string }>(`
      SELECT r.numero, r.status, r.nivel_atual AS nivel, c.codigo AS centro, r.valor_total::text AS total, sum(i.valor_total)::text AS soma
        FROM requisicoes r JOIN registros_centros_custo c ON c.id = r.centro_custo_id JOIN requisicao_itens i ON i.requisicao_id = r.id
       GROUP BY r.id, c.codigo ORDER BY r.numero`);
    expect(req.map((r) => [r.status, r.nivel]).sort()).toEqual(
      [
        ['aprovada', null],
        ['cancelada', null],
        ['devolvida', null],
        ['em_aprovacao', 1],
        ['em_aprovacao', 2],
        ['rascunho', null],
        ['reprovada', null],
      ].sort(),
    );
    expect(req.map((r) => r.numero)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const r of req) expect(r.total).toBe(r.soma);
    expect(new Set(req.map((r) => r.centro))).toEqual(new Set(['02', '03']));
    // one approval row per level of the approved requisição, by two different people
    const [aprovacoes] = await t.server.sql<{ n: number; pessoas: number }>(`
      SELECT count(*)::int AS n, count(DISTINCT a.usuario_id)::int AS pessoas
        FROM requisicao_aprovacoes a JOIN requisicoes r ON r.id = a.requisicao_id WHERE r.status = 'aprovada'`);
    expect(aprovacoes).toEqual({ n: 2, pessoas: 2 });
  });

  it('the demo users walk the flow: chefia approves level 1, ordenador level 2, the requester sees their returns', async () => {
    const chefia = await as('chefia');
    const fila = await chefia.get('/requisicoes?aguardandoMinha=1');
    expect(fila.items.map((r: Doc) => [r.status, r.nivelAtual])).toEqual([['em_aprovacao', 1]]);
    expect(fila.items[0].transicoes).toEqual(expect.arrayContaining(['aprovar', 'reprovar', 'devolver']));
    const ordenador = await as('ordenador');
    const fila2 = await ordenador.get('/requisicoes?aguardandoMinha=1');
    expect(fila2.items.map((r: Doc) => [r.status, r.nivelAtual])).toEqual([['em_aprovacao', 2]]);
    expect((await ordenador.get('/requisicoes/aguardando-minha-aprovacao/contagem')).total).toBe(1);
    const rita = await as('requisitante');
    const minhas = await rita.get('/requisicoes?pageSize=50');
    expect(new Set(minhas.items.map((r: Doc) => r.centroCustoCodigo))).toEqual(new Set(['02']));
    // the kit's GET /api/pendencias (the dashboard's card) carries the provider requisições contribute
    const pendencias = (await (await t.server.request('/api/pendencias', { token: rita.token })).json()) as Doc;
    expect(pendencias.items.find((p: Doc) => p.id === 'requisicoes.minhas-pre-requisicoes-abertas').total).toBeGreaterThanOrEqual(3);
    const comprador = await as('comprador');
    expect((await comprador.get('/requisicoes?pageSize=50')).total).toBe(7);
    expect((await comprador.get('/pre-requisicoes/itens-pendentes')).items.length).toBeGreaterThanOrEqual(2);
    // the approval itself goes through (the seed left a consistent state)
    const alvo = fila.items[0];
    const res = await t.server.request(`/api/requisicoes/requisicoes/${alvo.id}/aprovar`, { token: chefia.token, json: { version: alvo.version } });
    expect(res.status).toBe(200);
  });

  it('the requisição at level 2 and the approved one pass the dispensa limit of their grupo: the alert is on GET /:id', async () => {
    const comprador = await as('comprador');
    const lista = await comprador.get('/requisicoes?status=em_aprovacao,aprovada&pageSize=50');
    const nivel2 = lista.items.find((r: Doc) => r.nivelAtual === 2 || r.status === 'aprovada');
    const detalhe = await comprador.get(`/requisicoes/${nivel2.id}`);
    expect(detalhe.alertasDispensa.length).toBeGreaterThanOrEqual(1);
    const alerta = detalhe.alertasDispensa[0];
    expect(alerta.requisicoes.length).toBeGreaterThanOrEqual(2);
    expect(Number(alerta.total)).toBeGreaterThan(Number(alerta.limite));
    expect((await comprador.get(`/requisicoes/${nivel2.id}/dispensa`)).items).toEqual(detalhe.alertasDispensa);
  });

  it("the pré-requisições' status changes caused by conversions are in their timelines, by who converted", async () => {
    const comprador = await as('comprador');
    const pres = await comprador.get('/pre-requisicoes?pageSize=50');
    const atendida = pres.items.find((p: Doc) => p.status === 'atendida');
    const h = await comprador.get(`/pre-requisicoes/${atendida.id}/historico`);
    expect(h.items.map((i: Doc) => i.acao)).toEqual(['atender', 'enviar', 'criar']);
    expect(h.items[0].usuario.nome).toBe('Carla Compradora');
    // the one whose requisição was cancelled went back to enviada: atender, then liberar
    const enviada = pres.items.find((p: Doc) => p.status === 'enviada');
    const h2 = await comprador.get(`/pre-requisicoes/${enviada.id}/historico`);
    expect(h2.items.map((i: Doc) => [i.acao, i.mudancas.find((m: Doc) => m.campo === 'status')?.depois])).toEqual([
      ['liberar', 'enviada'],
      ['atender', 'parcialmente_atendida'],
      ['enviar', 'enviada'],
      ['criar', 'rascunho'],
    ]);
  });

  it('runs once: a second call adds nothing', async () => {
    const antes = await t.server.sql<{ n: number }>('SELECT (SELECT count(*) FROM requisicoes) + (SELECT count(*) FROM pre_requisicoes) AS n');
    const auditAntes = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    const [pref] = await t.server.sql<{ id: string; nome: string }>("SELECT id, nome FROM entidades WHERE nome LIKE 'Prefeitura%'");
    await seedDocumentos({
      entidades: { prefeitura: { id: pref!.id, nome: pref!.nome } },
      mutate: (fn: (tx: unknown, audit: () => void) => Promise<unknown>) =>
        t.server.database.db.transaction((tx: unknown) => fn(tx, () => expect.unreachable('audited on a second run'))),
    } as never);
    expect(await t.server.sql('SELECT (SELECT count(*) FROM requisicoes) + (SELECT count(*) FROM pre_requisicoes) AS n')).toEqual(antes);
    expect(await t.server.sql('SELECT count(*)::int AS n FROM audit_log')).toEqual(auditAntes);
  });
});
