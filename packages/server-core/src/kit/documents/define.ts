// defineDocumentResource: a document (memorando, requisição, cotação…) from declarations: the CRUD
// routes of defineCrudResource plus a number per entidade and year, line items with exact totals, a
// status flow (one route per transition, 409/403 from the flow, audited with the reason), edit and
// delete only in editable states, duplicate, timeline, PDF and row-level scope.
import { today } from '@app/br';
import {
  type Flow,
  type FlowAuthorship,
  formatDecimal,
  otherDraftMessage,
  formatNumero,
  parseNumero,
  reasonSchemaOf,
  transitionBodySchema,
  type TransitionBody,
} from '@app/documents';
import { z } from '@hono/zod-openapi';
import { type SQL, and, eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditFn } from '../../platform/audit.js';
import { type HistoryNames, recordHistory, recordHistorySchema } from '../../platform/audit-history.js';
import type { RequestContext } from '../../platform/context.js';
import {
  type CrudColumn,
  type CrudListOptions,
  type CrudReference,
  type CrudResource,
  type CrudResourceDefinition,
  type CrudRow,
  type CrudTable,
  type CrudUnique,
  type CrudWriteContext,
  defineCrudResource,
} from '../crud.js';
import type { DbOrTx, Tx } from '../../platform/db/types.js';
import { AppError, notFound } from '../../platform/errors.js';
import { auditOf } from '../../platform/mutation.js';
import { type PluginRouter, kitOperationId } from '../../platform/router.js';
import { type DocumentItems, type DocumentItemsDefinition, createDocumentItems } from './items.js';
import { nextDocumentNumber } from './numbering.js';
import type { DocumentApprovals } from './approvals.js';
import type { DocumentCoverage } from './coverage.js';
import { DOCUMENT_PRODUCT_USES } from './product-uses.js';
import { type DocumentLinkDefinition, createDocumentLinks, refuseSourceInUse } from './links.js';
import { DIRECT_AUTHOR_ROLES, RASCUNHOS_ALHEIOS_TAG, copySourceAuthors, documentAuthorRoles, recordDocumentAuthor } from './authors.js';
import { type DocumentFilePaths, type DocumentFiles, type DocumentPdfContent, defineDocumentFiles } from './files.js';

type Row = CrudRow;

/** The header table: a CrudTable with `status` (text), `numero` and `ano` (integers). */
export type DocumentTable = CrudTable & { status: AnyPgColumn; numero: AnyPgColumn; ano: AnyPgColumn };

export interface DocumentLabel {
  /** For OpenAPI summaries: 'memorando', 'memorandos'. */
  singular: string;
  plural: string;
  /** How people call the document, capitalized: 'Memorando' (PDF title, messages, file names). */
  documento: string;
  /** The noun is feminine ('Esta requisição está enviada e não pode ser alterada.'). */
  feminino?: boolean;
}

/** What `afterSave` gets besides the write context: the number and the products of the document. */
export interface DocumentSaveContext extends CrudWriteContext {
  id: string;
  numero: number;
  ano: number;
  /** 'Memorando 12/2026' (for produto usage, messages). */
  descricao: string;
  /** Distinct product ids of the items as saved (none without `items.productColumn`). */
  produtoIds: string[];
  /**
   * The audit of this write's transaction: what the save changes on OTHER records (e.g. the status of
   * a pré-requisição it converts) is recorded here, under that record, so its timeline shows it.
   */
  audit: AuditFn;
}

/** What `onTransition` gets besides the record before the change. */
export interface DocumentTransitionContext {
  /** The audit of the transition's transaction (see DocumentSaveContext.audit). */
  audit: AuditFn;
}

/** What the plugin's `pdf` returns: the kit fills the entidade, title, number, status and time (files.ts). */
export type { DocumentPdfContent } from './files.js';

export interface DocumentResourceDefinition<S extends z.ZodObject = z.ZodObject, F extends Flow<string, string, string> = Flow> {
  /** Path under /api/<plugin>, e.g. '/memorandos'. */
  path: string;
  /** Permission tag of every route. */
  tag: number;
  table: DocumentTable;
  /** The status flow (from the plugin's shared code). */
  flow: F;
  /** Body of POST and PUT: the header fields and the items array (`items.field`, default 'itens'). */
  schema: S;
  updateSchema?: z.ZodObject;
  label: DocumentLabel;
  /** Kind of the number sequence (default '<plugin>/<path without slash>', e.g. 'memorandos/memorandos'). */
  kind?: string;
  /** Line items (saved with the header in one transaction). */
  items?: DocumentItemsDefinition;
  /**
   * Who the person is for this record, decided on the server only: e.g. 'origem' when the person's
   * centros include the origin, 'destino', 'autor'. Matched against the transitions' `who`.
   */
  roles: (row: Row, ctx: RequestContext) => Iterable<string>;
  /**
   * Roles that need a query (e.g. 'aprovador': approver of the record's current level), for many
   * records at once (one query per list page): record id → roles, merged with `roles`. Also run,
   * inside the transaction, before a transition is checked.
   */
  loadRoles?: (db: DbOrTx, rows: Row[], ctx: RequestContext) => Promise<Map<string, Iterable<string>>>;
  /**
   * Where a transition really goes, decided on the server before the status changes (locked record,
   * same transaction): `to` another declared state (e.g. an approval that stays 'em_aprovacao' and
   * moves to the next level) and `set` more header columns; `audit`: more facts for the transition's
   * audit row (merged into its `depois`, e.g. what the person acknowledged). Throw AppError to refuse (400/403/409).
   */
  resolveTransition?: (
    tx: Tx,
    name: string,
    row: Row,
    body: TransitionBody & Row,
    ctx: RequestContext,
  ) => Promise<{ to?: string; set?: Row; audit?: Row } | undefined>;
  /** More body fields of a transition (zod shape, by transition name), given to resolveTransition, e.g. `{ aprovar: { ciente: z.boolean().optional() } }`. */
  transitionBody?: Partial<Record<string, z.ZodRawShape>>;
  /**
   * Approval by value levels (defineDocumentApprovals): the role of who may decide now, the list
   * filter `aguardandoMinha=1`, the levels of each round on the approval transitions (after
   * `resolveTransition`), the e-mails, GET <path>/:id/aprovacao and GET <path>/aguardando-minha-aprovacao/contagem.
   */
  approvals?: DocumentApprovals;
  /** Row-level scope, e.g. `(ctx) => centroCustoScope(ctx, t.origemId, t.destinoId)` (404 outside it). */
  scope?: (ctx: RequestContext) => SQL | undefined;
  /** Server-set fields on create (and duplicate), e.g. `{ solicitanteId: ctx.user.id }`; never changed by PUT. */
  defaults?: (ctx: RequestContext) => Row;
  /** Body → header values (default: the body; status, numero, ano, the total and `defaults` are the kit's). */
  toRow?: (data: z.output<S>, write: CrudWriteContext) => Row;
  /** Extra checks after zod and the references: field → pt-BR message (400). */
  validate?: (tx: Tx, data: z.output<S>, write: CrudWriteContext) => Promise<Record<string, string> | undefined>;
  /** After the header and items are saved, same transaction. The products used are registered by the kit (DOCUMENT_PRODUCT_USES). */
  afterSave?: (tx: Tx, id: string, data: z.output<S>, write: DocumentSaveContext) => Promise<void>;
  /**
   * The documents this one is made from (ids: the memorando of a pré-requisição, the pré-requisições
   * whose items a requisição converts…), read after each save in its transaction: their authors become
   * 'fonte' authors of this one, so whoever wrote a link of the chain never approves a later one.
   */
  sources?: (tx: Tx, id: string) => Promise<string[]>;
  /** More rules for PUT besides the flow's editable states (pt-BR message → 409 `locked`). */
  canEdit?: (row: Row, ctx: RequestContext) => string | null;
  /**
   * Runs after the status changed, same transaction (e.g. record who accepted; audit what it changes
   * on other records with `extra.audit`). Throw AppError to refuse.
   */
  onTransition?: (tx: Tx, name: string, row: Row, body: TransitionBody, ctx: RequestContext, extra: DocumentTransitionContext) => Promise<void>;
  /**
   * Fields of GET <path>/:id only (never in lists, write answers nor audit rows), e.g. alerts computed
   * for the detail page; `oneShape` documents them in OpenAPI.
   */
  expandOne?: (db: DbOrTx, row: Row, ctx: RequestContext) => Promise<Row>;
  oneShape?: z.ZodRawShape;
  /**
   * POST /:id/duplicar (default on): `reset` lists body fields not copied (links, attachments…; an
   * item field as 'itens.*.campo'), `today` date fields set to today (America/Sao_Paulo). false: no route.
   */
  duplicate?: { reset?: string[]; today?: string[] } | false;
  /**
   * GET /:id.pdf: the document's content (texts formatted in pt-BR). Absent: no PDF route. The short
   * form of the main file: `files: { documento: { main: true, title, formats: { pdf: (row, f) => … } } }`.
   */
  pdf?: (row: Row, ctx: RequestContext) => DocumentPdfContent | Promise<DocumentPdfContent>;
  /**
   * Files of the document (files.ts): `{ memoria: { title, formats: { pdf, xlsx }, load? }, formulario:
   * { child: { path: 'fornecedores', param: 'conviteId', … }, … } }` → GET <path>/:id/memoria.pdf, …;
   * the kit owns the names, headers, entidade, workers, per-person limits and verification codes.
   */
  files?: DocumentFiles;
  /** GET /:id/historico: fields whose ids the timeline names, and fields it leaves out. */
  history?: { names?: HistoryNames; skip?: readonly string[] };
  /**
   * The list, its search, filters and export, as defineCrudResource takes them (CrudListOptions),
   * passed on whole. The kit adds: `sort=numero` sorts by year, then number; `q` '12/2026' (or '12')
   * finds by number; `status` (the flow's states) is always a set filter; an export column `numero`
   * without `value` prints '12/2026', a `status` one the state's label.
   */
  list: CrudListOptions;
  /** Body fields holding ids of other registries, as in defineCrudResource (the items' own: `items.references`). */
  references?: Record<string, CrudReference>;
  unique?: CrudUnique[];
  /**
   * Lines that cover lines of a source document by quantity (defineDocumentCoverage, declared for
   * this document's items): the source lines checked and locked on save, the quantity checked, the
   * source's status fed back and audited after each save and when a transition releases the lines.
   */
  coverage?: DocumentCoverage;
  /** Coverages whose SOURCE this document is: transitions of their `refuseWhileCovered` refused while covered. */
  coveredBy?: DocumentCoverage[];
  /**
   * Documents this one is made from (links.ts): one → one or many → one, with the picker of available
   * sources, the create-from route, the checks on every save naming a source, release on cancel and
   * the source's cancel refused while in use. Their sources are 'fonte' authors of this one.
   */
  links?: DocumentLinkDefinition[];
}

/** What defineDocumentResource returns: the CRUD operations plus the document's own. */
export interface DocumentResource<S extends z.ZodObject = z.ZodObject> {
  readonly crud: CrudResource<S>;
  readonly flow: Flow<string, string, string>;
  readonly items: DocumentItems | undefined;
  /** Kind of the number sequence. */
  readonly kind: string;
  /** How the document is named (messages of the kit's child collections and actions). */
  readonly label: DocumentLabel;
  readonly paths: {
    list: string;
    item: string;
    csv: string;
    xlsx: string;
    duplicar: string | undefined;
    historico: string;
    pdf: string | undefined;
    /** The files' routes: key → format → path, e.g. `{ memoria: { pdf: '/cotacoes/:id/memoria.pdf' } }`. */
    files: DocumentFilePaths;
    /** One per transition: `<path>/:id/<name>`. */
    transitions: Record<string, string>;
  };
  /** The roles of the person for a record (as read), with `loadRoles` when declared. */
  rolesOf(row: Row, ctx: RequestContext, db?: DbOrTx): Promise<Set<string>>;
  /** Performs a transition (lock, version, flow, status, hook); returns the record before and after. Audit it yourself. */
  transition(tx: Tx, id: string, name: string, body: TransitionBody, ctx: RequestContext): Promise<{ before: Row; after: Row }>;
  /** Creates the duplicate of a record the person can read; returns the source and the new record. Audit it yourself. */
  duplicate(tx: Tx, id: string, ctx: RequestContext): Promise<{ source: Row; created: Row }>;
}

const RESERVED_ACTIONS = new Set(['duplicar', 'historico', 'ativar', 'desativar']);

/** 'Memorando' → 'memorando'; 'PCA' stays. */
function lowerFirst(text: string): string {
  return /^.[\p{Ll}\s]/u.test(text) || text.length === 1 ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** The object schema inside optional/nullable/default/pipe/array wrappers, if any. */
function objectSchemaOf(schema: unknown): z.ZodObject | undefined {
  let current = schema as { _zod?: { def?: Record<string, unknown> } } | undefined;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof z.ZodObject) return current;
    const def = current._zod?.def;
    if (!def) return undefined;
    current = (def.innerType ?? def.in ?? def.element) as typeof current;
  }
  return undefined;
}

/** Copies `source` into an input of `schema`: its keys only, a null the field does not take left out. */
function inputOf(schema: z.ZodObject | undefined, source: Row, reset: ReadonlySet<string>): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(source)) {
    if (reset.has(key)) continue;
    const field = schema ? (Object.hasOwn(schema.shape, key) ? (schema.shape[key] as z.ZodType) : undefined) : undefined;
    if (schema && !field) continue;
    if (value === null && field && !field.safeParse(null).success) continue;
    out[key] = value;
  }
  return out;
}

/**
 * Declares a document resource on a plugin router. Routes (all with `tag`, all in the entidade and
 * the `scope`, a foreign or out-of-scope id → 404):
 *
 * - `GET    <path>?q=&page=&pageSize=&sort=&status=a,b&<filters>&<range>De=&<range>Ate=` → page; `q`
 *   '12/2026' finds by number; each item carries `transicoes` (what this person may do now) and `editavel`
 * - `GET    <path>.csv` / `.xlsx` (the list's filters and scope)
 * - `GET    <path>/:id` → the document with `itens` (ordered, with totals), `transicoes`, `editavel`
 * - `POST   <path>` → 201 (status = flow.initial, numero/ano from the counter, `defaults`)
 * - `PUT    <path>/:id` (version; 409 `locked` outside an editable state; 403 unless the person is an
 *   author of the draft or holds RASCUNHOS_ALHEIOS_TAG) · `DELETE <path>/:id` → always 409 `numerado`
 *   (numbered documents are cancelled with a reason, never deleted: no gap in the numbers)
 * - `POST   <path>/:id/<transition>` { version, motivo } → the document (400 without a required
 *   reason, 409 `stale`, 409 `invalid_transition`, 403 without the role), audited as the transition
 * - `POST   <path>/:id/duplicar` → 201 a new draft with the content and items, audited 'criar' with `duplicadoDe`
 * - `GET    <path>/:id/historico` → the timeline (recordHistory)
 * - `GET    <path>/:id.pdf` → application/pdf (with `pdf`, the short form of a main file)
 * - `GET    <path>/:id/<file>.pdf|.xlsx`, `<path>/:id/<child>/:<param>/<file>.<ext>` (with `files`: files.ts)
 */
export function defineDocumentResource<S extends z.ZodObject, F extends Flow<string, string, string>>(
  router: PluginRouter,
  definition: DocumentResourceDefinition<S, F>,
): DocumentResource<S> {
  const def = definition;
  const { table, tag, path, flow, label } = def;
  const where = `defineDocumentResource(${router.pluginId}${path})`;
  for (const key of ['status', 'numero', 'ano'] as const) {
    if (!table[key]) throw new Error(`${where}: the table needs a '${key}' column.`);
  }
  for (const name of flow.transitionNames) {
    if (RESERVED_ACTIONS.has(name)) throw new Error(`${where}: a transition cannot be named '${name}' (a route of the kit).`);
  }
  const kind = def.kind ?? `${router.pluginId}${path}`;
  def.approvals?.assertFlow(flow, where);
  // every document is numbered at creation and never deleted: a draft given up is cancelled, with a reason
  if (flow.cancelTransitions().length === 0) {
    throw new Error(
      `${where}: the flow needs a transition that cancels a draft (from '${flow.initial}' to a final state, with reason: true): numbered documents are never deleted.`,
    );
  }
  // its reads (list, exports, record, PDF, timeline, GET <path>/:id/…) also open to the controle interno
  router.declareDocument(path, tag);
  // links to source documents: their pickers before the CRUD's '<path>/:id'
  const links = def.links?.length ? createDocumentLinks(router, { where, kind, table, flow, label, schema: def.schema }, def.links, tag) : undefined;
  links?.registerPickers();
  const coverage = def.coverage;
  if (coverage && (coverage.definition.target.lines !== def.items?.table || coverage.definition.target.table !== (table as PgTable))) {
    throw new Error(`${where}: coverage.target must be this document's table and items table.`);
  }
  for (const [name, t] of Object.entries(flow.transitions)) {
    if (coverage && t.from.some((s) => coverage.definition.target.releases.includes(s)) && !coverage.definition.target.releases.includes(t.to)) {
      throw new Error(`${where}: transition '${name}' takes back lines a released state gave up (coverage).`);
    }
  }
  const itemsDefinition = def.items && coverage ? { ...def.items, source: coverage.itemSource } : def.items;
  const items = itemsDefinition ? createDocumentItems(itemsDefinition, where, { table: table as PgTable, id: table.id }) : undefined;
  const itemsField = items?.field;
  // the kit registers the products the document uses (DOCUMENT_PRODUCT_USES) when its items name them
  const hasProducts = def.items?.productColumn !== undefined;
  const headerColumns = Object.entries(getTableColumns(table) as Record<string, AnyPgColumn>);
  const documentTotalKey = def.items?.documentTotalColumn ? headerColumns.find(([, column]) => column === def.items!.documentTotalColumn)?.[0] : undefined;
  if (def.items?.documentTotalColumn && !documentTotalKey) throw new Error(`${where}: items.documentTotalColumn is not a column of the header.`);
  const feminino = label.feminino === true;
  const documento = lowerFirst(label.documento);
  const kitKeys = new Set(['status', 'numero', 'ano', ...(documentTotalKey ? [documentTotalKey] : [])]);

  const rolesOfAll = async (db: DbOrTx, rows: Row[], ctx: RequestContext): Promise<Set<string>[]> => {
    const loaded = def.loadRoles && rows.length ? await def.loadRoles(db, rows, ctx) : undefined;
    // approvals: who may decide the record now (the same SQL as the queue), one query for the page
    const deciding =
      def.approvals && rows.length
        ? await def.approvals.decidable(
            db,
            rows.map((row) => String(row.id)),
            ctx,
          )
        : undefined;
    return rows.map(
      (row) => new Set([...def.roles(row, ctx), ...(loaded?.get(String(row.id)) ?? []), ...(deciding?.has(String(row.id)) ? [def.approvals!.role] : [])]),
    );
  };
  const rolesOf = async (row: Row, ctx: RequestContext, db: DbOrTx = ctx.db) => (await rolesOfAll(db, [row], ctx))[0]!;
  // segregation of duties (documento_autores): who wrote, changed or sent each record, or wrote a source of it
  const documentName = { nome: documento, feminino };
  const authorshipOfAll = async (db: DbOrTx, rows: Row[], ctx: RequestContext): Promise<FlowAuthorship[]> => {
    const byId = await documentAuthorRoles(
      db,
      rows.map((row) => String(row.id)),
      ctx.user.id,
    );
    const othersDrafts = ctx.hasTag(RASCUNHOS_ALHEIOS_TAG);
    return rows.map((row) => {
      const papeis = byId.get(String(row.id));
      return {
        author: (papeis?.size ?? 0) > 0,
        mayEditDraft: othersDrafts || DIRECT_AUTHOR_ROLES.some((papel) => papeis?.has(papel)),
        documento: documentName,
      };
    });
  };
  const lockedMessage = (status: unknown) =>
    `${feminino ? 'Esta' : 'Este'} ${documento} está ${lowerFirst(flow.stateLabel(String(status)))} e não pode ser ${feminino ? 'alterada' : 'alterado'}.`;
  const editRefusal = (row: Row, ctx: RequestContext): string | null =>
    flow.isEditable(String(row.status)) ? (def.canEdit?.(row, ctx) ?? null) : lockedMessage(row.status);
  // numbered at creation, so never deleted (a deletion would leave a gap in the sequence): 409 `numerado`
  const deleteRefusal = (row: Row): string | null => {
    throw new AppError(
      409,
      'numerado',
      flow.isEditable(String(row.status))
        ? 'Documentos numerados não são excluídos: cancele este rascunho informando o motivo.'
        : `Documentos numerados não são excluídos: ${feminino ? 'esta' : 'este'} ${documento} está ${lowerFirst(flow.stateLabel(String(row.status)))}.`,
    );
  };

  const headerValues = (data: z.output<S>, write: CrudWriteContext): Row => {
    const values = def.toRow ? def.toRow(data, write) : { ...(data as Row) };
    if (itemsField) delete values[itemsField];
    for (const key of kitKeys) delete values[key];
    const defaults = def.defaults?.(write.ctx) ?? {};
    if (write.current) for (const key of Object.keys(defaults)) delete values[key];
    else Object.assign(values, defaults);
    const lines = itemsField ? (data as Row)[itemsField] : undefined;
    if (items && documentTotalKey) {
      if (Array.isArray(lines)) values[documentTotalKey] = items.totals(lines as Row[]).total;
      else if (!write.current) values[documentTotalKey] = items.totals([]).total;
    }
    return values;
  };

  const itemReferences: Record<string, CrudReference> = {};
  for (const [key, ref] of Object.entries(def.items?.references ?? {})) itemReferences[`${itemsField}.*.${key}`] = ref;

  const searchExact = (q: string): SQL | undefined => {
    const parsed = parseNumero(q);
    if (parsed) return and(eq(table.numero, parsed.numero), eq(table.ano, parsed.ano));
    if (/^\d{1,9}$/.test(q)) return eq(table.numero, Number(q));
    return undefined;
  };

  const columns: CrudColumn[] = def.list.columns.map((c) => {
    if (c.value) return c;
    if (c.key === 'numero') return { ...c, value: (row: Row) => formatNumero(row.numero as number, row.ano as number) };
    if (c.key === 'status') return { ...c, value: (row: Row) => flow.stateLabel(String(row.status)) };
    return c;
  });

  // Reads that write nothing: without the document's tag (the controle interno) none of the rows;
  // a controle interno read by someone who also holds the tag, only the rows of their own scope.
  const writableIds = async (rows: Row[], ctx: RequestContext): Promise<Set<string> | undefined> => {
    if (!ctx.hasTag(tag)) return new Set();
    if (!ctx.leituraControleInterno || ctx.todosCentros || !def.scope || rows.length === 0) return undefined;
    const ids = `{${rows.map((row) => String(row.id)).join(',')}}`;
    const own = await ctx.db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(sql`${table.id} = ANY(${ids}::uuid[])`, def.scope({ ...ctx, leituraControleInterno: false })));
    return new Set(own.map((row) => String(row.id)));
  };

  const present = async (rows: Row[], ctx: RequestContext): Promise<Row[]> => {
    const roles = await rolesOfAll(ctx.db, rows, ctx);
    const authorship = await authorshipOfAll(ctx.db, rows, ctx);
    const writable = await writableIds(rows, ctx);
    return rows.map((row, i) => {
      const writes = !writable || writable.has(String(row.id));
      return {
        ...row,
        transicoes: writes ? flow.available(String(row.status), roles[i]!, authorship[i]) : [],
        editavel: writes && editRefusal(row, ctx) === null && authorship[i]!.mayEditDraft,
      };
    });
  };

  const crudDefinition: CrudResourceDefinition<S> = {
    path,
    tag,
    table,
    label: { singular: label.singular, plural: label.plural },
    schema: def.schema,
    ...(def.updateSchema ? { updateSchema: def.updateSchema } : {}),
    toRow: headerValues,
    ...(def.validate || coverage || links
      ? {
          validate: async (tx: Tx, data: z.output<S>, write: CrudWriteContext) => {
            // coverage first: the sources locked (404 outside the scope) before any rule reads them
            const lines = itemsField ? (data as Row)[itemsField] : undefined;
            const covered = coverage && Array.isArray(lines) ? await coverage.check(tx, lines as Row[], write, itemsField!) : undefined;
            // the source documents the body names: locked, in scope, eligible, not used by another live document
            await links?.validate(tx, data as Row, write);
            const own = await def.validate?.(tx, data, write);
            return covered || own ? { ...(covered ?? {}), ...(own ?? {}) } : undefined;
          },
        }
      : {}),
    beforeInsert: async (tx, values, _data, write) => {
      const { numero, ano } = await nextDocumentNumber(tx, { entidadeId: write.entidadeId, tipo: kind });
      return { ...values, status: flow.initial, numero, ano };
    },
    afterSave: async (tx, id, data, write) => {
      const lines = itemsField ? (data as Row)[itemsField] : undefined;
      if (items && Array.isArray(lines)) await items.save(tx, id, write.entidadeId, lines as Row[]);
      await links?.afterSave(tx, id, data as Row, write);
      const productUses = hasProducts ? write.ctx.contributions(DOCUMENT_PRODUCT_USES) : [];
      if (coverage) {
        // the status of the sources covered now and before, audited on each with this document
        const [row] = (await tx
          .select({ numero: table.numero, ano: table.ano })
          .from(table as PgTable)
          .where(eq(table.id, id))) as { numero: number; ano: number }[];
        const before = ((write.current?.[itemsField!] as Row[] | undefined) ?? []).map((l) => String(l[coverage.lineSourceKey] ?? ''));
        const sources = [...(await coverage.sourcesOf(tx, id)), ...(await coverage.documentsOfLines(tx, before))];
        await coverage.feedback(tx, sources, auditOf(tx), `${label.documento} ${formatNumero(row!.numero, row!.ano)}`);
      }
      if (def.afterSave || productUses.length) {
        const [row] = (await tx
          .select({ numero: table.numero, ano: table.ano })
          .from(table as PgTable)
          .where(eq(table.id, id))) as { numero: number; ano: number }[];
        const descricao = `${label.documento} ${formatNumero(row!.numero, row!.ano)}`;
        if (def.afterSave) {
          await def.afterSave(tx, id, data, {
            ...write,
            id,
            numero: row!.numero,
            ano: row!.ano,
            descricao,
            produtoIds: items ? await items.productIds(tx, id) : [],
            audit: (entry) => auditOf(tx)(entry),
          });
        }
        // the products the document uses now, as saved (after afterSave, which may still touch the items)
        if (productUses.length) {
          const produtoIds = await items!.productIds(tx, id);
          const documento = { entidadeId: write.entidadeId, origem: router.pluginId, documentoId: id, descricao };
          for (const { value } of productUses) await value.set(tx, documento, produtoIds);
        }
      }
      // the author of a creation (also duplicate, create-from), the editor of a change; and the authors of its sources
      await recordDocumentAuthor(tx, {
        entidadeId: write.entidadeId,
        documentoId: id,
        usuarioId: write.ctx.user.id,
        papel: write.current ? 'editor' : 'autor',
      });
      const sourcesOf = def.sources ?? coverage?.sourcesOf;
      if (sourcesOf) await copySourceAuthors(tx, write.entidadeId, id, await sourcesOf(tx, id));
      if (links) await copySourceAuthors(tx, write.entidadeId, id, await links.sourceIds(tx, id));
    },
    canEdit: editRefusal,
    // DELETE is always refused (409 `numerado`) before the CRUD kit's in-use check, delete and afterDelete
    canDelete: deleteRefusal,
    // other people's drafts: only an author (or who holds RASCUNHOS_ALHEIOS_TAG) changes them
    beforeUpdate: async (tx, current, ctx) => {
      const [authorship] = await authorshipOfAll(tx, [current], ctx);
      if (!authorship!.mayEditDraft) throw new AppError(403, 'forbidden', otherDraftMessage());
    },
    ...(def.scope ? { scope: def.scope } : {}),
    ...(items ? { expand: async (db: DbOrTx, row: Row) => ({ ...row, [items.field]: await items.read(db, String(row.id)) }) } : {}),
    present,
    responseShape: {
      status: z.string(),
      numero: z.number().int(),
      ano: z.number().int(),
      transicoes: z.array(z.string()),
      editavel: z.boolean(),
      ...(items ? { [items.field]: z.array(z.object({}).loose()).optional() } : {}),
      ...Object.fromEntries(Object.entries(def.oneShape ?? {}).map(([key, shape]) => [key, (shape as z.ZodType).optional()])),
    },
    ...(def.expandOne ? { expandOne: def.expandOne } : {}),
    // the list as declared, with the document's number, status and export columns
    ...def.list,
    searchExact: (q: string) => searchExact(q) ?? def.list.searchExact?.(q),
    // the number sorts by year, then number (3/2027 before 120/2026)
    sortColumns: { ...(def.list.sortColumns ?? {}), numero: [table.ano, table.numero] },
    ...(def.list.conditions || def.approvals
      ? {
          conditions: {
            ...(def.approvals
              ? { aguardandoMinha: { schema: z.enum(['1', 'true']), where: (_v: unknown, ctx: RequestContext) => def.approvals!.canDecideSql(ctx) } }
              : {}),
            ...(def.list.conditions ?? {}),
          },
        }
      : {}),
    sets: { status: { column: table.status, values: flow.stateNames }, ...(def.list.sets ?? {}) },
    references: { ...(def.references ?? {}), ...itemReferences },
    ...(def.unique ? { unique: def.unique } : {}),
    columns,
  };

  const idParams = z.object({ id: z.string() });
  const numeroOf = (row: Row) => formatNumero(row.numero as number, row.ano as number);

  // the files (GET <path>/:id.pdf and the others) before the CRUD routes: GET <path>/:id would take 'x.pdf' for an id
  let crud: CrudResource<S> | undefined;
  const pdfOf = def.pdf;
  if (pdfOf && (Object.values(def.files ?? {}).some((file) => file.main) || def.files?.documento)) {
    throw new Error(`${where}: declare the main PDF once: \`pdf\` (the short form of files.documento) or a main file.`);
  }
  const mainFile = pdfOf ? 'documento' : Object.entries(def.files ?? {}).find(([, file]) => file.main)?.[0];
  const filePaths = defineDocumentFiles(
    router,
    {
      path,
      tag,
      kind,
      documento: label.documento,
      singular: label.singular,
      stateLabel: (status) => flow.stateLabel(status),
      readOne: (db, id, ctx, options) => crud!.readOne(db, id, ctx, options),
      readHeader: async (db, id, ctx, options) => {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
        const [row] = await db
          .select()
          .from(table as PgTable)
          .where(crud!.byId(id, ctx, options))
          .limit(1);
        return row as Row | undefined;
      },
    },
    {
      ...(pdfOf ? { documento: { main: true, title: label.documento, formats: { pdf: (row: unknown, file) => pdfOf(row as Row, file.ctx) } } } : {}),
      ...(def.files ?? {}),
    },
  );

  crud = defineCrudResource(router, crudDefinition);
  const ops = crud;
  links?.registerCreateFrom(ops as unknown as CrudResource);
  def.approvals?.routes(router, path, (db, id, ctx) => ops.readOne(db, id, ctx));

  const transition = async (tx: Tx, id: string, name: string, body: TransitionBody, ctx: RequestContext) => {
    if (!flow.isTransition(name)) throw new Error(`${where}: '${name}' is not a transition of the flow.`);
    const locked = await ops.lock(tx, id, ctx);
    ops.checkVersion(locked, body.version);
    const before = (await ops.readOne(tx, id, ctx, { scoped: false }))!;
    const [authorship] = await authorshipOfAll(tx, [before], ctx);
    const check = flow.check(name, String(locked.status), await rolesOf(before, ctx, tx), authorship);
    if (!check.ok) {
      throw check.status === 409 ? new AppError(409, 'invalid_transition', check.message) : new AppError(403, 'forbidden', check.message);
    }
    const t = flow.transitions[name]!;
    if (t.reason && !body.motivo) throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', { motivo: 'Informe o motivo.' });
    // a source whose lines live documents cover: refused under its lock (conversions lock it too)
    for (const c of def.coveredBy ?? []) await c.guardSource(tx, id, name);
    const own = (await def.resolveTransition?.(tx, name, before, body, ctx)) ?? {};
    // approvals after the plugin's checks: the record of the level, the next level or the outcome
    const approval = (await def.approvals?.resolve(tx, name, before, ctx)) ?? {};
    const resolved = {
      to: approval.to ?? own.to,
      set: { ...(own.set ?? {}), ...(approval.set ?? {}) },
      audit: { ...(approval.audit ?? {}), ...(own.audit ?? {}) },
    };
    const to = resolved.to ?? t.to;
    if (!flow.isState(to)) throw new Error(`${where}: resolveTransition('${name}') answered '${to}', not a state of the flow.`);
    // a source document a live document was made from is not cancelled under it (links.ts): 409 `em_uso`
    await refuseSourceInUse(tx, { kind, id, transition: name, to, flow, feminino }, ctx);
    const set: Row = { ...(resolved.set ?? {}), status: to, version: sql`${table.version} + 1` };
    if (ops.columns.updatedAt) set.updatedAt = sql`now()`;
    await tx
      .update(table as PgTable)
      .set(set as never)
      .where(ops.byId(id, ctx, { scoped: false }));
    // links: a cancelled document gives its sources back
    await links?.afterTransition(tx, id, before, to, ctx);
    // coverage: lines released (cancelled, rejected) give their quantities back to the sources
    if (coverage && coverage.definition.target.releases.includes(to) !== coverage.definition.target.releases.includes(String(before.status))) {
      await coverage.feedback(tx, await coverage.sourcesOf(tx, id), auditOf(tx), `${label.documento} ${numeroOf(before)}`);
    }
    await def.onTransition?.(tx, name, before, body, ctx, { audit: (entry) => auditOf(tx)(entry) });
    // who sends a document answers for it as its writer (segregation: never approves it)
    if (t.authoring) await recordDocumentAuthor(tx, { entidadeId: ctx.entidadeId, documentoId: id, usuarioId: ctx.user.id, papel: 'remetente' });
    const after = (await ops.readOne(tx, id, ctx, { scoped: false }))!;
    await def.approvals?.notify(tx, name, after, body.motivo, ctx);
    return { before, after, extra: resolved.audit };
  };

  for (const name of flow.transitionNames) {
    const t = flow.transitions[name]!;
    const base = t.reason ? transitionBodySchema.extend({ motivo: reasonSchemaOf(t.reasonMin ?? 3) }) : transitionBodySchema;
    const body = def.transitionBody?.[name] ? base.extend(def.transitionBody[name]) : base;
    router.route({
      method: 'post',
      path: `${path}/:id/${name}`,
      tag,
      operationId: kitOperationId(router.pluginId, path, name),
      summary: `${t.label} ${label.singular}`,
      description:
        `De ${t.from.map((s) => flow.stateLabel(s)).join(', ')} para ${flow.stateLabel(t.to)}.` +
        (t.reason ? ` Exige \`motivo\` (ao menos ${t.reasonMin ?? 3} caracteres).` : '') +
        (t.who?.length ? ` Só para: ${t.who.join(', ')}.` : '') +
        ' Envie a `version` lida (409 `stale` se desatualizada); 409 `invalid_transition` quando o estado não permite.',
      request: { params: idParams, body },
      responses: {
        200: ops.itemSchema,
        404: { description: 'Não encontrado' },
        409: { description: 'Versão desatualizada (stale) ou transição não permitida no estado atual (invalid_transition)' },
      },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        const input = c.req.valid('json') as TransitionBody;
        const row = await ctx.mutate(async (tx, audit) => {
          const { before, after, extra } = await transition(tx, id, name, input, ctx);
          audit({
            registro: id,
            acao: name,
            antes: ops.auditable(before),
            depois: { ...ops.auditable(after), ...(input.motivo ? { motivo: input.motivo } : {}), ...extra },
          });
          return after;
        });
        return c.json((await ops.present([row], ctx))[0], 200);
      },
    });
  }

  const duplicateOptions = def.duplicate === false ? undefined : (def.duplicate ?? {});
  const reset = new Set([...(duplicateOptions?.reset ?? []), ...(coverage && itemsField ? [`${itemsField}.*.${coverage.lineSourceKey}`] : [])]);
  const resetTop = new Set([...reset].filter((key) => !key.includes('.*.')));
  const resetItem = new Set([...reset].filter((key) => key.startsWith(`${itemsField}.*.`)).map((key) => key.slice(`${itemsField}.*.`.length)));
  const itemSchema = itemsField ? objectSchemaOf(def.schema.shape[itemsField]) : undefined;
  const itemKeys = items ? new Set([items.keys.total, items.keys.order]) : new Set<string>();

  const duplicate = async (tx: Tx, id: string, ctx: RequestContext) => {
    const source = await ops.readOne(tx, id, ctx);
    if (!source) throw notFound();
    const input = inputOf(def.schema, source, new Set([...resetTop, ...kitKeys, 'id', 'version']));
    if (itemsField && Array.isArray(source[itemsField])) {
      const decimals = items ? [items.keys.quantity, items.keys.unitValue] : [];
      input[itemsField] = (source[itemsField] as Row[]).map((line) => {
        const copy = inputOf(itemSchema, line, new Set([...resetItem, ...itemKeys]));
        // in pt-BR ('10,015'): what the schema reads without the ambiguity of '10.015'
        for (const key of decimals) if (typeof copy[key] === 'string') copy[key] = formatDecimal(copy[key] as string);
        return copy;
      });
    }
    for (const key of duplicateOptions?.today ?? []) input[key] = today();
    const parsed = def.schema.safeParse(input);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.length ? issue.path.map(String).join('.') : '_';
        if (!Object.hasOwn(fields, key)) fields[key] = issue.message;
      }
      throw new AppError(
        400,
        'validation_error',
        `Não é possível duplicar: ${feminino ? 'a' : 'o'} ${documento} ${numeroOf(source)} tem dados que não são mais aceitos. Crie um novo.`,
        fields,
      );
    }
    const created = await ops.createRecord(tx, parsed.data as z.output<S>, { entidadeId: ctx.entidadeId, ctx });
    return { source, created };
  };

  const duplicarPath = duplicateOptions ? `${path}/:id/duplicar` : undefined;
  if (duplicarPath) {
    router.route({
      method: 'post',
      path: duplicarPath,
      tag,
      operationId: kitOperationId(router.pluginId, path, 'duplicar'),
      summary: `Duplicar ${label.singular}`,
      description: `Um novo ${label.singular} em ${flow.stateLabel(flow.initial)} com o conteúdo e os itens deste, novo número e data de hoje.`,
      request: { params: idParams },
      responses: { 201: ops.itemSchema, 404: { description: 'Não encontrado' } },
      handler: async (c, ctx) => {
        const { id } = c.req.valid('param');
        const row = await ctx.mutate(async (tx, audit) => {
          const { source, created } = await duplicate(tx, id, ctx);
          audit({ registro: String(created.id), acao: 'criar', depois: { ...ops.auditable(created), duplicadoDe: numeroOf(source) } });
          return created;
        });
        return c.json((await ops.present([row], ctx))[0], 201);
      },
    });
  }

  // the timeline names the source a one → one link keeps in a column ('Memorando: 12/2026', not its id);
  // the plugin's own `history.names` win
  const linkNames: HistoryNames = {};
  for (const link of def.links ?? []) {
    const key = link.column && headerColumns.find(([, column]) => column === link.column)?.[0];
    if (key) linkNames[key] = { table: getTableName(link.source.table as PgTable), label: "numero || '/' || ano" };
  }
  const historyNames: HistoryNames = { ...linkNames, ...(def.history?.names ?? {}) };
  const historicoPath = `${path}/:id/historico`;
  router.route({
    method: 'get',
    path: historicoPath,
    tag,
    operationId: kitOperationId(router.pluginId, path, 'historico'),
    summary: `Histórico do ${label.singular}`,
    description: 'Quem fez o quê e quando, com o motivo e os campos alterados (mais recentes primeiro).',
    request: { params: idParams },
    responses: { 200: recordHistorySchema, 404: { description: 'Não encontrado' } },
    handler: async (c, ctx) => {
      const { id } = c.req.valid('param');
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound();
      const [found] = await ctx.db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(ops.byId(id, ctx))
        .limit(1);
      if (!found) throw notFound();
      const history = await recordHistory(ctx.db, {
        entidadeId: ctx.entidadeId,
        plugin: router.pluginId,
        registro: id,
        ...(Object.keys(historyNames).length ? { names: historyNames } : {}),
        ...(def.history?.skip ? { skip: def.history.skip } : {}),
      });
      return c.json(history, 200);
    },
  });

  return {
    crud: ops,
    flow,
    items,
    kind,
    label,
    paths: {
      list: ops.paths.list,
      item: ops.paths.item,
      csv: ops.paths.csv,
      xlsx: ops.paths.xlsx,
      duplicar: duplicarPath,
      historico: historicoPath,
      pdf: mainFile ? filePaths[mainFile]?.pdf : undefined,
      files: filePaths,
      transitions: Object.fromEntries(flow.transitionNames.map((name) => [name, `${path}/:id/${name}`])),
    },
    rolesOf,
    transition,
    duplicate,
  };
}
