import { today } from '@app/br';
import { RASCUNHOS_ALHEIOS_TAG, parseSpreadsheet } from '@app/server-core';
import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { fluxo } from '../../src/shared/index.js';
import { type Fixture, createFixture, pdfText, plugins } from './helpers.js';

type Item = { produtoId: string; quantidade: string; valorUnitario: string; valorTotal: string; ordem: number; produtoDescricao: string };
type Memorando = {
  id: string;
  numero: number;
  ano: number;
  data: string;
  status: string;
  version: number;
  origemId: string;
  destinoId: string;
  origemNome: string;
  destinoNome: string;
  solicitanteId: string;
  solicitanteNome: string;
  assunto: string;
  justificativa: string;
  prioridade: string;
  dataDesejada: string | null;
  valorTotal: string;
  itens: Item[];
  transicoes: string[];
  editavel: boolean;
};
type Page = { items: Memorando[]; total: number };
type Historico = { items: { acao: string; motivo?: string | null; usuarioNome?: string | null }[] };

const HOJE = today();
const ANO = Number(HOJE.slice(0, 4));

describeEachDatabase('memorandos API', { plugins }, (t) => {
  let fx: Fixture;
  /** Rita: Educação (the requesting area). */
  let rita: { token: string; id: string };
  /** Bruno: Compras e Licitações (the destination). */
  let bruno: { token: string; id: string };
  /** Sara: Saúde (another area: sees none of Educação's memorandos). */
  let sara: { token: string; id: string };
  /** Gestor: a perfil that sees every centro (purchasing head, controladoria). */
  let gestor: { token: string; id: string };

  beforeAll(async () => {
    fx = await createFixture(t.server);
    rita = await t.server.createUser({ login: 'rita', nome: 'Rita Requisitante', tags: [29], centros: [fx.educacao] });
    bruno = await t.server.createUser({ login: 'bruno', nome: 'Bruno Comprador', tags: [29], centros: [fx.compras] });
    sara = await t.server.createUser({ login: 'sara', nome: 'Sara da Saúde', tags: [29], centros: [fx.saude] });
    gestor = await t.server.createUser({ login: 'gestor', nome: 'Gil Gestor', tags: [29], todosCentros: true });
  });

  const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/memorandos${path}`, { token, ...init });

  const corpo = (over: Record<string, unknown> = {}) => ({
    origemId: fx.educacao,
    destinoId: fx.compras,
    assunto: 'Material de expediente para as escolas',
    justificativa: 'Reposição do material de expediente das secretarias escolares no semestre.',
    prioridade: 'media',
    dataDesejada: '2099-03-31',
    itens: [
      { produtoId: fx.papel, quantidade: '3', valorUnitario: '0,3333' },
      { produtoId: fx.caneta, quantidade: '2.5', valorUnitario: '10.015' },
      { produtoId: fx.toner, quantidade: '1.234', valorUnitario: '289,90' },
    ],
    ...over,
  });

  const criar = async (token = rita.token, over: Record<string, unknown> = {}) => {
    const res = await api('/memorandos', token, { json: corpo(over) });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Memorando;
  };

  const agir = async (m: { id: string; version: number }, acao: string, token: string, motivo?: string) => {
    const res = await api(`/memorandos/${m.id}/${acao}`, token, { json: { version: m.version, ...(motivo ? { motivo } : {}) } });
    return { status: res.status, body: (await res.json()) as Memorando & ErrorBody };
  };
  const ler = async (id: string, token = rita.token) => (await (await api(`/memorandos/${id}`, token)).json()) as Memorando;

  it('creates a draft with the next number, the requester, today, exact line and document totals', async () => {
    const m = await criar();
    expect(m).toMatchObject({
      numero: expect.any(Number),
      ano: ANO,
      data: HOJE,
      status: 'rascunho',
      version: 1,
      solicitanteId: rita.id,
      solicitanteNome: 'Rita Requisitante',
      origemNome: 'Secretaria de Educação',
      destinoNome: 'Compras e Licitações',
      prioridade: 'media',
      editavel: true,
    });
    expect(m.transicoes).toEqual(['enviar', 'cancelar']);
    // 3 × 0,3333 = 0,9999 → 1,00; 2,5 × 10,015 = 25,0375 → 25,04; 1,234 × 289,90 = 357,7366 → 357,74
    expect(m.itens.map((i) => [i.ordem, i.quantidade, i.valorUnitario, i.valorTotal])).toEqual([
      [1, '3.0000', '0.3333', '1.00'],
      [2, '2.5000', '10.0150', '25.04'],
      [3, '1.2340', '289.9000', '357.74'],
    ]);
    expect(m.valorTotal).toBe('383.78');
    expect(m.itens[2]?.produtoDescricao).toBe('Toner para impressora laser');
    const [stored] = await t.server.sql<{ valor_total: string }>('SELECT valor_total::text FROM memorandos WHERE id = $1', [m.id]);
    expect(stored?.valor_total).toBe('383.78');
    const [audit] = await t.server.sql<{ acao: string }>("SELECT acao FROM audit_log WHERE plugin = 'memorandos' AND registro = $1", [m.id]);
    expect(audit?.acao).toBe('criar');
  });

  it('refuses what the form would: no items, a foreign or inactive product, too many places, an origin not mine, the same centro', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ itens: [] }, 'itens', 'Inclua ao menos um item.'],
      [{ itens: [{ produtoId: fx.daCamara, quantidade: '1', valorUnitario: '1' }] }, 'itens.0.produtoId', 'Escolha um produto ou serviço do catálogo.'],
      [{ itens: [{ produtoId: fx.antigo, quantidade: '1', valorUnitario: '1' }] }, 'itens.0.produtoId', 'Este produto está desativado: escolha outro.'],
      [{ itens: [{ produtoId: fx.papel, quantidade: '1,00001', valorUnitario: '1' }] }, 'itens.0.quantidade', 'Use no máximo 4 casas decimais.'],
      [{ itens: [{ produtoId: fx.papel, quantidade: '0', valorUnitario: '1' }] }, 'itens.0.quantidade', 'Informe um valor maior que zero.'],
      [
        {
          itens: [
            { produtoId: fx.papel, quantidade: '1', valorUnitario: '1' },
            { produtoId: fx.papel, quantidade: '2', valorUnitario: '1' },
          ],
        },
        'itens.1.produtoId',
        'Este produto já está em outro item.',
      ],
      [{ origemId: fx.saude }, 'origemId', 'Escolha um centro de custo ao qual você pertence.'],
      [{ destinoId: fx.educacao }, 'destinoId', 'O destino deve ser outro centro de custo.'],
      [{ destinoId: fx.inativo }, 'destinoId', 'Este registro está desativado: escolha outro.'],
      [{ prioridade: 'urgente' }, 'prioridade', 'Escolha a prioridade.'],
      [{ dataDesejada: '2026-02-30' }, 'dataDesejada', 'Data desejada: data inexistente.'],
      [{ dataDesejada: '30/04' }, 'dataDesejada', 'Data desejada: use o formato dd/mm/aaaa.'],
    ];
    for (const [over, field, message] of cases) {
      const res = await api('/memorandos', rita.token, { json: corpo(over) });
      const body = (await res.json()) as ErrorBody;
      expect([res.status, field, body.error.fields?.[field]]).toEqual([400, field, message]);
    }
  });

  it('walks the flow: send, return with a reason, edit, send again, accept, archive; roles decided on the server', async () => {
    let m = await criar();
    // the destination neither edits nor sends a draft it cannot even see yet… it sees it (scope: origin or destination)
    expect((await api(`/memorandos/${m.id}`, bruno.token)).status).toBe(200);
    expect((await ler(m.id, bruno.token)).transicoes).toEqual([]);
    expect((await agir(m, 'enviar', bruno.token)).status).toBe(403);

    let r = await agir(m, 'enviar', rita.token);
    expect([r.status, r.body.status, r.body.version]).toEqual([200, 'enviado', 2]);
    m = r.body;
    expect(m.transicoes).toEqual([]);
    expect(m.editavel).toBe(false);
    expect((await ler(m.id, bruno.token)).transicoes).toEqual(['aceitar', 'devolver']);

    // sent: not editable, in the API too
    const put = await api(`/memorandos/${m.id}`, rita.token, { method: 'PUT', json: { ...corpo({ assunto: 'Outro assunto' }), version: m.version } });
    expect(put.status).toBe(409);
    expect(((await put.json()) as ErrorBody).error).toMatchObject({ code: 'locked', message: 'Este memorando está enviado e não pode ser alterado.' });
    // the requester does not accept; sending twice is a 409 naming the state; a stale version is a 409 too
    expect((await agir(m, 'aceitar', rita.token)).status).toBe(403);
    const twice = await agir(m, 'enviar', rita.token);
    expect([twice.status, twice.body.error.code, twice.body.error.message]).toEqual([
      409,
      'invalid_transition',
      'Não é possível enviar: o documento está enviado.',
    ]);
    expect((await agir({ id: m.id, version: 1 }, 'devolver', bruno.token, 'Faltam dados.')).body.error.code).toBe('stale');
    // a return needs a reason
    const semMotivo = await agir(m, 'devolver', bruno.token);
    expect([semMotivo.status, semMotivo.body.error.fields?.motivo]).toEqual([400, 'Informe o motivo.']);

    r = await agir(m, 'devolver', bruno.token, 'Informe as quantidades por escola.');
    expect([r.status, r.body.status]).toEqual([200, 'devolvido']);
    m = r.body;
    // returned: the origin edits it (not the destination) and sends it again
    const byBruno = await api(`/memorandos/${m.id}`, bruno.token, { method: 'PUT', json: { ...corpo(), version: m.version } });
    expect(byBruno.status).toBe(409);
    const edit = await api(`/memorandos/${m.id}`, rita.token, {
      method: 'PUT',
      json: {
        ...corpo({ assunto: 'Material de expediente por escola', itens: [{ produtoId: fx.papel, quantidade: '10', valorUnitario: '27.9' }] }),
        version: m.version,
      },
    });
    expect(edit.status).toBe(200);
    m = (await edit.json()) as Memorando;
    expect([m.assunto, m.valorTotal, m.itens.length, m.solicitanteId]).toEqual(['Material de expediente por escola', '279.00', 1, rita.id]);
    m = (await agir(m, 'enviar', rita.token)).body;
    r = await agir(m, 'aceitar', bruno.token);
    expect([r.status, r.body.status]).toEqual([200, 'aceito']);
    m = r.body;
    expect((await agir(m, 'cancelar', rita.token, 'Desisti.')).status).toBe(409);
    r = await agir(m, 'arquivar', bruno.token);
    expect([r.status, r.body.status, r.body.transicoes]).toEqual([200, 'arquivado', []]);

    // the timeline: who did what, with the reason
    const hist = (await (await api(`/memorandos/${m.id}/historico`, rita.token)).json()) as Historico;
    expect(hist.items.map((i) => i.acao)).toEqual(['arquivar', 'aceitar', 'enviar', 'alterar', 'devolver', 'enviar', 'criar']);
    expect(JSON.stringify(hist.items[4])).toContain('Informe as quantidades por escola.');
  });

  it('every transition is refused (409) from every state that does not allow it, and allowed from those that do', async () => {
    // one memorando in each state, brought there through the API
    const emEstado: Record<string, Memorando> = {};
    const passos: Record<string, [string, string, string?][]> = {
      rascunho: [],
      enviado: [['enviar', 'rita']],
      devolvido: [
        ['enviar', 'rita'],
        ['devolver', 'bruno', 'Refaça.'],
      ],
      aceito: [
        ['enviar', 'rita'],
        ['aceitar', 'bruno'],
      ],
      arquivado: [
        ['enviar', 'rita'],
        ['aceitar', 'bruno'],
        ['arquivar', 'bruno'],
      ],
      cancelado: [['cancelar', 'rita', 'Não é mais necessário.']],
    };
    const token = (who: string) => (who === 'rita' ? rita.token : bruno.token);
    for (const [estado, lista] of Object.entries(passos)) {
      let m = await criar();
      for (const [acao, who, motivo] of lista) m = (await agir(m, acao, token(who), motivo)).body;
      expect(m.status).toBe(estado);
      emEstado[estado] = m;
    }
    for (const estado of fluxo.stateNames) {
      for (const acao of fluxo.transitionNames) {
        const t0 = fluxo.transitions[acao]!;
        const who = t0.who?.includes('destino') ? bruno.token : rita.token;
        const m = await ler(emEstado[estado]!.id);
        const r = await agir(m, acao, who, 'Motivo do teste.');
        if (t0.from.includes(estado)) {
          expect([estado, acao, r.status, r.body.status]).toEqual([estado, acao, 200, t0.to]);
          // put it back where it was, for the next transitions
          await t.server.sql('UPDATE memorandos SET status = $2 WHERE id = $1', [m.id, estado]);
        } else {
          expect([estado, acao, r.status, r.body.error?.code]).toEqual([estado, acao, 409, 'invalid_transition']);
        }
      }
    }
    // editable states only: PUT and the edit flag
    for (const estado of fluxo.stateNames) {
      const m = await ler(emEstado[estado]!.id);
      const res = await api(`/memorandos/${m.id}`, rita.token, { method: 'PUT', json: { ...corpo(), version: m.version } });
      expect([estado, res.status, m.editavel]).toEqual([estado, fluxo.isEditable(estado) ? 200 : 409, fluxo.isEditable(estado)]);
    }
  });

  it('segregation: whoever sees every centro acts on both sides, but never accepts their own memorando', async () => {
    const own = await criar(gestor.token);
    expect(own.transicoes).toEqual(['enviar', 'cancelar']);
    const sent = (await agir(own, 'enviar', gestor.token)).body;
    expect(sent.transicoes).toEqual([]);
    expect((await agir(sent, 'aceitar', gestor.token)).status).toBe(403);
    expect((await agir(sent, 'aceitar', bruno.token)).status).toBe(200);
    const ritas = (await agir(await criar(), 'enviar', rita.token)).body;
    expect((await ler(ritas.id, gestor.token)).transicoes).toEqual(['aceitar', 'devolver']);
  });

  it('a memorando is never deleted (409 numerado): it is cancelled with a reason, and the next number follows without a gap', async () => {
    const m = await criar();
    const res = await api(`/memorandos/${m.id}`, rita.token, { method: 'DELETE' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).error).toEqual({
      code: 'numerado',
      message: 'Documentos numerados não são excluídos: cancele este rascunho informando o motivo.',
    });
    const semMotivo = await agir(m, 'cancelar', rita.token);
    expect(semMotivo.status).toBe(400);
    const r = await agir(m, 'cancelar', rita.token, 'Demanda atendida por outra ata.');
    expect([r.status, r.body.status]).toEqual([200, 'cancelado']);
    const seguinte = await criar();
    expect([seguinte.numero, seguinte.ano]).toEqual([m.numero + 1, m.ano]);
  });

  it("another person's draft: the comprador (every centro) may not edit, send nor cancel Educação's draft, nor accept it once she changed it", async () => {
    // the reported case: the comprador (perfil with every centro) edited and sent Educação's draft, then accepted it herself
    const comprador = await t.server.createUser({ login: 'carla', nome: 'Carla Compradora', tags: [29], todosCentros: true });
    const colega = await t.server.createUser({ login: 'rui', nome: 'Rui da Educação', tags: [29], centros: [fx.educacao] });
    const m = await criar();
    const alheio = 'Só quem criou este rascunho pode alterá-lo, enviá-lo ou cancelá-lo (ou quem tem a permissão "Editar rascunhos de outras pessoas").';
    for (const quem of [comprador, colega]) {
      const put = await api(`/memorandos/${m.id}`, quem.token, {
        method: 'PUT',
        json: { ...corpo({ assunto: 'Reescrito por outra pessoa' }), version: m.version },
      });
      expect(put.status).toBe(403);
      expect(((await put.json()) as ErrorBody).error.message).toBe(alheio);
      expect((await agir(m, 'enviar', quem.token)).status).toBe(403);
      expect((await agir(m, 'cancelar', quem.token, 'Não é mais preciso.')).status).toBe(403);
      expect(await ler(m.id, quem.token)).toMatchObject({ editavel: false, transicoes: [], version: m.version, assunto: m.assunto });
    }
    expect(await ler(m.id, rita.token)).toMatchObject({ editavel: true, transicoes: ['enviar', 'cancelar'] });

    // with the permission "Editar rascunhos de outras pessoas" (tag 40) she may edit it, and becomes an author: she never accepts it
    const chefe = await t.server.createUser({ login: 'carla2', nome: 'Carla com permissão', tags: [29, RASCUNHOS_ALHEIOS_TAG], todosCentros: true });
    const editado = await api(`/memorandos/${m.id}`, chefe.token, {
      method: 'PUT',
      json: { ...corpo({ assunto: 'Revisado pela compradora' }), version: m.version },
    });
    expect(editado.status, await editado.clone().text()).toBe(200);
    const enviado = await agir((await editado.json()) as Memorando, 'enviar', chefe.token);
    expect(enviado.status).toBe(200);
    expect((await ler(m.id, chefe.token)).transicoes).toEqual([]);
    const aceitar = await agir(enviado.body, 'aceitar', chefe.token);
    expect([aceitar.status, aceitar.body.error.message]).toEqual([
      403,
      'Quem escreveu, alterou ou enviou este memorando não pode aceitá-lo (segregação de funções).',
    ]);
    expect((await agir(enviado.body, 'devolver', chefe.token, 'Faltou o orçamento.')).status).toBe(403);
    // nor does the requester; someone of the destination who never touched it does
    expect((await agir(enviado.body, 'aceitar', rita.token)).status).toBe(403);
    expect((await agir(enviado.body, 'aceitar', bruno.token)).body.status).toBe('aceito');
    const autores = await t.server.sql<{ papel: string; usuario_id: string }>(
      'SELECT papel, usuario_id FROM documento_autores WHERE documento_id = $1 ORDER BY papel, usuario_id',
      [m.id],
    );
    expect(autores).toEqual([
      { papel: 'autor', usuario_id: rita.id },
      { papel: 'editor', usuario_id: chefe.id },
      { papel: 'remetente', usuario_id: chefe.id },
    ]);
  });

  it('numbers 100 concurrent creations 1…n without gaps or duplicates', async () => {
    const [{ ultimo: antes } = { ultimo: 0 }] = await t.server.sql<{ ultimo: number }>(
      "SELECT ultimo FROM document_counters WHERE entidade_id = $1 AND tipo = 'memorandos/memorandos' AND ano = $2",
      [fx.entidadeId, ANO],
    );
    const body = corpo({ itens: [{ produtoId: fx.papel, quantidade: '1', valorUnitario: '1' }] });
    const results = await Promise.all(Array.from({ length: 100 }, () => api('/memorandos', rita.token, { json: body })));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    const numeros = (await Promise.all(results.map(async (r) => ((await r.json()) as Memorando).numero))).sort((a, b) => a - b);
    expect(numeros).toEqual(Array.from({ length: 100 }, (_, i) => Number(antes) + i + 1));
  });

  it('duplicates: a new draft with the content and items, a new number, today, the duplicator as requester, no history', async () => {
    let m = await criar(rita.token, { prioridade: 'alta' });
    m = (await agir(m, 'enviar', rita.token)).body;
    m = (await agir(m, 'devolver', bruno.token, 'Ajuste o assunto.')).body;
    await t.server.sql('UPDATE memorandos SET data = $2 WHERE id = $1', [m.id, `${ANO}-01-02`]);
    const res = await api(`/memorandos/${m.id}/duplicar`, rita.token, { method: 'POST' });
    expect(res.status).toBe(201);
    const copia = (await res.json()) as Memorando;
    const [{ ultimo } = { ultimo: 0 }] = await t.server.sql<{ ultimo: number }>(
      "SELECT ultimo FROM document_counters WHERE entidade_id = $1 AND tipo = 'memorandos/memorandos' AND ano = $2",
      [fx.entidadeId, ANO],
    );
    expect(copia).toMatchObject({
      numero: Number(ultimo),
      status: 'rascunho',
      version: 1,
      data: HOJE,
      dataDesejada: null,
      solicitanteId: rita.id,
      assunto: m.assunto,
      justificativa: m.justificativa,
      prioridade: 'alta',
      origemId: fx.educacao,
      destinoId: fx.compras,
      valorTotal: m.valorTotal,
    });
    expect(copia.id).not.toBe(m.id);
    expect(copia.itens.map((i) => [i.produtoId, i.quantidade, i.valorUnitario, i.valorTotal])).toEqual(
      m.itens.map((i) => [i.produtoId, i.quantidade, i.valorUnitario, i.valorTotal]),
    );
    const hist = (await (await api(`/memorandos/${copia.id}/historico`, rita.token)).json()) as Historico;
    expect(hist.items.map((i) => i.acao)).toEqual(['criar']);
    expect(JSON.stringify(hist.items[0])).toContain(`${m.numero}/${m.ano}`);
    // a person of another centro cannot duplicate it (404), the destination cannot write from an origin not theirs (400)
    expect((await api(`/memorandos/${m.id}/duplicar`, sara.token, { method: 'POST' })).status).toBe(404);
    const porBruno = await api(`/memorandos/${m.id}/duplicar`, bruno.token, { method: 'POST' });
    expect([porBruno.status, ((await porBruno.json()) as ErrorBody).error.fields?.origemId]).toEqual([
      400,
      'Escolha um centro de custo ao qual você pertence.',
    ]);
  });

  it('row scope: a person of another centro gets 404 on read, write, transition, timeline and PDF, and lists and exports none', async () => {
    const m = await criar(rita.token, { assunto: 'Demanda restrita da Educação' });
    for (const [path, init] of [
      [`/memorandos/${m.id}`, {}],
      [`/memorandos/${m.id}/historico`, {}],
      [`/memorandos/${m.id}.pdf`, {}],
      [`/memorandos/${m.id}`, { method: 'PUT', json: { ...corpo(), version: m.version } }],
      [`/memorandos/${m.id}/enviar`, { json: { version: m.version } }],
      [`/memorandos/${m.id}/cancelar`, { json: { version: m.version, motivo: 'Não é meu.' } }],
      [`/memorandos/${m.id}`, { method: 'DELETE' }],
    ] as const) {
      expect([path, (await api(path, sara.token, init)).status]).toEqual([path, 404]);
    }
    const list = (await (await api('/memorandos?q=restrita', sara.token)).json()) as Page;
    expect(list.total).toBe(0);
    const csv = await (await api('/memorandos.csv?q=restrita', sara.token)).text();
    expect(csv).not.toContain('Demanda restrita');
    expect(await (await api('/memorandos.csv?q=restrita', bruno.token)).text()).toContain('Demanda restrita da Educação');
    // the Câmara's users do not see the Prefeitura's memorandos either
    const { token: camara } = await t.server.signIn(undefined, undefined, fx.camaraId);
    expect((await api(`/memorandos/${m.id}`, camara)).status).toBe(404);
    // still unchanged
    expect((await ler(m.id)).status).toBe('rascunho');
  });

  it('lists newest first, finds by number, subject and requester, and filters by status, period, origin, destination and priority', async () => {
    const a = await criar(rita.token, { assunto: 'Açúcar cristal para a merenda', prioridade: 'alta' });
    const b = await criar(gestor.token, { origemId: fx.saude, assunto: 'Luvas de procedimento', prioridade: 'baixa' });
    await agir(b, 'enviar', gestor.token);
    await t.server.sql('UPDATE memorandos SET data = $2 WHERE id = $1', [b.id, `${ANO}-01-15`]);
    const q = async (query: string, token = gestor.token) => {
      const res = await api(`/memorandos?${query}`, token);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as Page;
    };
    const first = await q('pageSize=2');
    expect(first.items.map((m) => m.numero)).toEqual([b.numero, a.numero]);
    expect((await q(`q=${a.numero}/${a.ano}`)).items.map((m) => m.id)).toEqual([a.id]);
    expect((await q('q=ACUCAR%20merenda')).items.map((m) => m.id)).toEqual([a.id]);
    expect((await q(`q=gil%20gestor&origemId=${fx.saude}`)).items.map((m) => m.id)).toEqual([b.id]);
    expect((await q(`status=enviado&origemId=${fx.saude}`)).items.map((m) => m.id)).toEqual([b.id]);
    expect((await q(`prioridade=baixa,alta&destinoId=${fx.compras}&origemId=${fx.saude}`)).items.map((m) => m.id)).toEqual([b.id]);
    expect((await q(`dataDe=${ANO}-01-15&dataAte=${ANO}-01-15`)).items.map((m) => m.id)).toEqual([b.id]);
    expect((await api('/memorandos?status=inexistente', gestor.token)).status).toBe(400);
    // the requisitante of Educação does not see Saúde's
    expect((await q('q=luvas', rita.token)).total).toBe(0);
  });

  it('exports CSV and XLSX with the list filters, in pt-BR', async () => {
    const m = await criar(rita.token, { assunto: 'Exportação de teste' });
    const res = await api('/memorandos.csv?q=exportacao', rita.token);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Número;Data;Situação;Assunto;Origem;Destino;Solicitante;Prioridade;Data desejada;Valor total estimado');
    expect(text).toContain(
      `${m.numero}/${m.ano};${HOJE.split('-').reverse().join('/')};Rascunho;Exportação de teste;Secretaria de Educação;Compras e Licitações;Rita Requisitante;Média;31/03/2099;383,78`,
    );
    const xlsx = await api('/memorandos.xlsx?q=exportacao', rita.token);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    // the total is a number cell (read back as '383.78'), not the text '383,78'
    const sheet = await parseSpreadsheet(new Uint8Array(await xlsx.arrayBuffer()));
    expect(sheet.rows.find((r) => r.cells.Assunto === 'Exportação de teste')?.cells['Valor total estimado']).toBe('383.78');
  });

  it('prints the memorando as a PDF with its number, parties, items and total', async () => {
    const m = await criar(rita.token, { assunto: 'Impressão do memorando' });
    const res = await api(`/memorandos/${m.id}.pdf`, rita.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const expected of [
      `${m.numero}/${m.ano}`,
      'Impressão do memorando',
      'Secretaria de Educação',
      'Compras e Licitações',
      'Rita Requisitante',
      'Toner para impressora laser',
      'R$ 383,78',
      'R$ 0,3333',
      'Justificativa da necessidade',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('the pickers answer under the memorandos tag: my centros for the origin, active centros and products of the entidade', async () => {
    const page = async (path: string, token = rita.token) => {
      const res = await api(path, token);
      expect(res.status, path).toBe(200);
      return ((await res.json()) as { items: Record<string, unknown>[] }).items;
    };
    expect((await page('/centros-custo?origem=true')).map((c) => c.nome)).toEqual(['Secretaria de Educação']);
    expect((await page('/centros-custo?origem=true', gestor.token)).map((c) => c.codigo)).toEqual(['01.01', '02', '03']);
    expect((await page('/centros-custo')).map((c) => c.codigo)).toEqual(['01.01', '02', '03']);
    expect((await page('/centros-custo?q=saude')).map((c) => c.id)).toEqual([fx.saude]);
    const toner = await page('/produtos?q=TONER');
    expect(toner).toEqual([
      { id: fx.toner, ativo: true, codigo: '000003', descricao: 'Toner para impressora laser', unidadeSigla: 'U000003', grupoNome: 'Grupo 000003' },
    ]);
    expect((await page('/produtos?q=disquete')).length).toBe(0);
    expect((await page('/produtos?q=papel')).map((p) => p.id)).toEqual([fx.papel]);
    expect((await api(`/produtos/${fx.daCamara}`, rita.token)).status).toBe(404);
    expect(((await (await api(`/produtos/${fx.papel}`, rita.token)).json()) as { descricao: string }).descricao).toBe('Papel sulfite A4, resma 500 folhas');
    // a user without the memorandos tag gets 403
    const { token: consulta } = await t.server.signIn('consulta', 'demo1234');
    expect((await api('/produtos', consulta)).status).toBe(403);
  });

  it('a product used by a memorando cannot be deleted: the message names the memorando', async () => {
    const { token: admin } = await t.server.signIn(undefined, undefined, fx.entidadeId);
    const res = await t.server.request(`/api/produtos/produtos/${fx.toner}`, { token: admin, method: 'DELETE' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).error.message).toMatch(/^Usado em Memorando \d+\/\d{4}/);
  });
});

describe('flow declaration', () => {
  it('only rascunho and devolvido are editable; returns and cancellations need a reason', () => {
    expect(fluxo.stateNames.filter((s) => fluxo.isEditable(s))).toEqual(['rascunho', 'devolvido']);
    expect(fluxo.transitionNames.filter((n) => fluxo.transitions[n]?.reason)).toEqual(['devolver', 'cancelar']);
  });
});
