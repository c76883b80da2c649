// Segregation of duties on pré-requisições and requisições (the document kit's documento_autores), with
// perfis as the demo's (Requisitante, Chefia, Comprador with every centro, Ordenador):
// - only an author edits, sends or cancels a draft: the chefia of the same centro who rewrote a
//   colleague's draft (3 × R$ 999, new justification), sent it and approved it is now refused (403);
// - whoever wrote, changed or sent a requisição — or wrote the memorando or pré-requisição it was made
//   from — never approves, rejects nor returns it: 403 per record, and absent from their queue;
// - numbered documents are never deleted (409 numerado); a cancelled draft leaves no gap.
import { RASCUNHOS_ALHEIOS_TAG } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, plugins } from './helpers.js';

type Doc = {
  id: string;
  numero: number;
  ano: number;
  status: string;
  version: number;
  justificativa: string;
  valorTotal: string;
  itens: { id?: string; produtoId: string; quantidade: string; valorUnitario: string }[];
  transicoes: string[];
  editavel: boolean;
};

const SEGREGACAO = 'Quem escreveu, alterou ou enviou esta requisição não pode aprová-la (segregação de funções).';
const ALHEIO = 'Só quem criou este rascunho pode alterá-lo, enviá-lo ou cancelá-lo (ou quem tem a permissão "Editar rascunhos de outras pessoas").';

describeEachDatabase('requisicoes: segregation of duties and other people’s drafts', { plugins }, (t) => {
  let fx: Fixture;
  let rita: User; // Requisitante, Educação
  let claudia: User; // Chefia, Educação and Saúde (approver of level 1)
  let chefe2: User; // Chefia, Educação (another approver of level 1)
  let carla: User; // Comprador, every centro
  let bruno: User; // Compras e Licitações (accepts memorandos)
  let revisora: User; // Chefia with "Editar rascunhos de outras pessoas"

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });
  const ok = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const falha = async (res: Response, status: number) => (await ok<ErrorBody>(res, status)).error;
  const agir = (d: { id: string; version: number }, acao: string, token: string, motivo?: string, base = '/requisicoes') =>
    api(`${base}/${d.id}/${acao}`, token, {
      json: { version: d.version, ...(motivo ? { motivo } : {}), ...(acao === 'aprovar' && base === '/requisicoes' ? { ciente: true } : {}) },
    });
  const ler = async (id: string, token: string, base = '/requisicoes') => ok(await api(`${base}/${id}`, token), 200);
  const corpo = (over: Record<string, unknown> = {}) => ({
    centroCustoId: fx.educacao,
    tipoSolicitacaoId: fx.tipo,
    categoria: 'compras',
    dotacao: '02.01.12.361.0002.2.010 3.3.90.30',
    justificativa: 'Material para o funcionamento das escolas no semestre.',
    itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '25' }],
    ...over,
  });
  const fila = async (token: string) =>
    (await ok<{ items: Doc[] }>(await api('/requisicoes?aguardandoMinha=1&pageSize=100', token), 200)).items.map((d) => d.id);

  beforeAll(async () => {
    fx = await createFixture(t.server);
    const admin = (await t.server.signIn(undefined, undefined, fx.entidadeId)).token;
    const requisitante = await createPerfil(t.server, fx, 'Requisitante', { tags: [29, 39] });
    const chefia = await createPerfil(t.server, fx, 'Chefia', { tags: [29, 39] });
    const comprador = await createPerfil(t.server, fx, 'Comprador', { tags: [29, 39], todos: true });
    const chefiaRevisora = await createPerfil(t.server, fx, 'Chefia revisora', { tags: [29, 39, RASCUNHOS_ALHEIOS_TAG] });
    rita = await createUser(t.server, fx, 'rita', requisitante, [fx.educacao]);
    claudia = await createUser(t.server, fx, 'chefia', chefia, [fx.educacao, fx.saude]);
    chefe2 = await createUser(t.server, fx, 'chefe2', chefia, [fx.educacao]);
    carla = await createUser(t.server, fx, 'comprador', comprador);
    bruno = await createUser(t.server, fx, 'bruno', requisitante, [fx.compras]);
    revisora = await createUser(t.server, fx, 'revisora', chefiaRevisora, [fx.educacao]);
    const res = await api('/alcadas', admin, { json: { nivel: 1, nome: 'Chefia', valorMinimo: '0', perfis: [chefia, chefiaRevisora] } });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it('the chefia of the same centro may not rewrite, send nor cancel a colleague’s draft requisição (the reported 3 × R$ 999)', async () => {
    const d = await ok(await api('/requisicoes', rita.token, { json: corpo() }), 201);
    const reescrita = corpo({
      justificativa: 'Justificativa reescrita pela chefia, com outro valor.',
      itens: [{ produtoId: fx.papel, quantidade: '3', valorUnitario: '999' }],
    });
    for (const quem of [claudia, chefe2, carla]) {
      expect(await falha(await api(`/requisicoes/${d.id}`, quem.token, { method: 'PUT', json: { ...reescrita, version: d.version } }), 403)).toEqual({
        code: 'forbidden',
        message: ALHEIO,
      });
      expect((await falha(await agir(d, 'enviar', quem.token), 403)).message).toBe(ALHEIO);
      expect((await falha(await agir(d, 'cancelar', quem.token, 'Não é mais necessária.'), 403)).message).toBe(ALHEIO);
      expect(await ler(d.id, quem.token)).toMatchObject({ editavel: false, transicoes: [], version: 1, valorTotal: '25.00' });
    }
    // the author sends it; the chefia who never touched it approves
    const enviada = await ok(await agir(d, 'enviar', rita.token), 200);
    expect((await ler(d.id, claudia.token)).transicoes).toEqual(['aprovar', 'reprovar', 'devolver']);
    expect((await ok(await agir(enviada, 'aprovar', claudia.token), 200)).status).toBe('aprovada');
  });

  it('whoever edits with "Editar rascunhos de outras pessoas" becomes an author: never approves, rejects nor returns it, and it leaves their queue', async () => {
    const d = await ok(await api('/requisicoes', rita.token, { json: corpo() }), 201);
    const editada = await ok(
      await api(`/requisicoes/${d.id}`, revisora.token, {
        method: 'PUT',
        json: { ...corpo({ justificativa: 'Revisada pela chefia antes do envio.' }), version: d.version },
      }),
      200,
    );
    const enviada = await ok(await agir(editada, 'enviar', rita.token), 200);
    expect(enviada.status).toBe('em_aprovacao');
    expect((await ler(d.id, revisora.token)).transicoes).toEqual([]);
    expect(await fila(revisora.token)).not.toContain(d.id);
    expect(await fila(chefe2.token)).toContain(d.id);
    expect((await falha(await agir(enviada, 'aprovar', revisora.token), 403)).message).toBe(SEGREGACAO);
    expect((await falha(await agir(enviada, 'reprovar', revisora.token, 'Valor acima do previsto.'), 403)).message).toBe(
      'Quem escreveu, alterou ou enviou esta requisição não pode reprová-la (segregação de funções).',
    );
    expect((await falha(await agir(enviada, 'devolver', revisora.token, 'Ajuste a justificativa.'), 403)).message).toBe(
      'Quem escreveu, alterou ou enviou esta requisição não pode devolvê-la (segregação de funções).',
    );
    expect((await ok(await agir(enviada, 'aprovar', chefe2.token), 200)).status).toBe('aprovada');
  });

  it('the author of a memorando never approves the requisição made from it (memorando → pré-requisição de-memorando → conversion)', async () => {
    // Cláudia (chefia, also an approver of level 1) writes and sends the memorando of Educação; Compras accepts it
    const mapi = (path: string, token: string, json: unknown) => t.server.request(`/api/memorandos${path}`, { token, json });
    const memorando = await ok(
      await mapi('/memorandos', claudia.token, {
        origemId: fx.educacao,
        destinoId: fx.compras,
        assunto: 'Papel para as escolas',
        justificativa: 'Reposição do papel das secretarias escolares no semestre.',
        prioridade: 'media',
        itens: [{ produtoId: fx.papel, quantidade: '10', valorUnitario: '25' }],
      }),
      201,
    );
    const enviado = await ok(await mapi(`/memorandos/${memorando.id}/enviar`, claudia.token, { version: memorando.version }), 200);
    expect((await ok(await mapi(`/memorandos/${memorando.id}/aceitar`, bruno.token, { version: enviado.version }), 200)).status).toBe('aceito');
    // the comprador makes the pré-requisição from it, sends it and converts its item into a requisição
    let pre = await ok(
      await api('/pre-requisicoes/de-memorando', carla.token, { json: { memorandoId: memorando.id, centroCustoId: fx.educacao, tipoSolicitacaoId: fx.tipo } }),
      201,
    );
    pre = await ok(await agir(pre, 'enviar', carla.token, undefined, '/pre-requisicoes'), 200);
    const criada = await ok(
      await api('/requisicoes', carla.token, {
        json: corpo({ itens: [{ produtoId: fx.papel, quantidade: '10', valorUnitario: '25', preRequisicaoItemId: pre.itens[0]!.id }] }),
      }),
      201,
    );
    const enviada = await ok(await agir(criada, 'enviar', carla.token), 200);
    const autores = await t.server.sql<{ papel: string }>('SELECT papel FROM documento_autores WHERE documento_id = $1 AND usuario_id = $2', [
      enviada.id,
      claudia.id,
    ]);
    expect(autores.map((a) => a.papel)).toEqual(['fonte']);
    // Cláudia is named at level 1 and belongs to Educação, yet neither the queue nor the record offer it
    expect(await fila(claudia.token)).not.toContain(enviada.id);
    expect((await ler(enviada.id, claudia.token)).transicoes).toEqual([]);
    expect((await falha(await agir(enviada, 'aprovar', claudia.token), 403)).message).toBe(SEGREGACAO);
    // the pré-requisição's author neither (she sent it): the comprador is not an approver here, chefe2 decides
    expect(await fila(chefe2.token)).toContain(enviada.id);
    expect((await ok(await agir(enviada, 'aprovar', chefe2.token), 200)).status).toBe('aprovada');
  });

  it('numbered pré-requisições and requisições are never deleted (409 numerado); a cancelled draft leaves no gap', async () => {
    for (const base of ['/pre-requisicoes', '/requisicoes']) {
      const json =
        base === '/requisicoes'
          ? corpo()
          : { centroCustoId: fx.educacao, tipoSolicitacaoId: fx.tipo, justificativa: 'Demanda de papel das escolas.', itens: corpo().itens };
      const d = await ok(await api(base, rita.token, { json }), 201);
      expect(await falha(await api(`${base}/${d.id}`, rita.token, { method: 'DELETE' }), 409)).toEqual({
        code: 'numerado',
        message: 'Documentos numerados não são excluídos: cancele este rascunho informando o motivo.',
      });
      expect((await ok(await agir(d, 'cancelar', rita.token, 'Criada por engano, em duplicidade.', base), 200)).status).toBe('cancelada');
      const seguinte = await ok(await api(base, rita.token, { json }), 201);
      expect([seguinte.numero, seguinte.ano]).toEqual([d.numero + 1, d.ano]);
    }
  });
});
