// defineDocumentAttachments: files on a document or on a child record of it (the evidence of a price,
// the signed copy of a memorando). One declaration gives the upload (multipart, the type confirmed by
// the content's first bytes, a size limit answered 413 in pt-BR, the SHA-256 stored and returned), the
// list, the download (always an attachment, `nosniff`, the SHA-256 in a header) and the deletion,
// each with the parent's scope and lock, audited under the parent's timeline (name, type, size and
// SHA-256, never the bytes).
//
// The files live in a table of the plugin (its migration, next to its rows): the plugin's own records
// can then point at an attachment with a foreign key of the same entidade, and the kit is told which
// columns hold what (see AttachmentColumns).
import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { type SQL, and, asc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../../platform/context.js';
import type { AuditFn } from '../../platform/audit.js';
import type { DbOrTx, Tx } from '../../platform/db/types.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { PluginRouter } from '../../platform/router.js';
import { cleanFileName } from '../../formats/file-name.js';
import { type FileType, attachmentResponseHeaders, contentMatchesType, declaredFileType, describeFileTypes } from '../../formats/file-type.js';
import type { DocumentResource } from './define.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Multipart overhead allowed above the file itself (the server refuses a larger body before reading it). */
const MULTIPART_SLACK = 64 * 1024;

/** The columns of the plugin's attachments table, by role. */
export interface AttachmentColumns {
  id: AnyPgColumn;
  entidadeId: AnyPgColumn;
  /** The document the file belongs to. */
  parent: AnyPgColumn;
  /** With `child`: the child record the file belongs to. */
  child?: AnyPgColumn;
  /** The cleaned file name (cleanFileName). */
  nome: AnyPgColumn;
  /** The media type, confirmed by the content. */
  tipo: AnyPgColumn;
  /** Bytes (integer). */
  tamanho: AnyPgColumn;
  /** Hex SHA-256 of the content (char(64)). */
  sha256: AnyPgColumn;
  /** The content (bytea). */
  conteudo: AnyPgColumn;
  enviadoPor: AnyPgColumn;
  enviadoPorNome: AnyPgColumn;
  /** Upload time (timestamptz): the list's order. */
  createdAt?: AnyPgColumn;
}

/** How the kit reaches the parent document: read it in the person's scope, lock it for a change. */
export interface AttachmentParent {
  /** The document (no lock) in the person's entidade and scope; throw 404 (AppError) outside it. */
  read(db: DbOrTx, ctx: RequestContext, id: string): Promise<unknown>;
  /** The document locked (FOR UPDATE) for a change: 404 outside the scope, 409 in a state that does not allow it. */
  lock(tx: Tx, ctx: RequestContext, id: string): Promise<unknown>;
}

/** A child record the files hang off (e.g. a price of a cotação): its table and id column, and its document column. */
export interface AttachmentChild {
  /** Path parameter of the child's id, e.g. 'precoId'. */
  param: string;
  table: PgTable;
  id: AnyPgColumn;
  /** The column of the child that names its document. */
  parentColumn: AnyPgColumn;
}

/** A record of the plugin that points at an attachment: the attachment cannot be deleted under it. */
export interface AttachmentReference {
  table: PgTable;
  column: AnyPgColumn;
  /** 409 message (pt-BR), e.g. 'Esta evidência é usada por um preço.' */
  message: string;
}

export interface DocumentAttachmentsDefinition {
  /** Path of the collection under /api/<plugin>, with the document's `:id` (and the child's parameter), e.g. '/cotacoes/:id/evidencias'. */
  path: string;
  /** Path parameter of an attachment's id (default 'anexoId'). */
  idParam?: string;
  tag: number;
  table: PgTable;
  columns: AttachmentColumns;
  /** The types accepted; the content must confirm the declared type (or the name's extension). */
  types: readonly FileType[];
  /** Largest file, in bytes (413 above it). */
  maxBytes: number;
  parent: AttachmentParent;
  child?: AttachmentChild;
  /** How the OpenAPI summaries name one file and the collection (default 'um anexo', 'os anexos'): 'Enviar a evidência de um preço'. */
  label?: { one: string; many: string };
  /** Multipart field of the file (default 'arquivo'). */
  field?: string;
  /** Name stored when the file name is empty after cleaning (default 'anexo'). */
  fallbackName?: string;
  /** Audit actions under the parent (default 'anexar' and 'excluir_anexo'). */
  actions?: { upload?: string; remove?: string };
  /** Records that point at an attachment (DELETE answers 409 while one does; `removeUnreferenced` keeps those). */
  referencedBy?: AttachmentReference[];
  /** Routes besides upload and download (default both on). */
  routes?: { list?: boolean; remove?: boolean };
  /** More text for the OpenAPI description of the upload (e.g. what to do with the id). */
  uploadNote?: string;
}

/** An attachment as the API answers it (never its content). */
export interface Attachment {
  id: string;
  nome: string;
  tipo: string;
  tamanho: number;
  sha256: string;
}

export const attachmentSchema = z.object({ id: z.string(), nome: z.string(), tipo: z.string(), tamanho: z.number().int(), sha256: z.string() });

/** What defineDocumentAttachments returns: the paths and the operations a plugin's own routes reuse. */
export interface DocumentAttachments {
  readonly paths: { collection: string; item: string };
  /** 'PDF, PNG ou JPEG'. */
  readonly typesText: string;
  /** '5 MB'. */
  readonly limitText: string;
  /** The attachments of a document (or of one child), in upload order. */
  list(db: DbOrTx, parentId: string, childId?: string): Promise<Attachment[]>;
  /** Whether the attachment `id` belongs to the document (and child): for a body that names one (400 otherwise, the plugin's message). */
  belongsTo(db: DbOrTx, parentId: string, id: string, childId?: string): Promise<boolean>;
  /** Deletes, among `ids`, the attachments no `referencedBy` record points at any more; returns those deleted. Audit them yourself if needed. */
  removeUnreferenced(tx: Tx, ids: readonly (string | null | undefined)[]): Promise<Attachment[]>;
  /**
   * Stores a file the server itself produced (e.g. the JSON a price source answered, kept as evidence) under a
   * document the caller has locked in `tx`: SHA-256 computed, audited as an upload. The declared types and the
   * size limit bind what people send, not this.
   */
  save(
    tx: Tx,
    ctx: RequestContext,
    audit: AuditFn,
    parentId: string,
    file: { nome: string; tipo: string; bytes: Uint8Array },
    childId?: string,
  ): Promise<Attachment>;
}

/** '5 MB', '512 KB'. */
function sizeText(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1).replace('.', ',')} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * A parent from a document of the kit (defineDocumentResource): read and locked in the person's
 * entidade and scope (404 outside it); a change only in `states` (409 `locked` otherwise: "Este
 * pedido está cancelado e não pode ser alterado.", or `lockedMessage`).
 */
export function documentAttachmentParent(
  document: Pick<DocumentResource, 'crud' | 'flow' | 'label'>,
  options: { states: readonly string[]; lockedMessage?: (status: string) => string },
): AttachmentParent {
  const { label, flow } = document;
  const feminino = label.feminino === true;
  const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
  const message =
    options.lockedMessage ??
    ((status: string) =>
      `${feminino ? 'Esta' : 'Este'} ${lower(label.documento)} está ${lower(flow.stateLabel(status))} e não pode ser ${feminino ? 'alterada' : 'alterado'}.`);
  return {
    async read(db, ctx, id) {
      if (!UUID.test(id)) throw notFound();
      const row = await document.crud.readOne(db, id, ctx);
      if (!row) throw notFound();
      return row;
    },
    async lock(tx, ctx, id) {
      if (!UUID.test(id)) throw notFound();
      const row = await document.crud.lock(tx, id, ctx);
      const status = String(row.status);
      if (!options.states.includes(status)) throw new AppError(409, 'locked', message(status));
      return row;
    },
  };
}

/**
 * Declares attachments on a document (or on a child record of it). Routes, all with `tag`, the
 * parent in the person's entidade and scope (404 outside it):
 *
 * - `POST   <path>` multipart `arquivo` → 201 { id, nome, tipo, tamanho, sha256 } (400 without a
 *   file, an empty one, a type not accepted or a content that is not of its type; 413 over `maxBytes`;
 *   409 when the parent's state does not allow a change), audited under the parent
 * - `GET    <path>` → the attachments (no content)
 * - `GET    <path>/:anexoId` → the file, always as an attachment, `nosniff`, `X-Content-SHA256`
 * - `DELETE <path>/:anexoId` → 204 (409 while a `referencedBy` record points at it), audited
 */
export function defineDocumentAttachments(router: PluginRouter, definition: DocumentAttachmentsDefinition): DocumentAttachments {
  const def = definition;
  const { table, columns: col, tag, types, maxBytes } = def;
  const where = `defineDocumentAttachments(${router.pluginId}${def.path})`;
  if (!def.path.includes(':id')) throw new Error(`${where}: the path needs the document's ':id'.`);
  if (def.child && !def.path.includes(`:${def.child.param}`)) throw new Error(`${where}: the path needs the child's ':${def.child.param}'.`);
  if (def.child && !col.child) throw new Error(`${where}: a child's attachments need columns.child.`);
  if (types.length === 0) throw new Error(`${where}: declare at least one type.`);
  const idParam = def.idParam ?? 'anexoId';
  const field = def.field ?? 'arquivo';
  const fallbackName = def.fallbackName ?? 'anexo';
  const label = def.label ?? { one: 'um anexo', many: 'os anexos' };
  const uploadAction = def.actions?.upload ?? 'anexar';
  const removeAction = def.actions?.remove ?? 'excluir_anexo';
  const typesText = describeFileTypes(types);
  const limitText = sizeText(maxBytes);
  const itemPath = `${def.path}/:${idParam}`;
  // the drizzle keys of the columns (the INSERT names them), checked once here
  const keys = Object.fromEntries(Object.entries(col).map(([role, column]) => [role, key(table, column, where)])) as Record<keyof AttachmentColumns, string>;

  const childParam = def.child?.param;
  const collectionParams = z.object({ id: z.string(), ...(childParam ? { [childParam]: z.string() } : {}) });
  const itemParams = collectionParams.extend({ [idParam]: z.string() });

  const fields = { id: col.id, nome: col.nome, tipo: col.tipo, tamanho: col.tamanho, sha256: col.sha256 };
  const present = presentRow;
  // the document's own files are those of no child (when the table also holds the children's files)
  const ownedBy = (parentId: string, childId: string | undefined): SQL =>
    and(eq(col.parent, parentId), col.child ? (childId === undefined ? isNull(col.child) : eq(col.child, childId)) : undefined)!;

  /** Reads the parent (and child) of a request: 404 on a malformed id, outside the scope, a child of another document. */
  const checkChild = async (db: DbOrTx, parentId: string, childId: string | undefined): Promise<void> => {
    if (!def.child) return;
    if (!childId || !UUID.test(childId)) throw notFound();
    const [row] = await db
      .select({ id: def.child.id })
      .from(def.child.table)
      .where(and(eq(def.child.id, childId), eq(def.child.parentColumn, parentId)))
      .limit(1);
    if (!row) throw notFound();
  };
  const readParent = async (db: DbOrTx, ctx: RequestContext, parentId: string, childId: string | undefined) => {
    if (!UUID.test(parentId)) throw notFound();
    await def.parent.read(db, ctx, parentId);
    await checkChild(db, parentId, childId);
  };
  const lockParent = async (tx: Tx, ctx: RequestContext, parentId: string, childId: string | undefined) => {
    if (!UUID.test(parentId)) throw notFound();
    await def.parent.lock(tx, ctx, parentId);
    await checkChild(tx, parentId, childId);
  };
  const auditRecord = (a: Attachment, childId: string | undefined) => ({ ...a, ...(childParam && childId ? { [childParam]: childId } : {}) });

  const list = async (db: DbOrTx, parentId: string, childId?: string): Promise<Attachment[]> => {
    const rows = await db
      .select(fields)
      .from(table)
      .where(ownedBy(parentId, childId))
      .orderBy(...(col.createdAt ? [asc(col.createdAt)] : []), asc(col.id));
    return rows.map(present);
  };

  /** The one insert of a file (the upload route's, and the plugin's own files). */
  const save: DocumentAttachments['save'] = async (tx, ctx, audit, parentId, file, childId) => {
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    const values: Record<string, unknown> = {
      [keys.entidadeId]: ctx.entidadeId,
      [keys.parent]: parentId,
      [keys.nome]: file.nome,
      [keys.tipo]: file.tipo,
      [keys.tamanho]: file.bytes.length,
      [keys.sha256]: sha256,
      [keys.conteudo]: file.bytes,
      [keys.enviadoPor]: ctx.user.id,
      [keys.enviadoPorNome]: ctx.user.nome,
    };
    if (keys.child && childId) values[keys.child] = childId;
    const [row] = (await tx
      .insert(table)
      .values(values as never)
      .returning({ id: col.id })) as { id: string }[];
    const out: Attachment = { id: row!.id, nome: file.nome, tipo: file.tipo, tamanho: file.bytes.length, sha256 };
    audit({ registro: parentId, acao: uploadAction, depois: auditRecord(out, childId) });
    return out;
  };

  // ---- upload

  router.route({
    method: 'post',
    path: def.path,
    tag,
    summary: `Enviar ${label.one}`,
    description: `Multipart/form-data, campo \`${field}\`: ${typesText} de até ${limitText}. O conteúdo precisa ser do tipo declarado (conferido pelos primeiros bytes); guarda-se o SHA-256.${def.uploadNote ? ` ${def.uploadNote}` : ''}`,
    request: { params: collectionParams },
    bodyLimit: { maxBytes: maxBytes + MULTIPART_SLACK, message: `O arquivo passa do limite de ${limitText}.` },
    responses: {
      201: attachmentSchema,
      400: { description: 'Sem arquivo, tipo não aceito ou conteúdo diferente do tipo' },
      404: { description: 'Não encontrado' },
      409: { description: 'O documento não aceita mudanças no estado em que está' },
      413: { description: `Arquivo acima de ${limitText}` },
    },
    handler: async (c, ctx) => {
      const params = c.req.valid('param') as Record<string, string>;
      const parentId = params.id!;
      const childId = childParam ? params[childParam] : undefined;
      await readParent(ctx.db, ctx, parentId, childId); // 404 before reading the body
      const missing = () => badRequest(`Escolha um arquivo (${typesText}).`, { [field]: `Escolha um arquivo (${typesText}).` });
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) throw missing();
      let form: Record<string, unknown>;
      try {
        form = (await c.req.parseBody({ all: false })) as Record<string, unknown>;
      } catch {
        throw badRequest('Não foi possível ler o formulário enviado.', { [field]: 'Envie o arquivo novamente.' });
      }
      const value = form[field];
      if (typeof value !== 'object' || value === null || typeof (value as File).arrayBuffer !== 'function') throw missing();
      const file = value as File;
      if (file.size === 0) throw missing();
      if (file.size > maxBytes) throw new AppError(413, 'payload_too_large', `O arquivo passa do limite de ${limitText}.`);
      const nome = cleanFileName(file.name, fallbackName);
      const tipo = declaredFileType(file.type || '', nome);
      if (!(types as readonly string[]).includes(tipo)) {
        const message = `Tipo de arquivo não aceito: envie ${typesText}.`;
        throw badRequest(message, { [field]: message });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (bytes.length === 0) throw missing();
      if (bytes.length > maxBytes) throw new AppError(413, 'payload_too_large', `O arquivo passa do limite de ${limitText}.`);
      if (!contentMatchesType(bytes, tipo as FileType)) {
        const message = 'O conteúdo do arquivo não corresponde ao tipo informado: envie o arquivo original.';
        throw badRequest(message, { [field]: message });
      }
      const attachment = await ctx.mutate(async (tx, audit) => {
        await lockParent(tx, ctx, parentId, childId);
        return save(tx, ctx, audit, parentId, { nome, tipo, bytes }, childId);
      });
      return c.json(attachment, 201);
    },
  });

  // ---- list

  if (def.routes?.list !== false) {
    router.route({
      method: 'get',
      path: def.path,
      tag,
      summary: `Listar ${label.many}`,
      description: 'Nome, tipo, tamanho e SHA-256 de cada arquivo, na ordem em que foram enviados (sem o conteúdo).',
      request: { params: collectionParams },
      responses: { 200: z.object({ items: z.array(attachmentSchema) }), 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const params = c.req.valid('param') as Record<string, string>;
        const childId = childParam ? params[childParam] : undefined;
        await readParent(ctx.db, ctx, params.id!, childId);
        return c.json({ items: await list(ctx.db, params.id!, childId) }, 200);
      },
    });
  }

  // ---- download

  router.route({
    method: 'get',
    path: itemPath,
    tag,
    summary: `Baixar ${label.one}`,
    description:
      'Sempre como anexo (nunca exibido na página; um HTML guardado vai como application/octet-stream e não é executado), com o SHA-256 no cabeçalho `X-Content-SHA256`.',
    request: { params: itemParams },
    responses: { 200: { description: 'O arquivo', file: 'application/octet-stream' }, 404: { description: 'Não encontrado' } },
    handler: async (c, ctx) => {
      const params = c.req.valid('param') as Record<string, string>;
      const childId = childParam ? params[childParam] : undefined;
      const id = params[idParam]!;
      await readParent(ctx.db, ctx, params.id!, childId);
      if (!UUID.test(id)) throw notFound();
      const [row] = (await ctx.db
        .select({ ...fields, conteudo: col.conteudo })
        .from(table)
        .where(and(eq(col.id, id), eq(col.entidadeId, ctx.entidadeId), ownedBy(params.id!, childId)))
        .limit(1)) as Record<string, unknown>[];
      if (!row) throw notFound();
      const file = present(row);
      return c.body(row.conteudo as never, 200, attachmentResponseHeaders(file));
    },
  });

  // ---- delete

  if (def.routes?.remove !== false) {
    router.route({
      method: 'delete',
      path: itemPath,
      tag,
      summary: `Excluir ${label.one}`,
      description: 'Só nos estados em que o documento aceita mudanças; 409 enquanto um registro usa o arquivo.',
      request: { params: itemParams },
      responses: {
        204: { description: 'Excluído' },
        404: { description: 'Não encontrado' },
        409: { description: 'Em uso, ou o documento não aceita mudanças' },
      },
      handler: async (c, ctx) => {
        const params = c.req.valid('param') as Record<string, string>;
        const childId = childParam ? params[childParam] : undefined;
        const id = params[idParam]!;
        await ctx.mutate(async (tx, audit) => {
          await lockParent(tx, ctx, params.id!, childId);
          if (!UUID.test(id)) throw notFound();
          const [row] = (await tx
            .select(fields)
            .from(table)
            .where(and(eq(col.id, id), eq(col.entidadeId, ctx.entidadeId), ownedBy(params.id!, childId)))
            .for('update')) as Record<string, unknown>[];
          if (!row) throw notFound();
          for (const ref of def.referencedBy ?? []) {
            const [used] = await tx.select({ one: sql`1` }).from(ref.table).where(eq(ref.column, id)).limit(1);
            if (used) throw new AppError(409, 'in_use', ref.message);
          }
          await tx.delete(table).where(eq(col.id, id));
          audit({ registro: params.id!, acao: removeAction, antes: auditRecord(present(row), childId) });
        });
        return c.body(null, 204);
      },
    });
  }

  return {
    paths: { collection: def.path, item: itemPath },
    typesText,
    limitText,
    list,
    async belongsTo(db, parentId, id, childId) {
      if (!UUID.test(id) || !UUID.test(parentId)) return false;
      const [row] = await db
        .select({ id: col.id })
        .from(table)
        .where(and(eq(col.id, id), ownedBy(parentId, childId)))
        .limit(1);
      return Boolean(row);
    },
    removeUnreferenced: (tx, ids) => removeUnreferencedAttachments(tx, def, ids),
    save,
  };
}

const presentRow = (row: Record<string, unknown>): Attachment => ({
  id: String(row.id),
  nome: String(row.nome),
  tipo: String(row.tipo),
  tamanho: Number(row.tamanho),
  sha256: String(row.sha256).trim(),
});

/**
 * Deletes, among `ids`, the attachments (of the declaration's table) no `referencedBy` record points
 * at any more, e.g. the evidence of a price when the price goes; returns those deleted. Also
 * `DocumentAttachments.removeUnreferenced`, for code that has the declaration but not the router.
 */
export async function removeUnreferencedAttachments(
  tx: Tx,
  definition: Pick<DocumentAttachmentsDefinition, 'table' | 'columns' | 'referencedBy'>,
  ids: readonly (string | null | undefined)[],
): Promise<Attachment[]> {
  const { table, columns: col } = definition;
  const candidates = [...new Set(ids.filter((id): id is string => typeof id === 'string' && UUID.test(id)))];
  if (candidates.length === 0) return [];
  const unreferenced = (definition.referencedBy ?? []).map((ref) => sql`NOT EXISTS (SELECT 1 FROM ${ref.table} WHERE ${ref.column} = ${col.id})`);
  const rows = (await tx
    .delete(table)
    .where(and(inArray(col.id, candidates), ...unreferenced))
    .returning({ id: col.id, nome: col.nome, tipo: col.tipo, tamanho: col.tamanho, sha256: col.sha256 })) as Record<string, unknown>[];
  return rows.map(presentRow);
}

/** The drizzle key (property name) of a column of `table`. */
function key(table: PgTable, column: AnyPgColumn, where: string): string {
  for (const [name, value] of Object.entries(getTableColumns(table))) if (value === column) return name;
  throw new Error(`${where}: column ${column.name} is not a column of the attachments table.`);
}
