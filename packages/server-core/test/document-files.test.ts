// Files of a document declared once (kit/documents/files.ts), through the API of a test plugin
// (fixtures/files-plugin.ts), on PGlite and PostgreSQL: the kit's file names and headers, the entidade
// and the number printed, 404 outside the entidade, the centro de custo or the document (a child of
// another document too), 403 without the tag, the per-person limit shared by every file of a format
// (429), the verification code of every PDF (the child's too) and the OpenAPI paths a client can call.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, expect, it } from 'vitest';
import { DOCUMENTS_PER_PERSON, documentJobStats } from '../src/formats/document-jobs.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { FILES_TAG, filesPlugin, holdFiles } from './fixtures/files-plugin.js';

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    for (const item of (await (await pdf.getPage(n)).getTextContent()).items) if ('str' in item) out.push(item.str);
  }
  await pdf.destroy();
  return out.join(' ').replace(/\s+/g, ' ');
}

async function sheets(bytes: ArrayBuffer): Promise<Record<string, unknown[][]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  return Object.fromEntries(
    wb.worksheets.map((ws) => {
      const rows: unknown[][] = [];
      ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return [ws.name, rows];
    }),
  );
}

const codeOf = (text: string) => /Código de verificação: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/.exec(text)?.[1];

/** Waits (polling, no timed assertion) until `condition()` holds. */
async function until(condition: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!condition()) {
    if (Date.now() - t0 > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describeEachDatabase('files of a document', { plugins: [filesPlugin] }, (t) => {
  const centroA = randomUUID();
  const centroB = randomUUID();
  let ana: { id: string; token: string }; // centro A
  let bia: { id: string; token: string }; // centro A
  let outro: string; // centro B
  let camara: string; // admin of the Câmara
  let semTag: string;
  let pedido: { id: string; numero: number; ano: number; version: number };
  let convidado: string;

  const req = (path: string, token: string, init: { method?: string; json?: unknown } = {}) => t.server.request(`/api/arqs${path}`, { token, ...init });

  const novoPedido = async (token: string, assunto: string) => {
    const res = await req('/pedidos', token, { json: { centroCustoId: centroA, assunto } });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string; numero: number; ano: number; version: number };
  };
  const convidar = async (pedidoId: string, nome: string) => {
    const { prefeitura } = await t.server.demoEntidades();
    return t.server.insert('fl_convidados', { entidade_id: prefeitura, pedido_id: pedidoId, nome });
  };

  beforeAll(async () => {
    const { camara: camaraId } = await t.server.demoEntidades();
    ana = await t.server.createUser({ login: 'ana.arq', nome: 'Ana Arquivista', tags: [FILES_TAG], centros: [centroA] });
    bia = await t.server.createUser({ login: 'bia.arq', tags: [FILES_TAG], centros: [centroA] });
    outro = (await t.server.createUser({ login: 'outro.arq', tags: [FILES_TAG], centros: [centroB] })).token;
    semTag = (await t.server.createUser({ login: 'semtag.arq', tags: [], centros: [centroA] })).token;
    camara = (await t.server.signIn(DEMO.admin.login, DEMO.senha, camaraId)).token;
    pedido = await novoPedido(ana.token, 'Material de expediente');
    convidado = await convidar(pedido.id, 'Comércio São José Ltda.');
    await convidar(pedido.id, 'Papelaria Andrade');
  });

  it('names every file after the document and its number, with the kit headers and the entidade printed', async () => {
    const { numero, ano, id } = pedido;
    const cases = [
      { path: `/pedidos/${id}.pdf`, type: 'application/pdf', disposition: `inline; filename="pedido-${numero}-${ano}.pdf"` },
      { path: `/pedidos/${id}/resumo.pdf`, type: 'application/pdf', disposition: `inline; filename="resumo-do-pedido-${numero}-${ano}.pdf"` },
      {
        path: `/pedidos/${id}/convidados/${convidado}/carta.pdf`,
        type: 'application/pdf',
        disposition: `inline; filename="carta-${numero}-${ano}-comercio-sao-jose-ltda.pdf"`,
      },
      {
        path: `/pedidos/${id}.xlsx`,
        type: XLSX,
        disposition: `attachment; filename="pedido-${numero}-${ano}.xlsx"; filename*=UTF-8''pedido-${numero}-${ano}.xlsx`,
      },
      {
        path: `/pedidos/${id}/resumo.xlsx`,
        type: XLSX,
        disposition: `attachment; filename="resumo-do-pedido-${numero}-${ano}.xlsx"; filename*=UTF-8''resumo-do-pedido-${numero}-${ano}.xlsx`,
      },
      {
        path: `/pedidos/${id}/convidados/${convidado}/carta.xlsx`,
        type: XLSX,
        disposition: `attachment; filename="carta-${numero}-${ano}-comercio-sao-jose-ltda.xlsx"; filename*=UTF-8''carta-${numero}-${ano}-comercio-sao-jose-ltda.xlsx`,
      },
    ];
    const answers: Record<string, Response> = {};
    for (const c of cases) {
      const res = await req(c.path, ana.token);
      expect(res.status, c.path).toBe(200);
      expect(
        [res.headers.get('content-type'), res.headers.get('content-disposition'), res.headers.get('cache-control'), res.headers.get('x-content-type-options')],
        c.path,
      ).toEqual([c.type, c.disposition, 'no-store', 'nosniff']);
      answers[c.path] = res;
    }
    // the main PDF: the entidade, the document's name, number and state (the kit's), the plugin's content
    const ficha = await pdfText(new Uint8Array(await answers[`/pedidos/${id}.pdf`]!.arrayBuffer()));
    for (const expected of [DEMO.prefeitura.nome, 'Pedido', `${numero}/${ano}`, 'Rascunho', 'Material de expediente']) expect(ficha).toContain(expected);
    // another file: its title, the number, the loaded data and who issued it; no state unless it prints one
    const resumo = await pdfText(new Uint8Array(await answers[`/pedidos/${id}/resumo.pdf`]!.arrayBuffer()));
    for (const expected of [DEMO.prefeitura.nome, 'Resumo do pedido', `${numero}/${ano}`, 'Comércio São José Ltda., Papelaria Andrade', 'Ana Arquivista']) {
      expect(resumo).toContain(expected);
    }
    expect(resumo).not.toContain('Rascunho');
    const carta = await pdfText(new Uint8Array(await answers[`/pedidos/${id}/convidados/${convidado}/carta.pdf`]!.arrayBuffer()));
    expect(carta).toContain('Carta-convite');
    expect(carta).toContain('Comércio São José Ltda.');
    expect(carta).not.toContain('Papelaria Andrade');
    // the workbooks, written by the worker
    expect(await sheets(await answers[`/pedidos/${id}.xlsx`]!.arrayBuffer())).toMatchObject({
      Pedido: [[`Pedido nº ${numero}/${ano}`], ['Entidade', DEMO.prefeitura.nome], ['Assunto'], ['Material de expediente']],
    });
    expect(await sheets(await answers[`/pedidos/${id}/resumo.xlsx`]!.arrayBuffer())).toEqual({
      Resumo: [['Assunto'], ['Material de expediente']],
      Convidados: [['Nome'], ['Comércio São José Ltda.'], ['Papelaria Andrade']],
    });
    expect((await sheets(await answers[`/pedidos/${id}/convidados/${convidado}/carta.xlsx`]!.arrayBuffer())).Carta).toEqual([
      ['Entidade', DEMO.prefeitura.nome],
      ['Convidado'],
      ['Comércio São José Ltda.'],
    ]);
  });

  it('answers 404 outside the entidade, the centro de custo or the document, and 403 without the tag', async () => {
    const { id } = pedido;
    const outroPedido = await novoPedido(bia.token, 'Outro pedido');
    const convidadoDeOutro = await convidar(outroPedido.id, 'Convidado de outro pedido');
    const files = [
      `/pedidos/${id}.pdf`,
      `/pedidos/${id}.xlsx`,
      `/pedidos/${id}/resumo.pdf`,
      `/pedidos/${id}/resumo.xlsx`,
      `/pedidos/${id}/convidados/${convidado}/carta.pdf`,
      `/pedidos/${id}/convidados/${convidado}/carta.xlsx`,
    ];
    for (const [token, status] of [
      [outro, 404],
      [camara, 404],
      [semTag, 403],
    ] as const) {
      for (const path of files) expect((await req(path, token)).status, `${path} ${status}`).toBe(status);
    }
    for (const path of [
      `/pedidos/${randomUUID()}.pdf`,
      '/pedidos/nao-e-id.pdf',
      '/pedidos/nao-e-id.xlsx',
      `/pedidos/${randomUUID()}/resumo.pdf`,
      '/pedidos/nao-e-id/resumo.xlsx',
      `/pedidos/${id}/convidados/${convidadoDeOutro}/carta.pdf`,
      `/pedidos/${id}/convidados/${randomUUID()}/carta.xlsx`,
      `/pedidos/${id}/convidados/nao-e-id/carta.pdf`,
    ]) {
      const res = await req(path, ana.token);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('counts every file of a format against one limit per person: 429 beyond it, the other format and other people go on', { timeout: 60_000 }, async () => {
    expect(DOCUMENTS_PER_PERSON).toBe(2);
    const { id } = pedido;
    let open!: () => void;
    holdFiles(new Promise<void>((resolve) => (open = resolve)));
    try {
      // two different PDFs of Ana in the making (the loads wait)
      const held = [req(`/pedidos/${id}/resumo.pdf`, ana.token), req(`/pedidos/${id}/convidados/${convidado}/carta.pdf`, ana.token)];
      await until(() => documentJobStats().inProgress[`pdf:${ana.id}`] === 2, "Ana's two PDFs in the making");
      // a third PDF of Ana, whichever file: 429 in pt-BR with Retry-After, before anything is loaded
      for (const path of [`/pedidos/${id}.pdf`, `/pedidos/${id}/resumo.pdf`]) {
        const refused = await req(path, ana.token);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('5');
        expect(((await refused.json()) as { error: { code: string; message: string } }).error).toEqual({
          code: 'documentos_por_pessoa',
          message: 'Você já tem 2 PDFs sendo gerados: aguarde terminarem para pedir outro.',
        });
      }
      // her workbook (another format) and Bia's PDF are taken (they wait for a loading turn, held by the two loads)
      const others = [req(`/pedidos/${id}.xlsx`, ana.token), req(`/pedidos/${id}.pdf`, bia.token)];
      await until(() => documentJobStats().inProgress[`xlsx:${ana.id}`] === 1 && documentJobStats().inProgress[`pdf:${bia.id}`] === 1, 'the others taken');
      open();
      for (const res of await Promise.all([...held, ...others])) expect(res.status).toBe(200);
    } finally {
      holdFiles(undefined);
      open?.();
    }
    expect(documentJobStats().inProgress[`pdf:${ana.id}`]).toBeUndefined();
    expect((await req(`/pedidos/${id}.pdf`, ana.token)).status).toBe(200);
  });

  it('prints a verification code on every PDF, recorded under the file kind, and checks it against the content today', async () => {
    const p = await novoPedido(ana.token, 'Pedido verificado');
    const c = await convidar(p.id, 'Fornecedor Verificado');
    const codes: Record<string, string> = {};
    for (const [key, path] of [
      ['ficha', `/pedidos/${p.id}.pdf`],
      ['resumo', `/pedidos/${p.id}/resumo.pdf`],
      ['carta', `/pedidos/${p.id}/convidados/${c}/carta.pdf`],
    ] as const) {
      const code = codeOf(await pdfText(new Uint8Array(await (await req(path, ana.token)).arrayBuffer())));
      expect(code, path).toBeDefined();
      codes[key] = code!;
    }
    const recorded = await t.server.sql<{ tipo: string; documento_id: string; titulo: string; numero: string; status: string | null }>(
      'SELECT tipo, documento_id, titulo, numero, status FROM documento_verificacoes WHERE codigo = ANY($1) ORDER BY tipo',
      [Object.values(codes).map((code) => code.replaceAll('-', ''))],
    );
    const numero = `${p.numero}/${p.ano}`;
    expect(recorded).toEqual([
      { tipo: 'arqs/carta', documento_id: c, titulo: 'Carta-convite', numero, status: null },
      { tipo: 'arqs/pedidos', documento_id: p.id, titulo: 'Pedido', numero, status: 'Rascunho' },
      { tipo: 'arqs/resumo', documento_id: p.id, titulo: 'Resumo do pedido', numero, status: null },
    ]);
    const verificar = async (code: string) =>
      (await (await t.server.request(`/api/verificar/${code}`)).json()) as { documento: string; alterado: boolean | null };
    // unchanged: the reader makes the same content again (the resumo prints who issued it: the issue's)
    expect(await verificar(codes.ficha!)).toMatchObject({ documento: 'Pedido', alterado: false });
    expect(await verificar(codes.resumo!)).toMatchObject({ documento: 'Resumo do pedido', alterado: false });
    expect(await verificar(codes.carta!)).toMatchObject({ documento: 'Carta-convite', alterado: false });
    // a new invited person changes the resumo only; a new subject changes all three
    await convidar(p.id, 'Mais um convidado');
    expect([(await verificar(codes.ficha!)).alterado, (await verificar(codes.resumo!)).alterado, (await verificar(codes.carta!)).alterado]).toEqual([
      false,
      true,
      false,
    ]);
    expect(
      (await req(`/pedidos/${p.id}`, ana.token, { method: 'PUT', json: { centroCustoId: centroA, assunto: 'Assunto mudado', version: p.version } })).status,
    ).toBe(200);
    expect([(await verificar(codes.ficha!)).alterado, (await verificar(codes.carta!)).alterado]).toEqual([true, true]);
    // the invited person removed: 'excluído depois desta emissão'
    await t.server.sql('DELETE FROM fl_convidados WHERE id = $1', [c]);
    expect(await verificar(codes.carta!)).toMatchObject({ alterado: true, situacao: 'O documento foi excluído depois desta emissão.' });
  });

  it('publishes each file at a path a client can call: binary content, its parameters, an operationId from the kit', async () => {
    const doc = (await (await t.server.request('/api/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { operationId?: string; parameters?: { name: string; in: string }[]; responses: Record<string, { content?: unknown }> }>
      >;
    };
    const files = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/arqs/pedidos') && /\.(pdf|xlsx)$/.test(path) && path !== '/api/arqs/pedidos.xlsx')
      .map(([path, methods]) => [path, methods.get?.operationId]);
    expect(Object.fromEntries(files)).toEqual({
      '/api/arqs/pedidos/{id}.pdf': 'arqs.pedidos.pdf',
      '/api/arqs/pedidos/{id}.xlsx': 'arqs.pedidos.xlsx',
      '/api/arqs/pedidos/{id}/resumo.pdf': 'arqs.pedidos.getResumoPdf',
      '/api/arqs/pedidos/{id}/resumo.xlsx': 'arqs.pedidos.getResumoXlsx',
      '/api/arqs/pedidos/{id}/convidados/{convidadoId}/carta.pdf': 'arqs.pedidos.getConvidadosCartaPdf',
      '/api/arqs/pedidos/{id}/convidados/{convidadoId}/carta.xlsx': 'arqs.pedidos.getConvidadosCartaXlsx',
    });
    // no Hono regex left in a published path
    expect(Object.keys(doc.paths).filter((path) => path.includes('{id{'))).toEqual([]);
    const carta = doc.paths['/api/arqs/pedidos/{id}/convidados/{convidadoId}/carta.xlsx']!.get!;
    expect(carta.parameters?.map((p) => [p.in, p.name])).toEqual([
      ['path', 'id'],
      ['path', 'convidadoId'],
    ]);
    expect(carta.responses['200']!.content).toEqual({ [XLSX]: { schema: { type: 'string', format: 'binary' } } });
    expect(doc.paths['/api/arqs/pedidos/{id}/resumo.pdf']!.get!.responses['200']!.content).toEqual({
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(doc.paths['/api/arqs/pedidos/{id}.pdf']!.get!.responses)).toEqual(expect.arrayContaining(['200', '404', '429']));
    // every published path, filled in as a client would, answers the file
    for (const [path] of files) {
      const url = path!.replace('{id}', pedido.id).replace('{convidadoId}', convidado);
      const res = await t.server.request(url, { token: ana.token });
      expect(res.status, url).toBe(200);
    }
  });
});
