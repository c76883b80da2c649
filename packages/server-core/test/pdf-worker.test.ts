// PDFs render in a worker thread (pdf.ts + pdf-worker.ts): while a report of hundreds of pages is
// laid out, the request thread keeps running (timers fire, other requests are answered). The same
// document rendered on this thread stops it for a long while: that is what the worker avoids.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { type PdfDocument, pdfPoolStats, renderDocumentPdf, renderDocumentPdfInThisThread } from '../src/formats/pdf.js';

function report(rows: number): PdfDocument {
  return {
    entidade: { nome: 'Prefeitura Municipal de São José dos Campos', cnpj: '11222333000181' },
    title: 'Memória de cálculo',
    numero: '7/2026',
    fields: [{ label: 'Objeto', value: 'Material de expediente' }],
    blocks: Array.from({ length: rows }, (_, i) => ({
      group: [
        { heading: `Item ${i + 1} – Caneta esferográfica azul, ponta média`, level: 2 as const },
        {
          table: {
            columns: [{ header: 'Fonte' }, { header: 'Data', align: 'center' as const }, { header: 'Valor', align: 'right' as const }],
            rows: [
              ['Fornecedor A Ltda.', '05/03/2026', `R$ ${i + 1},50`],
              ['Painel de Preços', '01/03/2026', `R$ ${i + 2},10`],
              ['Fornecedor B S.A.', '02/03/2026', `R$ ${i + 3},00`],
            ],
            total: { label: 'Média', value: `R$ ${i + 2},20` },
          },
        },
      ],
    })),
    generatedAt: new Date('2026-03-05T12:07:00Z'),
  };
}

/** Runs `work` while a 10 ms timer ticks; the longest gap between ticks (ms), and the result. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ gap: number; ticks: number; result: T }> {
  let last = performance.now();
  let gap = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    ticks++;
  }, 10);
  try {
    const result = await work();
    gap = Math.max(gap, performance.now() - last);
    return { gap, ticks, result };
  } finally {
    clearInterval(timer);
  }
}

/** The page count and the title of a PDF, read back with pdf.js. */
async function readBack(bytes: Uint8Array): Promise<{ pages: number; title: string }> {
  const pdf = await getDocument({ data: bytes.slice(), isEvalSupported: false }).promise;
  const { info } = (await pdf.getMetadata()) as { info: { Title?: string } };
  const read = { pages: pdf.numPages, title: info.Title ?? '' };
  await pdf.destroy();
  return read;
}

describe('renderDocumentPdf in a worker thread', () => {
  it('keeps the event loop free while a report of hundreds of pages renders', { timeout: 120_000 }, async () => {
    const doc = report(800);
    // warm the worker (and, under vitest, bundle it) so only the rendering is measured
    await renderDocumentPdf(report(1));
    const worker = await longestStall(() => renderDocumentPdf(doc));
    const here = await longestStall(() => renderDocumentPdfInThisThread(doc));
    const read = await readBack(worker.result);
    expect(read.pages).toBeGreaterThan(100);
    expect(read).toEqual(await readBack(here.result));
    // on this thread the render stops every timer for (much) more than a second…
    expect(here.gap).toBeGreaterThan(500);
    // …in the worker the timer keeps ticking (measured: ~50 ms against ~1.2 s). Relative to this
    // thread's stall only, so a busy machine (which slows both) does not make it flaky.
    expect(worker.gap).toBeLessThan(here.gap / 2);
    expect(worker.ticks).toBeGreaterThan(20);
  });

  it('answers every document of a burst, each its own', async () => {
    const docs = Array.from({ length: 6 }, (_, i) => ({ ...report(2), numero: `${i + 1}/2026` }));
    const results = await Promise.all(docs.map((d) => renderDocumentPdf(d)));
    for (const [i, bytes] of results.entries()) {
      expect(await readBack(bytes)).toEqual({ pages: 1, title: `Memória de cálculo nº ${i + 1}/2026` });
    }
    expect(pdfPoolStats()).toMatchObject({ busy: 0, queued: 0 });
  });

  it("a task's own time limit; a background job's PDF in its own lane, never queued behind the others", { timeout: 120_000 }, async () => {
    const doc = report(300);
    await renderDocumentPdf(report(1));
    // over its own limit: cut, 413
    await expect(renderDocumentPdf(doc, { timeoutMs: 50 })).rejects.toMatchObject({
      status: 413,
      message: 'O documento é grande demais para gerar o PDF: demorou demais.',
    });
    await expect(renderDocumentPdf(doc, { timeoutMs: 0 })).rejects.toThrow(RangeError);
    // the background lane: its own worker, so a document a person waits for is answered meanwhile
    const before = pdfPoolStats({ background: true }).started;
    let longDone = false;
    const long = renderDocumentPdf(doc, { background: true }).then((bytes) => {
      longDone = true;
      return bytes;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(await readBack(await renderDocumentPdf(report(1)))).toMatchObject({ pages: 1 });
    expect(longDone).toBe(false);
    // the same document either way (the background one handed over as JSON written by pieces)
    const read = await readBack(await long);
    expect(read.pages).toBeGreaterThan(30);
    expect(read).toEqual(await readBack(await renderDocumentPdf(doc)));
    expect(pdfPoolStats({ background: true }).started).toBe(before + 1);
  });

  // Linux keeps a nice value per thread (/proc/<pid>/task/<tid>/stat, field 19)
  const niceOf = (path: string) => Number(readFileSync(`${path}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
  const threadNices = () => readdirSync('/proc/self/task').map((tid) => niceOf(`/proc/self/task/${tid}`));

  it.runIf(process.platform === 'linux')(
    "a background job's PDF worker runs below the request thread's priority (nice + 10); the lane people wait for does not",
    { timeout: 60_000 },
    async () => {
      const base = niceOf(`/proc/${readlinkSync('/proc/thread-self')}`);
      const lowered = Math.min(19, base + 10);
      await renderDocumentPdf(report(1), { background: true });
      await renderDocumentPdf(report(1));
      const { workers } = pdfPoolStats({ background: true });
      expect(workers).toBeGreaterThan(0);
      // each background worker thread at base + 10; the request lane's workers stay at the process's priority
      expect(threadNices().filter((n) => n === lowered)).toHaveLength(workers);
      expect(pdfPoolStats().workers).toBeGreaterThan(0);
      expect(threadNices().filter((n) => n === base).length).toBeGreaterThan(pdfPoolStats().workers);
    },
  );
});
