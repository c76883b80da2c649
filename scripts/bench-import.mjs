// pnpm bench, part 6: spreadsheet import bombs (issue 8). A 5 000 000-row XLSX (one inline string
// per row: ≈ 310 MB of XML zipped into less than 1 MB) posted to /api/produtos/produtos/importar on
// the built server (PGlite): time to the answer, the server's peak RSS, and /api/health latency
// while the bombs are read; once alone and three in parallel. Three bombs: the zip declaring its
// true size (refused from the central directory), the same zip declaring 1 000 bytes (refused when
// the row counter passes 10 000) and one 128 MB cell declaring 1 000 bytes (refused when 50 MB have
// been inflated). Before issue 8 the first one took 26 s at 1.4 GB RSS (87 s and 4.2 GB for three,
// /api/health answering after 51.7 s).
//
// Standalone: `node scripts/bench-import.mjs` (needs `pnpm build` first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDeflateRaw } from 'node:zlib';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS) || 5_000_000;
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET_HEAD = `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function deflate(head, unit, count, tail) {
  const z = createDeflateRaw({ level: 9 });
  const chunks = [];
  z.on('data', (c) => chunks.push(c));
  const done = new Promise((r) => z.on('end', r));
  const per = Math.max(1, Math.floor((256 * 1024) / unit.length));
  const block = Buffer.from(unit.repeat(per));
  z.write(head);
  for (let left = count; left > 0; left -= per) {
    if (!z.write(left >= per ? block : Buffer.from(unit.repeat(left)))) await new Promise((r) => z.once('drain', r));
  }
  z.end(tail);
  await done;
  return { data: Buffer.concat(chunks), size: Buffer.byteLength(head) + unit.length * count + Buffer.byteLength(tail) };
}

/** A zip of deflated entries declaring the sizes given (the CRC is left 0: the bomb is refused before it matters). */
function zip(entries) {
  const parts = [];
  const central = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declared, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, e.data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(8, 10);
    c.writeUInt32LE(e.data.length, 20);
    c.writeUInt32LE(e.declared, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    offset += 30 + name.length + e.data.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

async function xlsx(sheet, declared) {
  const small = async (name, text) => {
    const d = await deflate(text, 'x', 0, '');
    return { name, data: d.data, declared: d.size };
  };
  return zip([
    await small('[Content_Types].xml', `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`),
    await small('_rels/.rels', `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    await small('xl/workbook.xml', `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Produtos" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    await small('xl/_rels/workbook.xml.rels', `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    { name: 'xl/worksheets/sheet1.xml', data: sheet.data, declared: Math.min(declared, 0xfffffffe) },
  ]);
}

/** Peak RSS of a Linux process since the last reset (VmHWM; reset by writing 5 to clear_refs). */
const procStatus = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const peakRss = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(procStatus(pid))?.[1] ?? 0) * 1024;
const resetPeak = (pid) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

export default async function benchImport({ root, tmp, startServer, stopServer }) {
  console.log(`\n## Spreadsheet import bombs (${ROWS.toLocaleString('pt-BR')} rows, built server on PGlite, POST /api/produtos/produtos/importar?dryRun=true)`);
  const row = '<row><c t="inlineStr"><is><t>Produto de teste</t></is></c></row>';
  const rowsSheet = await deflate(SHEET_HEAD, row, ROWS, SHEET_TAIL);
  const cellSheet = await deflate(`${SHEET_HEAD}<row><c t="inlineStr"><is><t>`, 'a', 128 * 1024 * 1024, `</t></is></c></row>${SHEET_TAIL}`);
  const bombs = [
    { label: `${ROWS.toLocaleString('pt-BR')} rows, true size declared`, file: await xlsx(rowsSheet, rowsSheet.size), xml: rowsSheet.size },
    { label: `${ROWS.toLocaleString('pt-BR')} rows, 1 000 bytes declared`, file: await xlsx(rowsSheet, 1000), xml: rowsSheet.size },
    { label: 'one 128 MB cell, 1 000 bytes declared', file: await xlsx(cellSheet, 1000), xml: cellSheet.size },
  ];

  const port = 4490;
  const server = await startServer(join(tmp, 'data-import'), port);
  const pid = server.child.pid;
  const base = `http://127.0.0.1:${port}`;
  try {
    const signin = async (entidadeId) =>
      (await fetch(`${base}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: 'demo1234', entidadeId }) })).json();
    const prefeitura = (await signin()).entidades.find((e) => e.nome.startsWith('Prefeitura')).id;
    const { token } = await signin(prefeitura);
    const post = async (file) => {
      const form = new FormData();
      form.set('arquivo', new Blob([file], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'bomba.xlsx');
      const t0 = performance.now();
      const res = await fetch(`${base}/api/produtos/produtos/importar?dryRun=true`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      return { status: res.status, message: body.error?.message ?? `${body.total} linhas`, ms: performance.now() - t0 };
    };
    const idleRss = Number(/VmRSS:\s+(\d+) kB/.exec(procStatus(pid))?.[1] ?? 0) * 1024;
    const canReset = resetPeak(pid);
    console.log(`server RSS at rest: ${mb(idleRss)}${canReset ? '' : ' (peak RSS cannot be reset here: figures are peaks since start)'}`);
    console.log('| bomb (zip size → XML size) | parallel | answers | time to the last answer | peak RSS | /api/health during: samples, p50, max |');
    console.log('|---|---|---|---|---|---|');
    for (const bomb of bombs) {
      for (const parallel of [1, 3]) {
        resetPeak(pid);
        let running = true;
        const health = [];
        const probe = (async () => {
          while (running) {
            const t0 = performance.now();
            const res = await fetch(`${base}/api/health`);
            await res.arrayBuffer();
            health.push(performance.now() - t0);
            await sleep(5);
          }
        })();
        const t0 = performance.now();
        const answers = await Promise.all(Array.from({ length: parallel }, () => post(bomb.file)));
        const total = performance.now() - t0;
        running = false;
        await probe;
        health.sort((a, b) => a - b);
        const statuses = [...new Set(answers.map((a) => `${a.status} «${a.message}»`))].join(', ');
        console.log(
          `| ${bomb.label} (${(bomb.file.length / 1024).toFixed(0)} KB → ${mb(bomb.xml)}) | ${parallel} | ${statuses} | ${total.toFixed(0)} ms | ${mb(peakRss(pid))} | ${health.length}, ${(health[Math.floor(health.length / 2)] ?? 0).toFixed(1)} ms, ${(health.at(-1) ?? 0).toFixed(1)} ms |`,
        );
      }
    }
  } finally {
    await stopServer(server.child);
  }
}

// standalone: node scripts/bench-import.mjs
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const cli = join(root, 'apps', 'server', 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('apps/server/dist/cli.js not found: run pnpm build first.');
  const tmp = mkdtempSync(join(tmpdir(), 'compras-bench-import-'));
  const startServer = async (dataDir, port) => {
    const child = spawn(process.execPath, [cli, 'start'], { env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: 'ignore' });
    for (;;) {
      if (child.exitCode !== null) throw new Error('server exited during start');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return { child };
      } catch {}
      await sleep(50);
    }
  };
  const stopServer = (child) =>
    new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGTERM');
    });
  try {
    await benchImport({ root, tmp, startServer, stopServer });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
