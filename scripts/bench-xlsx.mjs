// pnpm bench, part 7: the one XLSX writer (issue 12). A 100 000-row list export (MAX_EXPORT_ROWS:
// código, descrição, unidade, valor as an exact decimal, a date-time, ativo) written by
// @app/server-core's own writer (toXlsx, src/xlsx.ts) and by exceljs' streaming WorkbookWriter with
// the same layout (bold frozen header, auto-filter, widths, '#,##0.00', 'dd/mm/yyyy hh:mm', Sao Paulo
// wall clock, Sim/Não). Each writer runs in a process of its own: time to the file, file size, and the
// peak RSS the write added. Both files are then read back with exceljs' reader and must hold the same
// cells (values, types and number formats) as the data written.
//
// Measured here (2 cores shared with other jobs, load average 15 to 35, so times vary), 100 000 rows,
// four runs:
//   server-core toXlsx              4.1 to 7.4 s, 4.2 MB, +33 MB RSS (sheet made and deflated in 1 MB pieces)
//   exceljs stream WorkbookWriter   6.6 to 26 s,  4.7 MB, +61 to 65 MB RSS
// (1.6 to 3.5 times faster in the same run)
// so toXlsx is THE writer (list exports and import templates); exceljs only reads uploads.
//
// Standalone: `node scripts/bench-xlsx.mjs` (needs `pnpm build` first); BENCH_XLSX_ROWS=… to change the size.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.BENCH_XLSX_ROWS) || 100_000;
const HEADER = ['Código', 'Descrição', 'Unidade', 'Valor unitário', 'Atualizado em', 'Ativo'];
const SHEET = 'Produtos';
const DATE_TIME = 'dd/mm/yyyy hh:mm';
const MONEY = '#,##0.00';
const requireCore = createRequire(join(ROOT, 'packages', 'server-core', 'package.json'));
const loadExcelJS = async () => (await import(pathToFileURL(requireCore.resolve('exceljs')).href)).default;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const DESCRICOES = [
  'Papel sulfite A4 75 g/m², resma com 500 folhas',
  'Caneta esferográfica azul, ponta 1,0 mm',
  'Açúcar cristal, pacote 5 kg',
  'Café torrado e moído, embalagem a vácuo 500 g',
  'Detergente líquido neutro 500 ml',
  'Pão francês (kg) – "cacetinho"',
  'Água mineral sem gás, garrafão 20 L',
  'Serviço de manutenção preventiva & corretiva <ar-condicionado>',
];
const UNIDADES = ['UN', 'CX', 'PCT', 'RESMA', 'KG', 'L', 'SV'];
const BASE = Date.UTC(2024, 0, 1, 11, 0, 0);

/** The export's rows, as defineCrudResource hands them to the writer (CellValue[][]). */
function exportRows(n) {
  const rows = new Array(n);
  for (let i = 0; i < n; i++) {
    const cents = (i * 7919) % 10_000_000;
    rows[i] = [
      String(i + 1).padStart(6, '0'),
      i % 10_000 === 1 ? '=HIPERLINK("http://exemplo.com")' : `${DESCRICOES[i % DESCRICOES.length]} nº ${i}`,
      UNIDADES[i % UNIDADES.length],
      { decimal: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${i % 3 === 0 ? '75' : ''}`, places: 2 },
      new Date(BASE + i * 611_000),
      i % 7 !== 0,
    ];
  }
  return rows;
}

// ---------- the exceljs way: the same export through the streaming WorkbookWriter ----------
const WALL_CLOCK = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const offsets = new Map();
/** The Sao Paulo wall-clock time as a UTC Date (exceljs writes a Date's UTC fields). */
function wallClock(date) {
  const hour = Math.floor(date.getTime() / 3_600_000);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const p = Object.fromEntries(WALL_CLOCK.formatToParts(hour * 3_600_000).map((x) => [x.type, x.value]));
    offset = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - hour * 3_600_000;
    offsets.set(hour, offset);
  }
  return new Date(date.getTime() + offset);
}

async function writeWithExcelJS(file, rows) {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(SHEET, { views: [{ state: 'frozen', ySplit: 1, topLeftCell: 'A2' }] });
  ws.columns = HEADER.map((h, i) => ({ key: `c${i}`, width: [10, 60, 8, 16, 18, 8][i] }));
  ws.autoFilter = `A1:F${rows.length + 1}`;
  const head = ws.addRow(HEADER);
  head.font = { bold: true };
  head.commit();
  for (const [codigo, descricao, unidade, valor, data, ativo] of rows) {
    const row = ws.addRow([codigo, descricao, unidade, Number(valor.decimal), wallClock(data), ativo ? 'Sim' : 'Não']);
    row.getCell(4).numFmt = MONEY;
    row.getCell(5).numFmt = DATE_TIME;
    row.commit();
  }
  ws.commit();
  await wb.commit();
}

// ---------- one writer in a process of its own ----------
async function child(writer, file) {
  const rows = exportRows(ROWS);
  // the modules are loaded first: their size is not the write's cost
  const write =
    writer === 'exceljs'
      ? (await loadExcelJS(), () => writeWithExcelJS(file, rows))
      : await import(pathToFileURL(join(ROOT, 'packages', 'server-core', 'dist', 'index.js')).href).then(
          ({ toXlsx }) =>
            async () =>
              writeFileSync(file, toXlsx(SHEET, HEADER, rows)),
        );
  global.gc?.();
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  await write();
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, peak: process.resourceUsage().maxRSS * 1024 - before }));
}

// ---------- read back ----------
/**
 * Every cell of the first sheet: [value, numFmt] per cell, as exceljs' reader sees them. (Its
 * streaming WorkbookReader is not used: it garbles a multi-byte character split between two chunks
 * of the file, in both writers' files alike.)
 */
async function readBack(file) {
  const ExcelJS = await loadExcelJS();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const rows = [];
  ws.eachRow({ includeEmpty: true }, (row) => {
    const cells = [];
    for (let c = 1; c <= HEADER.length; c++) {
      const cell = row.getCell(c);
      const v = cell.value;
      cells.push([v instanceof Date ? `date:${v.toISOString()}` : v, cell.numFmt ?? null]);
    }
    rows.push(cells);
  });
  return { sheet: ws.name, bold: ws.getRow(1).getCell(1).font?.bold === true, frozen: ws.views[0]?.state === 'frozen', filter: ws.autoFilter ?? null, rows };
}

/** The cells both files must hold. */
function expected(rows) {
  const out = [HEADER.map((h) => [h, null])];
  for (const [codigo, descricao, unidade, valor, data, ativo] of rows) {
    out.push([
      [codigo, null],
      [descricao, null],
      [unidade, null],
      [Number(valor.decimal), MONEY],
      [`date:${wallClock(data).toISOString()}`, DATE_TIME],
      [ativo ? 'Sim' : 'Não', null],
    ]);
  }
  return out;
}

function firstDifference(a, b) {
  for (let r = 0; r < Math.max(a.length, b.length); r++) {
    if (!isDeepStrictEqual(a[r], b[r])) return `row ${r + 1}: ${JSON.stringify(a[r])} ≠ ${JSON.stringify(b[r])}`;
  }
  return null;
}

export default async function benchXlsx() {
  const dir = mkdtempSync(join(tmpdir(), 'compras-bench-xlsx-'));
  try {
    console.log(`\n## XLSX writer: a ${ROWS.toLocaleString('pt-BR')}-row list export, each writer in its own process`);
    const results = {};
    for (const writer of ['server-core', 'exceljs']) {
      const file = join(dir, `${writer}.xlsx`);
      const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', writer, file], {
        env: { ...process.env, BENCH_XLSX_ROWS: String(ROWS) },
        maxBuffer: 1 << 20,
      });
      results[writer] = { ...JSON.parse(out.toString()), size: statSync(file).size, file };
    }
    const want = expected(exportRows(ROWS));
    console.log('| writer | time | file | peak RSS added | read back (exceljs) |\n|---|---|---|---|---|');
    for (const [writer, r] of Object.entries(results)) {
      const back = await readBack(r.file);
      const layout = { sheet: back.sheet, bold: back.bold, frozen: back.frozen, filter: back.filter };
      const wantLayout = { sheet: SHEET, bold: true, frozen: true, filter: `A1:F${ROWS + 1}` };
      const diff = isDeepStrictEqual(layout, wantLayout) ? firstDifference(back.rows, want) : `layout ${JSON.stringify(layout)}`;
      r.ok = diff === null;
      console.log(`| ${writer === 'exceljs' ? 'exceljs stream WorkbookWriter' : 'server-core toXlsx'} | ${(r.ms / 1000).toFixed(2)} s | ${mb(r.size)} | ${mb(r.peak)} | ${r.ok ? 'same cells' : `DIFFERS: ${diff}`} |`);
    }
    const [own, other] = [results['server-core'], results.exceljs];
    const faster = own.ms <= other.ms ? 'server-core toXlsx' : 'exceljs';
    console.log(`faster: ${faster} (${(Math.max(own.ms, other.ms) / Math.min(own.ms, other.ms)).toFixed(1)}×)${faster === 'exceljs' ? ' — the kept writer is no longer the faster one: see issue 12' : ''}`);
    if (!own.ok || !other.ok) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchXlsx();
