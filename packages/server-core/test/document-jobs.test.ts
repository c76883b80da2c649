// Availability under heavy documents (issue 18): how many PDFs / workbooks ONE person may have in
// the making (document-jobs.ts: 429 beyond DOCUMENTS_PER_PERSON, while other people's documents
// proceed), documents whose client has gone are dropped (the pools' counters say the worker never
// rendered them, or was stopped), also over a real HTTP connection closed by the client
// (@hono/node-server aborts c.req.raw.signal), and XLSX workbooks are written off the request thread.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS_LOADING, DOCUMENTS_PER_PERSON, type DocumentJob, documentJob, documentJobStats, withDocumentJob } from '../src/formats/document-jobs.js';
import { AppError } from '../src/platform/errors.js';
import { type PdfDocument, pdfPoolStats, renderDocumentPdf } from '../src/formats/pdf.js';
import { writeXlsxInWorker, xlsxPoolStats } from '../src/formats/spreadsheet-pool.js';
import { DEMO, describeEachDatabase } from '../src/testing.js';
import { type XlsxSheet, xlsxWorkbook } from '../src/formats/xlsx.js';
import { DOC_TAG, documentsPlugin } from './fixtures/documents-plugin.js';

/** A report of `rows` item groups (800 → hundreds of pages, seconds of pdfmake). */
function report(rows: number, numero = '7/2026'): PdfDocument {
  return {
    entidade: { nome: 'Prefeitura Municipal de São José dos Campos', cnpj: '11222333000181' },
    title: 'Memória de cálculo',
    numero,
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
            ],
          },
        },
      ],
    })),
    generatedAt: new Date('2026-03-05T12:07:00Z'),
  };
}

/** A promise and its resolver: a job that stays "in the making" until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A job that has loaded its data (job.check()) and "renders" until `until` resolves. */
const rendering =
  (until: Promise<void>) =>
  (job: DocumentJob): Promise<void> => {
    job.check();
    return until;
  };

/** Waits (polling, no timed assertion) until `condition()` holds. */
async function until(condition: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!condition()) {
    if (Date.now() - t0 > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const gone = (err: unknown) => err instanceof AppError && err.status === (499 as number) && err.code === 'cliente_desistiu';

describe('documents one person may have in the making (withDocumentJob)', () => {
  it('refuses the third PDF of one person with 429 (pt-BR, Retry-After) while another person renders hers', { timeout: 60_000 }, async () => {
    expect(DOCUMENTS_PER_PERSON).toBe(2);
    const ana = `ana-${randomUUID()}`;
    const bia = `bia-${randomUUID()}`;
    const held = gate();
    const anas = [0, 1].map(() => withDocumentJob('pdf', ana, undefined, rendering(held.promise)));
    expect(documentJobStats().inProgress[`pdf:${ana}`]).toBe(2);

    const refusedBefore = documentJobStats().refused;
    let loaded = false;
    const third = await withDocumentJob('pdf', ana, undefined, async () => {
      loaded = true; // never: refused before loading anything
    }).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(AppError);
    expect(third).toMatchObject({ status: 429, code: 'documentos_por_pessoa', headers: { 'Retry-After': '5' } });
    expect((third as Error).message).toBe('Você já tem 2 PDFs sendo gerados: aguarde terminarem para pedir outro.');
    expect(loaded).toBe(false);
    expect(documentJobStats().refused).toBe(refusedBefore + 1);

    // the same person may still ask a workbook (another kind), and another person her PDF, rendered now
    await withDocumentJob('xlsx', ana, undefined, async () => undefined);
    const started = pdfPoolStats().started;
    const bytes = await withDocumentJob('pdf', bia, undefined, (job) => renderDocumentPdf(report(2), { signal: job.signal }));
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    expect(pdfPoolStats().started).toBe(started + 1);
    expect(documentJobStats().inProgress[`pdf:${ana}`]).toBe(2);

    // once hers end, the slots are free again (also after a failure)
    held.open();
    await Promise.all(anas);
    expect(documentJobStats().inProgress[`pdf:${ana}`]).toBeUndefined();
    await expect(withDocumentJob('pdf', ana, undefined, async () => Promise.reject(new Error('falhou')))).rejects.toThrow('falhou');
    expect(documentJobStats().inProgress[`pdf:${ana}`]).toBeUndefined();
    await withDocumentJob('pdf', ana, undefined, async () => undefined);
  });

  it('at most DOCUMENTS_LOADING documents load their data at once, whoever asked; the next waits its turn (and leaves it when its client goes)', async () => {
    expect(DOCUMENTS_LOADING).toBe(2);
    const loads = [gate(), gate()];
    const order: string[] = [];
    const load = (name: string, data: Promise<void>) => async (job: DocumentJob) => {
      order.push(`${name} loads`);
      await data;
      job.check();
      order.push(`${name} renders`);
    };
    const first = withDocumentJob('pdf', `a-${randomUUID()}`, undefined, load('a', loads[0]!.promise));
    const second = withDocumentJob('pdf', `b-${randomUUID()}`, undefined, load('b', loads[1]!.promise));
    const leaving = new AbortController();
    const gone1 = withDocumentJob('pdf', `c-${randomUUID()}`, leaving.signal, load('c', Promise.resolve()));
    const third = withDocumentJob('pdf', `d-${randomUUID()}`, undefined, load('d', Promise.resolve()));
    await Promise.resolve();
    expect(documentJobStats()).toMatchObject({ loading: 2, waitingToLoad: 2 });
    leaving.abort(); // c's client leaves while waiting: out of the line, never loaded
    await expect(gone1).rejects.toSatisfy(gone);
    expect(documentJobStats()).toMatchObject({ loading: 2, waitingToLoad: 1 });
    loads[1]!.open(); // b has its data: d loads now
    await second;
    await third;
    loads[0]!.open();
    await first;
    expect(order).toEqual(['a loads', 'b loads', 'b renders', 'd loads', 'd renders', 'a renders']);
    expect(documentJobStats()).toMatchObject({ loading: 0, waitingToLoad: 0 });
  });

  it('a job whose client has already gone is not started, and job.check() stops one between loading and rendering', async () => {
    const person = `p-${randomUUID()}`;
    const controller = new AbortController();
    controller.abort();
    await expect(withDocumentJob('pdf', person, controller.signal, async () => undefined)).rejects.toSatisfy(gone);
    const later = new AbortController();
    const started = pdfPoolStats().started;
    const result = withDocumentJob('pdf', person, later.signal, async (job) => {
      later.abort(); // the client leaves while the data loads
      job.check();
      return renderDocumentPdf(report(1), { signal: job.signal });
    });
    await expect(result).rejects.toSatisfy(gone);
    expect(pdfPoolStats().started).toBe(started);
    expect(documentJobStats().inProgress[`pdf:${person}`]).toBeUndefined();
  });
});

describe('worker pools drop the documents of requests whose client has gone', () => {
  it('a PDF waiting in the queue leaves it: the worker never renders it', async () => {
    await renderDocumentPdf(report(1)); // a worker started (and, under vitest, the entry bundled)
    const before = pdfPoolStats();
    // every worker busy (run() queues synchronously: even a short report is still in the making below)…
    const busy = Array.from({ length: before.size }, (_, i) => renderDocumentPdf(report(20, `${i + 1}/2026`)));
    // …so this one waits in the queue, and its client leaves
    const controller = new AbortController();
    const waiting = renderDocumentPdf(report(2, '99/2026'), { signal: controller.signal });
    expect(pdfPoolStats().queued).toBe(before.queued + 1);
    controller.abort();
    await expect(waiting).rejects.toSatisfy(gone);
    expect(pdfPoolStats().queued).toBe(before.queued);
    expect(pdfPoolStats().droppedWaiting).toBe(before.droppedWaiting + 1);
    await Promise.all(busy);
    // only the long reports were handed to a worker
    expect(pdfPoolStats().started).toBe(before.started + before.size);
  });

  it('a PDF being rendered has its worker stopped, and the next document is rendered by a new one', { timeout: 120_000 }, async () => {
    await renderDocumentPdf(report(1));
    const before = pdfPoolStats();
    const controller = new AbortController();
    const rendering = renderDocumentPdf(report(3000), { signal: controller.signal });
    await until(() => pdfPoolStats().started === before.started + 1, 'the render to start');
    controller.abort();
    await expect(rendering).rejects.toSatisfy(gone);
    expect(pdfPoolStats().cancelledRunning).toBe(before.cancelledRunning + 1);
    expect(pdfPoolStats().busy).toBe(0);
    const bytes = await renderDocumentPdf(report(1));
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  });

  it('over HTTP (@hono/node-server): the client closing the connection aborts the request signal, the render stops and the slot is freed', {
    timeout: 120_000,
  }, async () => {
    await renderDocumentPdf(report(1));
    const person = `http-${randomUUID()}`;
    const app = new Hono();
    app.get('/relatorio.pdf', (c) =>
      documentJob(c, { user: { id: person } }, 'pdf', async (job) => {
        const bytes = await renderDocumentPdf(report(3000), { signal: job.signal });
        return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/pdf' } });
      }).catch((err: unknown) => new Response(String(err), { status: 500 })),
    );
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
    const { port } = server.address() as AddressInfo;
    try {
      const before = pdfPoolStats();
      const req = httpRequest({ host: '127.0.0.1', port, path: '/relatorio.pdf' });
      req.on('error', () => {}); // destroyed on purpose
      req.end();
      await until(() => pdfPoolStats().started === before.started + 1 && documentJobStats().inProgress[`pdf:${person}`] === 1, 'the render to start');
      req.destroy(); // the person closes the tab
      await until(() => pdfPoolStats().cancelledRunning === before.cancelledRunning + 1, 'the render to be stopped');
      await until(() => documentJobStats().inProgress[`pdf:${person}`] === undefined, 'the slot to be freed');
      expect(pdfPoolStats().busy).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

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

describe('XLSX workbooks are written in a worker thread', () => {
  const big = (): XlsxSheet[] => [
    {
      name: 'Preços',
      header: ['Item', 'Descrição', 'Fonte', 'Data', 'Valor', 'Situação'],
      rows: Array.from({ length: 80_000 }, (_, i) => [
        i + 1,
        `Caneta esferográfica azul, ponta média – lote ${i}`,
        `Fornecedor ${i % 97} Ltda.`,
        new Date(Date.UTC(2026, 2, 1 + (i % 28), 12)),
        { decimal: `${(i * 7919) % 99_999}.${String(i % 100).padStart(2, '0')}`, places: 2 },
        i % 9 === 0 ? 'Excluído: acima de 25 % da média' : 'Usado',
      ]),
    },
  ];

  it('keeps the event loop free while a big workbook is written, with the same bytes as on this thread', { timeout: 180_000 }, async () => {
    const sheets = big();
    await writeXlsxInWorker([{ name: 'A', header: ['x'], rows: [[1]] }]); // warm (and bundle) the worker
    const started = xlsxPoolStats().started;
    const worker = await longestStall(() => writeXlsxInWorker(sheets));
    const here = await longestStall(async () => xlsxWorkbook(sheets));
    expect(Buffer.from(worker.result).equals(Buffer.from(here.result))).toBe(true);
    expect(xlsxPoolStats().started).toBe(started + 1);
    // on this thread the write stops every timer for a long stretch (hundreds of ms: how many
    // depends on the machine, so only "long enough to tell" is asserted)…
    expect(here.gap).toBeGreaterThan(150);
    // …in the worker the timer keeps ticking (only the copy of the rows to the worker blocks it)
    expect(worker.gap).toBeLessThan(here.gap / 2);
    expect(worker.ticks).toBeGreaterThan(20);
  });

  it('a workbook waiting in the queue is dropped when its client leaves', async () => {
    const before = xlsxPoolStats();
    // every worker busy (run() queues synchronously: even a small workbook is still in the making below)
    const busy = Array.from({ length: before.size }, (_, i) => writeXlsxInWorker([{ name: 'B', header: ['x'], rows: [[i]] }]));
    const controller = new AbortController();
    const waiting = writeXlsxInWorker([{ name: 'A', header: ['x'], rows: [[1]] }], { signal: controller.signal });
    expect(xlsxPoolStats().queued).toBe(before.queued + 1);
    controller.abort();
    await expect(waiting).rejects.toSatisfy(gone);
    expect(xlsxPoolStats().droppedWaiting).toBe(before.droppedWaiting + 1);
    await Promise.all(busy);
    expect(xlsxPoolStats().started).toBe(before.started + before.size);
  });
});

describeEachDatabase('document PDFs of the kit, per person (API)', { plugins: [documentsPlugin] }, (t) => {
  let ana: { id: string; token: string };
  let bia: { id: string; token: string };
  let memorandoId: string;

  beforeAll(async () => {
    ana = await t.server.createUser({ login: 'ana.pdf', tags: [DOC_TAG], todosCentros: true });
    bia = await t.server.createUser({ login: 'bia.pdf', tags: [DOC_TAG], todosCentros: true });
    const { prefeitura } = await t.server.demoEntidades();
    const produto = await t.server.insert('doc_produtos', { entidade_id: prefeitura, descricao: 'Papel A4 75 g/m²', ativo: true });
    const res = await t.server.request('/api/docs/memorandos', {
      token: ana.token,
      json: {
        origemId: randomUUID(),
        destinoId: randomUUID(),
        assunto: 'Material de expediente',
        justificativa: 'Reposição do estoque do setor',
        itens: [{ produtoId: produto, quantidade: '3', valorUnitario: '10,00' }],
      },
    });
    const body = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    memorandoId = body.id;
    expect(DEMO.senha).toBeTruthy();
  });

  it('answers 429 to the person who already has 2 PDFs in the making, 200 to another person, and 200 again once hers end', async () => {
    const held = gate();
    const hers = [0, 1].map(() => withDocumentJob('pdf', ana.id, undefined, rendering(held.promise)));
    try {
      const refused = await t.server.request(`/api/docs/memorandos/${memorandoId}.pdf`, { token: ana.token });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: 'documentos_por_pessoa',
        message: 'Você já tem 2 PDFs sendo gerados: aguarde terminarem para pedir outro.',
      });
      const other = await t.server.request(`/api/docs/memorandos/${memorandoId}.pdf`, { token: bia.token });
      expect(other.status).toBe(200);
      expect(new TextDecoder().decode(new Uint8Array(await other.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    } finally {
      held.open();
      await Promise.all(hers);
    }
    const again = await t.server.request(`/api/docs/memorandos/${memorandoId}.pdf`, { token: ana.token });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });

  it('a list export (.xlsx) is one of the person’s workbooks too, written in the worker', async () => {
    const held = gate();
    const hers = [0, 1].map(() => withDocumentJob('xlsx', ana.id, undefined, rendering(held.promise)));
    try {
      const refused = await t.server.request('/api/docs/memorandos.xlsx', { token: ana.token });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        'Você já tem 2 planilhas sendo geradas: aguarde terminarem para pedir outra.',
      );
    } finally {
      held.open();
      await Promise.all(hers);
    }
    const started = xlsxPoolStats().started;
    const ok = await t.server.request('/api/docs/memorandos.xlsx', { token: ana.token });
    expect(ok.status).toBe(200);
    expect(new Uint8Array(await ok.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b])); // PK: a zip
    expect(xlsxPoolStats().started).toBe(started + 1);
  });
});
