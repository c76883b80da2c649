// Issue 18, the approval of requisições as a public body is audited on, on both engines:
// - every requisição can be decided: when nobody of the awaited level may (the only approver asked
//   for it, the others are outside its centro), the approvers of the next higher level decide it,
//   else the substitutes named on the alçada — recorded "por substituição"; nobody approves two levels;
// - "aguarda a sua aprovação" goes exactly to who can act now (centro, level, segregation, substitutes);
// - the dispensa alert counts exactly what its label says (em aprovação and aprovadas), and approving a
//   requisição with an alert requires acknowledging it (`ciente`), recorded in the approval's audit row.
import { describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import { type ErrorBody, type Fixture, type User, createFixture, createPerfil, createUser, plugins } from './helpers.js';

type Doc = {
  id: string;
  numero: number;
  ano: number;
  status: string;
  version: number;
  nivelAtual: number | null;
  valorAprovado: string | null;
  transicoes: string[];
};
type Aprovacao = {
  nivelAtual: number | null;
  etapas: { nivel: number; aprovadoPor: string | null; substituicao: string | null }[];
  podemDecidir: { nome: string; via: string }[];
  valorAprovado: string | null;
};
type Alerta = {
  grupoCodigo: string;
  total: string;
  estaConta: boolean;
  valorDesta: string;
  totalComEsta: string;
  limite: string;
  requisicoes: { id: string }[];
};

describeEachDatabase('requisicoes: approval governance (substitutes, notifications, dispensa acknowledgement)', { plugins }, (t) => {
  let fx: Fixture;
  let admin: string;
  let rita: User; // requisitante, Educação
  let chefe: User; // the only level-1 approver of Educação (perfil Chefia)
  let sara: User; // Chefia too, but of Saúde: never acts on Educação's requisições
  let diretor: User; // level 2 (every centro)
  let sub: User; // substitute named on level 2
  const ano = new Date().getFullYear();

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/requisicoes${path}`, { token, ...init });
  const criar = async (token: string, itens: { produtoId: string; quantidade: string; valorUnitario: string }[], categoria = 'compras') => {
    const res = await api('/requisicoes', token, {
      json: { centroCustoId: fx.educacao, tipoSolicitacaoId: fx.tipo, categoria, justificativa: 'Material para o funcionamento das escolas.', itens },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Doc;
  };
  const agir = async (d: { id: string; version: number }, acao: string, token: string, extra: Record<string, unknown> = {}) => {
    const res = await api(`/requisicoes/${d.id}/${acao}`, token, { json: { version: d.version, ...extra } });
    return { status: res.status, body: (await res.json()) as Doc & ErrorBody };
  };
  const ler = async (id: string, token: string) => (await (await api(`/requisicoes/${id}`, token)).json()) as Doc;
  const aprovacao = async (id: string, token: string) => (await (await api(`/requisicoes/${id}/aprovacao`, token)).json()) as Aprovacao;
  const ultimo = async () => Number((await t.server.sql<{ n: string }>('SELECT coalesce(max(id), 0)::text AS n FROM outbox'))[0]!.n);
  const aguardam = async (desde: number) =>
    (
      await t.server.sql<{ to: string }>(
        'SELECT to_address AS "to" FROM outbox WHERE id > $1 AND subject LIKE \'%aguarda a sua aprovação\' ORDER BY to_address',
        [desde],
      )
    ).map((r) => r.to);
  const auditoria = async (id: string, acao: string) =>
    t.server.sql<{ depois: Record<string, unknown> }>('SELECT depois FROM audit_log WHERE registro = $1 AND acao = $2 ORDER BY id', [id, acao]);

  beforeAll(async () => {
    fx = await createFixture(t.server);
    admin = (await t.server.signIn(undefined, undefined, fx.entidadeId)).token;
    const requisitante = await createPerfil(t.server, fx, 'Requisitante');
    const chefia = await createPerfil(t.server, fx, 'Chefia');
    const diretoria = await createPerfil(t.server, fx, 'Diretoria', { todos: true });
    rita = await createUser(t.server, fx, 'rita', requisitante, [fx.educacao]);
    chefe = await createUser(t.server, fx, 'chefe', chefia, [fx.educacao]);
    sara = await createUser(t.server, fx, 'sara', chefia, [fx.saude]);
    diretor = await createUser(t.server, fx, 'diretor', diretoria);
    sub = await createUser(t.server, fx, 'sub', requisitante, [fx.educacao]);
    // a substitute must be a user of the entidade
    const ruim = await api('/alcadas', admin, {
      json: { nivel: 2, nome: 'Diretoria', valorMinimo: '10.000,00', perfis: [diretoria], substitutos: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(ruim.status).toBe(400);
    expect(((await ruim.json()) as ErrorBody).error.fields?.substitutos).toBe('Escolha usuários desta entidade.');
    for (const a of [
      { nivel: 1, nome: 'Chefia', valorMinimo: '0', perfis: [chefia] },
      { nivel: 2, nome: 'Diretoria', valorMinimo: '10.000,00', perfis: [diretoria], substitutos: [sub.id] },
    ]) {
      const res = await api('/alcadas', admin, { json: a });
      expect(res.status, await res.clone().text()).toBe(201);
    }
  });

  it('notifies exactly who can act: the level’s approver of the centro, never one of another centro nor the requester', async () => {
    const r = await criar(rita.token, [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '100' }]);
    const marca = await ultimo();
    const enviada = await agir(r, 'enviar', rita.token);
    expect(enviada.status).toBe(200);
    expect(await aguardam(marca)).toEqual(['chefe@exemplo.gov.br']);
    expect((await aprovacao(r.id, rita.token)).podemDecidir).toEqual([{ nome: 'Pessoa chefe', via: 'titular' }]);
    // sara (Chefia of Saúde) neither sees it in her queue nor can act on it
    expect(((await (await api('/requisicoes/aguardando-minha-aprovacao/contagem', sara.token)).json()) as { total: number }).total).toBe(0);
    expect((await agir(enviada.body, 'aprovar', sara.token)).status).toBe(404);
    const aprovada = await agir(enviada.body, 'aprovar', chefe.token);
    expect(aprovada.body).toMatchObject({ status: 'aprovada', valorAprovado: '100.00' });
    expect((await auditoria(r.id, 'aprovar'))[0]!.depois.porSubstituicao).toBeUndefined();
  });

  it('a requisição raised by the only approver of its level is decided por substituição (next level, then the named substitute); nobody approves two levels', async () => {
    const r = await criar(chefe.token, [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '15000' }]);
    let marca = await ultimo();
    let d = (await agir(r, 'enviar', chefe.token)).body;
    expect(d).toMatchObject({ status: 'em_aprovacao', nivelAtual: 1 });
    // level 1: chefe asked for it, sara is of another centro → the level-2 approver decides it
    expect(await aguardam(marca)).toEqual(['diretor@exemplo.gov.br']);
    expect((await aprovacao(r.id, rita.token)).podemDecidir).toEqual([{ nome: 'Pessoa diretor', via: 'nivel_superior' }]);
    expect((await agir(d, 'aprovar', chefe.token)).status).toBe(403);
    expect((await agir(d, 'aprovar', sara.token)).status).toBe(404);
    expect((await ler(r.id, diretor.token)).transicoes).toEqual(['aprovar', 'reprovar', 'devolver']);
    marca = await ultimo();
    const nivel1 = await agir(d, 'aprovar', diretor.token);
    expect(nivel1.status).toBe(200);
    d = nivel1.body;
    expect(d).toMatchObject({ status: 'em_aprovacao', nivelAtual: 2 });
    expect((await auditoria(r.id, 'aprovar'))[0]!.depois.porSubstituicao).toBe('por substituição (aprovador do nível superior)');
    // level 2: the diretor approved level 1 → the substitute named on the alçada, and only them
    expect(await aguardam(marca)).toEqual(['sub@exemplo.gov.br']);
    expect((await aprovacao(r.id, rita.token)).podemDecidir).toEqual([{ nome: 'Pessoa sub', via: 'substituto' }]);
    expect((await agir(d, 'aprovar', diretor.token)).status).toBe(403);
    const fim = await agir(d, 'aprovar', sub.token);
    expect(fim.body).toMatchObject({ status: 'aprovada', valorAprovado: '15000.00' });
    const etapas = await aprovacao(r.id, rita.token);
    expect(etapas.etapas.map((e) => [e.nivel, e.aprovadoPor, e.substituicao])).toEqual([
      [1, 'Pessoa diretor', 'nivel_superior'],
      [2, 'Pessoa sub', 'substituto'],
    ]);
    expect(etapas.podemDecidir).toEqual([]);
    expect(etapas.valorAprovado).toBe('15000.00');
  });

  it('the dispensa alert counts only em aprovação and aprovadas; approving with an alert requires `ciente`, recorded with the alert in the audit row', async () => {
    const lim = await api('/limites-dispensa', admin, { json: { ano, categoria: 'obras', valor: '1.000,00' } });
    expect(lim.status, await lim.clone().text()).toBe(201);
    const obra = (valor: string) => [{ produtoId: fx.cimento, quantidade: '1', valorUnitario: valor }];
    const a = await criar(rita.token, obra('600'), 'obras');
    await agir(a, 'enviar', rita.token);
    const rascunho = await criar(rita.token, obra('5000'), 'obras');
    const devolvida = await criar(rita.token, obra('3000'), 'obras');
    const dv = (await agir(devolvida, 'enviar', rita.token)).body;
    expect((await agir(dv, 'devolver', chefe.token, { motivo: 'Reveja as quantidades da obra.' })).body.status).toBe('devolvida');
    const b = await criar(rita.token, obra('500'), 'obras');
    const enviada = (await agir(b, 'enviar', rita.token)).body;
    const alertas = async (id: string) => ((await (await api(`/requisicoes/${id}/dispensa`, rita.token)).json()) as { items: Alerta[] }).items;
    // b (em aprovação): 600 + 500; the draft and the returned one are not counted
    const [deB] = await alertas(b.id);
    expect(deB).toMatchObject({ grupoCodigo: 'GB', total: '1100.00', estaConta: true, totalComEsta: '1100.00', limite: '1000.00' });
    expect(deB!.requisicoes.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    // the draft's own alert: the total is the counted ones; the draft is added apart
    const [doRascunho] = await alertas(rascunho.id);
    expect(doRascunho).toMatchObject({ total: '1100.00', estaConta: false, valorDesta: '5000.00', totalComEsta: '6100.00' });
    expect(doRascunho!.requisicoes.map((r) => r.id)).not.toContain(rascunho.id);
    const [daDevolvida] = await alertas(devolvida.id);
    expect(daDevolvida).toMatchObject({ total: '1100.00', estaConta: false, totalComEsta: '4100.00' });

    // approving b: without `ciente` (or with false) 400 in pt-BR; with it, 200 and the audit keeps what was seen
    for (const extra of [{}, { ciente: false }]) {
      const sem = await agir(enviada, 'aprovar', chefe.token, extra);
      expect(sem.status).toBe(400);
      expect(sem.body.error.fields?.ciente).toMatch(/alerta de limite de dispensa/);
    }
    expect((await agir(enviada, 'aprovar', chefe.token, { ciente: 'sim' })).status).toBe(400);
    const ok = await agir(enviada, 'aprovar', chefe.token, { ciente: true });
    expect(ok.status).toBe(200);
    const [audit] = await auditoria(b.id, 'aprovar');
    expect(audit!.depois.alertasDispensaVistos).toEqual([
      { grupo: 'GB – Material de construção', categoria: 'obras', ano, soma: '1100.00', limite: '1000.00', anoLimite: ano },
    ]);
    // no alert: no acknowledgement needed, nothing recorded
    const papel = await criar(rita.token, [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '10' }]);
    const semAlerta = await agir((await agir(papel, 'enviar', rita.token)).body, 'aprovar', chefe.token);
    expect(semAlerta.status).toBe(200);
    expect((await auditoria(papel.id, 'aprovar'))[0]!.depois.alertasDispensaVistos).toBeUndefined();
  });
});
