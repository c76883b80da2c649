// Line coverage (kit/documents/coverage.ts) through a test plugin (fixtures/coverage-plugin.ts), on
// PGlite and PostgreSQL (where requests really run in parallel): the picker of pending lines, the
// check on save (scope 404, state 409, same código 400, quantity 400/409), the status fed back to the
// source and audited on its timeline, release on cancel, a source refused while covered, and races.
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../src/testing.js';
import { COBERTURA_TAG, coveragePlugin } from './fixtures/coverage-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const CENTRO_A = '00000000-0000-4000-8000-00000000ca01';
const CENTRO_B = '00000000-0000-4000-8000-00000000cb02';

describeEachDatabase('document kit: line coverage', { plugins: [coveragePlugin] }, (t) => {
  let ana: { id: string; token: string }; // centro A
  let bia: { id: string; token: string }; // centro B
  let todos: { id: string; token: string }; // every centro

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/cobertura${path}`, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const error = async (res: Response, status: number) => (await body<ErrorBody>(res, status)).error;
  const act = async (token: string, path: string, id: string, name: string, extra: Doc = {}) => {
    const current = await body(await req(`${path}/${id}`, token), 200);
    return req(`${path}/${id}/${name}`, token, { json: { version: current.version, ...extra } });
  };
  /** A sent demanda with lines (código, quantidade). */
  const demanda = async (token: string, centroId: string, linhas: [string, string][], enviar = true) => {
    const d = await body(
      await req('/demandas', token, {
        json: { titulo: 'Demanda', centroId, itens: linhas.map(([codigo, quantidade]) => ({ codigo, quantidade, valorUnitario: '2' })) },
      }),
      201,
    );
    if (enviar) await body(await act(token, '/demandas', d.id, 'enviar'), 200);
    return body(await req(`/demandas/${d.id}`, token), 200);
  };
  const pedido = (token: string, linhas: { codigo: string; quantidade: string; demandaItemId?: string | null }[]) =>
    req('/pedidos', token, { json: { titulo: 'Pedido', itens: linhas.map((l) => ({ valorUnitario: '2', ...l })) } });
  const statusDe = async (id: string) => (await t.server.sql<{ status: string }>('SELECT status FROM cx_demandas WHERE id = $1', [id]))[0]!.status;
  const coberto = async (itemId: string) =>
    (
      await t.server.sql<{ q: string }>(
        `SELECT coalesce(sum(pi.quantidade), 0)::text AS q FROM cx_pedido_itens pi JOIN cx_pedidos p ON p.id = pi.pedido_id
          WHERE pi.demanda_item_id = $1 AND p.status <> 'cancelado'`,
        [itemId],
      )
    )[0]!.q;

  beforeAll(async () => {
    ana = await t.server.createUser({ login: 'cx-ana', tags: [COBERTURA_TAG], centros: [CENTRO_A] });
    bia = await t.server.createUser({ login: 'cx-bia', tags: [COBERTURA_TAG], centros: [CENTRO_B] });
    todos = await t.server.createUser({ login: 'cx-todos', tags: [COBERTURA_TAG], todosCentros: true });
  });

  it('the picker lists the pending lines of sent demandas in the person’s scope, with what is covered and left', async () => {
    const d = await demanda(ana.token, CENTRO_A, [
      ['PAPEL', '10'],
      ['CANETA', '5'],
    ]);
    const rascunho = await demanda(ana.token, CENTRO_A, [['PAPEL', '3']], false);
    const daB = await demanda(bia.token, CENTRO_B, [['PAPEL', '7']]);
    await body(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '4', demandaItemId: d.itens[0].id }]), 201);
    await body(await pedido(ana.token, [{ codigo: 'CANETA', quantidade: '5', demandaItemId: d.itens[1].id }]), 201);
    const itens = (await body(await req(`/demandas/itens-pendentes?demandaId=${d.id}`, ana.token), 200)).items as Doc[];
    expect(itens).toEqual([
      {
        id: d.itens[0].id,
        demandaId: d.id,
        demandaNumero: d.numero,
        demandaAno: d.ano,
        codigo: 'PAPEL',
        quantidade: '10.0000',
        atendido: '4.0000',
        pendente: '6.0000',
      },
    ]);
    const daAna = ((await body(await req('/demandas/itens-pendentes', ana.token), 200)).items as Doc[]).map((i) => i.demandaId);
    expect(daAna).toContain(d.id);
    expect(daAna).not.toContain(rascunho.id);
    expect(daAna).not.toContain(daB.id);
    const busca = (await body(await req('/demandas/itens-pendentes?q=pap', todos.token), 200)).items as Doc[];
    expect(busca.map((i) => i.demandaId)).toEqual(expect.arrayContaining([d.id, daB.id]));
    expect(busca.every((i) => i.codigo === 'PAPEL')).toBe(true);
    // the source's lines answer the coverage too
    const lida = await body(await req(`/demandas/${d.id}`, ana.token), 200);
    expect(lida.itens.map((i: Doc) => [i.atendido, i.pendente, i.pedidos.map((p: Doc) => p.quantidade)])).toEqual([
      ['4.0000', '6.0000', ['4.0000']],
      ['5.0000', '0.0000', ['5.0000']],
    ]);
  });

  it('the check on save: 404 outside the scope or unknown, 400 another código or above what is left, 409 a source not sent', async () => {
    const daB = await demanda(bia.token, CENTRO_B, [['PAPEL', '7']]);
    const antes = (await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM cx_pedidos'))[0]!.n;
    await error(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '1', demandaItemId: daB.itens[0].id }]), 404);
    await error(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '1', demandaItemId: crypto.randomUUID() }]), 404);
    const d = await demanda(ana.token, CENTRO_A, [['PAPEL', '10']]);
    const outro = await error(await pedido(ana.token, [{ codigo: 'CANETA', quantidade: '1', demandaItemId: d.itens[0].id }]), 400);
    expect(outro.fields).toEqual({ 'itens.0.codigo': 'O código deve ser o do item da demanda.' });
    const acima = await error(
      await pedido(ana.token, [
        { codigo: 'CLIPE', quantidade: '1' },
        { codigo: 'PAPEL', quantidade: '10,0001', demandaItemId: d.itens[0].id },
      ]),
      400,
    );
    expect(acima.fields).toEqual({ 'itens.1.quantidade': 'A quantidade passa do pendente na demanda (pendente: 10).' });
    const rascunho = await demanda(ana.token, CENTRO_A, [['PAPEL', '3']], false);
    const naoEnviada = await error(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '1', demandaItemId: rascunho.itens[0].id }]), 409);
    expect(naoEnviada).toEqual({
      code: 'demanda_indisponivel',
      message: 'A demanda de algum item não está mais enviada: atualize os itens.',
      fields: { 'itens.0.demandaItemId': 'A demanda deste item não está enviada.' },
    });
    expect((await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM cx_pedidos'))[0]!.n).toBe(antes);
    expect(await statusDe(d.id)).toBe('enviada');
  });

  it('feeds the status back (enviada → parcial → atendida and back), audited on the source with the pedido; release on cancel', async () => {
    const d = await demanda(ana.token, CENTRO_A, [
      ['PAPEL', '10'],
      ['CANETA', '2'],
    ]);
    const p1 = await body(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '4', demandaItemId: d.itens[0].id }]), 201);
    expect(await statusDe(d.id)).toBe('parcial');
    const p2 = await body(
      await pedido(ana.token, [
        { codigo: 'PAPEL', quantidade: '6', demandaItemId: d.itens[0].id },
        { codigo: 'CANETA', quantidade: '2', demandaItemId: d.itens[1].id },
      ]),
      201,
    );
    expect(await statusDe(d.id)).toBe('atendida');
    // a PUT that keeps its links to an attended demanda (no longer eligible) stays possible
    const lido = await body(await req(`/pedidos/${p2.id}`, ana.token), 200);
    const put = await req(`/pedidos/${p2.id}`, ana.token, {
      method: 'PUT',
      json: {
        titulo: 'Pedido alterado',
        version: lido.version,
        itens: lido.itens.map((i: Doc) => ({ ...i, quantidade: i.codigo === 'PAPEL' ? '5' : i.quantidade })),
      },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await statusDe(d.id)).toBe('parcial');
    expect((await act(ana.token, '/pedidos', p2.id, 'cancelar', { motivo: 'Não precisa' })).status).toBe(200);
    expect(await statusDe(d.id)).toBe('parcial');
    expect((await act(ana.token, '/pedidos', p1.id, 'cancelar', { motivo: 'Não precisa' })).status).toBe(200);
    expect(await statusDe(d.id)).toBe('enviada');
    expect(await coberto(d.itens[0].id)).toBe('0');
    const h = await body<{ items: Doc[] }>(await req(`/demandas/${d.id}/historico`, ana.token), 200);
    expect(h.items.map((i) => [i.acao, i.usuario?.id, i.mudancas.find((m: Doc) => m.campo === 'status')?.depois])).toEqual([
      ['liberar', ana.id, 'enviada'],
      ['liberar', ana.id, 'parcial'],
      ['atender', ana.id, 'atendida'],
      ['atender', ana.id, 'parcial'],
      ['enviar', ana.id, 'enviada'],
      ['criar', ana.id, 'rascunho'],
    ]);
    const causas = await t.server.sql<{ depois: Doc }>(
      "SELECT depois FROM audit_log WHERE plugin = 'cobertura' AND registro = $1 AND acao IN ('atender', 'liberar') ORDER BY id",
      [d.id],
    );
    expect(causas.map((c) => c.depois.pedido)).toEqual([
      `Pedido ${p1.numero}/${p1.ano}`,
      `Pedido ${p2.numero}/${p2.ano}`,
      `Pedido ${p2.numero}/${p2.ano}`,
      `Pedido ${p1.numero}/${p1.ano}`,
    ]);
    // a duplicate copies the lines without their links; the authors of the demanda are 'fonte' authors of the pedido
    const dup = await body(await req(`/pedidos/${p1.id}/duplicar`, ana.token, { method: 'POST' }), 201);
    expect(dup.itens.map((i: Doc) => i.demandaItemId)).toEqual([null]);
    const fontes = await t.server.sql<{ papel: string }>("SELECT papel FROM documento_autores WHERE documento_id = $1 AND papel = 'fonte'", [p1.id]);
    expect(fontes).toHaveLength(1);
  });

  it('a demanda whose lines live pedidos cover is not cancelled (409); once released it is', async () => {
    const d = await demanda(ana.token, CENTRO_A, [['PAPEL', '10']]);
    const p = await body(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '1', demandaItemId: d.itens[0].id }]), 201);
    const recusa = await error(await act(ana.token, '/demandas', d.id, 'cancelar', { motivo: 'Desistência' }), 409);
    expect(recusa).toMatchObject({ code: 'em_uso', message: 'Há itens desta demanda em pedidos: cancele-os antes.' });
    expect(await statusDe(d.id)).toBe('parcial');
    expect((await act(ana.token, '/pedidos', p.id, 'cancelar', { motivo: 'Não precisa' })).status).toBe(200);
    expect((await act(ana.token, '/demandas', d.id, 'cancelar', { motivo: 'Desistência' })).status).toBe(200);
    expect(await statusDe(d.id)).toBe('cancelada');
  });

  it('race: two pedidos covering the last units of one line at once → one 201, one 409 in pt-BR; never above the quantity', async () => {
    for (let round = 0; round < 4; round++) {
      // with a second line the demanda stays 'parcial': the loser meets the line used up (409 exhausted);
      // with one line it becomes 'atendida': the loser meets a demanda no longer sent (409 unavailable)
      const d = await demanda(
        ana.token,
        CENTRO_A,
        round % 2 === 0
          ? [
              ['PAPEL', '5'],
              ['CANETA', '1'],
            ]
          : [['PAPEL', '5']],
      );
      const line = d.itens[0].id as string;
      await body(await pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '2', demandaItemId: line }]), 201);
      const answers = await Promise.all([
        pedido(ana.token, [{ codigo: 'PAPEL', quantidade: '3', demandaItemId: line }]),
        pedido(todos.token, [{ codigo: 'PAPEL', quantidade: '3', demandaItemId: line }]),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      const perdeu = await error(answers.find((r) => r.status === 409)!, 409);
      expect(perdeu.message).toBe(
        round % 2 === 0
          ? 'Este item da demanda já foi atendido por outro pedido: atualize os itens.'
          : 'A demanda de algum item não está mais enviada: atualize os itens.',
      );
      expect(await coberto(line)).toBe('5.0000');
      expect(await statusDe(d.id)).toBe(round % 2 === 0 ? 'parcial' : 'atendida');
    }
  });

  it('race: a demanda cancelled while pedidos cover its lines → consistent (never a cancelled demanda with covered lines), no 5xx', async () => {
    for (let round = 0; round < 3; round++) {
      const d = await demanda(ana.token, CENTRO_A, [['PAPEL', '100']]);
      const line = d.itens[0].id as string;
      const cobrir = (i: number) => pedido(i % 2 ? ana.token : todos.token, [{ codigo: 'PAPEL', quantidade: '1', demandaItemId: line }]);
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => cobrir(i)),
        req(`/demandas/${d.id}/cancelar`, ana.token, { json: { version: d.version, motivo: 'Desistência' } }),
        ...Array.from({ length: 4 }, (_, i) => cobrir(i + 4)),
      ]);
      const statuses = answers.map((r) => r.status);
      expect(
        statuses.every((s) => s < 500),
        JSON.stringify(statuses),
      ).toBe(true);
      const cancel = statuses[4]!;
      const conversions = [...statuses.slice(0, 4), ...statuses.slice(5)];
      const total = Number(await coberto(line));
      expect(total).toBe(conversions.filter((s) => s === 201).length);
      if (cancel === 200) {
        expect(await statusDe(d.id)).toBe('cancelada');
        expect(total).toBe(0);
        expect(conversions.every((s) => s === 409)).toBe(true);
      } else {
        expect(cancel).toBe(409);
        expect(await statusDe(d.id)).toBe('parcial');
        expect(total).toBe(8);
      }
    }
  });
});
