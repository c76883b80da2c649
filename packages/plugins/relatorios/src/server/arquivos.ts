// Reports above MAX_LINHAS made in the background, as durable work (pg-boss, queue relatorios.gerar):
// - POST /api/relatorios/:id/arquivos checks the person's tags and the filters now, records the file
//   (relatorios_arquivos) and enqueues the job in the same transaction; the payload carries ids and the
//   filters only (never a token);
// - the job rebuilds the person's context AS OF NOW (their perfil's tags and centros de custo in the
//   entidade: a person who lost the tag or left the entidade gets nothing), checks the filters again,
//   reads the rows page by page (a report with `loadPage`; another in one read bounded by the limit),
//   sorts, sums and builds the file's rows in chunks with a pause between them, renders it in the
//   worker pools' background lane (a longer time limit, a larger heap, never in front of the files
//   people wait for) and stores it in parts of 256 KiB until it expires (RELATORIOS_ARQUIVO_DIAS); progress on the row after each page, each a
//   single statement: no transaction is held while the file is made (PGlite has one connection);
// - GET /api/relatorios/:id/arquivos (mine), :id/arquivos/:arquivoId[/download]: only the person who
//   asked, in the same entidade, with the report's tag checked again (404 otherwise); the download audited;
// - expired files are deleted when the list is read, when a job starts and by a job relatorios.limpar
//   sent for the expiry of each file.
import { setImmediate as pausa } from 'node:timers/promises';
import {
  AppError,
  type CellValue,
  type JobContext,
  JobFailed,
  type PluginContext,
  type PluginJobs,
  type PluginRouter,
  RELATORIOS,
  type ReportDefinition,
  type ReportFilters,
  type RequestContext,
  defineJob,
  documentEntidade,
  errorResponseSchema,
  isExemptTag,
  notFound,
  perfis,
  renderDocumentPdf,
  usuarioEntidades,
  usuarios,
  writeXlsxInWorker,
} from '@app/server-core';
import { and, desc, eq, inArray, lte, sql } from '@app/server-core/orm';
import { z } from 'zod';
import {
  type Arquivo,
  MAX_LINHAS,
  MAX_LINHAS_PDF_SEGUNDO_PLANO,
  MAX_LINHAS_SEGUNDO_PLANO,
  RELATORIOS_TAG,
  arquivoSchema,
  arquivosSchema,
  emAndamento,
  pedidoArquivoSchema,
} from '../shared/index.js';
import { type Rodado, linhaPdf, linhaXlsx, nomeDoArquivo, pdfDe, respostaDoArquivo, xlsxDe } from './documentos.js';
import { type Linha, conferirIntervalos, descrever, lerFiltros, linhaDe, ordenarAosPoucos, somarAosPoucos } from './executar.js';
import { relatoriosArquivos, relatoriosArquivosPartes } from './tables.js';

export const FILA_GERAR = 'gerar';
export const FILA_LIMPAR = 'limpar';
/** Rows between two updates of the progress. */
export const PAGINA = 5_000;
/**
 * Rows read per page of a report with `loadPage`, and turned into cells between two pauses: in the
 * embedded database the query runs in the server's own thread, and 5 000 rows held it about 250 ms.
 */
export const PAGINA_LIDA = 500;
/** Bytes of each part of a ready file (relatorios_arquivos_partes), written and read one at a time. */
export const PARTE = 256 * 1024;
/** Files one person may have waiting or in the making at once; one more answers 429. */
export const ARQUIVOS_EM_ANDAMENTO = 3;

/**
 * A report that can be read page by page (`offset`, `limit`, in a stable order): the background job
 * reads it so, with a pause between pages. Declared next to `load` by the contributing plugin:
 * `defineReport(Object.assign(definicao, { loadPage }))`. A report without it is read in one `load`.
 */
export interface RelatorioPaginado {
  loadPage(ctx: RequestContext, filters: ReportFilters, page: { offset: number; limit: number }): Promise<readonly Record<string, unknown>[]>;
}

const paginado = (report: ReportDefinition): report is ReportDefinition & RelatorioPaginado =>
  typeof (report as Partial<RelatorioPaginado>).loadPage === 'function';

/** RELATORIOS_ARQUIVO_DIAS: days a generated file is kept (default 7, 1 to 365). */
export function diasDoAmbiente(padrao: number): number {
  const raw = process.env.RELATORIOS_ARQUIVO_DIAS?.trim();
  if (!raw) return padrao;
  const dias = Number(raw);
  if (!Number.isInteger(dias) || dias < 1 || dias > 365) throw new Error(`RELATORIOS_ARQUIVO_DIAS must be an integer from 1 to 365 (got '${raw}').`);
  return dias;
}

/**
 * RELATORIOS_MAX_LINHAS: rows above which a report has no preview nor direct file and is made in the
 * background (default and most MAX_LINHAS, 10 000; from 1: lower only, e.g. for the end-to-end tests).
 */
export function limiteDoAmbiente(): number {
  const raw = process.env.RELATORIOS_MAX_LINHAS?.trim();
  if (!raw) return MAX_LINHAS;
  const linhas = Number(raw);
  if (!Number.isInteger(linhas) || linhas < 1 || linhas > MAX_LINHAS) {
    throw new Error(`RELATORIOS_MAX_LINHAS must be an integer from 1 to ${MAX_LINHAS} (got '${raw}').`);
  }
  return linhas;
}

/** The report `id` if the person may run it (its tag and the catalogue's); 404 otherwise. */
export function relatorioDe(ctx: Pick<RequestContext, 'contributions' | 'hasTag'>, id: string): ReportDefinition {
  const found = ctx.contributions(RELATORIOS).find(({ value }) => value.id === id)?.value;
  if (!found || !ctx.hasTag(found.tag) || !ctx.hasTag(RELATORIOS_TAG)) throw notFound('Relatório não encontrado.');
  return found;
}

/**
 * The context of a request of `usuarioId` in `entidadeId`, built now from the database (server-core
 * builds one only from a live session): their perfil's tags, centros de custo and `todosCentros`.
 * Null when the person is inactive or no longer a member of the entidade. No session, no ip; a
 * `mutate` of the report would be audited as the system.
 */
export async function contextoDaPessoa(base: PluginContext, jctx: JobContext, usuarioId: string, entidadeId: string): Promise<RequestContext | null> {
  const [row] = await jctx.db
    .select({
      id: usuarios.id,
      nome: usuarios.nome,
      login: usuarios.login,
      email: usuarios.email,
      ativo: usuarios.ativo,
      tags: perfis.tags,
      todosCentros: perfis.todosCentros,
      centrosCusto: usuarioEntidades.centrosCusto,
    })
    .from(usuarios)
    .innerJoin(usuarioEntidades, and(eq(usuarioEntidades.usuarioId, usuarios.id), eq(usuarioEntidades.entidadeId, entidadeId)))
    .innerJoin(perfis, eq(perfis.id, usuarioEntidades.perfilId))
    .where(eq(usuarios.id, usuarioId))
    .limit(1);
  if (!row?.ativo) return null;
  const tags = [...row.tags].sort((a, b) => a - b);
  return {
    ...base,
    db: jctx.db,
    user: { id: row.id, nome: row.nome, login: row.login, email: row.email },
    entidadeId,
    sessionId: `tarefa:${jctx.jobId}`,
    tags,
    ip: null,
    hasTag: (tag) => isExemptTag(tag) || tags.includes(tag),
    centrosCusto: [...new Set(row.centrosCusto)].sort(),
    todosCentros: row.todosCentros,
    leituraControleInterno: false,
    mutate: jctx.mutate,
  };
}

const payloadSchema = z.object({
  arquivoId: z.uuid(),
  relatorioId: z.string().max(100),
  formato: z.enum(['pdf', 'xlsx']),
  filtros: z.record(z.string(), z.string().max(200)),
  usuarioId: z.uuid(),
  entidadeId: z.uuid(),
});

type Db = JobContext['db'];

/** Deletes the files past their expiry (any person's): their rows go, content and all. */
export async function apagarVencidos(db: Db): Promise<number> {
  const apagados = await db.delete(relatoriosArquivos).where(lte(relatoriosArquivos.expiraEm, sql`now()`)).returning({ id: relatoriosArquivos.id });
  return apagados.length;
}

const progresso = (db: Db, id: string, set: Partial<typeof relatoriosArquivos.$inferInsert>) =>
  db
    .update(relatoriosArquivos)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(relatoriosArquivos.id, id));

/** An error the person must read (a filter no longer valid, too many rows, a file too large): no retry. */
const falhaDe = (err: unknown): JobFailed | null => {
  if (err instanceof JobFailed) return err;
  if (err instanceof AppError && err.status !== 429 && err.status < 500) return new JobFailed(err.message);
  return null;
};

/** The job; `tempoPdfMs`: its PDF's time limit (default the kit's background lane's, COMPRAS_PDF_BACKGROUND_MINUTES). */
export function jobGerar(base: () => PluginContext, dias: number, tempoPdfMs?: number) {
  return defineJob({
    schema: payloadSchema,
    options: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800, heartbeatSeconds: 30 },
    handler: async (job, jctx) => {
      const p = job.data;
      await apagarVencidos(jctx.db);
      const [arquivo] = await jctx.db.select({ estado: relatoriosArquivos.estado }).from(relatoriosArquivos).where(eq(relatoriosArquivos.id, p.arquivoId));
      if (!arquivo || arquivo.estado === 'pronto') return { ignorado: arquivo?.estado ?? 'inexistente' };
      await progresso(jctx.db, p.arquivoId, { estado: 'gerando', fase: 'lendo', linhas: 0, total: null, erro: null });
      try {
        const r = await gerar(base(), jctx, p, tempoPdfMs);
        const partes = await gravarPartes(jctx.db, p.arquivoId, r.bytes, jctx.signal);
        const expira = sql`now() + make_interval(days => ${dias})`;
        const [pronto] = await jctx.mutate(async (tx, audit) => {
          const rows = await tx
            .update(relatoriosArquivos)
            .set({
              estado: 'pronto',
              fase: null,
              linhas: r.linhas,
              total: r.linhas,
              partes,
              tamanho: r.bytes.byteLength,
              nomeArquivo: r.nome,
              concluidoEm: sql`now()`,
              expiraEm: expira,
              updatedAt: sql`now()`,
            })
            .where(eq(relatoriosArquivos.id, p.arquivoId))
            .returning({ expiraEm: relatoriosArquivos.expiraEm });
          // deleted by its owner while it was made: nothing to keep
          if (rows.length === 0) return rows;
          audit({
            registro: p.arquivoId,
            acao: 'arquivo_gerado',
            entidadeId: p.entidadeId,
            depois: { relatorio: p.relatorioId, formato: p.formato, linhas: r.linhas, tamanho: r.bytes.byteLength },
          });
          return rows;
        });
        // the file is deleted at its expiry even when nobody reads the list again
        // (a failure here leaves the file ready: the list and the next job sweep it anyway)
        if (pronto?.expiraEm) {
          await jctx.jobs
            .send(FILA_LIMPAR, {}, { startAfter: new Date(pronto.expiraEm.getTime() + 60_000) })
            .catch((err: unknown) => jctx.logger.warn(`relatorios.limpar não agendado: ${(err as Error).message}`));
        }
        return { linhas: r.linhas, tamanho: r.bytes.byteLength };
      } catch (err) {
        const falha = falhaDe(err);
        const ultima = falha !== null || jctx.attempt > jctx.retryLimit;
        await jctx.mutate(async (tx, audit) => {
          const motivo = falha?.message ?? 'erro inesperado ao gerar o arquivo';
          const marcados = await tx
            .update(relatoriosArquivos)
            .set(ultima ? { estado: 'falhou', fase: null, erro: motivo, updatedAt: sql`now()` } : { estado: 'na_fila', fase: null, updatedAt: sql`now()` })
            .where(eq(relatoriosArquivos.id, p.arquivoId))
            .returning({ id: relatoriosArquivos.id });
          if (ultima && marcados.length > 0)
            audit({ registro: p.arquivoId, acao: 'arquivo_falhou', entidadeId: p.entidadeId, depois: { relatorio: p.relatorioId, motivo } });
        });
        throw falha ?? err;
      }
    },
  });
}

export function jobLimpar() {
  return defineJob({
    schema: z.object({}),
    options: { retryLimit: 2, retryDelay: 60 },
    handler: async (_job, jctx) => ({ apagados: await apagarVencidos(jctx.db) }),
  });
}

/** The job's work: the person's context now, the rows by pages, the file's rows by chunks, the file. */
async function gerar(base: PluginContext, jctx: JobContext, p: z.output<typeof payloadSchema>, tempoPdfMs: number | undefined) {
  const ctx = await contextoDaPessoa(base, jctx, p.usuarioId, p.entidadeId);
  if (!ctx) throw new JobFailed('A pessoa que pediu não tem mais acesso a esta entidade.');
  let report: ReportDefinition;
  try {
    report = relatorioDe(ctx, p.relatorioId);
  } catch {
    throw new JobFailed('Você não tem mais acesso a este relatório.');
  }
  const relatorio = await descrever(report, ctx);
  const execucao = lerFiltros(relatorio, p.filtros);
  conferirIntervalos(report, execucao.filtros);
  const limite = p.formato === 'pdf' ? MAX_LINHAS_PDF_SEGUNDO_PLANO : MAX_LINHAS_SEGUNDO_PLANO;
  const demais = () =>
    new JobFailed(
      `O relatório passa de ${limite.toLocaleString('pt-BR')} linhas, o máximo ${p.formato === 'pdf' ? 'de um PDF' : 'de uma planilha'} gerado em segundo plano: restrinja o período ou os filtros.`,
    );

  const linhas: Linha[] = [];
  if (paginado(report)) {
    let paginas = 0;
    for (let offset = 0; ; offset += PAGINA_LIDA) {
      jctx.signal.throwIfAborted();
      const pagina = await report.loadPage(ctx, execucao.filtros, { offset, limit: Math.min(PAGINA_LIDA, limite + 1 - offset) });
      for (const l of pagina) linhas.push(linhaDe(relatorio, l));
      if (linhas.length > limite) throw demais();
      if (pagina.length < PAGINA_LIDA) break;
      // the progress every 5 000 rows
      if (++paginas % (PAGINA / PAGINA_LIDA) === 0) await progresso(jctx.db, p.arquivoId, { linhas: linhas.length });
      await pausa();
    }
  } else {
    // one read: in the embedded database it holds the thread while it runs (a report with loadPage does not)
    let lidas: readonly Record<string, unknown>[] = await report.load(ctx, execucao.filtros, limite + 1);
    if (lidas.length > limite) throw demais();
    for (let i = 0; i < lidas.length; i += PAGINA_LIDA) {
      for (let j = i; j < Math.min(lidas.length, i + PAGINA_LIDA); j++) linhas.push(linhaDe(relatorio, lidas[j]!));
      await pausa();
    }
    lidas = [];
  }
  const total = linhas.length;
  await progresso(jctx.db, p.arquivoId, { fase: 'montando', linhas: 0, total });
  // sorted and summed a piece at a time too (200 000 rows at once: seconds of the thread)
  await ordenarAosPoucos(linhas, relatorio, execucao, pausa);
  const totais = await somarAosPoucos(linhas, relatorio, pausa);
  const rodado: Rodado = { report, relatorio, execucao, linhas, totais, geradoEm: new Date(), geradoPor: ctx.user.nome };
  const entidade = await documentEntidade(ctx);

  // the file's rows, a chunk at a time (formatting 200 000 rows at once would hold the thread for seconds)
  const celulas: (string[] | CellValue[])[] = [];
  for (let i = 0; i < total; i += PAGINA_LIDA) {
    jctx.signal.throwIfAborted();
    for (let j = i; j < Math.min(total, i + PAGINA_LIDA); j++) {
      celulas.push(p.formato === 'pdf' ? linhaPdf(relatorio.colunas, linhas[j]!) : linhaXlsx(relatorio.colunas, linhas[j]!));
    }
    if ((i + PAGINA_LIDA) % PAGINA === 0 || i + PAGINA_LIDA >= total) await progresso(jctx.db, p.arquivoId, { linhas: Math.min(total, i + PAGINA_LIDA) });
    await pausa();
  }
  await progresso(jctx.db, p.arquivoId, { fase: 'gravando', linhas: total });
  // the background lane of the worker pools: its own worker, a longer time limit and a larger heap than
  // a file a person waits for (a PDF of 50 000 rows takes about a minute and 1.5 GB)
  const bytes =
    p.formato === 'pdf'
      ? await renderDocumentPdf(pdfDe(rodado, entidade, celulas as string[][]), { signal: jctx.signal, background: true, timeoutMs: tempoPdfMs })
      : await writeXlsxInWorker([xlsxDe(rodado, entidade, celulas as CellValue[][])], { signal: jctx.signal, background: true });
  return { bytes, linhas: total, nome: nomeDoArquivo(relatorio.title, p.formato) };
}

/**
 * Writes the file in parts of PARTE bytes, one statement each with a pause between them (the parts of an
 * earlier attempt deleted first); answers how many. Hex text in, decoded by the database: the embedded
 * database's own bytea encoding of a 16 MB file took seconds of the thread.
 */
async function gravarPartes(db: Db, arquivoId: string, bytes: Uint8Array, signal: AbortSignal): Promise<number> {
  await db.delete(relatoriosArquivosPartes).where(eq(relatoriosArquivosPartes.arquivoId, arquivoId));
  let n = 0;
  for (let inicio = 0; inicio < bytes.byteLength; inicio += PARTE, n++) {
    signal.throwIfAborted();
    const hex = Buffer.from(bytes.buffer, bytes.byteOffset + inicio, Math.min(PARTE, bytes.byteLength - inicio)).toString('hex');
    await db.insert(relatoriosArquivosPartes).values({ arquivoId, n, dados: sql`decode(${hex}, 'hex')` });
    await pausa();
  }
  return n;
}

/** The ready file's bytes: its parts read one at a time (or, for one kept before the parts, its conteudo). */
async function lerArquivo(db: Db, arquivoId: string, partes: number | null): Promise<Uint8Array | null> {
  if (partes === null) {
    const [row] = await db.select({ conteudo: relatoriosArquivos.conteudo }).from(relatoriosArquivos).where(eq(relatoriosArquivos.id, arquivoId));
    return row?.conteudo ? new Uint8Array(row.conteudo) : null;
  }
  const pedacos: Buffer[] = [];
  for (let n = 0; n < partes; n++) {
    const [parte] = await db
      .select({ hex: sql<string>`encode(${relatoriosArquivosPartes.dados}, 'hex')` })
      .from(relatoriosArquivosPartes)
      .where(and(eq(relatoriosArquivosPartes.arquivoId, arquivoId), eq(relatoriosArquivosPartes.n, n)));
    // deleted meanwhile (by its owner, or expired)
    if (!parte) return null;
    pedacos.push(Buffer.from(parte.hex, 'hex'));
  }
  const tudo = Buffer.concat(pedacos);
  return new Uint8Array(tudo.buffer, tudo.byteOffset, tudo.byteLength);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const colunasDaLista = {
  id: relatoriosArquivos.id,
  relatorioId: relatoriosArquivos.relatorioId,
  titulo: relatoriosArquivos.titulo,
  formato: relatoriosArquivos.formato,
  filtrosUsados: relatoriosArquivos.filtrosUsados,
  estado: relatoriosArquivos.estado,
  fase: relatoriosArquivos.fase,
  linhas: relatoriosArquivos.linhas,
  total: relatoriosArquivos.total,
  erro: relatoriosArquivos.erro,
  nomeArquivo: relatoriosArquivos.nomeArquivo,
  tamanho: relatoriosArquivos.tamanho,
  createdAt: relatoriosArquivos.createdAt,
  concluidoEm: relatoriosArquivos.concluidoEm,
  expiraEm: relatoriosArquivos.expiraEm,
};

type LinhaDaLista = Omit<Arquivo, 'criadoEm' | 'concluidoEm' | 'expiraEm'> & { createdAt: Date; concluidoEm: Date | null; expiraEm: Date | null };

const paraApi = ({ createdAt, concluidoEm, expiraEm, ...r }: LinhaDaLista): Arquivo => ({
  ...r,
  criadoEm: iso(createdAt)!,
  concluidoEm: iso(concluidoEm),
  expiraEm: iso(expiraEm),
});

/** The person's own files (same entidade), not expired, of reports they may still run. */
const meus = (ctx: RequestContext) =>
  and(
    eq(relatoriosArquivos.usuarioId, ctx.user.id),
    eq(relatoriosArquivos.entidadeId, ctx.entidadeId),
    sql`(${relatoriosArquivos.expiraEm} IS NULL OR ${relatoriosArquivos.expiraEm} > now())`,
  );

const podeRodar = (ctx: RequestContext, relatorioId: string) => {
  try {
    relatorioDe(ctx, relatorioId);
    return true;
  } catch {
    return false;
  }
};

async function umDosMeus(ctx: RequestContext, relatorioId: string, id: string): Promise<Arquivo> {
  const [row] = await ctx.db
    .select(colunasDaLista)
    .from(relatoriosArquivos)
    .where(and(eq(relatoriosArquivos.id, id), eq(relatoriosArquivos.relatorioId, relatorioId), meus(ctx)));
  if (!row || !podeRodar(ctx, row.relatorioId)) throw notFound('Arquivo não encontrado.');
  return paraApi(row);
}

export function registrarArquivos(router: PluginRouter, jobs: () => PluginJobs, filtrosDescricao: string): void {
  const params = z.object({ id: z.string().max(100), arquivoId: z.uuid() });
  const naoEncontrado = { description: 'Arquivo de outra pessoa, de outra entidade, vencido, ou relatório sem a tag', schema: errorResponseSchema };

  router.route({
    method: 'get',
    path: '/:id/arquivos',
    tag: RELATORIOS_TAG,
    summary: 'Meus arquivos de um relatório gerados em segundo plano',
    description:
      'Os arquivos deste relatório que a pessoa pediu nesta entidade (os 100 mais recentes), com o estado (na fila, gerando, pronto, falhou), o progresso e até quando podem ser baixados. Os vencidos são apagados. 404 se o relatório não existe ou a pessoa não tem a tag dele.',
    request: { params: z.object({ id: z.string().max(100) }) },
    responses: { 200: arquivosSchema, 404: { description: 'Relatório inexistente ou sem a tag', schema: errorResponseSchema } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      relatorioDe(ctx, id);
      await apagarVencidos(ctx.db);
      const rows = await ctx.db
        .select(colunasDaLista)
        .from(relatoriosArquivos)
        .where(and(meus(ctx), eq(relatoriosArquivos.relatorioId, id)))
        .orderBy(desc(relatoriosArquivos.createdAt))
        .limit(100);
      return c.json({ items: rows.map((r) => paraApi(r)) }, 200);
    },
  });

  router.route({
    method: 'get',
    path: '/:id/arquivos/:arquivoId',
    tag: RELATORIOS_TAG,
    summary: 'Estado de um arquivo gerado em segundo plano',
    description: 'Só de quem pediu, na mesma entidade, com a tag do relatório: 404 de outro modo.',
    request: { params },
    responses: { 200: arquivoSchema, 404: naoEncontrado },
    handler: async (c, ctx) => {
      const { id, arquivoId } = c.req.valid('param');
      return c.json(await umDosMeus(ctx, id, arquivoId), 200);
    },
  });

  router.route({
    method: 'get',
    path: '/:id/arquivos/:arquivoId/download',
    tag: RELATORIOS_TAG,
    summary: 'Baixar um arquivo gerado em segundo plano',
    description: 'Só de quem pediu, na mesma entidade, pronto e não vencido, com a tag do relatório conferida de novo (404 de outro modo). Auditado.',
    request: { params },
    responses: {
      200: { description: 'Arquivo PDF ou planilha XLSX', file: 'application/octet-stream' },
      404: naoEncontrado,
      409: { description: 'O arquivo ainda não está pronto', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const { id, arquivoId } = c.req.valid('param');
      const arquivo = await umDosMeus(ctx, id, arquivoId);
      if (arquivo.estado !== 'pronto') throw new AppError(409, 'arquivo_nao_pronto', 'O arquivo ainda não está pronto.');
      const [row] = await ctx.db
        .select({ partes: relatoriosArquivos.partes })
        .from(relatoriosArquivos)
        .where(and(eq(relatoriosArquivos.id, arquivoId), meus(ctx)));
      const bytes = row ? await lerArquivo(ctx.db, arquivoId, row.partes) : null;
      if (!bytes) throw notFound('Arquivo não encontrado.');
      await ctx.mutate(async (_tx, audit) => {
        audit({ registro: arquivoId, acao: 'baixar_arquivo', depois: { relatorio: arquivo.relatorioId, formato: arquivo.formato, linhas: arquivo.total } });
      });
      return respostaDoArquivo(bytes, arquivo.formato, arquivo.nomeArquivo ?? `relatorio.${arquivo.formato}`);
    },
  });

  router.route({
    method: 'delete',
    path: '/:id/arquivos/:arquivoId',
    tag: RELATORIOS_TAG,
    summary: 'Excluir ou cancelar um arquivo gerado em segundo plano',
    description:
      'Só de quem pediu, na mesma entidade, com a tag do relatório (404 de outro modo). Um arquivo na fila ou sendo gerado é cancelado (a tarefa em andamento termina sem gravá-lo); um pronto ou que falhou é apagado. Auditado.',
    request: { params },
    responses: { 204: { description: 'Excluído' }, 404: naoEncontrado },
    handler: async (c, ctx) => {
      const { id, arquivoId } = c.req.valid('param');
      const arquivo = await umDosMeus(ctx, id, arquivoId);
      const [apagado] = await ctx.mutate(async (tx, audit) => {
        const rows = await tx
          .delete(relatoriosArquivos)
          .where(and(eq(relatoriosArquivos.id, arquivoId), eq(relatoriosArquivos.usuarioId, ctx.user.id), eq(relatoriosArquivos.entidadeId, ctx.entidadeId)))
          .returning({ jobId: relatoriosArquivos.jobId, estado: relatoriosArquivos.estado });
        if (rows.length > 0) {
          audit({
            registro: arquivoId,
            acao: emAndamento(rows[0]!.estado) ? 'cancelar_arquivo' : 'excluir_arquivo',
            antes: { relatorio: arquivo.relatorioId, formato: arquivo.formato, estado: rows[0]!.estado },
          });
        }
        return rows;
      });
      if (!apagado) throw notFound('Arquivo não encontrado.');
      // a job still queued is cancelled; a running one finds its row gone and keeps nothing
      if (apagado.jobId && emAndamento(apagado.estado)) {
        await jobs()
          .cancel(FILA_GERAR, apagado.jobId)
          .catch(() => undefined);
      }
      return c.body(null, 204);
    },
  });

  router.route({
    method: 'post',
    path: '/:id/arquivos',
    tag: RELATORIOS_TAG,
    summary: 'Gerar o PDF ou o XLSX de um relatório em segundo plano',
    description: `${filtrosDescricao} Os filtros são conferidos agora e de novo quando a tarefa roda (com as tags e os centros de custo da pessoa naquele momento). Até ${MAX_LINHAS_SEGUNDO_PLANO.toLocaleString('pt-BR')} linhas numa planilha e ${MAX_LINHAS_PDF_SEGUNDO_PLANO.toLocaleString('pt-BR')} num PDF; no máximo ${ARQUIVOS_EM_ANDAMENTO} arquivos da pessoa na fila ou sendo gerados. Auditado.`,
    request: { params: z.object({ id: z.string().max(100) }), body: pedidoArquivoSchema },
    responses: {
      202: arquivoSchema,
      400: { description: 'Filtro inválido', schema: errorResponseSchema },
      404: { description: 'Relatório inexistente ou sem a tag', schema: errorResponseSchema },
      429: { description: 'A pessoa já tem o máximo de arquivos na fila', schema: errorResponseSchema },
    },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      const { formato } = c.req.valid('json');
      const report = relatorioDe(ctx, id);
      const relatorio = await descrever(report, ctx);
      const query = c.req.query();
      const execucao = lerFiltros(relatorio, query);
      conferirIntervalos(report, execucao.filtros);
      // what the job reads again: the declared filters and the sort, nothing else of the query string
      const filtros: Record<string, string> = {};
      for (const k of [...relatorio.filtros.map((f) => f.name), 'ordem', 'direcao']) {
        const v = query[k]?.trim();
        if (v) filtros[k] = v;
      }
      const arquivoId = await ctx.mutate(async (tx, audit) => {
        const [naFila] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(relatoriosArquivos)
          .where(
            and(
              eq(relatoriosArquivos.usuarioId, ctx.user.id),
              eq(relatoriosArquivos.entidadeId, ctx.entidadeId),
              inArray(relatoriosArquivos.estado, ['na_fila', 'gerando']),
            ),
          );
        if ((naFila?.n ?? 0) >= ARQUIVOS_EM_ANDAMENTO) {
          throw new AppError(
            429,
            'arquivos_em_andamento',
            `Você já tem ${ARQUIVOS_EM_ANDAMENTO} arquivos na fila ou sendo gerados: aguarde terminarem para pedir outro.`,
            undefined,
            { 'Retry-After': '30' },
          );
        }
        const [row] = await tx
          .insert(relatoriosArquivos)
          .values({
            entidadeId: ctx.entidadeId,
            usuarioId: ctx.user.id,
            relatorioId: report.id,
            titulo: relatorio.title,
            formato,
            filtros,
            filtrosUsados: execucao.filtrosUsados,
          })
          .returning({ id: relatoriosArquivos.id });
        const novo = row!.id;
        const jobId = await jobs().send(tx, FILA_GERAR, {
          arquivoId: novo,
          relatorioId: report.id,
          formato,
          filtros,
          usuarioId: ctx.user.id,
          entidadeId: ctx.entidadeId,
        });
        await tx.update(relatoriosArquivos).set({ jobId }).where(eq(relatoriosArquivos.id, novo));
        audit({ registro: novo, acao: 'gerar_arquivo', depois: { relatorio: report.id, formato, filtros: execucao.filtrosUsados } });
        return novo;
      });
      return c.json(await umDosMeus(ctx, report.id, arquivoId), 202);
    },
  });
}
