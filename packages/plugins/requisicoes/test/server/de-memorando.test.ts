// A pré-requisição from an accepted memorando: the picker under tag 39 (GET
// /pre-requisicoes/memorandos-aceitos) lists the accepted memorandos of the person's centros (origin or
// destination), and POST /pre-requisicoes/de-memorando copies the items once per memorando.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, insert, plugins } from './helpers.js';

type Opcao = {
  id: string;
  numero: number;
  ano: number;
  assunto: string;
  solicitanteNome: string;
  origemNome: string;
  destinoNome: string;
  valorTotal: string;
  itens: number;
  preRequisicao: { id: string; numero: number; ano: number } | null;
};
type Pagina = { items: Opcao[]; total: number; page: number; pageSize: number };
type Pre = {
  id: string;
  numero: number;
  ano: number;
  version: number;
  memorandoId: string | null;
  justificativa: string;
  valorTotal: string;
  itens: { produtoId: string; quantidade: string; valorUnitario: string }[];
};

describeEachDatabase('requisicoes: pré-requisição from an accepted memorando', { plugins }, (t) => {
  let fx: Fixture;
  let rita: User; // Educação
  let sara: User; // Saúde
  let compras: User; // every centro, tag 39 only
  let semTag: User; // Educação, without tag 39
  let aceito: string; // Educação → Compras, 2 items
  let daSaude: string; // Saúde → Compras
  let enviado: string; // Educação, not accepted
  let outro: string; // Compras → Educação (destination in Rita's centro), found by requester

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });
  const listar = async (token: string, query = '') => {
    const res = await api(`/pre-requisicoes/memorandos-aceitos${query}`, token);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Pagina;
  };
  const gerar = (memorandoId: string, token: string, centroCustoId = fx.educacao) =>
    api('/pre-requisicoes/de-memorando', token, { json: { memorandoId, centroCustoId, tipoSolicitacaoId: fx.tipo } });

  let seq = 0;
  const memorando = async (over: Record<string, unknown>, itens: [string, string, string][] = []) => {
    seq += 1;
    const total = itens.reduce((s, [, q, v]) => s + Number(q) * Number(v), 0).toFixed(2);
    const id = await insert(t.server, 'memorandos', {
      entidade_id: fx.entidadeId,
      numero: seq,
      ano: 2026,
      data: '2026-03-02',
      status: 'aceito',
      origem_id: fx.educacao,
      destino_id: fx.compras,
      solicitante_id: rita.id,
      solicitante_nome: 'Rita Requisitante',
      assunto: 'Material de expediente das escolas',
      justificativa: 'Reposição do material de expediente das escolas no semestre.',
      valor_total: total,
      ...over,
    });
    for (const [i, [produto, quantidade, valor]] of itens.entries()) {
      await insert(t.server, 'memorando_itens', {
        memorando_id: id,
        entidade_id: fx.entidadeId,
        ordem: i + 1,
        produto_id: produto,
        quantidade,
        valor_unitario: valor,
        valor_total: (Number(quantidade) * Number(valor)).toFixed(2),
      });
    }
    return id;
  };

  beforeAll(async () => {
    fx = await createFixture(t.server);
    const requisitante = await createPerfil(t.server, fx, 'Requisitante');
    rita = await createUser(t.server, fx, 'rita', requisitante, [fx.educacao]);
    sara = await createUser(t.server, fx, 'sara', requisitante, [fx.saude]);
    compras = await createUser(t.server, fx, 'compras', await createPerfil(t.server, fx, 'Compras', { todos: true }));
    semTag = await createUser(t.server, fx, 'semtag', await createPerfil(t.server, fx, 'Memorandos só', { tags: [29] }), [fx.educacao]);
    aceito = await memorando({}, [
      [fx.papel, '10', '25.5'],
      [fx.caneta, '3.5', '1.9999'],
    ]);
    daSaude = await memorando({ origem_id: fx.saude, assunto: 'Luvas para as unidades de saúde' }, [[fx.papel, '1', '10']]);
    enviado = await memorando({ status: 'enviado', assunto: 'Material enviado e não aceito' }, [[fx.papel, '1', '10']]);
    outro = await memorando({ origem_id: fx.compras, destino_id: fx.educacao, assunto: 'Cimento para reforma da escola', solicitante_nome: 'Otávio Obras' }, [
      [fx.cimento, '2', '40'],
    ]);
  });

  it("lists the accepted memorandos of the person's centros (origin or destination), searchable by number, assunto and requester", async () => {
    const todos = await listar(rita.token);
    expect(todos.items.map((m) => m.id)).toEqual([outro, aceito]); // newest first; Saúde's and the unaccepted one are not there
    expect(todos).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(todos.items[1]).toMatchObject({
      numero: 1,
      ano: 2026,
      assunto: 'Material de expediente das escolas',
      origemNome: '02 – Secretaria de Educação',
      destinoNome: '01.01 – Compras e Licitações',
      valorTotal: '262.00',
      itens: 2,
      preRequisicao: null,
    });
    expect((await listar(rita.token, '?q=1/2026')).items.map((m) => m.id)).toEqual([aceito]);
    expect((await listar(rita.token, '?q=reforma')).items.map((m) => m.id)).toEqual([outro]);
    expect((await listar(rita.token, '?q=otavio')).items.map((m) => m.id)).toEqual([outro]);
    expect((await listar(rita.token, '?pageSize=1&page=2')).items.map((m) => m.id)).toEqual([aceito]);
    expect((await listar(sara.token)).items.map((m) => m.id)).toEqual([daSaude]);
    expect((await listar(compras.token)).items.map((m) => m.id).sort()).toEqual([aceito, daSaude, outro].sort());
    expect(enviado).toBeTruthy();
    expect((await api('/pre-requisicoes/memorandos-aceitos', semTag.token)).status).toBe(403);
    expect((await api('/pre-requisicoes/memorandos-aceitos?pageSize=500', rita.token)).status).toBe(400);
  });

  it("copies the items and the justification, keeps the link; a foreign centro's memorando is 404, an unaccepted one 400", async () => {
    const res = await gerar(aceito, rita.token);
    expect(res.status, await res.clone().text()).toBe(201);
    const pre = (await res.json()) as Pre;
    expect(pre).toMatchObject({ memorandoId: aceito, justificativa: 'Reposição do material de expediente das escolas no semestre.', valorTotal: '262.00' });
    expect(pre.itens.map((i) => [i.produtoId, i.quantidade, i.valorUnitario])).toEqual([
      [fx.papel, '10.0000', '25.5000'],
      [fx.caneta, '3.5000', '1.9999'],
    ]);
    const [log] = await t.server.sql<{ acao: string }>('SELECT acao FROM audit_log WHERE registro = $1', [pre.id]);
    expect(log?.acao).toBe('criar');
    // the timeline names the memorando by its number (the kit names a link's column), never by its id
    const historico = await (await api(`/pre-requisicoes/${pre.id}/historico`, rita.token)).text();
    const [memo] = await t.server.sql<{ numero: number }>('SELECT numero FROM memorandos WHERE id = $1', [aceito]);
    expect(historico).toContain(`"${memo!.numero}/2026"`);
    expect(historico).not.toContain(aceito);

    expect((await gerar(daSaude, rita.token)).status).toBe(404);
    expect((await gerar(daSaude, sara.token, fx.saude)).status).toBe(201);
    const naoAceito = await gerar(enviado, rita.token);
    expect(naoAceito.status).toBe(400);
    expect(((await naoAceito.json()) as ErrorBody).error.fields?.memorandoId).toBe('Escolha um memorando aceito.');
    expect((await gerar('00000000-0000-4000-8000-000000000099', rita.token)).status).toBe(404);
    expect((await api('/pre-requisicoes/de-memorando', rita.token, { json: { memorandoId: 'x' } })).status).toBe(400);
  });

  it('a memorando is attended once: a second pré-requisição is 409 (also concurrently) until the first is cancelled', async () => {
    const vinculado = (await listar(rita.token)).items.find((m) => m.id === aceito)!;
    expect(vinculado.preRequisicao).toMatchObject({ numero: expect.any(Number), ano: expect.any(Number) });
    expect((await listar(rita.token, '?disponiveis=true')).items.map((m) => m.id)).toEqual([outro]);

    const segunda = await gerar(aceito, rita.token);
    expect(segunda.status).toBe(409);
    const erro = (await segunda.json()) as ErrorBody;
    expect(erro.error.code).toBe('memorando_atendido');
    expect(erro.error.message).toContain(`pré-requisição ${vinculado.preRequisicao!.numero}/${vinculado.preRequisicao!.ano}`);

    // the kit's own POST with memorandoId is held to the same rule (the same 409, issue 18)
    const direto = await api('/pre-requisicoes', rita.token, {
      json: {
        centroCustoId: fx.educacao,
        tipoSolicitacaoId: fx.tipo,
        memorandoId: aceito,
        justificativa: 'Outra pré-requisição do mesmo memorando.',
        itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '1' }],
      },
    });
    expect(direto.status).toBe(409);
    const erroDireto = (await direto.json()) as ErrorBody;
    expect(erroDireto.error.code).toBe('memorando_atendido');
    expect(erroDireto.error.fields?.memorandoId).toContain('já deu origem');

    const concorrentes = await Promise.all([gerar(outro, rita.token), gerar(outro, rita.token), gerar(outro, compras.token)]);
    expect(concorrentes.map((r) => r.status).sort()).toEqual([201, 409, 409]);

    // cancelling the pré-requisição frees the memorando
    const first = (await (await api(`/pre-requisicoes/${vinculado.preRequisicao!.id}`, rita.token)).json()) as Pre;
    const cancelar = await api(`/pre-requisicoes/${first.id}/cancelar`, rita.token, {
      json: { version: first.version, motivo: 'Pedido feito por engano, refazer.' },
    });
    expect(cancelar.status, await cancelar.clone().text()).toBe(200);
    expect((await listar(rita.token)).items.find((m) => m.id === aceito)?.preRequisicao).toBeNull();
    expect((await gerar(aceito, rita.token)).status).toBe(201);
  });
});
