// The approval extensions of the document kit through a test plugin (fixtures/documents-flow-plugin.ts),
// on PGlite and PostgreSQL: loadRoles (one query per page, checked again inside a transition),
// resolveTransition (a second level, a refusal), reasonMin, per-person list conditions, items.source
// (over-quantity 400, concurrent conversions locked), the audit given to afterSave/onTransition (the
// source's timeline), expandOne (GET /:id only) and e-mails that follow the transaction (sendMail).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MailMessage, Mailer } from '../src/platform/mail.js';
import { createTestServer, describeEachDatabase, testEngines } from '../src/testing.js';
import { FALHAR_DEPOIS_DO_EMAIL, FLUXO_TAG, RECUSAR, documentsFlowPlugin, loadRolesCalls } from './fixtures/documents-flow-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

describeEachDatabase('document kit: approval extensions', { plugins: [documentsFlowPlugin] }, (t) => {
  let autor: { id: string; token: string };
  let aprovador1: { id: string; token: string };
  let aprovador2: { id: string; token: string };
  let leigo: { id: string; token: string };

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/fluxo${path}`, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const error = async (res: Response, status: number) => (await body<ErrorBody>(res, status)).error;
  const pedido = async (token: string, titulo: string, itens: Doc[] = [{ quantidade: '1', valorUnitario: '10' }]) =>
    body(await req('/pedidos', token, { json: { titulo, itens } }), 201);
  const act = async (token: string, id: string, name: string, extra: Doc = {}) => {
    const current = await body(await req(`/pedidos/${id}`, token), 200);
    return req(`/pedidos/${id}/${name}`, token, { json: { version: current.version, ...extra } });
  };
  const outbox = (subject: string) => t.server.sql<{ to: string }>('SELECT to_address AS "to" FROM outbox WHERE subject = $1 ORDER BY to_address', [subject]);

  beforeAll(async () => {
    autor = await t.server.createUser({ login: 'fx-autor', tags: [FLUXO_TAG] });
    aprovador1 = await t.server.createUser({ login: 'fx-aprov1', tags: [FLUXO_TAG] });
    aprovador2 = await t.server.createUser({ login: 'fx-aprov2', tags: [FLUXO_TAG] });
    leigo = await t.server.createUser({ login: 'fx-leigo', tags: [FLUXO_TAG] });
    const [pref] = await t.server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Prefeitura%'");
    for (const u of [aprovador1, aprovador2, autor]) {
      await t.server.sql('INSERT INTO fx_aprovadores (entidade_id, usuario_id) VALUES ($1, $2)', [pref!.id, u.id]);
    }
  });

  it('loadRoles: the approver gets the transition, the requester and others not; one query per list page', async () => {
    const docs = [];
    for (const n of [1, 2, 3]) docs.push(await pedido(autor.token, `Roles ${n}`));
    for (const d of docs.slice(0, 2)) expect((await act(autor.token, d.id, 'enviar')).status).toBe(200);
    loadRolesCalls.length = 0;
    const page = await body(await req('/pedidos?q=Roles&sort=titulo', aprovador1.token), 200);
    expect(loadRolesCalls).toEqual([3]);
    expect(page.items.map((i: Doc) => i.transicoes)).toEqual([['aprovar', 'reprovar'], ['aprovar', 'reprovar'], []]);
    // the requester is an approver too, but not of their own pedido (loadRoles decides): no button, and 403
    expect((await body(await req(`/pedidos/${docs[0]!.id}`, autor.token), 200)).transicoes).toEqual(['cancelar']);
    expect((await error(await act(autor.token, docs[0]!.id, 'aprovar'), 403)).code).toBe('forbidden');
    expect((await error(await act(leigo.token, docs[0]!.id, 'aprovar'), 403)).code).toBe('forbidden');
  });

  it('resolveTransition: a total from the second level stays em aprovação at level 2; below it goes to aprovado; a refusal is a 409', async () => {
    const grande = await pedido(autor.token, 'Grande', [{ quantidade: '100', valorUnitario: '10' }]); // 1 000,00
    const pequeno = await pedido(autor.token, 'Pequeno', [{ quantidade: '1', valorUnitario: '999,99' }]);
    for (const d of [grande, pequeno]) expect((await act(autor.token, d.id, 'enviar')).status).toBe(200);
    const nivel2 = await body(await act(aprovador1.token, grande.id, 'aprovar'), 200);
    expect([nivel2.status, nivel2.nivel]).toEqual(['em_aprovacao', 2]);
    const aprovado = await body(await act(aprovador2.token, grande.id, 'aprovar'), 200);
    expect([aprovado.status, aprovado.nivel]).toEqual(['aprovado', null]);
    expect((await body(await act(aprovador1.token, pequeno.id, 'aprovar'), 200)).status).toBe('aprovado');
    const acoes = await t.server.sql<{ acao: string; depois: Doc }>("SELECT acao, depois FROM audit_log WHERE plugin = 'fluxo' AND registro = $1 ORDER BY id", [
      grande.id,
    ]);
    // the audit keeps changed fields only: the second 'aprovar' changes the level, not the status
    expect(acoes.map((a) => [a.acao, a.depois.status, a.depois.nivel])).toEqual([
      ['criar', 'rascunho', null],
      ['enviar', 'em_aprovacao', 1],
      ['aprovar', undefined, 2],
      ['aprovar', 'aprovado', null],
    ]);
    const recusado = await pedido(autor.token, RECUSAR);
    const e = await error(await act(autor.token, recusado.id, 'enviar'), 409);
    expect([e.code, e.message]).toEqual(['bloqueado', 'Pedido bloqueado para esta ação.']);
    expect((await body(await req(`/pedidos/${recusado.id}`, autor.token), 200)).status).toBe('rascunho');
  });

  it('reasonMin: a reason shorter than the flow asks is a 400 naming motivo', async () => {
    const d = await pedido(autor.token, 'Motivo curto');
    await act(autor.token, d.id, 'enviar');
    const e = await error(await act(aprovador1.token, d.id, 'reprovar', { motivo: 'curto' }), 400);
    expect(e.fields?.motivo).toMatch(/10/);
    expect((await body(await act(aprovador1.token, d.id, 'reprovar', { motivo: 'Sem orçamento neste exercício' }), 200)).status).toBe('reprovado');
  });

  it('conditions: aguardandoMinha and meus are computed for the person; a bad value is a 400', async () => {
    const meu = await pedido(leigo.token, 'Cond leigo');
    await act(leigo.token, meu.id, 'enviar');
    const doAutor = await pedido(autor.token, 'Cond autor');
    await act(autor.token, doAutor.id, 'enviar');
    const titulos = async (token: string, query: string) => (await body(await req(`/pedidos?q=Cond&${query}`, token), 200)).items.map((i: Doc) => i.titulo);
    expect(await titulos(aprovador1.token, 'aguardandoMinha=1')).toEqual(['Cond autor', 'Cond leigo']);
    expect(await titulos(autor.token, 'aguardandoMinha=1')).toEqual(['Cond leigo']);
    expect(await titulos(leigo.token, 'aguardandoMinha=1')).toEqual([]);
    expect(await titulos(leigo.token, 'meus=1')).toEqual(['Cond leigo']);
    expect(await titulos(leigo.token, 'meus=0')).toEqual(['Cond autor', 'Cond leigo']);
    const csv = await (await req('/pedidos.csv?q=Cond&aguardandoMinha=1', autor.token)).text();
    expect(csv).toContain('Cond leigo');
    expect(csv).not.toContain('Cond autor');
    expect((await req('/pedidos?aguardandoMinha=sim', autor.token)).status).toBe(400);
  });

  it('items.source: converts up to the source quantity, 400 above it naming the line and what is left; a cancelled pedido releases it', async () => {
    const fonte = await body(await req('/fontes', autor.token, { json: { titulo: 'Fonte A', itens: [{ quantidade: '10', valorUnitario: '2' }] } }), 201);
    const fonteItem = fonte.itens[0].id as string;
    const p1 = await pedido(autor.token, 'Conv 1', [{ fonteItemId: fonteItem, quantidade: '6', valorUnitario: '2' }]);
    const over = await error(
      await req('/pedidos', autor.token, {
        json: {
          titulo: 'Conv 2',
          itens: [
            { quantidade: '1', valorUnitario: '1' },
            { fonteItemId: fonteItem, quantidade: '4,0001', valorUnitario: '2' },
          ],
        },
      }),
      400,
    );
    expect(over.fields).toEqual({ 'itens.1.quantidade': 'Passa do pendente da fonte (pendente: 4).' });
    const missing = await error(
      await req('/pedidos', autor.token, { json: { titulo: 'Conv 3', itens: [{ fonteItemId: crypto.randomUUID(), quantidade: '1', valorUnitario: '1' }] } }),
      400,
    );
    expect(missing.fields).toEqual({ 'itens.0.fonteItemId': 'Item da fonte não encontrado.' });
    await pedido(autor.token, 'Conv 4', [{ fonteItemId: fonteItem, quantidade: '4', valorUnitario: '2' }]);
    // cancelling the first pedido gives its 6 back
    expect((await act(autor.token, p1.id, 'cancelar', { motivo: 'Não precisa mais' })).status).toBe(200);
    await pedido(autor.token, 'Conv 5', [{ fonteItemId: fonteItem, quantidade: '6', valorUnitario: '2' }]);
    // nothing left (0,0001 × R$ 100,00 = R$ 0,01: refused for the source, not for a zero total)
    const nada = await error(
      await req('/pedidos', autor.token, { json: { titulo: 'Conv 6', itens: [{ fonteItemId: fonteItem, quantidade: '0,0001', valorUnitario: '100' }] } }),
      400,
    );
    expect(nada.fields).toEqual({ 'itens.0.quantidade': 'Passa do pendente da fonte (pendente: 0).' });
  });

  it('items.source: 40 concurrent conversions of one source line never pass its quantity (the line is locked)', async () => {
    const fonte = await body(
      await req('/fontes', autor.token, { json: { titulo: 'Fonte concorrida', itens: [{ quantidade: '15', valorUnitario: '1' }] } }),
      201,
    );
    const fonteItem = fonte.itens[0].id as string;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        req('/pedidos', autor.token, { json: { titulo: `Corrida ${i}`, itens: [{ fonteItemId: fonteItem, quantidade: '1', valorUnitario: '1' }] } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(15);
    expect(statuses.filter((s) => s === 400)).toHaveLength(25);
    const [sum] = await t.server.sql<{ total: string }>('SELECT sum(quantidade)::text AS total FROM fx_pedido_itens WHERE fonte_item_id = $1', [fonteItem]);
    expect(sum!.total).toBe('15.0000');
  });

  it("afterSave and onTransition audit what they change on another record: the source's timeline shows it, by the person", async () => {
    const fonte = await body(await req('/fontes', autor.token, { json: { titulo: 'Fonte timeline', itens: [{ quantidade: '2', valorUnitario: '5' }] } }), 201);
    const fonteItem = fonte.itens[0].id as string;
    const p = await pedido(autor.token, 'Timeline 1', [{ fonteItemId: fonteItem, quantidade: '1', valorUnitario: '5' }]);
    expect((await body(await req(`/fontes/${fonte.id}`, autor.token), 200)).status).toBe('parcial');
    const p2 = await pedido(autor.token, 'Timeline 2', [{ fonteItemId: fonteItem, quantidade: '1', valorUnitario: '5' }]);
    expect((await body(await req(`/fontes/${fonte.id}`, autor.token), 200)).status).toBe('atendida');
    await act(autor.token, p2.id, 'cancelar', { motivo: 'Duplicado' });
    expect((await body(await req(`/fontes/${fonte.id}`, autor.token), 200)).status).toBe('parcial');
    const history = await body<{ items: Doc[] }>(await req(`/fontes/${fonte.id}/historico`, autor.token), 200);
    expect(history.items.map((h) => [h.acao, h.usuario?.id, h.mudancas.find((m: Doc) => m.campo === 'status')?.depois])).toEqual([
      ['atender', autor.id, 'parcial'],
      ['atender', autor.id, 'atendida'],
      ['atender', autor.id, 'parcial'],
      ['criar', autor.id, 'aberta'],
    ]);
    const [row] = await t.server.sql<{ depois: Doc }>(
      "SELECT depois FROM audit_log WHERE plugin = 'fluxo' AND registro = $1 AND acao = 'atender' ORDER BY id LIMIT 1",
      [fonte.id],
    );
    expect(row!.depois.causa).toBe(`Pedido ${p.numero}/${p.ano}`);
    // a write that fails after the hook leaves no audit of the source: the 400 above the quantity
    const before = await t.server.sql('SELECT id FROM audit_log WHERE registro = $1', [fonte.id]);
    await req('/pedidos', autor.token, { json: { titulo: 'Timeline 3', itens: [{ fonteItemId: fonteItem, quantidade: '9', valorUnitario: '5' }] } });
    expect(await t.server.sql('SELECT id FROM audit_log WHERE registro = $1', [fonte.id])).toHaveLength(before.length);
  });

  it('expandOne: the field is in GET /:id only, not in lists, write answers nor audit rows', async () => {
    const d = await pedido(autor.token, 'Expand', [
      { quantidade: '1', valorUnitario: '1' },
      { quantidade: '2', valorUnitario: '3' },
    ]);
    expect(d.resumo).toBeUndefined();
    expect((await body(await req(`/pedidos/${d.id}`, autor.token), 200)).resumo).toBe('2 itens, total 7.00');
    expect((await body(await req('/pedidos?q=Expand', autor.token), 200)).items[0].resumo).toBeUndefined();
    expect((await body(await act(autor.token, d.id, 'enviar'), 200)).resumo).toBeUndefined();
    const rows = await t.server.sql<{ depois: Doc }>("SELECT depois FROM audit_log WHERE plugin = 'fluxo' AND registro = $1", [d.id]);
    expect(rows.every((r) => !('resumo' in r.depois))).toBe(true);
    const openapi = await (await t.server.request('/api/openapi.json')).json();
    expect(JSON.stringify(openapi.paths['/api/fluxo/pedidos/{id}'].get.responses['200'])).toContain('#/components/schemas/fluxo_pedidos');
    expect(Object.keys(openapi.components.schemas.fluxo_pedidos.properties)).toContain('resumo');
  });

  it('sendMail with the outbox as mailer: written in the transaction; nothing for a transition that rolls back', async () => {
    const d = await pedido(autor.token, 'Email outbox');
    await act(autor.token, d.id, 'enviar');
    expect((await outbox('Pedido Email outbox aguarda aprovação')).map((r) => r.to)).toEqual([
      'fx-aprov1@exemplo.gov.br',
      'fx-aprov2@exemplo.gov.br',
      'fx-autor@exemplo.gov.br',
    ]);
    const falha = await pedido(autor.token, FALHAR_DEPOIS_DO_EMAIL);
    expect((await act(autor.token, falha.id, 'enviar')).status).toBe(409);
    expect(await outbox(`Pedido ${FALHAR_DEPOIS_DO_EMAIL} aguarda aprovação`)).toEqual([]);
  });
});

describe.each(testEngines())('document kit: sendMail through an SMTP-like mailer (%s)', (engine) => {
  const sent: MailMessage[] = [];
  let commitVisible: boolean[] = [];
  let server: Awaited<ReturnType<typeof createTestServer>>;
  afterEach(async () => {
    await server?.close().catch(() => undefined);
  });

  it('sends after COMMIT (the status is visible when it goes), never for a rolled-back mutation', async () => {
    const smtp: Mailer = {
      kind: 'smtp',
      send: async (message) => {
        // the transition is committed when the e-mail goes: another connection sees the new status
        const [row] = await server.sql<{ status: string }>("SELECT status FROM fx_pedidos WHERE titulo = 'Email smtp'");
        commitVisible.push(row?.status === 'em_aprovacao');
        sent.push(message);
      },
    };
    server = await createTestServer([documentsFlowPlugin], { engine, mailer: smtp });
    commitVisible = [];
    const a = await server.createUser({ login: 'smtp-autor', tags: [FLUXO_TAG] });
    const b = await server.createUser({ login: 'smtp-aprov', tags: [FLUXO_TAG] });
    const [pref] = await server.sql<{ id: string }>("SELECT id FROM entidades WHERE nome LIKE 'Prefeitura%'");
    await server.sql('INSERT INTO fx_aprovadores (entidade_id, usuario_id) VALUES ($1, $2)', [pref!.id, b.id]);
    const call = (path: string, init: { json?: unknown } = {}) => server.request(`/api/fluxo${path}`, { token: a.token, ...init });
    for (const titulo of ['Email smtp', FALHAR_DEPOIS_DO_EMAIL]) {
      const created = (await (await call('/pedidos', { json: { titulo, itens: [] } })).json()) as Doc;
      await call(`/pedidos/${created.id}/enviar`, { json: { version: created.version } });
    }
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent.map((m) => [m.to, m.subject])).toEqual([['smtp-aprov@exemplo.gov.br', 'Pedido Email smtp aguarda aprovação']]);
    expect(commitVisible).toEqual([true]);
    // sent by the mailer, not written to the outbox; the rolled-back one went nowhere
    expect(await server.sql("SELECT subject FROM outbox WHERE subject LIKE 'Pedido %'")).toEqual([]);
    await server.close();
    expect(sent).toHaveLength(1);
  });
});
