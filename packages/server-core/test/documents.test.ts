// The document kit (defineDocumentResource) through the API of a test plugin (fixtures/documents-
// plugin.ts), on PGlite and PostgreSQL: numbering under concurrency, exact totals, item references,
// every transition allowed and refused, editable states, duplicate, timeline, PDF, row scope, filters.
import { today } from '@app/br';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, expect, it } from 'vitest';
import { STALE_MESSAGE } from '../src/kit/crud.js';
import { lastDocumentNumber, nextDocumentNumber } from '../src/kit/documents/numbering.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { DOC_TAG, FAIL_AFTER_NUMBER, documentsPlugin } from './fixtures/documents-plugin.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
type Doc = Record<string, any>;
type Page = { items: Doc[]; total: number; page: number; pageSize: number };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
const KIND = 'docs/memorandos';

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  let text = '';
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) text += item.hasEOL ? `${item.str}\n` : item.str;
  }
  await pdf.destroy();
  return text.replace(/[ \t]+/g, ' ');
}

const saoPauloYear = () => Number(today().slice(0, 4));

describeEachDatabase('document kit', { plugins: [documentsPlugin] }, (t) => {
  let admin: string; // Prefeitura, perfil with every centro
  let camara: string; // admin in the Câmara
  let origem: string; // centro A
  let destino: string; // centro B
  let outro: string; // centro C
  let prefeituraId: string;
  let origemUserId: string;
  const centroA = randomUUID();
  const centroB = randomUUID();
  const centroC = randomUUID();
  const produto: Record<string, string> = {};

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/docs${path}`, { token, ...init });
  const body = async <T = Doc>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const error = async (res: Response, status: number) => (await body<ErrorBody>(res, status)).error;
  const memo = (over: Doc = {}): Doc => ({
    origemId: centroA,
    destinoId: centroB,
    assunto: 'Material de expediente',
    justificativa: 'Reposição do estoque do setor',
    processo: 'PROC-2026-001',
    dataDesejada: '2026-05-10',
    itens: [
      { produtoId: produto.papel, quantidade: '3', valorUnitario: '0,3333', observacao: 'resma A4' },
      { produtoId: produto.caneta, quantidade: '2,5', valorUnitario: '10,015' },
    ],
    ...over,
  });
  const create = async (token: string, over: Doc = {}) => body(await req('/memorandos', token, { json: memo(over) }), 201);
  const act = (token: string, id: string, transition: string, json: Doc) => req(`/memorandos/${id}/${transition}`, token, { json });
  const read = async (token: string, id: string) => body(await req(`/memorandos/${id}`, token), 200);
  const list = async (token: string, query: string) => body<Page>(await req(`/memorandos?${query}`, token), 200);
  const audit = (id: string) =>
    t.server.sql<{ acao: string; antes: Doc | null; depois: Doc | null }>(
      "SELECT acao, antes, depois FROM audit_log WHERE plugin = 'docs' AND registro = $1 ORDER BY id",
      [id],
    );

  async function addUser(login: string, perfilId: string, centros: string[]): Promise<string> {
    const [user] = await t.server.sql<{ id: string }>(
      `INSERT INTO usuarios (nome, login, email, senha_hash)
       SELECT $1, $2, $3, senha_hash FROM usuarios WHERE login = $4 RETURNING id`,
      [`Servidor ${login}`, login, `${login}@exemplo.gov.br`, DEMO.consulta.login],
    );
    await t.server.sql('INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id, centros_custo) VALUES ($1, $2, $3, $4::uuid[])', [
      user!.id,
      prefeituraId,
      perfilId,
      `{${centros.join(',')}}`,
    ]);
    return user!.id;
  }

  beforeAll(async () => {
    const [pref] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.prefeitura.cnpj]);
    const [cam] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj]);
    prefeituraId = pref!.id;
    admin = (await t.server.signIn(DEMO.admin.login, DEMO.senha, prefeituraId)).token;
    camara = (await t.server.signIn(DEMO.admin.login, DEMO.senha, cam!.id)).token;
    const [perfil] = await t.server.sql<{ id: string }>(
      'INSERT INTO perfis (entidade_id, nome, tags, todos_centros) VALUES ($1, $2, $3::int[], false) RETURNING id',
      [prefeituraId, 'Documentos', `{${DOC_TAG}}`],
    );
    origemUserId = await addUser('origem1', perfil!.id, [centroA]);
    await addUser('destino1', perfil!.id, [centroB]);
    await addUser('outro1', perfil!.id, [centroC]);
    origem = (await t.server.signIn('origem1', DEMO.senha)).token;
    destino = (await t.server.signIn('destino1', DEMO.senha)).token;
    outro = (await t.server.signIn('outro1', DEMO.senha)).token;
    for (const [key, entidade, descricao, ativo] of [
      ['papel', prefeituraId, 'Papel A4 75 g/m²', true],
      ['caneta', prefeituraId, 'Caneta esferográfica azul', true],
      ['clipe', prefeituraId, 'Clipe nº 2/0', true],
      ['inativo', prefeituraId, 'Disquete 3½', false],
      ['daCamara', cam!.id, 'Produto da Câmara', true],
    ] as const) {
      const [row] = await t.server.sql<{ id: string }>('INSERT INTO doc_produtos (entidade_id, descricao, ativo) VALUES ($1, $2, $3) RETURNING id', [
        entidade,
        descricao,
        ativo,
      ]);
      produto[key] = row!.id;
    }
  });

  it('creates a draft with the next number of the year, server-set fields, ordered items and exact totals', async () => {
    const doc = await create(origem);
    expect(doc).toMatchObject({
      status: 'rascunho',
      ano: saoPauloYear(),
      version: 1,
      solicitanteId: origemUserId,
      total: '26.04',
      editavel: true,
      transicoes: ['enviar', 'cancelar'],
    });
    expect(doc.numero).toBeGreaterThanOrEqual(1);
    expect(doc).not.toHaveProperty('entidadeId');
    // 3 × 0,3333 = 0,9999 → 1,00; 2,5 × 10,015 = 25,0375 → 25,04 (half away from zero)
    expect(doc.itens).toEqual([
      {
        ordem: 1,
        produtoId: produto.papel,
        quantidade: '3.0000',
        valorUnitario: '0.3333',
        total: '1.00',
        observacao: 'resma A4',
        produtoDescricao: 'Papel A4 75 g/m²',
      },
      {
        ordem: 2,
        produtoId: produto.caneta,
        quantidade: '2.5000',
        valorUnitario: '10.0150',
        total: '25.04',
        observacao: null,
        produtoDescricao: 'Caneta esferográfica azul',
      },
    ]);
    const [stored] = await t.server.sql<{ total: string }>('SELECT total::text AS total FROM doc_memos WHERE id = $1', [doc.id]);
    expect(stored!.total).toBe('26.04');
    // the client cannot choose the status, the number or the total
    const forced = await create(origem, { status: 'aceito', numero: 999, ano: 1999, total: '1.00', solicitanteId: randomUUID() });
    expect(forced).toMatchObject({ status: 'rascunho', numero: doc.numero + 1, ano: saoPauloYear(), total: '26.04', solicitanteId: origemUserId });
    // afterSave got the number and the products
    const [uso] = await t.server.sql<{ descricao: string; produto_ids: string[] }>(
      'SELECT descricao, produto_ids::text[] AS produto_ids FROM doc_usos WHERE documento_id = $1',
      [doc.id],
    );
    expect(uso!.descricao).toBe(`Memorando ${doc.numero}/${doc.ano}`);
    expect([...uso!.produto_ids].sort()).toEqual([produto.papel, produto.caneta].sort());
    const [entry] = await audit(doc.id);
    expect(entry).toMatchObject({ acao: 'criar', depois: { status: 'rascunho', numero: doc.numero, total: '26.04' } });
    expect(entry!.depois!.itens).toHaveLength(2);
    expect(entry!.depois).not.toHaveProperty('transicoes');
  });

  it('sums 1 000 lines of 0,01 to exactly 10,00, stored and answered as strings', async () => {
    const itens = Array.from({ length: 1000 }, (_, i) => ({ produtoId: i % 2 ? produto.papel : produto.caneta, quantidade: '1', valorUnitario: '0,01' }));
    const doc = await create(origem, { itens });
    expect(doc.total).toBe('10.00');
    expect(doc.itens).toHaveLength(1000);
    expect(doc.itens.map((i: Doc) => i.ordem)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    const [sum] = await t.server.sql<{ total: string; soma: string; n: number }>(
      `SELECT m.total::text AS total, sum(i.total)::text AS soma, count(*)::int AS n
         FROM doc_memos m JOIN doc_memo_itens i ON i.memo_id = m.id WHERE m.id = $1 GROUP BY m.total`,
      [doc.id],
    );
    expect(sum).toEqual({ total: '10.00', soma: '10.00', n: 1000 });
  });

  it("refuses items of another entidade's product, an inactive product newly added, and bad decimals, naming the item", async () => {
    const other = await req('/memorandos', origem, {
      json: memo({
        itens: [
          { produtoId: produto.papel, quantidade: '1', valorUnitario: '1' },
          { produtoId: produto.daCamara, quantidade: '1', valorUnitario: '1' },
        ],
      }),
    });
    expect(await error(other, 400)).toEqual({
      code: 'bad_request',
      message: 'Verifique os campos destacados.',
      fields: { 'itens.1.produtoId': 'Escolha um produto desta entidade.' },
    });
    const inactive = await req('/memorandos', origem, {
      json: memo({
        itens: [
          { produtoId: produto.inativo, quantidade: '1', valorUnitario: '1' },
          { produtoId: 'x', quantidade: '1', valorUnitario: '1' },
        ],
      }),
    });
    expect((await error(inactive, 400)).fields).toEqual({
      'itens.0.produtoId': 'Este produto está desativado.',
      'itens.1.produtoId': 'Escolha um produto desta entidade.',
    });
    const places = await req('/memorandos', origem, { json: memo({ itens: [{ produtoId: produto.papel, quantidade: '1,00001', valorUnitario: '-1' }] }) });
    expect((await error(places, 400)).fields).toEqual({
      'itens.0.quantidade': 'Use no máximo 4 casas decimais.',
      'itens.0.valorUnitario': 'Informe um valor maior que zero.',
    });

    // a product deactivated after it was added may stay; adding it again elsewhere is refused
    const doc = await create(origem, { itens: [{ produtoId: produto.clipe, quantidade: '10', valorUnitario: '0,05' }] });
    await t.server.sql('UPDATE doc_produtos SET ativo = false WHERE id = $1', [produto.clipe]);
    try {
      const kept = await req(`/memorandos/${doc.id}`, origem, {
        method: 'PUT',
        json: {
          ...memo({
            itens: [
              { produtoId: produto.papel, quantidade: '1', valorUnitario: '2' },
              { produtoId: produto.clipe, quantidade: '20', valorUnitario: '0,05' },
            ],
          }),
          version: 1,
        },
      });
      const updated = await body(kept, 200);
      expect(updated).toMatchObject({ version: 2, total: '3.00' });
      expect(updated.itens.map((i: Doc) => [i.ordem, i.produtoDescricao, i.total])).toEqual([
        [1, 'Papel A4 75 g/m²', '2.00'],
        [2, 'Clipe nº 2/0', '1.00'],
      ]);
      const fresh = await req('/memorandos', origem, { json: memo({ itens: [{ produtoId: produto.clipe, quantidade: '1', valorUnitario: '1' }] }) });
      expect((await error(fresh, 400)).fields).toEqual({ 'itens.0.produtoId': 'Este produto está desativado.' });
    } finally {
      await t.server.sql('UPDATE doc_produtos SET ativo = true WHERE id = $1', [produto.clipe]);
    }
  });

  it('performs every transition its state and roles allow, and refuses the others (409 state, 403 role, 400 reason, 409 stale)', async () => {
    const doc = await create(origem);
    const id = doc.id as string;
    // the destination sees the draft but may not send it; nobody may accept a draft
    expect((await read(destino, id)).transicoes).toEqual([]);
    expect(await error(await act(destino, id, 'enviar', { version: 1 }), 403)).toEqual({ code: 'forbidden', message: 'Você não pode enviar este documento.' });
    expect(await error(await act(origem, id, 'aceitar', { version: 1 }), 409)).toEqual({
      code: 'invalid_transition',
      message: 'Não é possível aceitar: o documento está rascunho.',
    });

    const sent = await body(await act(origem, id, 'enviar', { version: 1 }), 200);
    expect(sent).toMatchObject({ status: 'enviado', version: 2, editavel: false, transicoes: [] });
    expect((await read(destino, id)).transicoes).toEqual(['aceitar', 'devolver']);
    expect((await error(await act(origem, id, 'enviar', { version: 2 }), 409)).code).toBe('invalid_transition');
    expect((await error(await act(origem, id, 'aceitar', { version: 2 }), 403)).code).toBe('forbidden');
    // a reason is required to return it
    expect((await error(await act(destino, id, 'devolver', { version: 2 }), 400)).fields).toEqual({ motivo: 'Informe o motivo.' });
    expect((await error(await act(destino, id, 'devolver', { version: 2, motivo: '  ' }), 400)).fields).toEqual({
      motivo: 'Informe o motivo (ao menos 3 caracteres).',
    });
    expect(await error(await act(destino, id, 'devolver', { version: 1, motivo: 'Faltou o orçamento' }), 409)).toEqual({
      code: 'stale',
      message: STALE_MESSAGE,
    });
    expect((await error(await act(destino, id, 'devolver', { motivo: 'Sem versão' }), 400)).fields).toHaveProperty('version');

    // closed: no edit, no delete, items included
    const locked = await req(`/memorandos/${id}`, origem, { method: 'PUT', json: { ...memo({ itens: [] }), version: 2 } });
    expect(await error(locked, 409)).toEqual({ code: 'locked', message: 'Este memorando está enviado e não pode ser alterado.' });
    expect(await error(await req(`/memorandos/${id}`, origem, { method: 'DELETE' }), 409)).toEqual({
      code: 'numerado',
      message: 'Documentos numerados não são excluídos: este memorando está enviado.',
    });
    expect((await read(origem, id)).itens).toHaveLength(2);

    const returned = await body(await act(destino, id, 'devolver', { version: 2, motivo: '  Faltou o orçamento  ' }), 200);
    expect(returned).toMatchObject({ status: 'devolvido', version: 3 });
    expect((await read(origem, id)).transicoes).toEqual(['enviar', 'cancelar']);
    // editable again: the requester fixes it and sends it again
    const fixed = await body(
      await req(`/memorandos/${id}`, origem, { method: 'PUT', json: { ...memo({ justificativa: 'Com orçamento anexo' }), version: 3 } }),
      200,
    );
    expect(fixed).toMatchObject({ status: 'devolvido', version: 4, justificativa: 'Com orçamento anexo', editavel: true });
    await body(await act(origem, id, 'enviar', { version: 4 }), 200);
    const accepted = await body(await act(destino, id, 'aceitar', { version: 5, motivo: null }), 200);
    expect(accepted).toMatchObject({ status: 'aceito', version: 6, transicoes: ['arquivar'] });
    const [byWhom] = await t.server.sql<{ aceito_por_id: string }>('SELECT aceito_por_id FROM doc_memos WHERE id = $1', [id]);
    expect(byWhom!.aceito_por_id).not.toBeNull(); // onTransition ran in the transaction
    expect(accepted.aceitoPorId).toBe(byWhom!.aceito_por_id);
    expect((await error(await act(origem, id, 'cancelar', { version: 6, motivo: 'Não precisa mais' }), 409)).message).toBe(
      'Não é possível cancelar: o documento está aceito.',
    );
    expect((await body(await act(destino, id, 'arquivar', { version: 6 }), 200)).status).toBe('arquivado');
    expect((await read(origem, id)).transicoes).toEqual([]);

    // cancel from a draft, with its reason
    const other = await create(origem);
    expect((await body(await act(origem, other.id, 'cancelar', { version: 1, motivo: 'Duplicado por engano' }), 200)).status).toBe('cancelado');

    const rows = await audit(id);
    expect(rows.map((r) => r.acao)).toEqual(['criar', 'enviar', 'devolver', 'alterar', 'enviar', 'aceitar', 'arquivar']);
    expect(rows[1]).toMatchObject({ antes: { status: 'rascunho', version: 1 }, depois: { status: 'enviado', version: 2 } });
    expect(rows[2]!.depois).toEqual({ status: 'devolvido', version: 3, motivo: 'Faltou o orçamento' });
    expect(rows[5]!.depois).toMatchObject({ status: 'aceito' });
    expect(rows[5]!.depois).not.toHaveProperty('motivo');

    // the timeline: newest first, with the reason, item names instead of ids
    const history = await body<{ items: Doc[]; truncated: boolean }>(await req(`/memorandos/${id}/historico`, origem), 200);
    expect(history.items.map((h) => h.acao)).toEqual(['arquivar', 'aceitar', 'enviar', 'alterar', 'devolver', 'enviar', 'criar']);
    expect(history.items[4]).toMatchObject({ acao: 'devolver', motivo: 'Faltou o orçamento', usuario: { nome: 'Servidor destino1' } });
    const created = history.items[6]!.mudancas.find((m: Doc) => m.campo === 'itens');
    expect(created.itens.adicionados).toEqual(['Papel A4 75 g/m²', 'Caneta esferográfica azul']);
  });

  it('never deletes a numbered draft (409 numerado): it is cancelled with a reason, and the next number follows without a gap', async () => {
    const doc = await create(origem);
    expect(await error(await req(`/memorandos/${doc.id}`, origem, { method: 'DELETE' }), 409)).toEqual({
      code: 'numerado',
      message: 'Documentos numerados não são excluídos: cancele este rascunho informando o motivo.',
    });
    expect((await read(origem, doc.id)).itens).toHaveLength(2);
    expect(await t.server.sql('SELECT 1 FROM doc_usos WHERE documento_id = $1', [doc.id])).toHaveLength(1);
    expect((await body(await act(origem, doc.id, 'cancelar', { version: 1, motivo: 'Criado por engano' }), 200)).status).toBe('cancelado');
    const next = await create(origem);
    expect([next.numero, next.ano]).toEqual([doc.numero + 1, doc.ano]);
    expect((await audit(doc.id)).map((r) => r.acao)).toEqual(['criar', 'cancelar']);
  });

  it('gives 100 concurrent creations 100 distinct consecutive numbers, and no gap after a failed one', async () => {
    const [entidade] = await t.server.sql<{ id: string }>("INSERT INTO entidades (nome, cnpj) VALUES ('Consórcio de Teste', '11222333000181') RETURNING id");
    const [perfil] = await t.server.sql<{ id: string }>(
      "INSERT INTO perfis (entidade_id, nome, tags, todos_centros) VALUES ($1, 'Administrador', $2::int[], true) RETURNING id",
      [entidade!.id, `{${DOC_TAG}}`],
    );
    await t.server.sql("INSERT INTO usuario_entidades (usuario_id, entidade_id, perfil_id) SELECT id, $1, $2 FROM usuarios WHERE login = 'admin'", [
      entidade!.id,
      perfil!.id,
    ]);
    const token = (await t.server.signIn(DEMO.admin.login, DEMO.senha, entidade!.id)).token;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => req('/memorandos', token, { json: memo({ assunto: `Concorrente ${i}`, itens: [] }) })),
    );
    const docs = await Promise.all(results.map((res) => body(res, 201)));
    const numbers = docs.map((d) => d.numero as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(new Set(docs.map((d) => d.ano))).toEqual(new Set([saoPauloYear()]));

    // refused after taking its number: rolled back, the number is given again
    expect((await error(await req('/memorandos', token, { json: memo({ assunto: FAIL_AFTER_NUMBER, itens: [] }) }), 409)).code).toBe('conflict');
    // refused before (validation): nothing taken either
    expect((await req('/memorandos', token, { json: memo({ assunto: 'x' }) })).status).toBe(400);
    expect((await create(token, { itens: [] })).numero).toBe(101);
    expect(await lastDocumentNumber(t.server.database.db, { entidadeId: entidade!.id, tipo: KIND, ano: saoPauloYear() })).toBe(101);
    expect((await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM doc_memos WHERE entidade_id = $1', [entidade!.id]))[0]!.n).toBe(101);
  });

  it('keeps one counter per entidade, kind and year', async () => {
    const db = t.server.database.db;
    const [entidade] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj]);
    const take = (tipo: string, ano?: number) =>
      db.transaction((tx) => nextDocumentNumber(tx, { entidadeId: entidade!.id, tipo, ...(ano === undefined ? {} : { ano }) }));
    expect(await take('teste/anos', 2025)).toEqual({ numero: 1, ano: 2025 });
    expect(await take('teste/anos', 2025)).toEqual({ numero: 2, ano: 2025 });
    expect(await take('teste/anos', 2026)).toEqual({ numero: 1, ano: 2026 });
    expect(await take('teste/outro', 2025)).toEqual({ numero: 1, ano: 2025 });
    expect(await take('teste/anos', 2025)).toEqual({ numero: 3, ano: 2025 });
    // default year: now() in America/Sao_Paulo
    expect(await take('teste/hoje')).toEqual({ numero: 1, ano: saoPauloYear() });
    // a rolled back transaction gives its number back
    await expect(
      db.transaction(async (tx) => {
        await nextDocumentNumber(tx, { entidadeId: entidade!.id, tipo: 'teste/anos', ano: 2025 });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await take('teste/anos', 2025)).toEqual({ numero: 4, ano: 2025 });
  });

  it('duplicates into a new draft: new number, items copied, declared fields reset, audited with the source number', async () => {
    const source = await create(origem, { processo: 'PROC-9', justificativa: 'Justificativa original' });
    await body(await act(origem, source.id, 'enviar', { version: 1 }), 200);
    await body(await act(destino, source.id, 'aceitar', { version: 2 }), 200);
    // someone else duplicates it: they become the requester of the copy
    const copy = await body(await req(`/memorandos/${source.id}/duplicar`, admin, { method: 'POST' }), 201);
    expect(copy).toMatchObject({
      status: 'rascunho',
      version: 1,
      assunto: source.assunto,
      justificativa: 'Justificativa original',
      processo: null,
      dataDesejada: today(),
      aceitoPorId: null,
      total: '26.04',
      editavel: true,
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.numero).toBeGreaterThan(source.numero);
    expect(copy.solicitanteId).not.toBe(source.solicitanteId);
    expect(copy.itens.map((i: Doc) => [i.produtoId, i.quantidade, i.valorUnitario, i.total, i.observacao])).toEqual([
      [produto.papel, '3.0000', '0.3333', '1.00', null],
      [produto.caneta, '2.5000', '10.0150', '25.04', null],
    ]);
    const sourceNumber = `${source.numero}/${source.ano}`;
    const [entry] = await audit(copy.id);
    expect(entry).toMatchObject({ acao: 'criar', depois: { duplicadoDe: sourceNumber, status: 'rascunho' } });
    const history = await body<{ items: Doc[] }>(await req(`/memorandos/${copy.id}/historico`, admin), 200);
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({ acao: 'criar', duplicadoDe: sourceNumber });
    // the source is untouched
    expect(await read(origem, source.id)).toMatchObject({ status: 'aceito', processo: 'PROC-9', version: 3 });
    // only what one can read; items that are no longer accepted make it a 400
    expect((await req(`/memorandos/${source.id}/duplicar`, outro, { method: 'POST' })).status).toBe(404);
    expect((await req(`/memorandos/${source.id}/duplicar`, camara, { method: 'POST' })).status).toBe(404);
    await t.server.sql('UPDATE doc_produtos SET ativo = false WHERE id = $1', [produto.caneta]);
    try {
      const refused = await error(await req(`/memorandos/${source.id}/duplicar`, origem, { method: 'POST' }), 400);
      expect(refused.fields).toEqual({ 'itens.1.produtoId': 'Este produto está desativado.' });
    } finally {
      await t.server.sql('UPDATE doc_produtos SET ativo = true WHERE id = $1', [produto.caneta]);
    }
  });

  it('prints the PDF: entidade, number, items and total; inline with the document name', async () => {
    const doc = await create(origem);
    const res = await req(`/memorandos/${doc.id}.pdf`, origem);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="memorando-${doc.numero}-${doc.ano}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain(DEMO.prefeitura.nome);
    expect(text).toContain(`${doc.numero}/${doc.ano}`);
    expect(text).toContain('Papel A4 75 g/m²');
    expect(text).toContain('R$ 26,04');
    expect(text).toContain('Rascunho');
    expect((await req(`/memorandos/${randomUUID()}.pdf`, origem)).status).toBe(404);
    expect((await req('/memorandos/nao-e-id.pdf', origem)).status).toBe(404);
  });

  it('applies the row scope everywhere: another centro or entidade gets 404, lists, counts and exports leave it out', async () => {
    const doc = await create(origem, { assunto: 'Escopo reservado' });
    const id = doc.id as string;
    for (const token of [outro, camara]) {
      expect((await req(`/memorandos/${id}`, token)).status).toBe(404);
      expect((await req(`/memorandos/${id}`, token, { method: 'PUT', json: { ...memo(), version: 1 } })).status).toBe(404);
      expect((await req(`/memorandos/${id}`, token, { method: 'DELETE' })).status).toBe(404);
      expect((await act(token, id, 'enviar', { version: 1 })).status).toBe(404);
      expect((await act(token, id, 'cancelar', { version: 1, motivo: 'Não é meu' })).status).toBe(404);
      expect((await req(`/memorandos/${id}/historico`, token)).status).toBe(404);
      expect((await req(`/memorandos/${id}.pdf`, token)).status).toBe(404);
      expect((await list(token, 'q=reservado')).total).toBe(0);
      const csv = await (await req('/memorandos.csv?q=reservado', token)).text();
      expect(csv).not.toContain('Escopo reservado');
    }
    expect(await read(origem, id)).toMatchObject({ status: 'rascunho' });
    expect((await list(destino, 'q=reservado')).total).toBe(1);
    expect((await list(admin, 'q=reservado')).total).toBe(1);
    const csv = await (await req('/memorandos.csv?q=reservado', destino)).text();
    expect(csv.split('\r\n')[1]).toBe(`${doc.numero}/${doc.ano};Escopo reservado;Rascunho;26,04`);
    // a custom route reusing listWhere gets the scope too
    expect(await body(await req('/memorandos-por-situacao?q=reservado', outro), 200)).toEqual({});
    expect(await body(await req('/memorandos-por-situacao?q=reservado', destino), 200)).toEqual({ rascunho: 1 });
    // a person may not create a document for a centro that is not theirs
    expect((await error(await req('/memorandos', outro, { json: memo() }), 400)).fields).toEqual({ origemId: 'Escolha um centro de custo seu.' });
  });

  it('filters by status set, date and timestamp ranges, numeric range; finds by number; refuses bad values', async () => {
    const tag = `Faixa${randomUUID().slice(0, 6)}`;
    const jan = await create(origem, { assunto: `${tag} janeiro`, dataDesejada: '2026-01-10' });
    const fev = await create(origem, { assunto: `${tag} fevereiro`, dataDesejada: '2026-02-15', itens: [] });
    const mar = await create(origem, { assunto: `${tag} março`, dataDesejada: '2026-03-31' });
    await body(await act(origem, fev.id, 'enviar', { version: 1 }), 200);
    await body(await act(origem, mar.id, 'cancelar', { version: 1, motivo: 'Não precisa' }), 200);
    const names = async (query: string) => (await list(origem, `q=${tag}&sort=assunto&${query}`)).items.map((i) => i.assunto.split(' ')[1]);

    expect(await names('status=rascunho,enviado')).toEqual(['fevereiro', 'janeiro']);
    expect(await names('status=rascunho&status=cancelado')).toEqual(['janeiro', 'março']);
    expect(await names('status=')).toEqual(['fevereiro', 'janeiro', 'março']);
    const bad = await error(await req(`/memorandos?status=rascunho,${'x'.repeat(3)}`, origem), 400);
    expect(bad.fields).toEqual({ status: "Valor inválido: 'xxx'. Use rascunho, enviado, devolvido, aceito, arquivado, cancelado." });
    expect((await req('/memorandos.csv?status=nenhum', origem)).status).toBe(400);

    expect(await names('dataDesejadaDe=2026-02-01&dataDesejadaAte=2026-03-31')).toEqual(['fevereiro', 'março']);
    expect(await names('dataDesejadaAte=2026-01-10')).toEqual(['janeiro']);
    expect((await error(await req('/memorandos?dataDesejadaDe=2026-02-30', origem), 400)).fields).toEqual({
      dataDesejadaDe: 'Data: data inexistente.',
    });
    expect((await error(await req('/memorandos?dataDesejadaDe=2026-03-01&dataDesejadaAte=2026-02-01', origem), 400)).fields).toEqual({
      dataDesejadaAte: 'A data final é anterior à inicial.',
    });
    expect(await names('totalDe=26.04&totalAte=26.04')).toEqual(['janeiro', 'março']);
    expect(await names('totalAte=0')).toEqual(['fevereiro']);
    expect((await req('/memorandos?totalDe=abc', origem)).status).toBe(400);

    // a timestamp's 'Ate' takes the whole day in São Paulo: 23:30 on 31/03 (02:30 UTC on 01/04)
    await t.server.sql("UPDATE doc_memos SET created_at = '2026-03-31T23:30:00-03:00' WHERE id = $1", [jan.id]);
    expect(await names('createdAtDe=2026-03-31&createdAtAte=2026-03-31')).toEqual(['janeiro']);
    expect(await names('createdAtAte=2026-03-30')).toEqual([]);
    expect(await names('createdAtDe=2026-04-01&createdAtAte=2026-04-01')).toEqual([]);
    expect(await names(`createdAtDe=${today()}`)).toEqual(['fevereiro', 'março']);

    // '12/2026' finds by number; so does the bare number
    const byNumber = await list(origem, `q=${mar.numero}/${mar.ano}`);
    expect(byNumber.items.map((i) => i.id)).toEqual([mar.id]);
    expect((await list(origem, `q=${mar.numero}-${mar.ano}`)).items.map((i) => i.id)).toEqual([mar.id]);
    expect((await list(origem, `q=${mar.numero}`)).items.map((i) => i.id)).toContain(mar.id);
    // every list item says what this person may do now
    const items = (await list(destino, `q=${tag}&sort=assunto`)).items;
    expect(items.map((i) => [i.status, i.transicoes, i.editavel])).toEqual([
      ['enviado', ['aceitar', 'devolver'], false],
      // another person's draft: not editable by the destination (only its authors edit it)
      ['rascunho', [], false],
      ['cancelado', [], false],
    ]);
    expect(items[0]).not.toHaveProperty('itens');
  });

  it('sorts by number as year, then number (a number of next year first when newest first)', async () => {
    const tag = `Ordem${randomUUID().slice(0, 6)}`;
    const a = await create(origem, { assunto: `${tag} a` });
    const b = await create(origem, { assunto: `${tag} b` });
    const c = await create(origem, { assunto: `${tag} c` });
    // c becomes 1/<next year>: a smaller number, a later year
    await t.server.sql('UPDATE doc_memos SET numero = 1, ano = ano + 1 WHERE id = $1', [c.id]);
    expect((await list(origem, `q=${tag}&sort=-numero`)).items.map((i) => i.id)).toEqual([c.id, b.id, a.id]);
    expect((await list(origem, `q=${tag}&sort=numero`)).items.map((i) => i.id)).toEqual([a.id, b.id, c.id]);
  });

  it('answers 400 or 404, never 5xx, to malformed input', async () => {
    const doc = await create(origem);
    for (const [path, init, status] of [
      ['/memorandos/nao-e-uuid', {}, 404],
      ['/memorandos/nao-e-uuid/enviar', { json: { version: 1 } }, 404],
      ['/memorandos/nao-e-uuid/historico', {}, 404],
      ['/memorandos/nao-e-uuid/duplicar', { method: 'POST' }, 404],
      [`/memorandos/${doc.id}/enviar`, { json: { version: 'um' } }, 400],
      [`/memorandos/${doc.id}/enviar`, { json: { version: 2 ** 40 } }, 409],
      [`/memorandos/${doc.id}/nada`, { json: { version: 1 } }, 404],
      ['/memorandos?sort=busca', {}, 400],
      ['/memorandos?origemId=x', {}, 400],
      ['/memorandos?page=0', {}, 400],
      ['/memorandos', { json: memo({ itens: 'nada' }) }, 400],
      ['/memorandos', { json: memo({ itens: [{ produtoId: produto.papel, quantidade: '1e400', valorUnitario: '1' }] }) }, 400],
      ['/memorandos', { json: memo({ itens: [{ produtoId: produto.papel, quantidade: '123456789012', valorUnitario: '1' }] }) }, 400],
      ['/memorandos', { json: memo({ dataDesejada: '2026-13-01' }) }, 400],
      // the total would overflow numeric(17,2)
      ['/memorandos', { json: memo({ itens: [{ produtoId: produto.papel, quantidade: '99999999999', valorUnitario: '99999999999' }] }) }, 400],
      [`/memorandos/${doc.id}`, { method: 'PUT', json: memo() }, 400],
    ] as const) {
      const res = await req(path, origem, init as { method?: string; json?: unknown });
      expect(res.status, `${path} ${JSON.stringify(init).slice(0, 80)}: ${await res.clone().text()}`).toBe(status);
    }
  });

  it('names the item whose total would not fit', async () => {
    const res = await req('/memorandos', origem, {
      json: memo({
        itens: [
          { produtoId: produto.papel, quantidade: '1', valorUnitario: '1' },
          { produtoId: produto.papel, quantidade: '99999999999', valorUnitario: '99999' },
        ],
      }),
    });
    expect((await error(res, 400)).fields).toEqual({ 'itens.1.total': 'Total do item acima do permitido.' });
  });

  it('lists every route in OpenAPI with the tag', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { 'x-permission-tag'?: number }>> };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/docs/memorandos'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op['x-permission-tag']]));
    expect(Object.fromEntries(routes)).toEqual({
      'GET /api/docs/memorandos': DOC_TAG,
      'POST /api/docs/memorandos': DOC_TAG,
      'GET /api/docs/memorandos.csv': DOC_TAG,
      'GET /api/docs/memorandos.xlsx': DOC_TAG,
      'GET /api/docs/memorandos/{id}': DOC_TAG,
      'PUT /api/docs/memorandos/{id}': DOC_TAG,
      'DELETE /api/docs/memorandos/{id}': DOC_TAG,
      'POST /api/docs/memorandos/{id}/enviar': DOC_TAG,
      'POST /api/docs/memorandos/{id}/aceitar': DOC_TAG,
      'POST /api/docs/memorandos/{id}/devolver': DOC_TAG,
      'POST /api/docs/memorandos/{id}/arquivar': DOC_TAG,
      'POST /api/docs/memorandos/{id}/cancelar': DOC_TAG,
      'POST /api/docs/memorandos/{id}/duplicar': DOC_TAG,
      'GET /api/docs/memorandos/{id}/historico': DOC_TAG,
      'GET /api/docs/memorandos/{id}.pdf': DOC_TAG,
      'GET /api/docs/memorandos-por-situacao': DOC_TAG,
    });
    // each operation named by the kit, '<plugin>.<resource>.<action>'; the PDF at a path a client can call, with an `id` parameter
    const ids = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/docs/memorandos'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, (op as { operationId?: string }).operationId]),
      );
    expect(Object.fromEntries(ids)).toEqual({
      'GET /api/docs/memorandos': 'docs.memorandos.list',
      'POST /api/docs/memorandos': 'docs.memorandos.create',
      'GET /api/docs/memorandos.csv': 'docs.memorandos.exportCsv',
      'GET /api/docs/memorandos.xlsx': 'docs.memorandos.exportXlsx',
      'GET /api/docs/memorandos/{id}': 'docs.memorandos.get',
      'PUT /api/docs/memorandos/{id}': 'docs.memorandos.update',
      'DELETE /api/docs/memorandos/{id}': 'docs.memorandos.delete',
      'POST /api/docs/memorandos/{id}/enviar': 'docs.memorandos.enviar',
      'POST /api/docs/memorandos/{id}/aceitar': 'docs.memorandos.aceitar',
      'POST /api/docs/memorandos/{id}/devolver': 'docs.memorandos.devolver',
      'POST /api/docs/memorandos/{id}/arquivar': 'docs.memorandos.arquivar',
      'POST /api/docs/memorandos/{id}/cancelar': 'docs.memorandos.cancelar',
      'POST /api/docs/memorandos/{id}/duplicar': 'docs.memorandos.duplicar',
      'GET /api/docs/memorandos/{id}/historico': 'docs.memorandos.historico',
      'GET /api/docs/memorandos/{id}.pdf': 'docs.memorandos.pdf',
      'GET /api/docs/memorandos-por-situacao': 'docs.memorandosPorSituacao.get',
    });
    const pdf = (doc.paths['/api/docs/memorandos/{id}.pdf'] as Record<string, { parameters?: unknown; responses: Record<string, { content?: unknown }> }>).get!;
    expect(pdf.parameters).toEqual([{ schema: { type: 'string' }, required: true, in: 'path', name: 'id' }]);
    expect(pdf.responses['200']!.content).toEqual({ 'application/pdf': { schema: { type: 'string', format: 'binary' } } });
    const consulta = (await t.server.signIn('consulta', DEMO.senha)).token;
    expect((await req('/memorandos', consulta)).status).toBe(403);
    expect((await req(`/memorandos/${randomUUID()}.pdf`, consulta)).status).toBe(403);
  });
});
