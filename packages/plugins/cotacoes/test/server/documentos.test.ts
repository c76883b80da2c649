// The documents of a cotação on a real database (PGlite; PostgreSQL too with TEST_DATABASE_URL): the
// blank quote form (PDF, XLSX), the import of the XLSX a supplier filled (round trip, every bad row
// listed and nothing saved, the file of another cotação or supplier refused, only em coleta), and the
// memória de cálculo read back as a person reads it (PDF text, XLSX sheets); scope and tag.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { formatCpfCnpj } from '@app/br';
import { pdfSafeText } from '@app/server-core';
import { describeEachDatabase } from '@app/server-core/testing';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, expect, it } from 'vitest';
import { type Convite, descreverMetodo, type MapaCotacao } from '../../src/shared/index.js';
import { type Mundo, cliente, dia, plugins, prepararMundo } from './helpers.js';

// exceljs plays the supplier's spreadsheet program: it is @app/server-core's reader, not a dependency
// of this package, so it is loaded from there, typed with the little the tests use
interface Cell {
  value: unknown;
  numFmt?: string;
  protection?: { locked?: boolean };
  row: number | string;
}
interface Row {
  number: number;
  values: unknown;
  getCell(column: number): Cell;
}
interface Worksheet {
  name: string;
  eachRow(callback: (row: Row, number: number) => void): void;
  getRow(number: number): Row;
  getCell(ref: string): Cell;
  getColumn(number: number): { hidden: boolean };
  addRow(values: unknown[]): Row;
}
interface Workbook {
  worksheets: Worksheet[];
  addWorksheet(name: string): Worksheet;
  xlsx: { load(data: unknown): Promise<unknown>; writeBuffer(): Promise<unknown> };
}
const ExcelJS = createRequire(import.meta.resolve('@app/server-core'))('exceljs') as { Workbook: new () => Workbook };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of every page of a PDF, in reading order, spaces collapsed. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) out.push(item.str);
  }
  await pdf.destroy();
  return out.join(' ').replace(/\s+/g, ' ');
}
/** Without any whitespace: a long word (a hash, a sentence across lines) compares whole. */
const compacto = (text: string) => text.replace(/\s+/g, '');

/** A date cell as a spreadsheet program stores a typed day. */
const diaExcel = (iso: string) => new Date(`${iso}T00:00:00Z`);

async function abrir(bytes: Uint8Array) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  return wb;
}

/** The rows of the form: the header ('Nº'), the item rows after it, and the title block's fields. */
function formulario(ws: Worksheet) {
  let header = 0;
  const campos: Record<string, number> = {};
  ws.eachRow((row, n) => {
    const a = String(row.getCell(1).value ?? '');
    if (a === 'Nº' && !header) header = n;
    if (!header) campos[a] = n;
  });
  return { header, item: (i: number) => ws.getRow(header + 1 + i), campo: (label: string) => ws.getCell(`B${campos[label]}`) };
}

describeEachDatabase('@app/cotacoes documentos', { plugins }, (t) => {
  let m: Mundo;
  let api: ReturnType<typeof cliente>;
  const base = (id: string) => `/api/cotacoes/cotacoes/${id}`;
  const baixar = async (path: string, token = m.tokens.comprador) => {
    const res = await t.server.request(path, { token });
    expect(res.status, `${path}: ${res.status}`).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };
  const importar = async (id: string, conviteId: string, bytes: Uint8Array, token = m.tokens.comprador) => {
    const res = await t.server.upload(`${base(id)}/fornecedores/${conviteId}/importar`, token, { content: bytes, filename: 'proposta.xlsx', type: XLSX });
    return { status: res.status, body: (await res.json()) as Convite & { error?: { code: string; message: string; fields?: Record<string, string> } } };
  };
  /** A cotação em coleta of the comprador's centro with these products and the first `n` suppliers invited. */
  const emColeta = async (produtos: string[], n: number, extra: Record<string, unknown> = {}) => {
    const c = await api.criar(produtos, { centroCustoId: m.centros.educacao, prazo: `${dia(10)}T17:30:00-03:00`, ...extra });
    const convites: Convite[] = [];
    for (const f of m.fornecedores.slice(0, n)) convites.push(await api.convidar(c.id, f.id));
    const r = await api.transicao(c.id, 'iniciar');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { id: c.id, convites, numero: `${c.numero}/${c.ano}` };
  };
  /** The blank form of `convite`, filled as a supplier would (`fill` gets the sheet and its rows). */
  const preenchido = async (id: string, conviteId: string, fill: (f: ReturnType<typeof formulario>, ws: Worksheet) => void) => {
    const wb = await abrir(await baixar(`${base(id)}/fornecedores/${conviteId}/formulario.xlsx`));
    const ws = wb.worksheets[0]!;
    fill(formulario(ws), ws);
    return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
  };

  beforeAll(async () => {
    m = await prepararMundo(t, 'doc.');
    api = cliente(t, () => m.tokens.comprador);
  });

  it('the blank form as XLSX: title block, items, locked fixed columns, hidden keys; filled and imported back, audited', async () => {
    const c = await emColeta(m.produtos.slice(0, 3), 2);
    const convite = c.convites[0]!;
    const mapa = await api.mapa(c.id);
    const wb = await abrir(await baixar(`${base(c.id)}/fornecedores/${convite.id}/formulario.xlsx`));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Proposta']);
    const ws = wb.worksheets[0]!;
    const f = formulario(ws);
    const texto = (ref: string) => String(ws.getCell(ref).value ?? '');
    const bloco = Array.from({ length: f.header - 1 }, (_, i) => `${texto(`A${i + 1}`)} ${texto(`B${i + 1}`)}`).join('\n');
    expect(bloco).toContain(`Solicitação de cotação nº ${c.numero}`);
    expect(bloco).toContain(convite.fornecedorNome);
    expect(bloco).toContain(formatCpfCnpj(convite.fornecedorDocumento));
    expect(bloco).toContain(`Prazo para resposta ${dia(10).split('-').reverse().join('/')} 17:30`);
    expect(bloco).toContain('Material de expediente para as escolas');
    expect(bloco).toMatch(/Instruções/);
    expect((ws.getRow(f.header).values as unknown[]).slice(1)).toEqual([
      'Nº',
      'Código',
      'Descrição',
      'Unidade',
      'Quantidade',
      'Preço unitário (R$)',
      'Marca',
      'Chave',
    ]);
    for (const [i, item] of mapa.itens.entries()) {
      const row = f.item(i);
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value, row.getCell(4).value, row.getCell(5).value, row.getCell(8).value]).toEqual([
        i + 1,
        item.codigo,
        item.descricao,
        item.unidade,
        10,
        item.produtoId,
      ]);
      // the supplier types in the price and brand cells only
      expect(row.getCell(6).protection?.locked).toBe(false);
      expect(row.getCell(6).numFmt).toBe('#,##0.00##');
      expect(row.getCell(7).protection?.locked).toBe(false);
      expect(row.getCell(2).protection?.locked).not.toBe(false);
    }
    expect(ws.getColumn(8).hidden).toBe(true);
    expect(f.campo('Validade da proposta').protection?.locked).toBe(false);
    expect(f.campo('Data da proposta').protection?.locked).toBe(false);

    // filled as a supplier does: a number, pt-BR text, an item left blank, dates typed as dates
    const bytes = await preenchido(c.id, convite.id, (g) => {
      g.item(0).getCell(6).value = 10.1234;
      g.item(0).getCell(7).value = 'Acme';
      g.item(1).getCell(6).value = '1.234,5';
      g.campo('Validade da proposta').value = diaExcel(dia(30));
      g.campo('Data da proposta').value = diaExcel(dia(-1));
    });
    const r = await importar(c.id, convite.id, bytes);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: convite.id, situacao: 'respondeu', precos: 2, validade: dia(30) });

    const depois = await api.mapa(c.id);
    const precos = depois.precos.filter((p) => p.fornecedorId === convite.fornecedorId);
    expect(precos.map((p) => [p.produtoId, p.valorUnitario, p.marca, p.validade, p.fonte]).sort()).toEqual(
      [
        [mapa.itens[0]!.produtoId, '10.1234', 'Acme', dia(30), 'fornecedor'],
        [mapa.itens[1]!.produtoId, '1234.5', null, dia(30), 'fornecedor'],
      ].sort(),
    );
    // the day of the proposal in Brasília (00:00 UTC−3)
    expect(precos[0]!.dataColeta).toBe(`${dia(-1)}T03:00:00.000Z`);
    const audit = await t.server.sql<{ acao: string; depois: { arquivo?: string; sha256?: string; precos?: number } }>(
      "SELECT acao, depois FROM audit_log WHERE plugin = 'cotacoes' AND registro = $1 AND acao IN ('resposta_fornecedor', 'importar_resposta') ORDER BY id",
      [c.id],
    );
    expect(audit.map((a) => a.acao)).toEqual(['resposta_fornecedor', 'importar_resposta']);
    expect(audit[1]!.depois).toMatchObject({ arquivo: 'proposta.xlsx', precos: 2 });
    expect(audit[1]!.depois.sha256).toMatch(/^[0-9a-f]{64}$/);

    // a new file replaces the answer (as the answer by hand does)
    const outra = await preenchido(c.id, convite.id, (g) => {
      // a price computed by a formula: the spreadsheet keeps 15 significant digits (10,1 × 1,1 = 11,11)
      g.item(2).getCell(6).value = 10.1 * 1.1;
      g.campo('Data da proposta').value = diaExcel(dia(0));
    });
    expect((await importar(c.id, convite.id, outra)).body).toMatchObject({ precos: 1, validade: null });
    expect((await api.mapa(c.id)).precos.filter((p) => p.fornecedorId === convite.fornecedorId).map((p) => p.valorUnitario)).toEqual(['11.11']);
  });

  it('the invitation e-mail carries the blank form (the same XLSX: filled and imported back) and the deadline; never a value', async () => {
    const desde = Number((await t.server.sql<{ n: string }>('SELECT coalesce(max(id), 0)::text AS n FROM outbox'))[0]!.n);
    const c = await emColeta(m.produtos.slice(0, 2), 2);
    const mails = await t.server.sql<{ id: string; para: string; texto: string }>(
      'SELECT id::text, to_address AS para, body AS texto FROM outbox WHERE id > $1 ORDER BY id',
      [desde],
    );
    const convidados = c.convites.filter((cv) => cv.fornecedorEmail);
    expect(convidados.length).toBeGreaterThan(0);
    expect(mails.map((x) => x.para).sort()).toEqual(convidados.map((cv) => cv.fornecedorEmail).sort());
    const convite = convidados[0]!;
    const mail = mails.find((x) => x.para === convite.fornecedorEmail)!;
    expect(mail.texto).toContain(`Solicitamos proposta de preços para a cotação ${c.numero}: Material de expediente para as escolas.`);
    expect(mail.texto).toContain('São 2 itens, com unidades e quantidades, no formulário em anexo (planilha .xlsx).');
    expect(mail.texto).toContain(`Prazo para a resposta: ${dia(10).split('-').reverse().join('/')} 17:30 (horário de Brasília).`);
    expect(mail.texto).not.toMatch(/assim que possível|R\$/);
    const anexos = await t.server.sql<{ ordem: number; nome: string; tipo: string; tamanho: number; conteudo: Uint8Array }>(
      'SELECT ordem, nome, tipo, tamanho, conteudo FROM outbox_anexos WHERE outbox_id = $1 ORDER BY ordem',
      [mail.id],
    );
    expect(anexos.map(({ conteudo: _c, ...a }) => a)).toEqual([
      {
        ordem: 1,
        nome: expect.stringMatching(new RegExp(`^formulario-cotacao-${c.numero.replace('/', '-')}-[a-z0-9-]+\\.xlsx$`)),
        tipo: XLSX,
        tamanho: anexos[0]!.conteudo.byteLength,
      },
    ]);
    // the attached form is the supplier's own: filled in a spreadsheet program and imported back
    const wb = await abrir(new Uint8Array(anexos[0]!.conteudo));
    const ws = wb.worksheets[0]!;
    const f = formulario(ws);
    expect(String(f.campo('Fornecedor').value)).toBe(convite.fornecedorNome);
    f.item(0).getCell(6).value = 12.5;
    f.item(0).getCell(7).value = 'Marca do anexo';
    f.campo('Validade da proposta').value = diaExcel(dia(30));
    f.campo('Data da proposta').value = diaExcel(dia(0));
    const r = await importar(c.id, convite.id, new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ situacao: 'respondeu', precos: 1 });
  });

  it("'Iniciar coleta' without a deadline: the prazo sent with it is set (ahead of now only), or `semPrazo` is recorded and the e-mail says no deadline was set", async () => {
    const picker = await api.ok<{ items: { id: string; email: string | null }[] }>('GET', '/fornecedores?pageSize=100', undefined, 200);
    const comEmail = picker.items.find((f) => f.email)!.id;
    const semPrazo = async () => {
      const c = await api.criar(m.produtos.slice(0, 1), { centroCustoId: m.centros.educacao });
      const convite = await api.convidar(c.id, comEmail);
      expect(convite.fornecedorEmail).toMatch(/@/);
      return { id: c.id, convite };
    };
    const emailDe = async (para: string | null) =>
      (await t.server.sql<{ texto: string }>('SELECT body AS texto FROM outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1', [para]))[0]?.texto ?? '';

    // starting without one, confirmed: recorded with the transition, and the e-mail says so
    const a = await semPrazo();
    expect((await api.transicao(a.id, 'iniciar', { semPrazo: true })).status).toBe(200);
    const [auditado] = await t.server.sql<{ depois: Record<string, unknown> }>("SELECT depois FROM audit_log WHERE registro = $1 AND acao = 'iniciar'", [a.id]);
    expect(auditado!.depois).toMatchObject({ semPrazo: true, status: 'em_coleta' });
    expect(auditado!.depois.prazo ?? null).toBeNull();
    const texto = await emailDe(a.convite.fornecedorEmail);
    expect(texto).toContain('Não foi definido prazo para a resposta; pedimos que respondam assim que possível.');
    expect(texto).toContain('no formulário em anexo');
    expect(texto).not.toContain('Prazo para a resposta:');

    // the deadline typed in the dialog: a past one is refused on the field, nothing changes
    const b = await semPrazo();
    const passado = await api.transicao(b.id, 'iniciar', { prazo: `${dia(-1)}T12:00:00-03:00` });
    expect(passado.status).toBe(400);
    expect(passado.body.error?.fields).toEqual({ prazo: 'O prazo de resposta deve ser depois de agora.' });
    expect((await api.ok<{ status: string }>('GET', `/cotacoes/${b.id}`, undefined, 200)).status).toBe('rascunho');
    const invalido = await api.transicao(b.id, 'iniciar', { prazo: '31/12/2026' });
    expect(invalido.status).toBe(400);
    expect(invalido.body.error?.fields?.prazo).toMatch(/^Prazo de resposta: /);
    // a deadline ahead: set with the transition (audited in it), carried by the e-mail and the form
    const ok = await api.transicao(b.id, 'iniciar', { prazo: `${dia(5)}T16:00:00-03:00` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: 'em_coleta', prazo: new Date(`${dia(5)}T16:00:00-03:00`).toISOString() });
    const [iniciada] = await t.server.sql<{ antes: Record<string, unknown>; depois: Record<string, unknown> }>(
      "SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = 'iniciar'",
      [b.id],
    );
    expect(iniciada!.antes.prazo ?? null).toBeNull();
    expect(iniciada!.depois.prazo).toBeTruthy();
    expect(iniciada!.depois.semPrazo).toBeUndefined();
    expect(await emailDe(b.convite.fornecedorEmail)).toContain(`Prazo para a resposta: ${dia(5).split('-').reverse().join('/')} 16:00 (horário de Brasília).`);
  });

  it('bad rows (unknown item, negative, text, 5 decimal places, long brand) and a bad date → 400 listing every line, nothing saved', async () => {
    const c = await emColeta(m.produtos.slice(0, 5), 1);
    const convite = c.convites[0]!;
    let linhas: number[] = [];
    let dataLinha = 0;
    const bytes = await preenchido(c.id, convite.id, (g, ws) => {
      g.item(0).getCell(6).value = -5;
      g.item(1).getCell(6).value = 'abc';
      g.item(2).getCell(6).value = 1.23456;
      g.item(3).getCell(6).value = 10;
      g.item(3).getCell(2).value = 'ZZZ999';
      g.item(3).getCell(8).value = '00000000-0000-4000-8000-000000000000';
      g.item(4).getCell(6).value = 3;
      g.item(4).getCell(7).value = 'x'.repeat(201);
      g.campo('Data da proposta').value = '31/02/2026';
      linhas = [0, 1, 2, 3, 4].map((i) => g.item(i).number);
      dataLinha = Number(g.campo('Data da proposta').row);
      expect(ws.name).toBe('Proposta');
    });
    const r = await importar(c.id, convite.id, bytes);
    expect(r.status).toBe(400);
    const fields = r.body.error!.fields!;
    expect(r.body.error!.message).toBe('A planilha tem 6 problemas em 6 linhas: nada foi importado. Corrija e envie de novo.');
    expect(fields[`linha.${linhas[0]}.Preço unitário (R$)`]).toBe('Informe um valor maior que zero.');
    expect(fields[`linha.${linhas[1]}.Preço unitário (R$)`]).toBe('Informe um número, por exemplo 1.234,56.');
    expect(fields[`linha.${linhas[2]}.Preço unitário (R$)`]).toBe('Use no máximo 4 casas decimais.');
    expect(fields[`linha.${linhas[3]}.Código`]).toBe('O item ZZZ999 não pertence a esta cotação.');
    expect(fields[`linha.${linhas[4]}.Marca`]).toBe('Use no máximo 200 caracteres.');
    expect(fields[`linha.${dataLinha}.Data da proposta`]).toBe('Data inválida: use dd/mm/aaaa.');
    // every line of the file with a problem, and only those
    expect(Object.keys(fields).sort()).toEqual(
      [
        'arquivo',
        ...linhas.map((l, i) => `linha.${l}.${['Preço unitário (R$)', 'Preço unitário (R$)', 'Preço unitário (R$)', 'Código', 'Marca'][i]}`),
        `linha.${dataLinha}.Data da proposta`,
      ].sort(),
    );
    // nothing saved, nothing audited
    const mapa = await api.mapa(c.id);
    expect(mapa.precos).toEqual([]);
    expect(mapa.convites[0]!.situacao).toBe('convidado');
    const audit = await t.server.sql("SELECT 1 FROM audit_log WHERE plugin = 'cotacoes' AND registro = $1 AND acao LIKE '%resposta%'", [c.id]);
    expect(audit).toEqual([]);

    // a brand without a price, the same item twice, no date at all
    const again = await preenchido(c.id, convite.id, (g) => {
      g.item(0).getCell(7).value = 'Acme';
      g.item(1).getCell(6).value = 2;
      g.item(2).getCell(6).value = 2;
      g.item(2).getCell(8).value = g.item(1).getCell(8).value;
      g.item(2).getCell(2).value = g.item(1).getCell(2).value;
      linhas = [0, 1, 2].map((i) => g.item(i).number);
    });
    const r2 = await importar(c.id, convite.id, again);
    expect(r2.status).toBe(400);
    expect(r2.body.error!.fields![`linha.${linhas[0]}.Preço unitário (R$)`]).toBe('Informe o preço unitário, ou apague a marca se o item não for cotado.');
    expect(r2.body.error!.fields![`linha.${linhas[2]}.Código`]).toBe(`Item repetido no arquivo (já aparece na linha ${linhas[1]}).`);
    expect(Object.entries(r2.body.error!.fields!).find(([k]) => k.endsWith('.Data da proposta'))?.[1]).toBe('Informe a data da proposta (dd/mm/aaaa).');

    // every price blank
    const vazio = await preenchido(c.id, convite.id, (g) => {
      g.campo('Data da proposta').value = diaExcel(dia(-1));
    });
    const r3 = await importar(c.id, convite.id, vazio);
    expect(r3.status).toBe(400);
    expect(Object.values(r3.body.error!.fields!).join(' ')).toContain('Nenhum preço informado');
    expect((await api.mapa(c.id)).precos).toEqual([]);
  });

  it("refuses another cotação's or another supplier's form, a file that is no form, and answers only em coleta", async () => {
    const produtos = m.produtos.slice(0, 2);
    const a = await emColeta(produtos, 2);
    const b = await emColeta(produtos, 1);
    const valido = (g: ReturnType<typeof formulario>) => {
      g.item(0).getCell(6).value = 5;
      g.campo('Data da proposta').value = diaExcel(dia(-1));
    };
    // the form of cotação B (same products, same supplier) sent to cotação A
    const deB = await preenchido(b.id, b.convites[0]!.id, valido);
    const r = await importar(a.id, a.convites[0]!.id, deB);
    expect(r.status).toBe(400);
    expect(r.body.error!.fields!['linha.1']).toBe(
      `Este arquivo é o formulário de outra cotação (nº ${b.numero}): envie o formulário da cotação nº ${a.numero}.`,
    );
    // the form of A's second supplier sent as the first one's answer
    const doOutro = await preenchido(a.id, a.convites[1]!.id, valido);
    const r2 = await importar(a.id, a.convites[0]!.id, doOutro);
    expect(r2.status).toBe(400);
    expect(r2.body.error!.fields!['linha.1']).toBe(`Este arquivo é o formulário de outro fornecedor: envie o formulário de ${a.convites[0]!.fornecedorNome}.`);
    // a spreadsheet that is not the form
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Plan1').addRow(['Código', 'Preço']);
    const r3 = await importar(a.id, a.convites[0]!.id, new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer));
    expect(r3.status).toBe(400);
    expect(r3.body.error!.message).toMatch(/não é o formulário de cotação/);
    expect((await api.mapa(a.id)).precos).toEqual([]);

    // only em coleta: a rascunho, then a cancelled cotação → 409 (before the file is even read)
    const rascunho = await api.criar(produtos, { centroCustoId: m.centros.educacao });
    const convite = await api.convidar(rascunho.id, m.fornecedores[0]!.id);
    const form = await preenchido(rascunho.id, convite.id, valido);
    const r4 = await importar(rascunho.id, convite.id, form);
    expect([r4.status, r4.body.error!.message]).toEqual([
      409,
      'As respostas dos fornecedores são registradas com a cotação em coleta: inicie a coleta primeiro.',
    ]);
    expect((await api.transicao(a.id, 'cancelar', { motivo: 'Demanda suspensa pela secretaria.' })).status).toBe(200);
    const doA = await preenchido(a.id, a.convites[0]!.id, valido);
    const r5 = await importar(a.id, a.convites[0]!.id, doA);
    expect([r5.status, r5.body.error!.code]).toEqual([409, 'locked']);
  });

  it('the blank form as PDF: entidade, cotação, supplier with its CNPJ, deadline, items and the blank columns', async () => {
    const c = await emColeta(m.produtos.slice(0, 2), 1);
    const convite = c.convites[0]!;
    const mapa = await api.mapa(c.id);
    const res = await t.server.request(`${base(c.id)}/fornecedores/${convite.id}/formulario.pdf`, { token: m.tokens.comprador });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const expected of [
      `Solicitação de cotação nº ${c.numero}`,
      convite.fornecedorNome,
      formatCpfCnpj(convite.fornecedorDocumento),
      `${dia(10).split('-').reverse().join('/')} 17:30`,
      'Preço unitário (R$)',
      'Marca',
      'Validade da proposta',
      'Data da proposta',
      ...mapa.itens.map((i) => i.codigo),
    ]) {
      expect(text).toContain(expected);
    }
    expect(compacto(text)).toContain(compacto(mapa.itens[0]!.descricao));
    // its verification code (issue 18): the public route knows the form, unchanged since
    const codigo = /Código de verificação: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/.exec(text)![1]!;
    const v = await t.server.request(`/api/verificar/${codigo}`);
    expect(v.status).toBe(200);
    expect(await v.json()).toMatchObject({ codigo, documento: 'Solicitação de cotação', alterado: false });
  });

  it('the memória de cálculo (PDF and XLSX): the method, every price and why it was left out, who did not answer, the justification, the total', async () => {
    const [p1, p2] = m.produtos as [string, string];
    const c = await emColeta([p1, p2], 4, { metodo: 'media_saneada', iterar: false });
    const [f0, f1, f2, f3] = c.convites as [Convite, Convite, Convite, Convite];
    // the worked example of domain.md: 50, 130, 162, 164, 170, 200, 500 → média saneada 165,20
    await api.responder(c.id, f0.id, [
      { produtoId: p1, valorUnitario: '162' },
      { produtoId: p2, valorUnitario: '10' },
    ]);
    await api.responder(c.id, f1.id, [
      { produtoId: p1, valorUnitario: '164' },
      { produtoId: p2, valorUnitario: '12' },
    ]);
    await api.responder(c.id, f2.id, [{ produtoId: p1, valorUnitario: '170' }]);
    await api.ok('POST', `/cotacoes/${c.id}/fornecedores/${f3.id}/nao-respondeu`, { motivo: 'Não atendeu às ligações nem ao e-mail.' }, 200);
    const evid = await t.server.upload(`${base(c.id)}/evidencias`, m.tokens.comprador, {
      content: new TextEncoder().encode('%PDF-1.4\n% captura da página da loja\n'),
      filename: 'loja-captura.pdf',
      type: 'application/pdf',
    });
    expect(evid.status).toBe(201);
    const evidencia = (await evid.json()) as { id: string; sha256: string };
    await api.preco(c.id, { produtoId: p1, fonte: 'painel', fonteDescricao: 'Painel de Preços do Governo Federal', valorUnitario: '50' });
    await api.preco(c.id, { produtoId: p1, fonte: 'contrato', fonteDescricao: 'Contrato 12/2025 da Prefeitura de Lorena', valorUnitario: '130' });
    await api.preco(c.id, {
      produtoId: p1,
      fonte: 'midia',
      fonteDescricao: 'Loja Virtual Papelaria',
      valorUnitario: '200',
      link: 'https://loja.example/caneta-azul',
      evidenciaId: evidencia.id,
    });
    await api.preco(c.id, { produtoId: p1, fonte: 'nota_fiscal', fonteDescricao: 'NF-e 4521 da Prefeitura de Taubaté', valorUnitario: '500' });
    const kit = await api.preco(c.id, { produtoId: p1, fonte: 'painel', fonteDescricao: 'Painel de Preços (kit)', valorUnitario: '999' });
    await api.ok('POST', `/cotacoes/${c.id}/precos/${kit.id}/excluir`, { motivo: 'Preço de kit com instalação, não comparável.' }, 200);
    await api.ok('PUT', `/cotacoes/${c.id}/justificativa`, { texto: 'Item de fornecimento restrito na região: só dois fornecedores responderam.' }, 200);
    await api.ok('POST', `/cotacoes/${c.id}/justificativa/aprovar`, {}, 200, m.tokens.autoridade);
    const mapa: MapaCotacao = await api.mapa(c.id);
    expect(mapa.avaliacao.itens.map((i) => i.valorEstimado)).toEqual(['165.20', '11.00']);
    expect(mapa.avaliacao.valorEstimadoTotal).toBe('1762.00');

    const res = await t.server.request(`${base(c.id)}/memoria.pdf`, { token: m.tokens.comprador });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    const plain = compacto(text);
    // the method in force, with its rule
    expect(text).toContain('Média saneada (uma aplicação)');
    // (the standard PDF fonts print '≤' as '<=')
    expect(plain).toContain(compacto(pdfSafeText(descreverMetodo('media_saneada', false))));
    // every price, the excluded ones with their reasons: typed and automatic
    for (const valor of ['50,00', '130,00', '162,00', '164,00', '170,00', '200,00', '500,00', '999,00']) expect(text).toContain(` ${valor} `);
    expect(plain).toContain(compacto('Excluído (decisão): Motivo informado: Preço de kit com instalação, não comparável.'));
    expect(text.match(/Descartado pelo método \(automático\)/g)).toHaveLength(2);
    expect(plain).toContain(compacto('Contrato 12/2025 da Prefeitura de Lorena'));
    expect(plain).toContain(compacto('https://loja.example/caneta-azul'));
    expect(plain).toContain(compacto(`loja-captura.pdf (SHA-256 ${evidencia.sha256})`));
    // the statistics (n, média, mediana, menor, maior, desvio-padrão, CV), the estimate and its total, the criterion
    expect(plain).toContain(compacto('7 de 8 196,57 164,00 50,00 500,00 141,98 72,2% 165,20 1.652,00'));
    expect(plain).toContain(compacto('Preço estimado (Média saneada): R$ 165,20 × 10'));
    expect(plain).toContain(compacto('CV dos restantes 15,1%'));
    // the rounds of the média saneada (issue 18): the 1st round started with 7 prices, dropped nº 1 and nº 7
    expect(plain).toContain(compacto('Rodadas da média saneada'));
    expect(plain).toContain(compacto('1ª 7 196,57 141,98 72,2% 54,59 a 338,56 nº 1 (50,00), nº 7 (500,00) 5'));
    expect(plain).toContain(
      compacto('Depois da 1ª rodada: 5 preços, média R$ 165,20, desvio-padrão R$ 24,92, CV 15,1%; regra aplicada uma vez (sem iteração).'),
    );
    // the suppliers: who was invited, who did not answer (and why)
    expect(plain).toContain(compacto(`Não responderam: ${f3.fornecedorNome} (Não atendeu às ligações nem ao e-mail.)`));
    for (const f of [f0, f1, f2]) expect(plain).toContain(compacto(f.fornecedorNome));
    // fewer than three prices: the justification and who approved it
    expect(plain).toContain(compacto('Item de fornecimento restrito na região: só dois fornecedores responderam.'));
    expect(plain).toContain(compacto('Aprovada pela autoridade competente: Augusto Autoridade'));
    // the estimated total, the reference date, who generated it
    expect(plain).toContain(compacto('Valor estimado total R$ 1.762,00'));
    expect(text).toContain(dia().split('-').reverse().join('/'));
    expect(text).toContain('Carla Compradora em');
    // its verification code (issue 18): unchanged now, 'alterado' after a new price
    const codigo = /Código de verificação: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/.exec(text)![1]!;
    const verificar = async () => (await (await t.server.request(`/api/verificar/${codigo}`)).json()) as { documento: string; alterado: boolean | null };
    expect(await verificar()).toMatchObject({ documento: 'Memória de cálculo da cotação', alterado: false });

    // the same as XLSX: Resumo, Preços, Fornecedores and (média saneada) Rodadas
    const wb = await abrir(await baixar(`${base(c.id)}/memoria.xlsx`));
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Resumo', 'Preços', 'Fornecedores', 'Rodadas']);
    const [resumo, precos, fornecedores, rodadas] = wb.worksheets as [Worksheet, Worksheet, Worksheet, Worksheet];
    const linhas = (ws: Worksheet) => {
      const out: unknown[][] = [];
      ws.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return out;
    };
    const r = linhas(resumo);
    expect(r.find((l) => l[0] === 'Valor estimado total')?.[1]).toBe(1762);
    expect(r.find((l) => l[0] === 'Método de cálculo')?.[1]).toBe('Média saneada (uma aplicação)');
    const header = r.findIndex((l) => l[0] === 'Nº');
    expect(r[header + 1]).toEqual(expect.arrayContaining([1, 8, 7, 196.57, 164, 50, 500, 72.2, 5, 165.2, 1652]));
    const p = linhas(precos);
    expect(p).toHaveLength(1 + 8 + 2);
    const kitRow = p.find((l) => l[5] === 'Painel de Preços (kit)')!;
    expect(kitRow.slice(13)).toEqual([999, 'Excluído (decisão)', 'Motivo informado: Preço de kit com instalação, não comparável.']);
    expect(p.find((l) => l[5] === 'Loja Virtual Papelaria')?.slice(9, 12)).toEqual(['https://loja.example/caneta-azul', 'loja-captura.pdf', evidencia.sha256]);
    expect(p.filter((l) => l[14] === 'Descartado pelo método (automático)').map((l) => l[13])).toEqual([50, 500]);
    const rr = linhas(rodadas);
    expect(rr).toHaveLength(1 + 1); // the header and item 1's single round (item 2 dropped nothing)
    expect(rr[1]!.slice(3, 12)).toEqual([1, 7, 196.57, 141.98, 72.2, 54.59, 338.56, 'nº 1 (50,00), nº 7 (500,00)', 5]);
    const f = linhas(fornecedores);
    expect(f.slice(1).map((l) => [l[0], l[5], l[6] ?? null])).toEqual(
      expect.arrayContaining([
        [f3.fornecedorNome, 'Não respondeu', 'Não atendeu às ligações nem ao e-mail.'],
        [f0.fornecedorNome, 'Respondeu', null],
      ]),
    );
    await api.preco(c.id, { produtoId: p2, fonte: 'painel', fonteDescricao: 'Painel de Preços do Governo Federal', valorUnitario: '11.5' });
    expect(await verificar()).toMatchObject({ alterado: true });
  });

  it('scope and tag: 404 for another entidade or another centro, 403 without tag 73', async () => {
    const c = await emColeta(m.produtos.slice(0, 1), 1);
    const conviteId = c.convites[0]!.id;
    const gets = [
      `${base(c.id)}/fornecedores/${conviteId}/formulario.pdf`,
      `${base(c.id)}/fornecedores/${conviteId}/formulario.xlsx`,
      `${base(c.id)}/memoria.pdf`,
      `${base(c.id)}/memoria.xlsx`,
    ];
    const form = await preenchido(c.id, conviteId, (g) => {
      g.item(0).getCell(6).value = 5;
      g.campo('Data da proposta').value = diaExcel(dia(-1));
    });
    for (const [token, status] of [
      [m.tokens.camara, 404],
      [m.tokens.outroCentro, 404],
      [m.tokens.semTag, 403],
    ] as const) {
      for (const path of gets) expect((await t.server.request(path, { token })).status, `${path} ${status}`).toBe(status);
      expect((await importar(c.id, conviteId, form, token)).status).toBe(status);
    }
    // an invitation of another cotação, a malformed id
    const outra = await emColeta(m.produtos.slice(0, 1), 1);
    expect((await t.server.request(`${base(c.id)}/fornecedores/${outra.convites[0]!.id}/formulario.xlsx`, { token: m.tokens.comprador })).status).toBe(404);
    expect((await t.server.request(`${base('nao-e-um-id')}/memoria.pdf`, { token: m.tokens.comprador })).status).toBe(404);
    expect((await importar(c.id, outra.convites[0]!.id, form)).status).toBe(404);
    expect((await api.mapa(c.id)).precos).toEqual([]);
  });
});
