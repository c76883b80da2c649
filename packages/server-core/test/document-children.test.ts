// The child collections of the document kit (kit/documents/children.ts) through a test plugin
// (fixtures/children-plugin.ts), on PGlite and PostgreSQL: the routes, the parent's scope and state,
// the optimistic version, the ids of the body, the audit under the parent's timeline, an upsert by
// key, an action on a child and one on the parent, OpenAPI, hostile input and two races.
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../src/testing.js';
import { FILHOS_TAG, childrenPlugin, lentidao } from './fixtures/children-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const CENTRO = '11111111-1111-4111-8111-111111111111';
const OUTRO_CENTRO = '22222222-2222-4222-8222-222222222222';

describeEachDatabase('document kit: child collections', { plugins: [childrenPlugin] }, (t) => {
  let dono: { id: string; token: string };
  let alheio: { id: string; token: string };
  let semTag: { id: string; token: string };
  let camara: { id: string; token: string };
  let fornecedores: string[];
  let inativo: string;
  let daCamara: string;

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/filhos${path}`, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const error = async (res: Response, status: number) => (await body<ErrorBody>(res, status)).error;
  const novoPedido = async (titulo: string) => body(await req('/pedidos', dono.token, { json: { titulo, centroCustoId: CENTRO } }), 201);
  const transicao = async (id: string, nome: string, extra: Doc = {}) => {
    const atual = await body(await req(`/pedidos/${id}`, dono.token), 200);
    return req(`/pedidos/${id}/${nome}`, dono.token, { json: { version: atual.version, ...extra } });
  };
  const incluir = (pedidoId: string, json: Doc, token = dono.token) => req(`/pedidos/${pedidoId}/participantes`, token, { json });
  const auditoria = (registro: string) =>
    t.server.sql<{ id: number; acao: string; antes: Doc | null; depois: Doc | null }>(
      "SELECT id, acao, antes, depois FROM audit_log WHERE plugin = 'filhos' AND registro = $1 ORDER BY id",
      [registro],
    );

  beforeAll(async () => {
    dono = await t.server.createUser({ login: 'ch-dono', tags: [FILHOS_TAG], centros: [CENTRO] });
    alheio = await t.server.createUser({ login: 'ch-alheio', tags: [FILHOS_TAG], centros: [OUTRO_CENTRO] });
    semTag = await t.server.createUser({ login: 'ch-semtag', tags: [], centros: [CENTRO] });
    const { prefeitura, camara: camaraId } = await t.server.demoEntidades();
    camara = await t.server.createUser({ login: 'ch-camara', tags: [FILHOS_TAG], entidadeId: camaraId, todosCentros: true });
    fornecedores = [];
    for (const nome of ['Alfa Ltda.', 'Beta S.A.', 'Gama ME']) fornecedores.push(await t.server.insert('ch_fornecedores', { entidade_id: prefeitura, nome }));
    inativo = await t.server.insert('ch_fornecedores', { entidade_id: prefeitura, nome: 'Inativo Ltda.', ativo: false });
    daCamara = await t.server.insert('ch_fornecedores', { entidade_id: camaraId, nome: 'Da Câmara' });
  });

  it('lists, creates, reads, updates and deletes children, each audited under the parent (its timeline)', async () => {
    const pedido = await novoPedido('Pedido CRUD');
    expect(await body(await req(`/pedidos/${pedido.id}/participantes`, dono.token), 200)).toEqual({ items: [] });
    const criado = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0], valor: '10.5' }), 201);
    expect(criado).toMatchObject({ fornecedorId: fornecedores[0], fornecedorNome: 'Alfa Ltda.', valor: '10.50', confirmado: false, version: 1 });
    await body(await incluir(pedido.id, { fornecedorId: fornecedores[1] }), 201);
    const lista = await body(await req(`/pedidos/${pedido.id}/participantes`, dono.token), 200);
    expect(lista.items.map((i: Doc) => i.fornecedorNome)).toEqual(['Alfa Ltda.', 'Beta S.A.']);
    expect(await body(await req(`/pedidos/${pedido.id}/participantes/${criado.id}`, dono.token), 200)).toEqual(criado);

    const alterado = await body(
      await req(`/pedidos/${pedido.id}/participantes/${criado.id}`, dono.token, {
        method: 'PUT',
        json: { fornecedorId: fornecedores[0], valor: '11', version: 1 },
      }),
      200,
    );
    expect(alterado).toMatchObject({ valor: '11.00', version: 2 });
    expect((await body(await req(`/pedidos/${pedido.id}/participantes/${lista.items[1].id}`, dono.token, { method: 'DELETE' }), 204)) ?? null).toBeNull();
    expect((await body(await req(`/pedidos/${pedido.id}/participantes`, dono.token), 200)).items).toHaveLength(1);

    const linhas = await auditoria(pedido.id);
    expect(linhas.map((l) => l.acao)).toEqual(['criar', 'incluir_participante', 'incluir_participante', 'alterar_participante', 'excluir_participante']);
    expect(linhas[1]!.depois).toEqual({ fornecedor: 'Alfa Ltda.', valor: '10.50' });
    // the audit keeps the fields that changed
    expect([linhas[3]!.antes, linhas[3]!.depois]).toEqual([{ valor: '10.50' }, { valor: '11.00' }]);
    expect(linhas[4]!.antes).toMatchObject({ fornecedorNome: 'Beta S.A.' });
    const historico = await body(await req(`/pedidos/${pedido.id}/historico`, dono.token), 200);
    expect(JSON.stringify(historico)).toContain('excluir_participante');
  });

  it('a stale version is a 409, a missing one a 400; an action moves the version too', async () => {
    const pedido = await novoPedido('Pedido versão');
    const p = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 201);
    const url = `/pedidos/${pedido.id}/participantes/${p.id}`;
    const semVersao = await error(await req(url, dono.token, { method: 'PUT', json: { fornecedorId: fornecedores[0] } }), 400);
    expect(semVersao.fields).toEqual({ version: 'Informe a versão do registro.' });
    await body(await req(url, dono.token, { method: 'PUT', json: { fornecedorId: fornecedores[0], valor: '1', version: 1 } }), 200);
    const velha = await error(await req(url, dono.token, { method: 'PUT', json: { fornecedorId: fornecedores[0], valor: '2', version: 1 } }), 409);
    expect(velha.code).toBe('stale');
    expect((await transicao(pedido.id, 'abrir')).status).toBe(200);
    const confirmado = await body(await req(`${url}/confirmar`, dono.token, { json: { observacao: 'Confirmou por telefone.' } }), 200);
    expect(confirmado).toMatchObject({ confirmado: true, observacao: 'Confirmou por telefone.', version: 3 });
    expect((await error(await req(`${url}/confirmar`, dono.token, { json: { version: 2 } }), 409)).code).toBe('stale');
    expect((await auditoria(pedido.id)).at(-1)).toMatchObject({ acao: 'confirmar', antes: { confirmado: false }, depois: { confirmado: true } });
  });

  it("the parent's state: 409 locked with the kit's message, or the operation's own; check refuses under the locks", async () => {
    const pedido = await novoPedido('Pedido estados');
    const p = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 201);
    const cedo = await error(await req(`/pedidos/${pedido.id}/participantes/${p.id}/confirmar`, dono.token, { json: {} }), 409);
    expect([cedo.code, cedo.message]).toEqual(['locked', 'Abra o pedido antes de confirmar participantes.']);
    expect((await transicao(pedido.id, 'abrir')).status).toBe(200);
    await body(await req(`/pedidos/${pedido.id}/participantes/${p.id}/confirmar`, dono.token, { json: {} }), 200);
    const confirmado = await error(await req(`/pedidos/${pedido.id}/participantes/${p.id}`, dono.token, { method: 'DELETE' }), 409);
    expect([confirmado.code, confirmado.message]).toEqual(['in_use', 'Um participante confirmado fica no registro.']);
    // notas only in rascunho
    const nota = await error(await req(`/pedidos/${pedido.id}/notas/prazo`, dono.token, { method: 'PUT', json: { texto: 'x' } }), 409);
    expect([nota.code, nota.message]).toEqual(['locked', 'Este pedido está aberto e não pode ser alterado.']);
    expect((await transicao(pedido.id, 'fechar')).status).toBe(200);
    const tarde = await error(await incluir(pedido.id, { fornecedorId: fornecedores[1] }), 409);
    expect([tarde.code, tarde.message]).toEqual(['locked', 'Este pedido está fechado e não pode ser alterado.']);
    const confirmarTarde = await error(await req(`/pedidos/${pedido.id}/participantes/${p.id}/confirmar`, dono.token, { json: {} }), 409);
    expect(confirmarTarde.message).toBe('Este pedido está fechado e não pode ser alterado.');
    expect((await body(await req(`/pedidos/${pedido.id}/participantes`, dono.token), 200)).items).toHaveLength(1);
  });

  it('ids of the body: another entidade, unknown, inactive, another parent → 400 naming the field; a repeat → 409 duplicate', async () => {
    const pedido = await novoPedido('Pedido ids');
    const outro = await novoPedido('Outro pedido');
    const deOutro = await body(await incluir(outro.id, { fornecedorId: fornecedores[0] }), 201);
    for (const fornecedorId of [daCamara, crypto.randomUUID()]) {
      const e = await error(await incluir(pedido.id, { fornecedorId }), 400);
      expect(e.fields).toEqual({ fornecedorId: 'Escolha um fornecedor cadastrado.' });
    }
    expect((await error(await incluir(pedido.id, { fornecedorId: inativo }), 400)).fields).toEqual({ fornecedorId: 'Este fornecedor está inativo.' });
    const alheia = await error(await incluir(pedido.id, { fornecedorId: fornecedores[1], substitutoDe: deOutro.id }), 400);
    expect(alheia.fields).toEqual({ substitutoDe: 'Escolha um participante deste pedido.' });
    const primeiro = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 201);
    await body(await incluir(pedido.id, { fornecedorId: fornecedores[1], substitutoDe: primeiro.id }), 201);
    const repetido = await error(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 409);
    expect([repetido.code, repetido.fields]).toEqual(['duplicate', { fornecedorId: 'Este fornecedor já participa deste pedido.' }]);
    // a child of another parent through this parent's URL is a 404
    expect((await req(`/pedidos/${pedido.id}/participantes/${deOutro.id}`, dono.token)).status).toBe(404);
    expect((await req(`/pedidos/${pedido.id}/participantes/${deOutro.id}`, dono.token, { method: 'DELETE' })).status).toBe(404);
  });

  it("row scope and entidade: another centro's or entidade's parent is a 404 on every route; no tag 403, no token 401", async () => {
    const pedido = await novoPedido('Pedido escopo');
    const p = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 201);
    for (const token of [alheio.token, camara.token]) {
      const base = `/pedidos/${pedido.id}`;
      expect((await req(`${base}/participantes`, token)).status).toBe(404);
      expect((await req(`${base}/participantes/${p.id}`, token)).status).toBe(404);
      expect((await incluir(pedido.id, { fornecedorId: fornecedores[1] }, token)).status).toBe(404);
      expect((await req(`${base}/participantes/${p.id}`, token, { method: 'PUT', json: { fornecedorId: fornecedores[0], version: 1 } })).status).toBe(404);
      expect((await req(`${base}/participantes/${p.id}`, token, { method: 'DELETE' })).status).toBe(404);
      expect((await req(`${base}/notas/a`, token, { method: 'PUT', json: { texto: 'x' } })).status).toBe(404);
      expect((await req(`${base}/resumo`, token, { method: 'PUT', json: { resumo: 'Resumo alheio' } })).status).toBe(404);
    }
    expect((await req(`/pedidos/${pedido.id}/participantes`, semTag.token)).status).toBe(403);
    expect((await incluir(pedido.id, { fornecedorId: fornecedores[1] }, semTag.token)).status).toBe(403);
    expect((await t.server.request(`/api/filhos/pedidos/${pedido.id}/participantes`)).status).toBe(401);
    expect((await auditoria(pedido.id)).map((l) => l.acao)).toEqual(['criar', 'incluir_participante']);
  });

  it('a child by key: PUT creates or replaces; DELETE of a missing key is a 204 that writes nothing', async () => {
    const pedido = await novoPedido('Pedido notas');
    expect(await body(await req(`/pedidos/${pedido.id}/notas/prazo`, dono.token, { method: 'PUT', json: { texto: 'Até sexta' } }), 200)).toEqual({
      chave: 'prazo',
      texto: 'Até sexta',
    });
    await body(await req(`/pedidos/${pedido.id}/notas/prazo`, dono.token, { method: 'PUT', json: { texto: 'Até segunda' } }), 200);
    await body(await req(`/pedidos/${pedido.id}/notas/local`, dono.token, { method: 'PUT', json: { texto: 'Almoxarifado' } }), 200);
    expect((await body(await req(`/pedidos/${pedido.id}/notas`, dono.token), 200)).items).toEqual([
      { chave: 'local', texto: 'Almoxarifado' },
      { chave: 'prazo', texto: 'Até segunda' },
    ]);
    await body(await req(`/pedidos/${pedido.id}/notas/nenhuma`, dono.token, { method: 'DELETE' }), 204);
    await body(await req(`/pedidos/${pedido.id}/notas/local`, dono.token, { method: 'DELETE' }), 204);
    const linhas = await auditoria(pedido.id);
    expect(linhas.map((l) => l.acao)).toEqual(['criar', 'anotar', 'anotar', 'anotar', 'excluir_nota']);
    expect(linhas[2]!.depois).toEqual({ texto: 'Até segunda' });
    expect(linhas[4]!.antes).toEqual({ chave: 'local', texto: 'Almoxarifado' });
  });

  it("integer keys and ids are checked up front: 'abc', '1.5', '99999999999' → 400 in pt-BR naming the field, never the database's error", async () => {
    const INTEIRO = 'Informe um número inteiro válido.';
    const pedido = await novoPedido('Pedido itens');
    const itens = `/pedidos/${pedido.id}/itens`;
    expect(await body(await req(`${itens}/1`, dono.token, { method: 'PUT', json: { descricao: 'Papel' } }), 200)).toEqual({
      numero: 1,
      descricao: 'Papel',
      anterior: null,
    });
    // the id of the body as a number or as its digits; a key with leading zeros is the same key
    await body(await req(`${itens}/2`, dono.token, { method: 'PUT', json: { descricao: 'Caneta', anterior: 1 } }), 200);
    expect(await body(await req(`${itens}/003`, dono.token, { method: 'PUT', json: { descricao: 'Lápis', anterior: '2' } }), 200)).toEqual({
      numero: 3,
      descricao: 'Lápis',
      anterior: 2,
    });
    expect(await body(await req(`${itens}/3`, dono.token), 200)).toMatchObject({ numero: 3 });
    expect((await error(await req(`${itens}/4`, dono.token, { method: 'PUT', json: { descricao: 'Clipe', anterior: 9 } }), 400)).fields).toEqual({
      anterior: 'Escolha um item deste pedido.',
    });
    await error(await req(`${itens}/9`, dono.token), 404);

    const ruins = ['abc', '1.5', '99999999999', '2147483648', '1e3', ' 7', '-'];
    const falhas: string[] = [];
    const espera = async (what: string, res: Response, field: string) => {
      const text = await res.text();
      const e = res.status === 400 ? (JSON.parse(text) as ErrorBody).error : undefined;
      if (e?.fields?.[field] !== INTEIRO) falhas.push(`${what} → ${res.status} ${text}`);
    };
    for (const ruim of ruins) {
      const url = `${itens}/${encodeURIComponent(ruim)}`;
      await espera(`GET ${ruim}`, await req(url, dono.token), 'numero');
      await espera(`PUT ${ruim}`, await req(url, dono.token, { method: 'PUT', json: { descricao: 'x' } }), 'numero');
      await espera(`DELETE ${ruim}`, await req(url, dono.token, { method: 'DELETE' }), 'numero');
      await espera(`anterior '${ruim}'`, await req(`${itens}/5`, dono.token, { method: 'PUT', json: { descricao: 'x', anterior: ruim } }), 'anterior');
    }
    for (const ruim of [1.5, 99999999999, 2 ** 31, 1e21]) {
      await espera(`anterior ${ruim}`, await req(`${itens}/5`, dono.token, { method: 'PUT', json: { descricao: 'x', anterior: ruim } }), 'anterior');
    }
    expect(falhas).toEqual([]);
    // nothing was written by the refused requests
    expect((await body(await req(itens, dono.token), 200)).items.map((i: Doc) => i.numero)).toEqual([1, 2, 3]);
    await body(await req(`${itens}/3`, dono.token, { method: 'DELETE' }), 204);
    expect((await auditoria(pedido.id)).map((l) => l.acao)).toEqual(['criar', 'alterar_item', 'alterar_item', 'alterar_item', 'excluir_item']);
  });

  it('an action on the parent (defineDocumentAction): locked, state checked, audited under it', async () => {
    const pedido = await novoPedido('Pedido resumo');
    expect(await body(await req(`/pedidos/${pedido.id}/resumo`, dono.token, { method: 'PUT', json: { resumo: 'Material de limpeza' } }), 200)).toEqual({
      resumo: 'Material de limpeza',
    });
    expect((await auditoria(pedido.id)).at(-1)).toMatchObject({ acao: 'resumir', antes: { resumo: null }, depois: { resumo: 'Material de limpeza' } });
    expect((await transicao(pedido.id, 'cancelar', { motivo: 'Não precisa mais' })).status).toBe(200);
    const e = await error(await req(`/pedidos/${pedido.id}/resumo`, dono.token, { method: 'PUT', json: { resumo: 'Tarde demais' } }), 409);
    expect(e.message).toBe('Este pedido está cancelado e não pode ser alterado.');
  });

  it('OpenAPI: the operations carry the kit operationIds and the states in their description', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, Doc>> };
    const base = '/api/filhos/pedidos/{id}';
    expect(doc.paths[`${base}/participantes`]?.get?.operationId).toBe('filhos.pedidosParticipantes.list');
    expect(doc.paths[`${base}/participantes`]?.post?.operationId).toBe('filhos.pedidosParticipantes.create');
    expect(doc.paths[`${base}/participantes/{participanteId}`]?.get?.operationId).toBe('filhos.pedidosParticipantes.get');
    expect(doc.paths[`${base}/participantes/{participanteId}`]?.put?.operationId).toBe('filhos.pedidosParticipantes.update');
    expect(doc.paths[`${base}/participantes/{participanteId}`]?.delete?.operationId).toBe('filhos.pedidosParticipantes.delete');
    expect(doc.paths[`${base}/participantes/{participanteId}/confirmar`]?.post?.operationId).toBe('filhos.pedidosParticipantes.confirmar');
    expect(doc.paths[`${base}/notas/{chave}`]?.put?.operationId).toBe('filhos.pedidosNotas.update');
    expect(doc.paths[`${base}/resumo`]?.put?.operationId).toBe('filhos.pedidos.resumo');
    expect(doc.paths[`${base}/participantes/{participanteId}/confirmar`]?.post?.description).toContain('Aberto');
    expect(doc.paths[`${base}/participantes/{participanteId}`]?.put?.['x-permission-tag']).toBe(FILHOS_TAG);
  });

  it('hostile input answers 4xx, never 5xx', async () => {
    const pedido = await novoPedido('Pedido hostil');
    const p = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 201);
    const ids = ['x', "1' OR '1'='1", '00000000-0000-0000-0000-000000000000', 'a'.repeat(300), '%00', pedido.id];
    const bodies: unknown[] = [
      null,
      [],
      'texto',
      42,
      { fornecedorId: 'x' },
      { fornecedorId: fornecedores[0], substitutoDe: 'nao-uuid', valor: '1e99' },
      { fornecedorId: fornecedores[0], version: 'x' },
      { texto: { a: 1 }, resumo: [] },
      { fornecedorId: fornecedores[0], substitutoDe: '00000000-0000-0000-0000-000000000000', version: 1 },
    ];
    const rotas: [string, (id: string) => string][] = [
      ['GET', (id) => `/pedidos/${id}/participantes`],
      ['GET', (id) => `/pedidos/${pedido.id}/participantes/${id}`],
      ['POST', (id) => `/pedidos/${id}/participantes`],
      ['PUT', (id) => `/pedidos/${pedido.id}/participantes/${id}`],
      ['PUT', () => `/pedidos/${pedido.id}/participantes/${p.id}`],
      ['DELETE', (id) => `/pedidos/${pedido.id}/participantes/${id}`],
      ['POST', (id) => `/pedidos/${pedido.id}/participantes/${id}/confirmar`],
      ['PUT', (id) => `/pedidos/${pedido.id}/notas/${id}`],
      ['DELETE', (id) => `/pedidos/${id}/notas/${id}`],
      ['PUT', (id) => `/pedidos/${id}/resumo`],
    ];
    const erros: string[] = [];
    for (const [method, path] of rotas) {
      for (const id of ids) {
        for (const json of method === 'GET' || method === 'DELETE' ? [undefined] : bodies) {
          const res = await req(path(encodeURIComponent(id)), dono.token, { method, ...(json === undefined ? {} : { json }) });
          if (res.status >= 500) erros.push(`${method} ${path(id)} ${JSON.stringify(json)} → ${res.status}`);
        }
      }
    }
    expect(erros).toEqual([]);
  });

  describe('races', () => {
    it('two updates of one child with the same version: one passes, the other is a 409 stale', async () => {
      const pedido = await novoPedido('Pedido corrida');
      const p = await body(await incluir(pedido.id, { fornecedorId: fornecedores[0] }), 201);
      lentidao.ms = 150;
      try {
        const url = `/pedidos/${pedido.id}/participantes/${p.id}`;
        const results = await Promise.all(
          ['1', '2'].map((valor) => req(url, dono.token, { method: 'PUT', json: { fornecedorId: fornecedores[0], valor, version: 1 } })),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const perdeu = results.find((r) => r.status === 409)!;
        expect(((await perdeu.json()) as ErrorBody).error.code).toBe('stale');
      } finally {
        lentidao.ms = 0;
      }
      const final = await body(await req(`/pedidos/${pedido.id}/participantes/${p.id}`, dono.token), 200);
      expect(final.version).toBe(2);
      expect((await auditoria(pedido.id)).filter((l) => l.acao === 'alterar_participante')).toHaveLength(1);
    });

    it('a child write racing a transition of the parent is serialised: the child is never added after the cancel', async () => {
      const pedido = await novoPedido('Pedido contra cancelamento');
      const atual = await body(await req(`/pedidos/${pedido.id}`, dono.token), 200);
      lentidao.ms = 300;
      let results: Response[];
      try {
        // the child write passes the state check, then waits 300 ms inside its transaction; the cancel comes 50 ms later
        const filho = incluir(pedido.id, { fornecedorId: fornecedores[2] });
        await new Promise((resolve) => setTimeout(resolve, 50));
        const cancelar = req(`/pedidos/${pedido.id}/cancelar`, dono.token, { json: { version: atual.version, motivo: 'Desistimos da compra' } });
        results = await Promise.all([filho, cancelar]);
      } finally {
        lentidao.ms = 0;
      }
      expect(results[1]!.status).toBe(200);
      const acoes = (await auditoria(pedido.id)).map((l) => l.acao);
      if (results[0]!.status === 201) expect(acoes).toEqual(['criar', 'incluir_participante', 'cancelar']);
      else {
        expect(results[0]!.status).toBe(409);
        expect(acoes).toEqual(['criar', 'cancelar']);
      }
      // whoever went first, a child exists only if it was written before the cancel
      const filhos = (await body(await req(`/pedidos/${pedido.id}/participantes`, dono.token), 200)).items;
      expect(filhos).toHaveLength(results[0]!.status === 201 ? 1 : 0);
    });
  });
});
