// Links between documents (kit/documents/links.ts) through the test plugin fixtures/links-plugin.ts:
// accepted demandas consolidated many → one into a plano (what the PCA does), on PGlite and PostgreSQL.
// The picker, create-from (lines consolidated exactly), the scope of every id in a body, 409 on a
// demanda already in a live plano (whatever the route), release when the plano is cancelled, the
// demanda's cancel refused while in use, both timelines, and races on one source.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { consolidateLines } from '../src/kit/documents/links.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { VINC_TAG, linksPlugin } from './fixtures/links-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describe('consolidateLines', () => {
  it('sums the declared fields exactly per key, keeps the first line for the rest, in order of first sight', () => {
    const lines = [
      { codigo: 'A', quantidade: '0.1', valor: '0.10', nome: 'primeiro' },
      { codigo: 'B', quantidade: '2', valor: '1.005', nome: 'b' },
      { codigo: 'A', quantidade: '0.2', valor: '0.20', nome: 'segundo' },
    ];
    expect(consolidateLines(lines, { key: (l) => String(l.codigo), sum: { quantidade: 4, valor: 2 } })).toEqual([
      { codigo: 'A', quantidade: '0.3000', valor: '0.30', nome: 'primeiro' },
      { codigo: 'B', quantidade: '2.0000', valor: '1.01', nome: 'b' },
    ]);
  });
});

describeEachDatabase('document kit: links between documents (many → one)', { plugins: [linksPlugin] }, (t) => {
  const centroA = randomUUID();
  const centroB = randomUUID();
  let entidadeId: string;
  let ana: { id: string; token: string }; // centro A
  let bia: { id: string; token: string }; // centro B
  let todos: { id: string; token: string }; // every centro
  let seq = 0;

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/vinc${path}`, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const error = async (res: Response, status: number) => (await body<ErrorBody>(res, status)).error;
  /** An accepted demanda (inserted as its plugin would have left it) with lines [codigo, quantidade, valorUnitario]. */
  const demanda = async (centro: string, itens: [string, string, string][], status = 'aceita') => {
    seq += 1;
    const [d] = await t.server.sql<{ id: string }>(
      'INSERT INTO vx_demandas (entidade_id, status, numero, ano, titulo, centro_id) VALUES ($1, $2, $3, 2026, $4, $5) RETURNING id',
      [entidadeId, status, seq, `Demanda ${seq}`, centro],
    );
    for (const [i, [codigo, q, v]] of itens.entries()) {
      await t.server.sql(
        'INSERT INTO vx_demanda_itens (demanda_id, entidade_id, ordem, codigo, quantidade, valor_unitario, total) VALUES ($1, $2, $3, $4, $5, $6, round($5::numeric * $6::numeric, 2))',
        [d!.id, entidadeId, i + 1, codigo, q, v],
      );
    }
    return d!.id;
  };
  const picker = async (token: string, query = '') => body<{ items: Doc[]; total: number }>(await req(`/planos/demandas-aceitas${query}`, token), 200);
  const deDemandas = (token: string, demandaIds: string[], titulo = 'Plano anual') => req('/planos/de-demandas', token, { json: { demandaIds, titulo } });
  const vivos = async (demandaId: string) =>
    (await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM documento_vinculos WHERE fonte_id = $1 AND liberado_em IS NULL', [demandaId]))[0]!.n;
  const acoes = async (registro: string) =>
    (await t.server.sql<{ acao: string }>('SELECT acao FROM audit_log WHERE registro = $1 ORDER BY id', [registro])).map((r) => r.acao);

  beforeAll(async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    entidadeId = pref!.id;
    ana = await t.server.createUser({ login: 'vinc-ana', tags: [VINC_TAG], centros: [centroA] });
    bia = await t.server.createUser({ login: 'vinc-bia', tags: [VINC_TAG], centros: [centroB] });
    todos = await t.server.createUser({ login: 'vinc-todos', tags: [VINC_TAG], todosCentros: true });
  });

  it('picker, create-from with consolidation, audit on both sides, 409 on a used source, release on cancel', async () => {
    const d1 = await demanda(centroA, [
      ['PAPEL', '10', '25.5'],
      ['CANETA', '3.5', '1.9999'],
    ]);
    const d2 = await demanda(centroA, [
      ['PAPEL', '0.3333', '25.5'],
      ['TONER', '1', '300'],
    ]);
    const rascunho = await demanda(centroA, [['PAPEL', '1', '1']], 'rascunho');
    const daB = await demanda(centroB, [['PAPEL', '1', '1']]);

    // the picker: accepted demandas of Ana's centro, newest first, none used yet
    const lista = await picker(ana.token);
    expect(lista.items.map((d) => d.id)).toEqual([d2, d1]);
    expect(lista.items[1]).toMatchObject({ titulo: expect.any(String), numero: expect.any(Number), ano: 2026, plano: null });
    expect((await picker(bia.token)).items.map((d) => d.id)).toEqual([daB]);
    expect((await picker(todos.token)).items.map((d) => d.id).sort()).toEqual([d1, d2, daB].sort());
    expect((await req('/planos/demandas-aceitas?pageSize=500', ana.token)).status).toBe(400);

    // create-from: lines of both demandas, one per code, quantities and values summed exactly
    const plano = await body(await deDemandas(ana.token, [d2, d1]), 201);
    expect(plano.status).toBe('rascunho');
    expect(plano.itens.map((l: Doc) => [l.codigo, l.quantidade, l.valorUnitario, l.valorEstimado])).toEqual([
      ['PAPEL', '10.3333', '25.5000', '263.50'],
      ['CANETA', '3.5000', '1.9999', '7.00'],
      ['TONER', '1.0000', '300.0000', '300.00'],
    ]);
    expect(await acoes(plano.id)).toEqual(['criar']);
    const [criar] = await t.server.sql<{ depois: { fontes: string[] } }>("SELECT depois FROM audit_log WHERE registro = $1 AND acao = 'criar'", [plano.id]);
    expect(criar!.depois.fontes).toHaveLength(2);
    expect(await acoes(d1)).toEqual(['vincular']);
    // the source's timeline shows the link
    const historico = await body<Doc>(await req(`/demandas/${d1}/historico`, ana.token), 200);
    expect(JSON.stringify(historico)).toContain(`Plano ${plano.numero}/${plano.ano}`);

    // the picker names the plano; disponiveis=true leaves them out
    expect((await picker(ana.token)).items.find((d) => d.id === d1)?.plano).toEqual({ id: plano.id, numero: plano.numero, ano: plano.ano });
    expect((await picker(ana.token, '?disponiveis=true')).items).toEqual([]);

    // used: create-from, the plain POST and a PUT of another plano are all 409 naming the plano
    const nome = `${plano.numero}/${plano.ano}`;
    const de = await error(await deDemandas(ana.token, [d1]), 409);
    expect(de.code).toBe('fonte_em_uso');
    expect(de.message).toContain(`plano ${nome}`);
    const post = await error(await req('/planos', ana.token, { json: { titulo: 'Outro', demandaIds: [d1] } }), 409);
    expect(post.fields?.demandaIds).toContain(nome);
    const outro = await body(await req('/planos', ana.token, { json: { titulo: 'Outro' } }), 201);
    expect((await req(`/planos/${outro.id}`, ana.token, { method: 'PUT', json: { titulo: 'Outro', demandaIds: [d1], version: outro.version } })).status).toBe(
      409,
    );
    // not eligible: a draft demanda is a 400 at the field
    expect((await error(await deDemandas(ana.token, [rascunho]), 400)).fields?.demandaIds).toBe('Escolha uma demanda aceita.');

    // the demanda's cancel is refused while the plano uses it
    const demandaLida = await body(await req(`/demandas/${d1}`, ana.token), 200);
    const recusa = await error(await req(`/demandas/${d1}/cancelar`, ana.token, { json: { version: demandaLida.version, motivo: 'Não precisa mais' } }), 409);
    expect(recusa).toEqual({ code: 'em_uso', message: `Usada no Plano ${nome}.` });

    // a PUT that keeps its own links passes; one that drops d2 frees it (audited 'desvincular')
    const put = await body(
      await req(`/planos/${plano.id}`, ana.token, { method: 'PUT', json: { titulo: 'Plano anual revisto', demandaIds: [d1], version: plano.version } }),
      200,
    );
    expect(await vivos(d2)).toBe(0);
    expect(await acoes(d2)).toEqual(['vincular', 'desvincular']);

    // cancelling the plano releases its demandas: available again, audited on each, cancel allowed
    await body(await req(`/planos/${plano.id}/cancelar`, ana.token, { json: { version: put.version, motivo: 'Refazer o plano' } }), 200);
    expect(await vivos(d1)).toBe(0);
    expect(await acoes(d1)).toEqual(['vincular', 'liberar']);
    expect((await picker(ana.token, '?disponiveis=true')).items.map((d) => d.id)).toEqual([d2, d1]);
    const novo = await body(await deDemandas(ana.token, [d1]), 201);
    expect(novo.itens).toHaveLength(2);
    await body(await req(`/planos/${novo.id}/cancelar`, ana.token, { json: { version: novo.version, motivo: 'Não vamos planejar' } }), 200);
    expect(
      (await body(await req(`/demandas/${d1}/cancelar`, ana.token, { json: { version: demandaLida.version, motivo: 'Não precisa mais' } }), 200)).status,
    ).toBe('cancelada');
  });

  it("every id in a body is checked against the person's scope: a foreign centro's demanda is a 404 on every route, nothing created", async () => {
    const minha = await demanda(centroA, [['PAPEL', '1', '2']]);
    const daB = await demanda(centroB, [['PAPEL', '1', '2']]);
    const antes = (await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM vx_planos'))[0]!.n;
    expect((await deDemandas(ana.token, [minha, daB])).status).toBe(404);
    expect((await req('/planos', ana.token, { json: { titulo: 'X', demandaIds: [daB] } })).status).toBe(404);
    const meu = await body(await req('/planos', ana.token, { json: { titulo: 'Meu' } }), 201);
    expect((await req(`/planos/${meu.id}`, ana.token, { method: 'PUT', json: { titulo: 'Meu', demandaIds: [daB], version: meu.version } })).status).toBe(404);
    expect((await deDemandas(ana.token, ['00000000-0000-4000-8000-000000000099'])).status).toBe(404);
    expect((await req('/planos/de-demandas', ana.token, { json: { demandaIds: ['x'], titulo: 'X' } })).status).toBe(400);
    expect((await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM vx_planos'))[0]!.n).toBe(antes + 1);
    expect(await vivos(daB)).toBe(0);
    expect(await vivos(minha)).toBe(0);
    // Bia, of centro B, may
    expect((await deDemandas(bia.token, [daB])).status).toBe(201);
  });

  it('8 concurrent create-from over one demanda, and plain POSTs racing create-from: exactly one live plano, the rest 409, no deadlock', async () => {
    const d = await demanda(centroA, [['PAPEL', '1', '2']]);
    const outra = await demanda(centroA, [['CANETA', '1', '2']]);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => deDemandas(i % 2 ? ana.token : todos.token, i % 3 ? [d, outra] : [outra, d])));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await vivos(d)).toBe(1);
    expect(await vivos(outra)).toBe(1);

    const e = await demanda(centroA, [['PAPEL', '1', '2']]);
    const mixed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? deDemandas(ana.token, [e]) : req('/planos', todos.token, { json: { titulo: 'Direto', demandaIds: [e] } }))),
    );
    expect(mixed.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await vivos(e)).toBe(1);
  });
});
