// Files of a document, declared once (defineDocumentResource's `files`): named outputs of one document
// (its PDF, a memória de cálculo as PDF and XLSX, a form per invited supplier…). The plugin writes what
// each file says (the content builders); the kit owns everything around it:
// - the routes: the main file at `<path>/:id.pdf` (or .xlsx), another at `<path>/:id/<name>.<ext>`,
//   one per child record at `<path>/:id/<child>/:<param>/<name>.<ext>`; each with the document's tag
//   (or the file's), the entidade and row scope of the document (404 outside it, a malformed id too),
//   the child checked to belong to the document and the entidade (404);
// - the entidade printed (its name and CNPJ, read once), the document's number, the issue (when, by
//   whom), handed to the content builders;
// - the file name `<base>-<numero>-<ano>[-<child>].<ext>` (ASCII, cleanFileName), the headers
//   (Content-Type, Content-Disposition inline for a PDF and attachment for a workbook, Cache-Control
//   no-store, X-Content-Type-Options nosniff);
// - the rendering off the request thread (the PDF and XLSX worker pools), as one of the person's
//   documents in the making (documentJob: at most DOCUMENTS_PER_PERSON of each kind, shared by every
//   file of every document, 429 beyond), dropped when the client leaves;
// - the verification code of every PDF (issueVerifiedPdf), and the reader of the verification page
//   (registerVerifiableDocument): the same load and builder, with the checked issue's time and issuer;
// - the OpenAPI operation: a path a client can call, binary content, a stable operationId.
import { formatNumero } from '@app/documents';
import { z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type DocumentKind, documentJob } from '../../formats/document-jobs.js';
import { cleanFileName } from '../../formats/file-name.js';
import { type PdfDocument, renderDocumentPdf } from '../../formats/pdf.js';
import { writeXlsxInWorker } from '../../formats/spreadsheet-pool.js';
import { XLSX_CONTENT_TYPE, type XlsxSheet } from '../../formats/xlsx.js';
import type { RequestContext } from '../../platform/context.js';
import { entidades } from '../../platform/db/schema.js';
import type { DbOrTx } from '../../platform/db/types.js';
import { AppError, notFound } from '../../platform/errors.js';
import { type PluginRouter, errorResponseSchema, kitOperationId } from '../../platform/router.js';
import { type VerifiableContent, issueVerifiedPdf, registerVerifiableDocument } from './verification.js';

type Row = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The entidade as a document prints it. */
export interface DocumentEntidade {
  nome: string;
  /** 14 characters, unformatted. */
  cnpj: string;
}

/** What a PDF builder returns: the kit fills what it leaves out (the entidade, the title, the number, the time). */
export type DocumentPdfContent = Omit<PdfDocument, 'entidade' | 'title' | 'numero' | 'generatedAt'> &
  Partial<Pick<PdfDocument, 'entidade' | 'title' | 'numero' | 'generatedAt'>>;

/** What a file's `load` and its builders get. */
export interface DocumentFileContext {
  ctx: RequestContext;
  /**
   * The document: as GET <path>/:id reads it (items included) for a file without `load`; its table
   * columns for a file with `load` (which reads what it prints).
   */
  row: Row;
  /** The child record's id (a file per child). */
  childId?: string;
  /** The entidade printed. */
  entidade: DocumentEntidade;
  /** The document's number, '12/2026'. */
  numero: string;
  /** This issue: now and the person asking; for the verification page, the issue being checked. */
  emissao: { em: Date; por: string };
}

/** The formats of a file (one route each): `pdf` → application/pdf, `xlsx` → a workbook. */
export interface DocumentFileFormats<D> {
  pdf?(data: D, file: DocumentFileContext): DocumentPdfContent | Promise<DocumentPdfContent>;
  xlsx?(data: D, file: DocumentFileContext): XlsxSheet | XlsxSheet[] | Promise<XlsxSheet | XlsxSheet[]>;
}

/** A file made once per child record of the document (a form per invited supplier). */
export interface DocumentFileChild<D> {
  /** Path segment of the children: 'fornecedores' → `<path>/:id/fornecedores/:<param>/<name>.<ext>`. */
  path: string;
  /** Name of the child id parameter, e.g. 'conviteId'. */
  param: string;
  /** The children's table (with `id` and `entidadeId`) and its column holding the document's id. */
  table: PgTable & { id: AnyPgColumn; entidadeId: AnyPgColumn };
  parentColumn: AnyPgColumn;
  /** The child's part of the file name, e.g. the supplier's name ('Comércio São José' → '…-comercio-sao-jose.pdf'). */
  name?(data: D): string;
}

export interface DocumentFileDefinition<D = unknown> {
  /** What the file is ('Memória de cálculo da cotação'): the OpenAPI summary and the PDF's default title. */
  title: string;
  /** OpenAPI description, for every format or per format. */
  description?: string | Partial<Record<DocumentKind, string>>;
  /** The document's own file: routed at `<path>/:id.<ext>` (at most one). */
  main?: boolean;
  /** Start of the file name (default: the document's name for the main file, else the file's key): 'memoria-de-calculo-cotacao'. */
  fileName?: string;
  /** One file per child record. */
  child?: DocumentFileChild<D>;
  /**
   * What the file prints, read after the kit found the document in the person's scope (and the
   * child under it): null (or a 404 AppError) → 404. Without it the builders get the document as
   * GET <path>/:id reads it.
   */
  load?(file: DocumentFileContext): D | null | Promise<D | null>;
  formats: DocumentFileFormats<D>;
  /**
   * The PDF carries a verification code and the verification page reads it again (default true).
   * The kind recorded: the document's kind for the main file, else '<plugin>/<key>'.
   */
  verify?: boolean;
  /** Kind of the verification record (default above); keep it once codes were issued. */
  kind?: string;
  /** Permission tag of the file's routes (default: the document's). */
  tag?: number;
}

/** Files of a document by key (the key names the route: `<path>/:id/<key>.pdf`). */
export type DocumentFiles = Record<string, DocumentFileDefinition>;

/**
 * Types one file with what its `load` returns (the builders get it typed):
 * `documentFile({ title, load: (f) => carregar(f), formats: { pdf: (mapa, f) => … } })`.
 */
export function documentFile<D>(definition: DocumentFileDefinition<D>): DocumentFileDefinition {
  return definition as DocumentFileDefinition;
}

/** 'Comércio São José Ltda.' → 'comercio-sao-jose-ltda' (file names: ASCII letters, digits and '-'). */
export function fileNameSlug(text: string): string {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'arquivo'
  );
}

/** The entidade of the request as documents print it. */
export async function documentEntidade(ctx: Pick<RequestContext, 'db' | 'entidadeId'>): Promise<DocumentEntidade> {
  const [row] = await ctx.db.select({ nome: entidades.nome, cnpj: entidades.cnpj }).from(entidades).where(eq(entidades.id, ctx.entidadeId));
  return { nome: row?.nome ?? '', cnpj: row?.cnpj ?? '' };
}

/** What defineDocumentFiles needs of the document (given by defineDocumentResource). */
export interface DocumentFilesHost {
  path: string;
  tag: number;
  /** Kind of the document's number sequence (the main PDF's verification kind). */
  kind: string;
  /** 'Requisição': file names and titles of the main file. */
  documento: string;
  singular: string;
  /** The state's label ('Enviado'): the main PDF prints it unless its content says otherwise. */
  stateLabel(status: string): string;
  /** The document as GET <path>/:id reads it (undefined: malformed id, other entidade, out of scope). */
  readOne(db: DbOrTx, id: string, ctx: RequestContext, options?: { scoped?: boolean }): Promise<Row | undefined>;
  /** Its table columns, with the same rules. */
  readHeader(db: DbOrTx, id: string, ctx: RequestContext, options?: { scoped?: boolean }): Promise<Row | undefined>;
}

const CONTENT_TYPE: Record<DocumentKind, string> = { pdf: 'application/pdf', xlsx: XLSX_CONTENT_TYPE };
const FORMAT_NAME: Record<DocumentKind, string> = { pdf: 'PDF', xlsx: 'XLSX' };

/** Route paths of the files: key → format → path (':id' form). */
export type DocumentFilePaths = Record<string, Partial<Record<DocumentKind, string>>>;

/** A file's response: inline PDF or attached workbook, never cached, never sniffed. */
function fileResponse(bytes: Uint8Array, format: DocumentKind, fileName: string): Response {
  const disposition =
    format === 'pdf' ? `inline; filename="${fileName}"` : `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': CONTENT_TYPE[format],
      'content-disposition': disposition,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * Declares the routes of a document's files (see the top of this file) and registers the
 * verification readers of their PDFs. Called by defineDocumentResource (`files`, and `pdf`: the main
 * PDF) before the CRUD routes, so `<path>/:id.pdf` is not read as an id.
 */
export function defineDocumentFiles(router: PluginRouter, host: DocumentFilesHost, files: DocumentFiles): DocumentFilePaths {
  const where = `defineDocumentResource(${router.pluginId}${host.path}).files`;
  const mains = Object.entries(files).filter(([, file]) => file.main);
  if (mains.length > 1) throw new Error(`${where}: only one file can be the main one (${mains.map(([key]) => key).join(', ')}).`);
  const paths: DocumentFilePaths = {};

  for (const [key, file] of Object.entries(files)) {
    if (!/^[a-z][a-z0-9-]*$/.test(key)) throw new Error(`${where}: the file '${key}' needs a name of lower-case letters, digits and '-' (it is its URL).`);
    if (file.main && file.child) throw new Error(`${where}: the main file '${key}' cannot be one per child.`);
    const formats = (Object.keys(file.formats) as DocumentKind[]).filter((format) => file.formats[format]);
    if (formats.length === 0) throw new Error(`${where}: the file '${key}' declares no format (pdf, xlsx).`);
    const child = file.child;
    const tag = file.tag ?? host.tag;
    const base = fileNameSlug(file.fileName ?? (file.main ? host.documento : key));
    const verifies = file.verify !== false && !!file.formats.pdf;
    const kind = file.kind ?? (file.main ? host.kind : `${router.pluginId}/${key}`);

    /** The document (and child) in reach of `ctx`, what the file prints and the context of its builders; null: 404. */
    const prepare = async (ctx: RequestContext, id: string, childId: string | undefined, emissao: DocumentFileContext['emissao'], scoped: boolean) => {
      const row = file.load ? await host.readHeader(ctx.db, id, ctx, { scoped }) : await host.readOne(ctx.db, id, ctx, { scoped });
      if (!row) return null;
      if (child) {
        if (!childId || !UUID.test(childId)) return null;
        const [found] = await ctx.db
          .select({ id: child.table.id })
          .from(child.table)
          .where(and(eq(child.table.id, childId), eq(child.parentColumn, String(row.id)), eq(child.table.entidadeId, ctx.entidadeId)))
          .limit(1);
        if (!found) return null;
      }
      const context: DocumentFileContext = {
        ctx,
        row,
        ...(childId ? { childId } : {}),
        entidade: await documentEntidade(ctx),
        numero: formatNumero(row.numero as number, row.ano as number),
        emissao,
      };
      const data = file.load ? await file.load(context) : row;
      if (data === null || data === undefined) return null;
      return { context, data };
    };

    /** What the PDF prints (the content and what the kit fills), without its generation time. */
    const printable = async (data: unknown, context: DocumentFileContext): Promise<VerifiableContent & { generatedAt?: Date | undefined }> => {
      const content = await file.formats.pdf!(data, context);
      const { generatedAt, ...rest } = content;
      const status = content.status ?? (file.main ? host.stateLabel(String(context.row.status)) : undefined);
      return {
        ...rest,
        entidade: content.entidade ?? context.entidade,
        title: content.title ?? (file.main ? host.documento : file.title),
        numero: content.numero ?? context.numero,
        ...(status === undefined ? {} : { status }),
        generatedAt,
      };
    };

    if (verifies) {
      registerVerifiableDocument(kind, async (ctx, documentoId, issue) => {
        let id = documentoId;
        if (child) {
          if (!UUID.test(documentoId)) return null;
          const [parent] = await ctx.db
            .select({ id: child.parentColumn })
            .from(child.table)
            .where(and(eq(child.table.id, documentoId), eq(child.table.entidadeId, ctx.entidadeId)))
            .limit(1);
          if (!parent) return null;
          id = String(parent.id);
        }
        try {
          const made = await prepare(ctx, id, child ? documentoId : undefined, { em: issue.em, por: issue.por }, false);
          if (!made) return null;
          const { generatedAt: _at, ...printed } = await printable(made.data, made.context);
          return printed;
        } catch (err) {
          // the document (or what the file reads) is no longer there: 'excluído depois desta emissão'
          if (err instanceof AppError && err.status === 404) return null;
          throw err;
        }
      });
    }

    paths[key] = {};
    for (const format of formats) {
      const ext = `.${format}`;
      // the main file: Hono reads `{id{[^/]+\.pdf}}` as the parameter `id` matching '<anything>.pdf'
      const routePath = file.main
        ? `${host.path}/{id{[^/]+\\${ext}}}`
        : child
          ? `${host.path}/:id/${child.path}/:${child.param}/${key}${ext}`
          : `${host.path}/:id/${key}${ext}`;
      const publicPath = file.main ? `${host.path}/{id}${ext}` : routePath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      paths[key][format] = file.main ? `${host.path}/:id${ext}` : routePath;
      const params = child ? z.object({ id: z.string(), [child.param]: z.string() }) : z.object({ id: z.string() });
      const described = typeof file.description === 'string' ? file.description : file.description?.[format];
      router.route({
        method: 'get',
        path: routePath,
        ...(file.main ? { openApiPath: publicPath } : {}),
        // the main PDF keeps '<plugin>.<resource>.pdf'; the others read as the path: 'cotacoes.cotacoes.getMemoriaPdf'
        operationId: file.main
          ? kitOperationId(router.pluginId, host.path, format)
          : kitOperationId(router.pluginId, host.path, ['get', ...(child ? [child.path] : []), key, format].join('-')),
        tag,
        summary: file.main && format === 'pdf' ? `${host.documento} em PDF` : `${file.title} (${FORMAT_NAME[format]})`,
        description:
          described ??
          (file.main ? `O ${host.singular} para imprimir (A4): \`GET ${publicPath}\`.` : `${file.title} em ${FORMAT_NAME[format]}: \`GET ${publicPath}\`.`),
        request: { params },
        responses: {
          200: { description: format === 'pdf' ? 'Arquivo PDF' : 'Planilha XLSX', file: CONTENT_TYPE[format] },
          404: { description: child ? 'Documento ou registro não encontrado' : 'Não encontrado', schema: errorResponseSchema },
          429: { description: 'A pessoa já tem o máximo de arquivos sendo gerados; Retry-After em segundos', schema: errorResponseSchema },
        },
        // at most DOCUMENTS_PER_PERSON files of this format of one person in the making (429 beyond); dropped when the client leaves
        handler: (c, ctx) =>
          documentJob(c, ctx, format, async (job) => {
            const input = c.req.valid('param') as Record<string, string>;
            const id = file.main ? String(input.id).slice(0, -ext.length) : String(input.id);
            const childId = child ? String(input[child.param]) : undefined;
            const emissao = { em: new Date(), por: ctx.user.nome };
            const made = await prepare(ctx, id, childId, emissao, true);
            if (!made) throw notFound();
            const { context, data } = made;
            const name = cleanFileName(
              `${base}-${context.row.numero}-${context.row.ano}${child?.name ? `-${fileNameSlug(child.name(data))}` : ''}${ext}`,
              `${base}${ext}`,
            );
            if (format === 'pdf') {
              const { generatedAt, ...printed } = await printable(data, context);
              job.check();
              const doc: PdfDocument = { ...printed, generatedAt: generatedAt ?? emissao.em };
              // with a verification code recorded for it (verification.ts): a read, not audited
              const bytes = verifies
                ? await issueVerifiedPdf(
                    ctx,
                    { plugin: router.pluginId, tipo: kind, documentoId: childId ?? String(context.row.id), doc, emitidoEm: emissao.em },
                    { signal: job.signal },
                  )
                : await renderDocumentPdf(doc, { signal: job.signal });
              return fileResponse(bytes, format, name);
            }
            const sheets = await file.formats.xlsx!(data, context);
            job.check();
            const bytes = await writeXlsxInWorker(Array.isArray(sheets) ? sheets : [sheets], { signal: job.signal });
            return fileResponse(bytes, format, name);
          }),
      });
    }
  }
  return paths;
}
