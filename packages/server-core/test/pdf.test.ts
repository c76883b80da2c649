// The printable-document PDF: rendered, then read back with pdf.js (text and positions), the way a
// person would read it: entidade and CNPJ on every page, accents intact, every item, the header row
// on every page, numbers right-aligned, 'Página n de N', the footer's date in Brasília time, and no
// text beyond the page however hostile the input.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { type PdfBlock, type PdfDocument, pdfSafeText, renderDocumentPdf } from '../src/formats/pdf.js';

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

interface TextRun {
  str: string;
  x: number;
  y: number;
  width: number;
}
interface PdfPage {
  width: number;
  height: number;
  runs: TextRun[];
  /** Visual lines, spaces collapsed. */
  lines: string[];
  text: string;
  /** The text between the running header and the footer, without whitespace. */
  body: string;
}

async function readPdf(bytes: Uint8Array): Promise<PdfPage[]> {
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const pages: PdfPage[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const [, , width, height] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const runs: TextRun[] = [];
    let line = '';
    const lines: string[] = [];
    for (const item of content.items) {
      if (!('str' in item)) continue;
      runs.push({ str: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width });
      line += item.str;
      if (item.hasEOL) {
        lines.push(line.replace(/\s+/g, ' ').trim());
        line = '';
      }
    }
    if (line.trim()) lines.push(line.replace(/\s+/g, ' ').trim());
    // The header ends 80 pt below the top edge, the footer starts 56 pt above the bottom one.
    const body = runs
      .filter((r) => r.y > 56 && r.y < height - 80)
      .map((r) => r.str)
      .join('')
      .replace(/\s+/g, '');
    pages.push({ width, height, runs, lines, text: lines.join('\n'), body });
  }
  await pdf.destroy();
  return pages;
}

/** Every run of text inside the page's side margins (40 pt each, 1 pt of slack). */
function expectInsideMargins(pages: PdfPage[]) {
  for (const [i, page] of pages.entries()) {
    for (const run of page.runs) {
      if (!run.str.trim()) continue;
      expect(run.x, `página ${i + 1}: '${run.str.slice(0, 40)}'`).toBeGreaterThanOrEqual(39);
      expect(run.x + run.width, `página ${i + 1}: '${run.str.slice(0, 40)}'`).toBeLessThanOrEqual(page.width - 39);
    }
  }
}

const ENTIDADE = { nome: 'Prefeitura Municipal de São José dos Campos', cnpj: '11222333000181' };
// 12:07 UTC is 09:07 in Brasília.
const GENERATED_AT = new Date('2026-03-05T12:07:00Z');

function memorando(overrides: Partial<PdfDocument> = {}): PdfDocument {
  return {
    entidade: ENTIDADE,
    title: 'Memorando',
    numero: '12/2026',
    status: 'Enviado',
    fields: [
      { label: 'Data', value: '05/03/2026' },
      { label: 'Prioridade', value: 'Alta' },
      { label: 'Origem', value: 'Secretaria de Educação' },
      { label: 'Destino', value: 'Departamento de Compras e Licitações' },
      { label: 'Solicitante', value: 'Maria da Conceição Araújo' },
      { label: 'Assunto', value: 'Aquisição de material de expediente – 2º semestre, 1ª via' },
    ],
    items: {
      columns: [
        { header: 'Nº', align: 'right' },
        { header: 'Descrição' },
        { header: 'Unid.', align: 'center' },
        { header: 'Qtde.', align: 'right' },
        { header: 'Valor unitário', align: 'right' },
        { header: 'Valor total', align: 'right' },
      ],
      rows: [
        ['1', 'Papel sulfite A4, 75 g/m², caixa com 10 resmas', 'cx', '1', 'R$ 1.234,56', 'R$ 1.234,56'],
        ['2', 'Caneta esferográfica azul, corpo transparente, ponta média 1,0 mm, tinta à base de óleo', 'un', '100', 'R$ 1,50', 'R$ 150,00'],
      ],
      total: { label: 'Total geral', value: 'R$ 1.384,56' },
    },
    sections: [
      {
        title: 'Justificativa da necessidade',
        text: 'Reposição do estoque das escolas municipais para o início do ano letivo, conforme o plano de contratações anual; a ausência do material compromete as atividades pedagógicas.',
      },
    ],
    signatures: [
      { name: 'Maria da Conceição Araújo', role: 'Secretária Municipal de Educação' },
      { name: 'João Sebastião Gonçalves', role: 'Diretor de Compras' },
    ],
    generatedAt: GENERATED_AT,
    ...overrides,
  };
}

describe('renderDocumentPdf', () => {
  it('prints a memorando with the entidade, facts, items, total, sections, signatures and footer, accents intact', async () => {
    const pages = await readPdf(await renderDocumentPdf(memorando()));
    expect(pages).toHaveLength(1);
    const [page] = pages as [PdfPage];
    // A4 portrait.
    expect(Math.round(page.width)).toBe(595);
    expect(Math.round(page.height)).toBe(842);
    // Lines joined with spaces: a long value may wrap inside its cell.
    const text = page.lines.join(' ');
    for (const expected of [
      'Prefeitura Municipal de São José dos Campos',
      'CNPJ 11.222.333/0001-81',
      'Memorando nº 12/2026',
      'Enviado',
      'Secretaria de Educação',
      'Departamento de Compras e Licitações',
      'Aquisição de material de expediente – 2º semestre, 1ª via',
      'Justificativa da necessidade',
      'Reposição do estoque das escolas municipais',
      'Maria da Conceição Araújo',
      'Secretária Municipal de Educação',
      'João Sebastião Gonçalves',
      'Gerado em 05/03/2026 às 09:07',
      'Página 1 de 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(page.lines).toContain('Nº Descrição Unid. Qtde. Valor unitário Valor total');
    expect(page.lines).toContain('1 Papel sulfite A4, 75 g/m², caixa com 10 resmas cx 1 R$ 1.234,56 R$ 1.234,56');
    // A long description wraps inside its cell; the numbers beside it stay on one line each.
    expect(text).toContain('2 Caneta esferográfica azul, corpo transparente, ponta média 1,0 mm, tinta à base de óleo un 100 R$ 1,50 R$ 150,00');
    for (const oneRun of ['Valor unitário', 'Valor total', 'R$ 1.234,56', 'R$ 1.384,56']) {
      expect(page.runs.map((r) => r.str)).toContain(oneRun);
    }
    expect(page.lines).toContain('Total geral R$ 1.384,56');
    // The header facts come in pairs, side by side: 'Data' and 'Prioridade' on one line, the second
    // in the right half; 'Origem' on the next row, under 'Data'.
    const run = (str: string) => page.runs.find((r) => r.str === str)!;
    expect(run('Prioridade').y).toBeCloseTo(run('Data').y, 1);
    expect(run('Prioridade').x).toBeGreaterThan(page.width / 2 - 10);
    expect(run('Origem').x).toBeCloseTo(run('Data').x, 1);
    expect(run('Origem').y).toBeLessThan(run('Data').y);
    // The facts come before the items, the items before the justification, the signatures last.
    const at = (s: string) => text.indexOf(s);
    expect(at('Secretaria de Educação')).toBeLessThan(at('Caneta esferográfica azul'));
    expect(at('Total geral')).toBeLessThan(at('Justificativa da necessidade'));
    expect(at('Justificativa da necessidade')).toBeLessThan(at('Diretor de Compras'));
    expectInsideMargins(pages);
  });

  it('shows the generation time in Brasília (the day before, late in the evening, when UTC is past midnight) and the alphanumeric CNPJ masked', async () => {
    const pages = await readPdf(
      await renderDocumentPdf(
        memorando({ entidade: { nome: 'Consórcio Intermunicipal de Saúde', cnpj: '12abc34501de35' }, generatedAt: new Date('2026-03-01T02:30:00Z') }),
      ),
    );
    expect(pages[0]!.text).toContain('Gerado em 28/02/2026 às 23:30');
    expect(pages[0]!.text).toContain('CNPJ 12.ABC.345/01DE-35');
  });

  it('spreads 300 items over several pages: every row once, the header row and the entidade on every page, numbers right-aligned, Página n de N', async () => {
    const pad = (i: number) => String(i).padStart(3, '0');
    const rows = Array.from({ length: 300 }, (_, k) => {
      const i = k + 1;
      // Values of different lengths, so right alignment is visible in the positions.
      const total = i % 2 === 0 ? 'R$ 12.345,60' : 'R$ 9,90';
      return [String(i), `Caneta esferográfica azul – lote ${pad(i)}`, 'un', '10', 'R$ 1.234,56', total];
    });
    const doc = memorando({ items: { ...memorando().items!, rows, total: { label: 'Total geral', value: 'R$ 1.853.370,00' } } });
    const pages = await readPdf(await renderDocumentPdf(doc));
    const n = pages.length;
    expect(n).toBeGreaterThan(1);

    for (const [index, page] of pages.entries()) {
      const p = index + 1;
      expect(page.text, `página ${p}`).toContain(`Página ${p} de ${n}`);
      expect(page.text, `página ${p}`).toMatch(/Gerado em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/);
      expect(page.text, `página ${p}`).toContain('Prefeitura Municipal de São José dos Campos');
      expect(page.text, `página ${p}`).toContain('CNPJ 11.222.333/0001-81');
      // The table continues on every page: its header row is repeated there.
      if (page.lines.some((l) => l.includes('Caneta esferográfica azul – lote'))) {
        expect(page.lines, `página ${p}`).toContain('Nº Descrição Unid. Qtde. Valor unitário Valor total');
      }
    }
    const allLines = pages.flatMap((page) => page.lines);
    for (const [i, row] of rows.entries()) {
      const line = row.join(' ');
      expect(
        allLines.filter((l) => l === line),
        `item ${i + 1}`,
      ).toHaveLength(1);
    }
    expect(pages[n - 1]!.lines).toContain('Total geral R$ 1.853.370,00');
    expect(pages[n - 1]!.text).toContain('Maria da Conceição Araújo');

    // The 'Valor total' column is right-aligned: short and long values end at the same x, start at different ones.
    const totals = pages[0]!.runs.filter((r) => r.str === 'R$ 9,90' || r.str === 'R$ 12.345,60');
    expect(new Set(totals.map((r) => r.str)).size).toBe(2);
    const rightEdges = totals.map((r) => r.x + r.width);
    expect(Math.max(...rightEdges) - Math.min(...rightEdges)).toBeLessThan(0.5);
    const leftEdges = totals.map((r) => r.x);
    expect(Math.max(...leftEdges) - Math.min(...leftEdges)).toBeGreaterThan(10);
    expectInsideMargins(pages);
  });

  it('prints an empty items list as such, and a document without items, sections, signatures or status', async () => {
    const empty = await readPdf(await renderDocumentPdf(memorando({ items: { ...memorando().items!, rows: [], total: undefined } })));
    expect(empty[0]!.lines).toContain('Nenhum item.');
    const bare = await readPdf(await renderDocumentPdf({ entidade: ENTIDADE, title: 'Memorando', numero: '1/2026', fields: [], generatedAt: GENERATED_AT }));
    expect(bare).toHaveLength(1);
    expect(bare[0]!.text).toContain('Memorando nº 1/2026');
    expect(bare[0]!.text).toContain('Página 1 de 1');
  });

  it('survives hostile input: 10 000 characters without a space, control characters, emoji, lone surrogates, absurd widths', async () => {
    const long = (letters: string) => Array.from({ length: 10_000 }, (_, i) => letters[i % letters.length]).join('');
    const [longField, longItem, longSection] = [long('abcdefghij'), long('klmnopqrst'), long('uvwxyzABCD')];
    const nasty = `\u0000\u0001\u0007\u001b[31m\u0085\u202e\ufeff\ud800😀中文${'W'.repeat(10_000)}`;
    const doc: PdfDocument = {
      entidade: { nome: nasty, cnpj: nasty },
      title: nasty,
      numero: nasty,
      status: nasty,
      // 5 facts: the last one alone on its row, so its text reads in order.
      fields: Array.from({ length: 5 }, (_, i) => ({ label: i === 4 ? 'Último' : `${nasty}${i}`, value: i === 4 ? longField : nasty })),
      items: {
        columns: [
          { header: nasty, align: 'right', width: 10_000 },
          { header: nasty, width: Number.NaN },
          { header: nasty, align: 'center', width: -5 },
          { header: nasty, align: 'right', width: 'auto' },
        ],
        // The first row taller than a page (it must not vanish with the header kept beside it); its
        // other cells empty, so its text reads in order.
        rows: [[longItem, '', '', ''], [nasty, nasty, nasty, nasty, nasty], [nasty], [], Array.from({ length: 4 }, () => nasty)],
        total: { label: nasty, value: nasty },
      },
      sections: [{ title: nasty, text: `${longSection}\n${nasty}` }],
      signatures: Array.from({ length: 30 }, () => ({ name: nasty, role: nasty })),
      generatedAt: GENERATED_AT,
    };
    const pages = await readPdf(await renderDocumentPdf(doc));
    const n = pages.length;
    expect(n).toBeGreaterThan(1);
    for (const [index, page] of pages.entries()) {
      expect(page.text).toContain(`Página ${index + 1} de ${n}`);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding none is the point
      expect(page.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    }
    // Nothing of a long word is lost: broken over lines (and pages), but all there, in order.
    // (The table's header row, repeated on each page the row runs over, taken out.)
    const columnHeader = `${pdfSafeText(nasty).slice(0, 59)}…`;
    const everything = pages
      .map((page) => page.body)
      .join('')
      .replaceAll(columnHeader, '');
    expect(everything).toContain(longField);
    expect(everything).toContain(longItem);
    expect(everything).toContain(longSection);
    expectInsideMargins(pages);
  }, 120_000);

  it('a report in landscape: headings, paragraphs, facts and several tables after the items, grey rows, groups kept on one page', async () => {
    const precos = (item: number) => ({
      columns: [{ header: 'Fonte' }, { header: 'Evidência' }, { header: 'Valor', align: 'right' as const }, { header: 'Situação' }],
      rows: [
        [`Fornecedor ${item}A`, 'proposta.pdf (SHA-256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08)', 'R$ 10,00', 'Usado'],
        [`Fornecedor ${item}B`, '', 'R$ 500,00', 'Excluído: acima de média + 1 DP'],
      ],
      muted: [1],
    });
    const blocks: PdfBlock[] = [
      { heading: 'Método de cálculo' },
      { text: 'Média saneada: descartam-se os preços fora do intervalo média ± 1 desvio-padrão amostral.' },
      { fields: [{ label: 'Data de referência', value: '12/05/2026' }] },
      { heading: 'Preços por item' },
      ...Array.from(
        { length: 40 },
        (_, k): PdfBlock => ({
          group: [
            { heading: `Item ${k + 1} – Caneta esferográfica`, level: 2 },
            { table: precos(k + 1) },
            { text: `Preço estimado do item ${k + 1}: R$ 10,00`, muted: true },
          ],
        }),
      ),
      { table: { columns: [{ header: 'Fornecedor' }], rows: [], empty: 'Nenhum fornecedor convidado.' } },
    ];
    const pages = await readPdf(await renderDocumentPdf(memorando({ orientation: 'landscape', items: undefined, blocks })));
    expect(pages.length).toBeGreaterThan(1);
    // A4 landscape
    expect(Math.round(pages[0]!.width)).toBe(842);
    expect(Math.round(pages[0]!.height)).toBe(595);
    const text = pages.map((p) => p.lines.join(' ')).join(' ');
    const at = (s: string) => text.indexOf(s);
    for (const expected of ['Método de cálculo', 'média ± 1 desvio-padrão amostral', 'Data de referência', 'Preços por item', 'Nenhum fornecedor convidado.']) {
      expect(text).toContain(expected);
    }
    // in order, each item once, its heading on the same page as its table and its result
    expect(at('Método de cálculo')).toBeLessThan(at('Preços por item'));
    for (let k = 1; k <= 40; k++) {
      const page = pages.find((p) => p.text.includes(`Item ${k} – Caneta`));
      expect(page?.text, `item ${k}`).toContain(`Fornecedor ${k}B`);
      expect(page?.text, `item ${k}`).toContain(`Preço estimado do item ${k}: R$ 10,00`);
    }
    expect(at('Item 39 –')).toBeLessThan(at('Item 40 –'));
    expect(at('Item 40 –')).toBeLessThan(at('Nenhum fornecedor convidado.'));
    // the long hash wraps inside its column; the running header and footer span the wider page
    expect(pages.map((p) => p.body).join('')).toContain('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
    const last = pages.at(-1)!;
    const pagina = last.runs.find((r) => r.str.startsWith('Página'))!;
    expect(pagina.x + pagina.width).toBeGreaterThan(last.width - 60);
    expectInsideMargins(pages);
  }, 60_000);

  it('rejects an invalid generation date', async () => {
    await expect(renderDocumentPdf(memorando({ generatedAt: new Date('not a date') }))).rejects.toThrow(RangeError);
  });
});

describe('pdfSafeText', () => {
  it('keeps Portuguese as is and turns the rest into what the standard fonts can print', () => {
    const pt = 'Ação, órgão, Conceição, º ª – — “aspas” ‘simples’ … € R$ 1.234,56 Ü ñ';
    expect(pdfSafeText(pt)).toBe(pt);
    expect(pdfSafeText('a\u0301gua')).toBe('água'); // decomposed accent, composed back
    expect(pdfSafeText('a\u0000b\u0007c\u001b\u0085d\u200be\ufeff')).toBe('abcde');
    expect(pdfSafeText('linha 1\r\nlinha 2\rlinha 3\ttab')).toBe('linha 1\nlinha 2\nlinha 3    tab');
    expect(pdfSafeText('Erdős Łódź')).toBe('Erdos ?ódz');
    expect(pdfSafeText('≥ 10 − 2')).toBe('>= 10 - 2');
    expect(pdfSafeText('😀 中 \ud800')).toBe('? ? ?');
    expect(pdfSafeText(undefined)).toBe('');
  });
});
