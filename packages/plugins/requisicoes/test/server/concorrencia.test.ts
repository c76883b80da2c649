// Races and scope of the ids a body refers to (issue 18), on PGlite and PostgreSQL (where requests
// really run in parallel). The rules:
//  * one live pré-requisição per memorando, whatever the route (the kit's POST/PUT or de-memorando),
//    under any concurrency: the first wins (201), the others are 409 naming it, never a 5xx; the
//    database refuses a second one too (partial unique index);
//  * converting a pré-requisição's items and cancelling/returning it serialise: never a cancelled or
//    returned pré-requisição whose items count as converted;
//  * an id in a body outside the person's centros (memorando, pré-requisição item) is a 404, as for a
//    read, and nothing is created.
import { readFileSync } from 'node:fs';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, insert, plugins } from './helpers.js';

type Pre = { id: string; numero: number; ano: number; version: number; status: string; itens: { id: string }[] };

describeEachDatabase('requisicoes: concurrency and scope of body ids', { plugins }, (t) => {
  let fx: Fixture;
  let rita: User; // requisitante, Educação
  let sara: User; // requisitante, Saúde
  let compras: User; // every centro (returns pré-requisições)
  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });

  let seq = 100;
  const memorando = async (origem: string) => {
    seq += 1;
    const id = await insert(t.server, 'memorandos', {
      entidade_id: fx.entidadeId,
      numero: seq,
      ano: 2026,
      data: '2026-03-02',
      status: 'aceito',
      origem_id: origem,
      destino_id: fx.compras,
      solicitante_id: rita.id,
      solicitante_nome: 'Rita Requisitante',
      assunto: 'Material de expediente',
      justificativa: 'Reposição do material de expediente no semestre.',
      valor_total: '10.00',
    });
    await insert(t.server, 'memorando_itens', {
      memorando_id: id,
      entidade_id: fx.entidadeId,
      ordem: 1,
      produto_id: fx.papel,
      quantidade: '1',
      valor_unitario: '10',
      valor_total: '10.00',
    });
    return id;
  };
  const preBody = (centroCustoId: string, extra: Record<string, unknown> = {}) => ({
    centroCustoId,
    tipoSolicitacaoId: fx.tipo,
    justificativa: 'Pré-requisição de material de expediente.',
    itens: [{ produtoId: fx.papel, quantidade: '100', valorUnitario: '2' }],
    ...extra,
  });
  const requisicaoBody = (centroCustoId: string, preRequisicaoItemId: string, quantidade = '1') => ({
    centroCustoId,
    tipoSolicitacaoId: fx.tipo,
    categoria: 'compras',
    justificativa: 'Conversão da pré-requisição em requisição.',
    itens: [{ produtoId: fx.papel, quantidade, valorUnitario: '2', preRequisicaoItemId }],
  });
  const vivas = async (memorandoId: string) =>
    (await t.server.sql<{ n: number }>("SELECT count(*)::int AS n FROM pre_requisicoes WHERE memorando_id = $1 AND status <> 'cancelada'", [memorandoId]))[0]!
      .n;
  /** A sent pré-requisição of Educação (or `centro`) with one line of 100 papers. */
  const preEnviada = async (token: string, centro: string): Promise<Pre> => {
    const res = await api('/pre-requisicoes', token, { json: preBody(centro) });
    expect(res.status, await res.clone().text()).toBe(201);
    const pre = (await res.json()) as Pre;
    const sent = await api(`/pre-requisicoes/${pre.id}/enviar`, token, { json: { version: pre.version } });
    expect(sent.status, await sent.clone().text()).toBe(200);
    return { ...pre, ...((await sent.json()) as Pre) };
  };
  /** Quantity of the pré-requisição converted by requisições that count (not cancelled nor rejected). */
  const convertido = async (preId: string) =>
    Number(
      (
        await t.server.sql<{ q: string }>(
          `SELECT coalesce(sum(ri.quantidade), 0)::text AS q FROM requisicao_itens ri
             JOIN requisicoes r ON r.id = ri.requisicao_id JOIN pre_requisicao_itens pi ON pi.id = ri.pre_requisicao_item_id
            WHERE pi.pre_requisicao_id = $1 AND r.status NOT IN ('cancelada', 'reprovada')`,
          [preId],
        )
      )[0]!.q,
    );
  const statusDe = async (preId: string) => (await t.server.sql<{ status: string }>('SELECT status FROM pre_requisicoes WHERE id = $1', [preId]))[0]!.status;

  beforeAll(async () => {
    fx = await createFixture(t.server);
    const requisitante = await createPerfil(t.server, fx, 'Requisitante');
    rita = await createUser(t.server, fx, 'rita', requisitante, [fx.educacao]);
    sara = await createUser(t.server, fx, 'sara', requisitante, [fx.saude]);
    compras = await createUser(t.server, fx, 'compras', await createPerfil(t.server, fx, 'Compras', { todos: true }));
  });

  it('8 parallel POST /pre-requisicoes with one memorandoId: exactly 1 created, 7 × 409 naming it', async () => {
    const m = await memorando(fx.educacao);
    const answers = await Promise.all(Array.from({ length: 8 }, () => api('/pre-requisicoes', rita.token, { json: preBody(fx.educacao, { memorandoId: m }) })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const criada = (await answers.find((r) => r.status === 201)!.json()) as Pre;
    const erro = (await answers.find((r) => r.status === 409)!.json()) as ErrorBody;
    expect(erro.error.code).toBe('memorando_atendido');
    expect(erro.error.message).toContain(`pré-requisição ${criada.numero}/${criada.ano}`);
    expect(erro.error.fields?.memorandoId).toContain(`${criada.numero}/${criada.ano}`);
    expect(await vivas(m)).toBe(1);
  });

  it('8 parallel creations mixing POST /pre-requisicoes and /de-memorando: 1 live pré-requisição, the rest 409, no 5xx', async () => {
    const m = await memorando(fx.educacao);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? api('/pre-requisicoes', rita.token, { json: preBody(fx.educacao, { memorandoId: m }) })
          : api('/pre-requisicoes/de-memorando', i % 4 === 1 ? rita.token : compras.token, {
              json: { memorandoId: m, centroCustoId: fx.educacao, tipoSolicitacaoId: fx.tipo },
            }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(await vivas(m)).toBe(1);
  });

  it('a PUT re-linking another pré-requisição to an attended memorando is 409; the database refuses a second live one too', async () => {
    const m = await memorando(fx.educacao);
    const first = await api('/pre-requisicoes', rita.token, { json: preBody(fx.educacao, { memorandoId: m }) });
    expect(first.status).toBe(201);
    const criada = (await first.json()) as Pre;
    const outra = (await (await api('/pre-requisicoes', rita.token, { json: preBody(fx.educacao) })).json()) as Pre;
    const put = await api(`/pre-requisicoes/${outra.id}`, rita.token, {
      method: 'PUT',
      json: { ...preBody(fx.educacao, { memorandoId: m }), version: outra.version },
    });
    expect(put.status).toBe(409);
    expect(((await put.json()) as ErrorBody).error.message).toContain(`${criada.numero}/${criada.ano}`);
    await expect(t.server.sql('UPDATE pre_requisicoes SET memorando_id = $1 WHERE id = $2', [m, outra.id])).rejects.toThrow();
    expect(await vivas(m)).toBe(1);
  });

  for (const transicao of ['cancelar', 'devolver'] as const) {
    it(`10 parallel conversions against a ${transicao} of the pré-requisição: never a ${transicao === 'cancelar' ? 'cancelled' : 'returned'} pré-requisição with converted items`, async () => {
      for (let round = 0; round < 3; round++) {
        const pre = await preEnviada(rita.token, fx.educacao);
        const quem = transicao === 'cancelar' ? rita : compras;
        const converter = (i: number) => api('/requisicoes', i % 2 === 0 ? rita.token : compras.token, { json: requisicaoBody(fx.educacao, pre.itens[0]!.id) });
        const answers = await Promise.all([
          ...Array.from({ length: 5 }, (_, i) => converter(i)),
          api(`/pre-requisicoes/${pre.id}/${transicao}`, quem.token, { json: { version: pre.version, motivo: 'Pedido refeito em outra pré-requisição.' } }),
          ...Array.from({ length: 5 }, (_, i) => converter(i + 5)),
        ]);
        const conversions = [...answers.slice(0, 5), ...answers.slice(6)].map((r) => r.status);
        const transition = answers[5]!.status;
        expect(
          [...conversions, transition].every((s) => s < 500),
          JSON.stringify([...conversions, transition]),
        ).toBe(true);
        const status = await statusDe(pre.id);
        const quantidade = await convertido(pre.id);
        expect(quantidade).toBe(conversions.filter((s) => s === 201).length);
        if (transition === 200) {
          // the transition won: nothing was converted, every conversion that came after it is a 409
          expect(status).toBe(transicao === 'cancelar' ? 'cancelada' : 'devolvida');
          expect(quantidade).toBe(0);
          expect(conversions.every((s) => s === 409)).toBe(true);
        } else {
          // a conversion came first: the transition is refused and every conversion went through
          expect(transition).toBe(409);
          expect(status).toBe('parcialmente_atendida');
          expect(quantidade).toBe(10);
        }
      }
    });
  }

  it('an id of another centro in a body is a 404 and nothing is created: memorando, pré-requisição item (POST and PUT)', async () => {
    // Saúde's memorando, taken by Educação (the kit's POST and de-memorando) and by a PUT
    const daSaude = await memorando(fx.saude);
    const total = async (table: string) => (await t.server.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
    const antes = { pre: await total('pre_requisicoes'), req: await total('requisicoes') };
    const post = await api('/pre-requisicoes', rita.token, { json: preBody(fx.educacao, { memorandoId: daSaude }) });
    expect(post.status).toBe(404);
    const de = await api('/pre-requisicoes/de-memorando', rita.token, {
      json: { memorandoId: daSaude, centroCustoId: fx.educacao, tipoSolicitacaoId: fx.tipo },
    });
    expect(de.status).toBe(404);
    const rascunho = (await (await api('/pre-requisicoes', rita.token, { json: preBody(fx.educacao) })).json()) as Pre;
    const put = await api(`/pre-requisicoes/${rascunho.id}`, rita.token, {
      method: 'PUT',
      json: { ...preBody(fx.educacao, { memorandoId: daSaude }), version: rascunho.version },
    });
    expect(put.status).toBe(404);
    expect(await vivas(daSaude)).toBe(0);
    // …so Saúde can still make its own
    const propria = await api('/pre-requisicoes', sara.token, { json: preBody(fx.saude, { memorandoId: daSaude }) });
    expect(propria.status, await propria.clone().text()).toBe(201);

    // a Saúde pré-requisição item converted by Educação (POST and PUT): 404, its number not in the answer
    const saude = await preEnviada(sara.token, fx.saude);
    const conv = await api('/requisicoes', rita.token, { json: requisicaoBody(fx.educacao, saude.itens[0]!.id) });
    expect(conv.status).toBe(404);
    expect(await conv.text()).not.toContain(`${saude.numero}/${saude.ano}`);
    const minha = await api('/requisicoes', rita.token, {
      json: { ...requisicaoBody(fx.educacao, saude.itens[0]!.id), itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '2' }] },
    });
    expect(minha.status).toBe(201);
    const r = (await minha.json()) as Pre;
    const putReq = await api(`/requisicoes/${r.id}`, rita.token, {
      method: 'PUT',
      json: { ...requisicaoBody(fx.educacao, saude.itens[0]!.id), version: r.version },
    });
    expect(putReq.status).toBe(404);
    expect(await convertido(saude.id)).toBe(0);
    expect(await statusDe(saude.id)).toBe('enviada');
    expect({ pre: await total('pre_requisicoes'), req: await total('requisicoes') }).toEqual({ pre: antes.pre + 3, req: antes.req + 1 });
    // an id that does not exist is the same 404 (existence is not revealed)
    const inexistente = await api('/requisicoes', rita.token, { json: requisicaoBody(fx.educacao, '00000000-0000-4000-8000-000000000099') });
    expect(inexistente.status).toBe(404);
  });

  // last: it drops the index and lets the migration build it again
  it('migration 0003 keeps the oldest live pré-requisição of a memorando linked and unlinks the later ones, audited', async () => {
    await t.server.sql('DROP INDEX pre_requisicoes_um_vivo_por_memorando');
    const m = await memorando(fx.educacao);
    const pre = (numero: number, status: string) =>
      insert(t.server, 'pre_requisicoes', {
        entidade_id: fx.entidadeId,
        numero,
        ano: 2020,
        data: '2020-03-02',
        status,
        centro_custo_id: fx.educacao,
        tipo_solicitacao_id: fx.tipo,
        solicitante_id: rita.id,
        solicitante_nome: 'Rita Requisitante',
        justificativa: 'Pré-requisição de uma corrida antiga.',
        memorando_id: m,
        // explicit creation order: two inserts may share a timestamp (the embedded clock's resolution)
        created_at: `2020-03-02T10:00:0${numero}Z`,
      });
    const ids = [await pre(1, 'enviada'), await pre(2, 'parcialmente_atendida'), await pre(3, 'cancelada'), await pre(4, 'rascunho')];
    const sql = readFileSync(new URL('../../migrations/0003_um_vivo_por_fonte.sql', import.meta.url), 'utf8');
    for (const statement of sql.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim())) await t.server.sql(statement);
    const rows = await t.server.sql<{ id: string; memorando_id: string | null }>(
      'SELECT id, memorando_id FROM pre_requisicoes WHERE ano = 2020 ORDER BY numero',
    );
    expect(rows.map((r) => r.memorando_id)).toEqual([m, null, m, null]);
    const audit = await t.server.sql<{ registro: string; antes: unknown }>(
      "SELECT registro, antes FROM audit_log WHERE acao = 'desvincular' ORDER BY registro",
    );
    expect(audit).toEqual([ids[1], ids[3]].sort().map((registro) => ({ registro, antes: { memorandoId: m } })));
    await expect(t.server.sql('UPDATE pre_requisicoes SET memorando_id = $1 WHERE id = $2', [m, ids[1]])).rejects.toThrow();
  });
});
