// The documents of a cotação (tag 73, under /api/cotacoes): the blank quote form of each invited
// supplier (PDF and XLSX), the import of that supplier's filled XLSX, and the memória de cálculo (PDF
// and XLSX). Everything printed comes from carregarCotacao (entidade and row scope: 404 outside).
// Every document is one of the person's documents in the making (documentJob: at most
// DOCUMENTS_PER_PERSON PDFs and as many workbooks at once, 429 beyond, before anything is loaded),
// rendered or written in a worker thread, and dropped when the client leaves (the request's signal).
import {
  type PluginRouter,
  type RequestContext,
  XLSX_CONTENT_TYPE,
  documentJob,
  entidades,
  fileResponse,
  notFound,
  readUploadedFile,
  issueVerifiedPdf,
  writeXlsxInWorker,
} from '@app/server-core';
import { eq } from '@app/server-core/orm';
import { z } from 'zod';
import { COTACOES_TAG, conviteSchema } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { type EntidadeImpressa, formularioPdf, formularioPlanilha } from './documentos-formulario.js';
import { IMPORTACAO_MAX_BYTES, importarResposta } from './documentos-importar.js';
import { FORMULARIO_PDF, MEMORIA_PDF, registrarVerificacaoDosDocumentos } from './documentos-verificacao.js';
import { memoriaPdf, memoriaPlanilhas } from './documentos-memoria.js';

const params = z.object({ id: z.string() });
const conviteParams = z.object({ id: z.string(), conviteId: z.string() });

async function entidadeDe(ctx: RequestContext): Promise<EntidadeImpressa> {
  const [row] = await ctx.db.select({ nome: entidades.nome, cnpj: entidades.cnpj }).from(entidades).where(eq(entidades.id, ctx.entidadeId));
  return { nome: row?.nome ?? '', cnpj: row?.cnpj ?? '' };
}

/** 'Comércio São José Ltda.' → 'comercio-sao-jose-ltda' (file names). */
const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'arquivo';

function pdfResponse(bytes: Uint8Array, filename: string): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}

/** The cotação (in the person's scope) and one of its invitations, or 404. */
async function comConvite(ctx: RequestContext, id: string, conviteId: string) {
  const mapa = await carregarCotacao(ctx.db, ctx, id);
  const convite = mapa.convites.find((c) => c.id === conviteId);
  if (!convite) throw notFound();
  return { mapa, convite };
}

export function registrarDocumentos(router: PluginRouter): void {
  const tag = COTACOES_TAG;
  registrarVerificacaoDosDocumentos();

  router.route({
    method: 'get',
    path: '/cotacoes/:id/fornecedores/:conviteId/formulario.pdf',
    tag,
    summary: 'Formulário de cotação em branco do fornecedor (PDF)',
    description:
      'Para imprimir, preencher, assinar e devolver: itens, unidades e quantidades com colunas em branco para preço unitário e marca, validade e data.',
    request: { params: conviteParams },
    responses: { 200: { description: 'Arquivo PDF' }, 404: { description: 'Cotação ou convite não encontrado' } },
    handler: (c, ctx) =>
      documentJob(c, ctx, 'pdf', async (job) => {
        const { id, conviteId } = c.req.valid('param');
        const { mapa, convite } = await comConvite(ctx, id, conviteId);
        const emitidoEm = new Date();
        const doc = formularioPdf(mapa, convite, await entidadeDe(ctx), emitidoEm);
        job.check();
        // with a verification code (documentos-verificacao.ts)
        const bytes = await issueVerifiedPdf(
          ctx,
          { plugin: 'cotacoes', tipo: FORMULARIO_PDF, documentoId: convite.id, doc, emitidoEm },
          { signal: job.signal },
        );
        return pdfResponse(bytes, `formulario-cotacao-${mapa.cotacao.numero}-${mapa.cotacao.ano}-${slug(convite.fornecedorNome)}.pdf`);
      }),
  });

  router.route({
    method: 'get',
    path: '/cotacoes/:id/fornecedores/:conviteId/formulario.xlsx',
    tag,
    summary: 'Formulário de cotação em branco do fornecedor (XLSX)',
    description:
      'A planilha que o fornecedor preenche e devolve (importada em POST …/importar): só as células em amarelo são editáveis (validade, data, preço unitário, marca); uma coluna oculta identifica cada item, e a primeira linha, a cotação e o fornecedor.',
    request: { params: conviteParams },
    responses: { 200: { description: 'Planilha XLSX' }, 404: { description: 'Cotação ou convite não encontrado' } },
    handler: (c, ctx) =>
      documentJob(c, ctx, 'xlsx', async (job) => {
        const { id, conviteId } = c.req.valid('param');
        const { mapa, convite } = await comConvite(ctx, id, conviteId);
        const sheet = formularioPlanilha(mapa, convite, await entidadeDe(ctx));
        job.check();
        const body = await writeXlsxInWorker([sheet], { signal: job.signal });
        return fileResponse(
          c,
          { body, contentType: XLSX_CONTENT_TYPE },
          `formulario-cotacao-${mapa.cotacao.numero}-${mapa.cotacao.ano}-${slug(convite.fornecedorNome)}.xlsx`,
        );
      }),
  });

  router.route({
    method: 'post',
    path: '/cotacoes/:id/fornecedores/:conviteId/importar',
    tag,
    summary: 'Importar a resposta do fornecedor (formulário XLSX preenchido)',
    description:
      'multipart/form-data, campo `arquivo`: o formulário deste fornecedor nesta cotação, preenchido. Cada linha é validada (item da cotação, preço positivo com até 4 casas, marca até 200 caracteres) e a data e a validade da proposta também; ' +
      'com qualquer problema, 400 com `fields.arquivo` (resumo) e `fields["linha.N.Coluna"]` (ou `fields["linha.N"]`, a linha toda) para cada problema, e nada é gravado. ' +
      'Sem problemas, a resposta substitui a anterior do fornecedor (como a resposta digitada). Só com a cotação em coleta (409 fora dela).',
    request: { params: conviteParams },
    bodyLimit: { maxBytes: IMPORTACAO_MAX_BYTES, message: 'O arquivo passa de 5 MB: envie o formulário de cotação preenchido (.xlsx).' },
    responses: {
      200: conviteSchema,
      400: { description: 'Arquivo que não é o formulário desta cotação e deste fornecedor, ou linhas com problemas (todas listadas)' },
      404: { description: 'Cotação ou convite não encontrado' },
      409: { description: 'Cotação fora de coleta' },
    },
    handler: async (c, ctx) => {
      const { id, conviteId } = c.req.valid('param');
      return c.json(await importarResposta(ctx, id, conviteId, () => readUploadedFile(c)), 200);
    },
  });

  router.route({
    method: 'get',
    path: '/cotacoes/:id/memoria.pdf',
    tag,
    summary: 'Memória de cálculo da cotação (PDF)',
    description:
      'Para o processo e o Tribunal de Contas: método e regra, todos os preços com fonte, data, link, evidência (SHA-256) e situação (usado, excluído e por quê), estatísticas, preço estimado, vencedores, fornecedores consultados e os que não responderam, justificativa e aprovação, total estimado.',
    request: { params },
    responses: { 200: { description: 'Arquivo PDF (A4 paisagem)' }, 404: { description: 'Não encontrada' } },
    handler: (c, ctx) =>
      documentJob(c, ctx, 'pdf', async (job) => {
        const { id } = c.req.valid('param');
        const mapa = await carregarCotacao(ctx.db, ctx, id);
        const emitidoEm = new Date();
        const doc = memoriaPdf(mapa, await entidadeDe(ctx), { em: emitidoEm, por: ctx.user.nome });
        job.check();
        // with a verification code (documentos-verificacao.ts)
        const bytes = await issueVerifiedPdf(
          ctx,
          { plugin: 'cotacoes', tipo: MEMORIA_PDF, documentoId: mapa.cotacao.id, doc, emitidoEm },
          { signal: job.signal },
        );
        return pdfResponse(bytes, `memoria-de-calculo-cotacao-${mapa.cotacao.numero}-${mapa.cotacao.ano}.pdf`);
      }),
  });

  router.route({
    method: 'get',
    path: '/cotacoes/:id/memoria.xlsx',
    tag,
    summary: 'Memória de cálculo da cotação (XLSX: Resumo, Preços, Fornecedores)',
    request: { params },
    responses: { 200: { description: 'Planilha XLSX' }, 404: { description: 'Não encontrada' } },
    handler: (c, ctx) =>
      documentJob(c, ctx, 'xlsx', async (job) => {
        const { id } = c.req.valid('param');
        const mapa = await carregarCotacao(ctx.db, ctx, id);
        const sheets = memoriaPlanilhas(mapa, await entidadeDe(ctx), { em: new Date(), por: ctx.user.nome });
        job.check();
        const body = await writeXlsxInWorker(sheets, { signal: job.signal });
        return fileResponse(c, { body, contentType: XLSX_CONTENT_TYPE }, `memoria-de-calculo-cotacao-${mapa.cotacao.numero}-${mapa.cotacao.ano}.xlsx`);
      }),
  });
}
