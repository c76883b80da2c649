// @app/relatorios/server: the reports the plugins contribute to the kit's RELATORIOS point, run for
// the person: GET /api/relatorios (the catalogue: the reports whose tag the person holds),
// GET /api/relatorios/:id (filters and columns), GET /api/relatorios/:id/linhas (the preview),
// GET /api/relatorios/:id/pdf and /xlsx (the files: title, entidade, filters used, who and when,
// totals, page numbers; each download audited, 'baixar_relatorio'). The filters go in the query string (`?de=01/01/2026&ordem=valor&direcao=desc`).
// A report above MAX_LINHAS (10 000) is made in the background: POST /api/relatorios/:id/arquivos,
// then GET /api/relatorios/:id/arquivos[/:arquivoId[/download]] (arquivos.ts, job relatorios.gerar).
import {
  type PluginContext,
  type PluginJobs,
  RELATORIOS,
  type RequestContext,
  defineServerPlugin,
  documentEntidade,
  documentJob,
  errorResponseSchema,
  renderDocumentPdf,
  writeXlsxInWorker,
} from '@app/server-core';
import { z } from 'zod';
import { ARQUIVO_DIAS_PADRAO, LINHAS_NA_TELA, RELATORIOS_TAG, RELATORIOS_TAG_NOME, catalogoSchema, relatorioSchema, resultadoSchema } from '../shared/index.js';
import { FILA_GERAR, FILA_LIMPAR, diasDoAmbiente, jobGerar, jobLimpar, limiteDoAmbiente, registrarArquivos, relatorioDe } from './arquivos.js';
import { CONTENT_TYPE, type Rodado, nomeDoArquivo, pdfDe, respostaDoArquivo, xlsxDe } from './documentos.js';
import { descrever, executar, lerFiltros } from './executar.js';
import { seedRelatorios } from './seed.js';

export type { RelatorioPaginado } from './arquivos.js';

async function rodar(ctx: RequestContext, id: string, query: Record<string, string | undefined>, limite: number): Promise<Rodado> {
  const report = relatorioDe(ctx, id);
  const relatorio = await descrever(report, ctx);
  const execucao = lerFiltros(relatorio, query);
  const { linhas, totais } = await executar(report, relatorio, ctx, execucao, limite);
  return { report, relatorio, execucao, linhas, totais, geradoEm: new Date(), geradoPor: ctx.user.nome };
}

const params = z.object({ id: z.string().max(100) });
const FILTROS =
  'Os filtros do relatório vão na query string, pelo nome declarado (datas em dd/mm/aaaa ou aaaa-mm-dd), com `ordem` (uma coluna) e `direcao` (asc ou desc).';

/** What the plugin may be given (tests): the time limits of its PDFs, in milliseconds. */
export interface OpcoesRelatorios {
  /**
   * `direto`: a PDF a person waits for (GET /api/relatorios/:id/pdf; default the kit's minute);
   * `segundoPlano`: a background job's (default the kit's background lane: COMPRAS_PDF_BACKGROUND_MINUTES, 20).
   */
  tempoPdfMs?: { direto?: number; segundoPlano?: number };
}

/**
 * The plugin; a file generated in the background is kept RELATORIOS_ARQUIVO_DIAS days (default 7); a report
 * over RELATORIOS_MAX_LINHAS rows (default and most 10 000) is made in the background only.
 */
export function defineRelatoriosPlugin(opcoes: OpcoesRelatorios = {}) {
  const dias = diasDoAmbiente(ARQUIVO_DIAS_PADRAO);
  const limite = limiteDoAmbiente();
  let base: PluginContext | undefined;
  const contexto = () => {
    if (!base) throw new Error('@app/relatorios: the plugin routes were not set up (no job queues yet).');
    return base;
  };
  const filas = (): PluginJobs => contexto().jobs;
  return defineServerPlugin({
    id: 'relatorios',
    version: __PKG_VERSION__,
    core: '^1.0.0',
    tags: [{ tag: RELATORIOS_TAG, nome: RELATORIOS_TAG_NOME }],
    migrations: new URL('../../migrations/', import.meta.url),
    jobs: { [FILA_GERAR]: jobGerar(contexto, dias, opcoes.tempoPdfMs?.segundoPlano), [FILA_LIMPAR]: jobLimpar() },
    seed: seedRelatorios,
    routes(router, ctx) {
      base = ctx;
      registrarArquivos(router, filas, FILTROS);
      router.route({
        method: 'get',
        path: '/',
        tag: RELATORIOS_TAG,
        summary: 'Relatórios que a pessoa pode emitir',
        description: 'Os relatórios contribuídos pelos plugins cuja tag a pessoa tem, por grupo e título.',
        responses: { 200: catalogoSchema },
        handler: (c, ctx) => {
          const items = ctx
            .contributions(RELATORIOS)
            .map(({ value }) => value)
            .filter((r) => ctx.hasTag(r.tag))
            .map(({ id, title, description, group }) => ({ id, title, description, group }))
            .sort((a, b) => a.group.localeCompare(b.group, 'pt-BR') || a.title.localeCompare(b.title, 'pt-BR'));
          return c.json({ items }, 200);
        },
      });
      router.route({
        method: 'get',
        path: '/:id',
        tag: RELATORIOS_TAG,
        summary: 'Filtros e colunas de um relatório',
        description: 'As opções dos filtros de escolha vêm no escopo da pessoa (os seus centros de custo, por exemplo).',
        request: { params },
        responses: { 200: relatorioSchema, 404: { description: 'Relatório inexistente ou sem a tag', schema: errorResponseSchema } },
        handler: async (c, ctx) => c.json(await descrever(relatorioDe(ctx, c.req.valid('param').id), ctx), 200),
      });
      router.route({
        method: 'get',
        path: '/:id/linhas',
        tag: RELATORIOS_TAG,
        summary: 'Prévia de um relatório',
        description: `${FILTROS} Responde as primeiras ${LINHAS_NA_TELA} linhas na ordem pedida, o total de linhas e os totais de todas.`,
        request: { params },
        responses: {
          200: resultadoSchema,
          400: { description: 'Filtro inválido ou relatório grande demais', schema: errorResponseSchema },
          404: { description: 'Relatório inexistente ou sem a tag', schema: errorResponseSchema },
        },
        handler: async (c, ctx) => {
          const r = await rodar(ctx, c.req.valid('param').id, c.req.query(), limite);
          return c.json(
            {
              relatorio: r.relatorio,
              filtrosUsados: r.execucao.filtrosUsados,
              linhas: r.linhas.slice(0, LINHAS_NA_TELA),
              totalLinhas: r.linhas.length,
              totais: r.totais,
              ordem: r.execucao.ordem,
              direcao: r.execucao.direcao,
              geradoEm: r.geradoEm.toISOString(),
              geradoPor: r.geradoPor,
            },
            200,
          );
        },
      });
      for (const format of ['pdf', 'xlsx'] as const) {
        router.route({
          method: 'get',
          path: `/:id/${format}`,
          tag: RELATORIOS_TAG,
          summary: `Relatório em ${format.toUpperCase()}`,
          description: `${FILTROS} Título, entidade, filtros usados, quem gerou e quando, todas as linhas e os totais${format === 'pdf' ? ', páginas numeradas' : ''}.`,
          request: { params },
          responses: {
            200: { description: format === 'pdf' ? 'Arquivo PDF' : 'Planilha XLSX', file: CONTENT_TYPE[format] },
            400: { description: 'Filtro inválido ou relatório grande demais', schema: errorResponseSchema },
            404: { description: 'Relatório inexistente ou sem a tag', schema: errorResponseSchema },
            429: { description: 'A pessoa já tem o máximo de arquivos sendo gerados', schema: errorResponseSchema },
          },
          // one of the person's files in the making (at most DOCUMENTS_PER_PERSON per format), dropped when the client leaves
          handler: (c, ctx) =>
            documentJob(c, ctx, format, async (job) => {
              const r = await rodar(ctx, c.req.valid('param').id, c.req.query(), limite);
              const entidade = await documentEntidade(ctx);
              job.check();
              const bytes =
                format === 'pdf'
                  ? await renderDocumentPdf(pdfDe(r, entidade), { signal: job.signal, timeoutMs: opcoes.tempoPdfMs?.direto })
                  : await writeXlsxInWorker([xlsxDe(r, entidade)], { signal: job.signal });
              job.check();
              // every file a person takes away is audited (as the download of one made in the background)
              await ctx.mutate(async (_tx, audit) => {
                audit({
                  registro: r.relatorio.id,
                  acao: 'baixar_relatorio',
                  depois: { relatorio: r.relatorio.id, formato: format, linhas: r.linhas.length, filtros: r.execucao.filtrosUsados },
                });
              });
              return respostaDoArquivo(bytes, format, nomeDoArquivo(r.relatorio.title, format));
            }),
        });
      }
    },
  });
}

export default defineRelatoriosPlugin();
