// The document kit's attachments (defineDocumentAttachments) on a fixture document 'pedidos' and on
// its child 'linhas': upload checked by the content's first bytes, size limit (413 in pt-BR), SHA-256
// stored and returned; list; download always as an attachment with nosniff; delete (409 while a
// record points at the file); scope, tag and entidade of the parent; only in the states allowed;
// audited under the parent (never the bytes); no 5xx on hostile input. PGlite and PostgreSQL.
import { createHash, randomUUID } from 'node:crypto';
import { defineFlow } from '@app/documents';
import { and, eq } from 'drizzle-orm';
import { customType, char, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  centroCustoScope,
  contentMatchesType,
  declaredFileType,
  defineDocumentAttachments,
  defineDocumentResource,
  defineServerPlugin,
  describeFileTypes,
  documentAttachmentParent,
  notFound,
} from '../src/index.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';

const TAG = 94;
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

const pedidos = pgTable('anx_pedidos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  version: integer('version').notNull().default(1),
  status: text('status').notNull(),
  numero: integer('numero').notNull(),
  ano: integer('ano').notNull(),
  centroId: uuid('centro_id').notNull(),
  assunto: text('assunto').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

const anexos = pgTable('anx_anexos', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  pedidoId: uuid('pedido_id').notNull(),
  linhaId: uuid('linha_id'),
  nome: text('nome').notNull(),
  tipo: text('tipo').notNull(),
  tamanho: integer('tamanho').notNull(),
  sha256: char('sha256', { length: 64 }).notNull(),
  conteudo: bytea('conteudo').notNull(),
  enviadoPor: uuid('enviado_por').notNull(),
  enviadoPorNome: text('enviado_por_nome').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

const linhas = pgTable('anx_linhas', {
  id: uuid('id').primaryKey().defaultRandom(),
  entidadeId: uuid('entidade_id').notNull(),
  pedidoId: uuid('pedido_id').notNull(),
  descricao: text('descricao').notNull(),
  anexoId: uuid('anexo_id'),
});

const fluxo = defineFlow({
  initial: 'rascunho',
  states: { rascunho: { label: 'Rascunho', editable: true }, enviado: { label: 'Enviado' }, cancelado: { label: 'Cancelado' } },
  transitions: {
    enviar: { from: ['rascunho'], to: 'enviado', label: 'Enviar', done: 'enviado' },
    cancelar: { from: ['rascunho'], to: 'cancelado', label: 'Cancelar', reason: true, done: 'cancelado' },
  },
});

const MAX = 1024;
const columns = {
  id: anexos.id,
  entidadeId: anexos.entidadeId,
  parent: anexos.pedidoId,
  child: anexos.linhaId,
  nome: anexos.nome,
  tipo: anexos.tipo,
  tamanho: anexos.tamanho,
  sha256: anexos.sha256,
  conteudo: anexos.conteudo,
  enviadoPor: anexos.enviadoPor,
  enviadoPorNome: anexos.enviadoPorNome,
  createdAt: anexos.createdAt,
};

const plugin = defineServerPlugin({
  id: 'anx',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [{ tag: TAG, nome: 'Pedidos com anexos' }],
  migrations: new URL('./fixtures/attachments-migrations/', import.meta.url),
  routes(router) {
    const doc = defineDocumentResource(router, {
      path: '/pedidos',
      tag: TAG,
      table: pedidos,
      flow: fluxo,
      schema: z.object({ centroId: z.uuid(), assunto: z.string().trim().min(3) }),
      label: { singular: 'pedido', plural: 'pedidos', documento: 'Pedido' },
      roles: () => [],
      scope: (ctx) => centroCustoScope(ctx, pedidos.centroId),
      list: {
        sortable: ['numero'],
        columns: [{ key: 'numero', header: 'Número' }],
      },
      duplicate: false,
    });
    const parent = documentAttachmentParent(doc, { states: ['rascunho'] });
    const arquivos = defineDocumentAttachments(router, {
      path: '/pedidos/:id/anexos',
      tag: TAG,
      table: anexos,
      columns,
      types: ['application/pdf', 'image/png', 'text/html'],
      maxBytes: MAX,
      parent,
      fallbackName: 'anexo',
      referencedBy: [{ table: linhas, column: linhas.anexoId, message: 'Este anexo é usado por uma linha.' }],
    });
    defineDocumentAttachments(router, {
      path: '/pedidos/:id/linhas/:linhaId/anexos',
      tag: TAG,
      table: anexos,
      columns,
      types: ['application/pdf'],
      maxBytes: MAX,
      parent,
      child: { param: 'linhaId', table: linhas, id: linhas.id, parentColumn: linhas.pedidoId },
      actions: { upload: 'anexar_na_linha', remove: 'excluir_anexo_da_linha' },
    });
    // a plugin's own route reusing the operations: a line that names a file of its document; deleting it drops the file no one uses
    router.route({
      method: 'post',
      path: '/pedidos/:id/linhas',
      tag: TAG,
      summary: 'Incluir uma linha',
      request: { params: z.object({ id: z.string() }), body: z.object({ descricao: z.string(), anexoId: z.string().nullish() }) },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        const body = c.req.valid('json');
        const linha = await ctx.mutate(async (tx) => {
          await parent.lock(tx, ctx, id);
          if (body.anexoId && !(await arquivos.belongsTo(tx, id, body.anexoId))) throw notFound('Anexo de outro pedido.');
          const [row] = await tx
            .insert(linhas)
            .values({ entidadeId: ctx.entidadeId, pedidoId: id, descricao: body.descricao, anexoId: body.anexoId ?? null })
            .returning({ id: linhas.id });
          return row!;
        });
        return c.json(linha, 201);
      },
    });
    router.route({
      method: 'delete',
      path: '/pedidos/:id/linhas/:linhaId',
      tag: TAG,
      summary: 'Excluir uma linha',
      request: { params: z.object({ id: z.string(), linhaId: z.string() }) },
      handler: async (c, ctx) => {
        const { id, linhaId } = c.req.valid('param');
        const removidos = await ctx.mutate(async (tx) => {
          await parent.lock(tx, ctx, id);
          const [linha] = await tx
            .delete(linhas)
            .where(and(eq(linhas.id, linhaId), eq(linhas.pedidoId, id)))
            .returning({ anexoId: linhas.anexoId });
          if (!linha) throw notFound();
          return arquivos.removeUnreferenced(tx, [linha.anexoId]);
        });
        return c.json({ removidos: removidos.map((a) => a.nome) }, 200);
      },
    });
  },
});

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const HTML = new TextEncoder().encode('<!doctype html><html><body><script>alert(1)</script></body></html>');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('file types by content (formats/file-type)', () => {
  it('normalizes the declared type, falls back to the extension, and trusts only the first bytes', () => {
    expect(declaredFileType('image/jpg', 'a.jpg')).toBe('image/jpeg');
    expect(declaredFileType('', 'pagina.HTM')).toBe('text/html');
    expect(declaredFileType('application/octet-stream', 'nota.pdf')).toBe('application/pdf');
    expect(declaredFileType('application/pdf; charset=binary', 'x')).toBe('application/pdf');
    expect(contentMatchesType(PDF, 'application/pdf')).toBe(true);
    expect(contentMatchesType(PNG, 'application/pdf')).toBe(false);
    expect(contentMatchesType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg')).toBe(true);
    expect(contentMatchesType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '), 'image/webp')).toBe(true);
    expect(contentMatchesType(HTML, 'text/html')).toBe(true);
    expect(contentMatchesType(new TextEncoder().encode('<html\0>'), 'text/html')).toBe(false);
    expect(contentMatchesType(new Uint8Array(0), 'image/png')).toBe(false);
    expect(describeFileTypes(['application/pdf', 'image/png', 'image/jpeg'])).toBe('PDF, PNG ou JPEG');
  });
});

describeEachDatabase('document kit: attachments', { plugins: [plugin] }, (t) => {
  const centroA = randomUUID();
  const centroB = randomUUID();
  let dono: string;
  let outroCentro: string;
  let semTag: string;
  let outraEntidade: string;
  let pedido: { id: string; version: number };

  const req = (path: string, token = dono, init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {}) =>
    t.server.request(`/api/anx${path}`, { token, ...init });
  const enviar = async (path: string, content: Uint8Array | string, filename: string, type: string, token = dono, field?: string) => {
    const res = await t.server.upload(`/api/anx${path}`, token, { content, filename, type, ...(field ? { field } : {}) });
    // biome-ignore lint/suspicious/noExplicitAny: API answers are read field by field
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const auditoria = (registro: string, acao: string) =>
    t.server.sql<{ antes: Record<string, unknown> | null; depois: Record<string, unknown> | null }>(
      'SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = $2 ORDER BY id',
      [registro, acao],
    );
  const novoPedido = async (token = dono, centroId = centroA) => {
    const res = await req('/pedidos', token, { method: 'POST', json: { centroId, assunto: 'Compra de material' } });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string; version: number };
  };

  beforeAll(async () => {
    dono = (await t.server.createUser({ login: 'anx-dono', tags: [TAG], centros: [centroA] })).token;
    outroCentro = (await t.server.createUser({ login: 'anx-outro', tags: [TAG], centros: [centroB] })).token;
    semTag = (await t.server.createUser({ login: 'anx-semtag', tags: [], centros: [centroA] })).token;
    const [camara] = await t.server.sql<{ id: string }>('SELECT id FROM entidades WHERE cnpj = $1', [DEMO.camara.cnpj]);
    outraEntidade = (await t.server.createUser({ login: 'anx-camara', tags: [TAG], todosCentros: true, entidadeId: camara!.id })).token;
    pedido = await novoPedido();
  });

  it('uploads a file checked by its content, stores and returns its SHA-256, audited under the document without the bytes', async () => {
    const r = await enviar(`/pedidos/${pedido.id}/anexos`, PDF, 'proposta.pdf', 'application/pdf');
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.any(String), nome: 'proposta.pdf', tipo: 'application/pdf', tamanho: PDF.length, sha256: sha(PDF) });
    const [row] = await t.server.sql<{ sha256: string; tamanho: number; pedido_id: string; linha_id: string | null }>(
      'SELECT sha256, tamanho, pedido_id, linha_id FROM anx_anexos WHERE id = $1',
      [r.body.id],
    );
    expect(row).toMatchObject({ sha256: sha(PDF), tamanho: PDF.length, pedido_id: pedido.id, linha_id: null });
    const [audit] = await auditoria(pedido.id, 'anexar');
    expect(audit!.depois).toEqual({ id: r.body.id, nome: 'proposta.pdf', tipo: 'application/pdf', tamanho: PDF.length, sha256: sha(PDF) });
    expect(JSON.stringify(audit)).not.toContain('conteudo');
    // the type from the name when the browser sends none; the name cleaned once (RTL override, NUL)
    const semTipo = await enviar(`/pedidos/${pedido.id}/anexos`, PNG, 'fatura\u202Efdp.exe\u0000.png', '');
    expect([semTipo.status, semTipo.body.tipo, semTipo.body.nome]).toEqual([201, 'image/png', 'faturafdp.exe.png']);
  });

  it('refuses a type not declared, a content of another type, an empty file, a missing part and a file over the limit (413 in pt-BR)', async () => {
    const path = `/pedidos/${pedido.id}/anexos`;
    const exe = await enviar(path, new Uint8Array([0x4d, 0x5a, 0x90, 0]), 'programa.exe', 'application/x-msdownload');
    expect([exe.status, exe.body.error?.message, exe.body.error?.fields?.arquivo]).toEqual([
      400,
      'Tipo de arquivo não aceito: envie PDF, PNG ou HTML.',
      'Tipo de arquivo não aceito: envie PDF, PNG ou HTML.',
    ]);
    const falsa = await enviar(path, PNG, 'nota.pdf', 'application/pdf');
    expect([falsa.status, falsa.body.error?.message]).toEqual([400, 'O conteúdo do arquivo não corresponde ao tipo informado: envie o arquivo original.']);
    const jpegNaoAceito = await enviar(path, new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'foto.jpg', 'image/jpeg');
    expect(jpegNaoAceito.status).toBe(400);
    expect((await enviar(path, new Uint8Array(0), 'vazio.pdf', 'application/pdf')).body.error?.message).toBe('Escolha um arquivo (PDF, PNG ou HTML).');
    expect((await enviar(path, PDF, 'x.pdf', 'application/pdf', dono, 'outro')).status).toBe(400);
    const grande = new Uint8Array(MAX + 1);
    grande.set(PDF);
    const acima = await enviar(path, grande, 'grande.pdf', 'application/pdf');
    expect([acima.status, acima.body.error?.message]).toEqual([413, 'O arquivo passa do limite de 1 KB.']);
    const noLimite = new Uint8Array(MAX);
    noLimite.set(PDF);
    expect((await enviar(path, noLimite, 'limite.pdf', 'application/pdf')).body.sha256).toBe(sha(noLimite));
    // not multipart, a broken multipart, a huge declared length: never a 5xx
    expect((await req(path, dono, { method: 'POST', body: 'abc', headers: { 'content-type': 'text/plain' } })).status).toBe(400);
    const quebrado = await req(path, dono, { method: 'POST', body: '--x\r\nlixo', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(quebrado.status).toBe(400);
    const declarado = await req(path, dono, {
      method: 'POST',
      body: '--x\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(10 * 1024 * 1024 * 1024) },
    });
    expect(declarado.status).toBe(413);
    for (const bad of ['x', '%00', '00000000-0000-0000-0000-000000000000', "1' OR '1'='1"]) {
      for (const [method, p] of [
        ['GET', `/pedidos/${bad}/anexos`],
        ['GET', `/pedidos/${pedido.id}/anexos/${bad}`],
        ['DELETE', `/pedidos/${pedido.id}/anexos/${bad}`],
        ['GET', `/pedidos/${pedido.id}/linhas/${bad}/anexos`],
      ] as const) {
        // 404, or 400 where the platform refuses the characters before the route
        const res = await req(p, dono, { method });
        expect([400, 404], `${method} ${p} → ${res.status}`).toContain(res.status);
      }
      expect([400, 404]).toContain((await enviar(`/pedidos/${encodeURIComponent(bad)}/anexos`, PDF, 'a.pdf', 'application/pdf')).status);
    }
  });

  it('lists and downloads: always an attachment, nosniff, the SHA-256 in a header; HTML never as text/html', async () => {
    const p = await novoPedido();
    const html = await enviar(`/pedidos/${p.id}/anexos`, HTML, 'página.html', 'text/html');
    const pdf = await enviar(`/pedidos/${p.id}/anexos`, PDF, 'prova.pdf', 'application/pdf');
    const lista = (await (await req(`/pedidos/${p.id}/anexos`)).json()) as { items: { id: string; nome: string; sha256: string }[] };
    expect(lista.items.map((a) => [a.nome, a.sha256])).toEqual([
      ['página.html', sha(HTML)],
      ['prova.pdf', sha(PDF)],
    ]);
    const res = await req(`/pedidos/${p.id}/anexos/${html.body.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="p_gina.html"; filename*=UTF-8''p%C3%A1gina.html`);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-content-sha256')).toBe(sha(HTML));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(HTML);
    const baixado = await req(`/pedidos/${p.id}/anexos/${pdf.body.id}`);
    expect([baixado.headers.get('content-type'), baixado.headers.get('content-disposition')?.split(';')[0]]).toEqual(['application/pdf', 'attachment']);
    // a file of another document is not found through this one
    expect((await req(`/pedidos/${pedido.id}/anexos/${pdf.body.id}`)).status).toBe(404);
  });

  it('checks the tag, the entidade and the scope of the document on every route', async () => {
    const r = await enviar(`/pedidos/${pedido.id}/anexos`, PDF, 'escopo.pdf', 'application/pdf');
    const rotas = [
      ['GET', `/pedidos/${pedido.id}/anexos`],
      ['GET', `/pedidos/${pedido.id}/anexos/${r.body.id}`],
      ['DELETE', `/pedidos/${pedido.id}/anexos/${r.body.id}`],
    ] as const;
    for (const [token, status] of [
      [outroCentro, 404],
      [outraEntidade, 404],
      [semTag, 403],
    ] as const) {
      for (const [method, path] of rotas) expect((await req(path, token, { method })).status, `${method} ${path}`).toBe(status);
      expect((await enviar(`/pedidos/${pedido.id}/anexos`, PDF, 'a.pdf', 'application/pdf', token)).status).toBe(status);
    }
    expect(await t.server.sql('SELECT id FROM anx_anexos WHERE id = $1', [r.body.id])).toHaveLength(1);
  });

  it('changes only in the states declared (409 in pt-BR); the files are still read afterwards', async () => {
    const p = await novoPedido();
    const r = await enviar(`/pedidos/${p.id}/anexos`, PDF, 'antes.pdf', 'application/pdf');
    const cancelar = await req(`/pedidos/${p.id}/cancelar`, dono, { method: 'POST', json: { version: p.version, motivo: 'Pedido feito em duplicidade.' } });
    expect(cancelar.status, await cancelar.clone().text()).toBe(200);
    const depois = await enviar(`/pedidos/${p.id}/anexos`, PDF, 'depois.pdf', 'application/pdf');
    expect([depois.status, depois.body.error?.code, depois.body.error?.message]).toEqual([
      409,
      'locked',
      'Este pedido está cancelado e não pode ser alterado.',
    ]);
    expect((await req(`/pedidos/${p.id}/anexos/${r.body.id}`, dono, { method: 'DELETE' })).status).toBe(409);
    expect((await req(`/pedidos/${p.id}/anexos/${r.body.id}`)).status).toBe(200);
  });

  it('an upload racing the cancellation of its document: each lands before it (201, audited first) or is refused (409), never after', async () => {
    const p = await novoPedido();
    const envios = Array.from({ length: 4 }, (_, i) => enviar(`/pedidos/${p.id}/anexos`, PDF, `corrida-${i}.pdf`, 'application/pdf'));
    const cancelar = req(`/pedidos/${p.id}/cancelar`, dono, { method: 'POST', json: { version: p.version, motivo: 'Cancelado durante o envio.' } });
    const [cancelado, ...resultados] = await Promise.all([cancelar, ...envios]);
    expect(cancelado!.status).toBe(200);
    const ok = (resultados as { status: number; body: Record<string, string> }[]).filter((r) => r.status === 201);
    for (const r of resultados as { status: number }[]) expect([201, 409]).toContain(r.status);
    const linhas = await t.server.sql<{ acao: string; id: string }>(
      "SELECT acao, id::text AS id FROM audit_log WHERE registro = $1 AND acao IN ('anexar', 'cancelar') ORDER BY id",
      [p.id],
    );
    expect(linhas.map((l) => l.acao)).toEqual([...ok.map(() => 'anexar'), 'cancelar']);
    expect(await t.server.sql('SELECT id FROM anx_anexos WHERE pedido_id = $1', [p.id])).toHaveLength(ok.length);
  });

  it('deletes a file no record uses (audited), 409 while a line points at it; removeUnreferenced drops it with the last line', async () => {
    const p = await novoPedido();
    const solto = await enviar(`/pedidos/${p.id}/anexos`, PDF, 'solto.pdf', 'application/pdf');
    expect((await req(`/pedidos/${p.id}/anexos/${solto.body.id}`, dono, { method: 'DELETE' })).status).toBe(204);
    expect((await req(`/pedidos/${p.id}/anexos/${solto.body.id}`)).status).toBe(404);
    const [audit] = await auditoria(p.id, 'excluir_anexo');
    expect(audit!.antes).toEqual({ id: solto.body.id, nome: 'solto.pdf', tipo: 'application/pdf', tamanho: PDF.length, sha256: sha(PDF) });
    const usado = await enviar(`/pedidos/${p.id}/anexos`, PDF, 'usado.pdf', 'application/pdf');
    const linha = (await (await req(`/pedidos/${p.id}/linhas`, dono, { method: 'POST', json: { descricao: 'L1', anexoId: usado.body.id } })).json()) as {
      id: string;
    };
    const emUso = await req(`/pedidos/${p.id}/anexos/${usado.body.id}`, dono, { method: 'DELETE' });
    expect([emUso.status, ((await emUso.json()) as { error: { message: string } }).error.message]).toEqual([409, 'Este anexo é usado por uma linha.']);
    // a second line uses it too: deleting the first keeps it
    const linha2 = (await (await req(`/pedidos/${p.id}/linhas`, dono, { method: 'POST', json: { descricao: 'L2', anexoId: usado.body.id } })).json()) as {
      id: string;
    };
    expect(await (await req(`/pedidos/${p.id}/linhas/${linha.id}`, dono, { method: 'DELETE' })).json()).toEqual({ removidos: [] });
    expect(await (await req(`/pedidos/${p.id}/linhas/${linha2.id}`, dono, { method: 'DELETE' })).json()).toEqual({ removidos: ['usado.pdf'] });
    expect((await req(`/pedidos/${p.id}/anexos/${usado.body.id}`)).status).toBe(404);
  });

  it("a child's files: under the line of this document only, listed apart from the document's, audited under the document", async () => {
    const p = await novoPedido();
    const outro = await novoPedido();
    const linha = (await (await req(`/pedidos/${p.id}/linhas`, dono, { method: 'POST', json: { descricao: 'Linha' } })).json()) as { id: string };
    const r = await enviar(`/pedidos/${p.id}/linhas/${linha.id}/anexos`, PDF, 'da-linha.pdf', 'application/pdf');
    expect(r.status).toBe(201);
    expect((await enviar(`/pedidos/${p.id}/linhas/${linha.id}/anexos`, PNG, 'tela.png', 'image/png')).body.error?.message).toBe(
      'Tipo de arquivo não aceito: envie PDF.',
    );
    // the line through another document: 404
    expect((await enviar(`/pedidos/${outro.id}/linhas/${linha.id}/anexos`, PDF, 'x.pdf', 'application/pdf')).status).toBe(404);
    expect((await req(`/pedidos/${outro.id}/linhas/${linha.id}/anexos/${r.body.id}`)).status).toBe(404);
    const daLinha = (await (await req(`/pedidos/${p.id}/linhas/${linha.id}/anexos`)).json()) as { items: { nome: string }[] };
    expect(daLinha.items.map((a) => a.nome)).toEqual(['da-linha.pdf']);
    const doPedido = (await (await req(`/pedidos/${p.id}/anexos`)).json()) as { items: unknown[] };
    expect(doPedido.items).toEqual([]);
    expect((await req(`/pedidos/${p.id}/linhas/${linha.id}/anexos/${r.body.id}`)).status).toBe(200);
    const [audit] = await auditoria(p.id, 'anexar_na_linha');
    expect(audit!.depois).toMatchObject({ id: r.body.id, linhaId: linha.id, sha256: sha(PDF) });
    expect((await req(`/pedidos/${p.id}/linhas/${linha.id}/anexos/${r.body.id}`, dono, { method: 'DELETE' })).status).toBe(204);
    expect(await auditoria(p.id, 'excluir_anexo_da_linha')).toHaveLength(1);
  });
});
