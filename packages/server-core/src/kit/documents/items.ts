// Line items of a document: a child table saved with the header in the same transaction (the set is
// replaced, in the order sent), each line's total = quantity × unit value rounded to cents and the
// document's total = the sum of the line totals, computed with @app/documents (exact decimals,
// never a JS float) and stored in numeric columns. A line whose total rounds to R$ 0,00 while its
// quantity and unit value are above zero is refused (400 at itens.N.<quantity>).
import {
  QUANTITY_SCALE,
  ZERO_LINE_TOTAL_MESSAGE,
  compareDecimal,
  formatDecimal,
  fromUnits,
  lineTotal,
  lineTotalRoundsToZero,
  parseDecimal,
  sumMoney,
  toUnits,
} from '@app/documents';
import { type SQL, and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { CrudReference } from '../crud.js';
import type { DbOrTx, Tx } from '../../platform/db/types.js';
import { AppError, badRequest } from '../../platform/errors.js';

/** Most line items a document takes (a longer list is a 400). */
export const MAX_DOCUMENT_ITEMS = 5000;
/** Rows per INSERT when saving items (keeps the statement well under PostgreSQL's 65 535 parameters). */
const INSERT_CHUNK = 500;

type Row = Record<string, unknown>;

const CANONICAL = /^-?\d{1,30}(\.\d{1,30})?$/;
/** Digits before the point of a total column, numeric(17,2). */
export const MAX_TOTAL_INTEGER_DIGITS = 15;
const tooBig = (money: string) => money.replace(/^-/, '').split('.')[0]!.length > MAX_TOTAL_INTEGER_DIGITS;

export interface DocumentItemsDefinition {
  /** The items table (one row per line). */
  table: PgTable;
  /** Key of the items in the body and in the answers (default 'itens'). */
  field?: string;
  /** Foreign key to the header (declare it ON DELETE CASCADE). */
  documentColumn: AnyPgColumn;
  /** Integer position of the line (1, 2, 3… in the order sent). */
  orderColumn: AnyPgColumn;
  /** The catalogue product of the line, if any (its ids are given to `afterSave` as `produtoIds`). */
  productColumn?: AnyPgColumn;
  /** numeric(15,4) quantity. */
  quantityColumn: AnyPgColumn;
  /** numeric(15,4) estimated unit value. */
  unitValueColumn: AnyPgColumn;
  /** numeric(17,2) line total, computed by the kit (what the body sends is ignored). */
  totalColumn: AnyPgColumn;
  /** numeric(17,2) column of the HEADER holding the document total (sum of the line totals). */
  documentTotalColumn?: AnyPgColumn;
  /**
   * Fields of each line holding ids of registries, checked like `references` of the header (same
   * entidade; `active` refused when newly added) and reported at `itens.2.produtoId`.
   */
  references?: Record<string, CrudReference>;
  /** Computed fields answered with each line (e.g. the product's description through `joins`). */
  extra?: Record<string, SQL | AnyPgColumn>;
  /** LEFT JOINs for `extra` (one row per line). */
  joins?: { table: PgTable; on: SQL }[];
  /** Item columns never answered nor audited (the line's id, the header FK and entidadeId never are). */
  hidden?: string[];
  /**
   * Lines converted from lines of another document (requisição items from pré-requisição items):
   * saving locks the source lines FOR UPDATE and refuses (400 at `itens.N.<quantity>`) a total
   * converted above a source line's quantity, counting every document's lines that `counts`.
   */
  source?: DocumentItemSource;
}

/** See DocumentItemsDefinition.source. */
export interface DocumentItemSource {
  /** Column of the items table holding the source line's id (NULL: a line typed directly). */
  column: AnyPgColumn;
  /** The source lines: table, id, entidade and quantity (numeric) columns. */
  table: PgTable;
  id: AnyPgColumn;
  entidadeId: AnyPgColumn;
  quantity: AnyPgColumn;
  /** Which converting documents count (e.g. not cancelled): a condition over the HEADER table. */
  counts?: SQL;
  /** pt-BR message for a quantity above what is pending ('Restam 2 a converter.'). */
  message: (pendente: string) => string;
  /** pt-BR message for a source line that does not exist in the entidade. */
  missing: string;
  /** When other documents took ALL of a line (a race lost): 409 with this code and message (default: the 400 of `message`). */
  exhausted?: { code: string; message: string };
}

/** The header table and its id, for `source.counts` (given by defineDocumentResource). */
export interface DocumentItemsHeader {
  table: PgTable;
  id: AnyPgColumn;
}

/** The operations of a document's items, built once per resource. */
export interface DocumentItems {
  readonly field: string;
  /** Drizzle keys of the quantity, unit value, total and product columns. */
  readonly keys: { quantity: string; unitValue: string; total: string; order: string; product: string | undefined };
  /** The lines sent, each with its total (two places), and the document total. */
  totals(lines: readonly Row[]): { lines: Row[]; total: string };
  /** Replaces the items of `documentId` with `lines` (order and totals computed). */
  save(tx: Tx, documentId: string, entidadeId: string, lines: readonly Row[]): Promise<void>;
  /** The items of a document, in order, with `extra` fields. */
  read(db: DbOrTx, documentId: string): Promise<Row[]>;
  /** Distinct product ids of a document's items (none without `productColumn`). */
  productIds(db: DbOrTx, documentId: string): Promise<string[]>;
}

function keyOf(columns: Record<string, AnyPgColumn>, column: AnyPgColumn, where: string, what: string): string {
  const key = Object.keys(columns).find((k) => columns[k] === column);
  if (!key) throw new Error(`${where}: items.${what} is not a column of the items table.`);
  return key;
}

export function createDocumentItems(def: DocumentItemsDefinition, where: string, header?: DocumentItemsHeader): DocumentItems {
  const field = def.field ?? 'itens';
  const columns = getTableColumns(def.table) as Record<string, AnyPgColumn>;
  const documentKey = keyOf(columns, def.documentColumn, where, 'documentColumn');
  const orderKey = keyOf(columns, def.orderColumn, where, 'orderColumn');
  const quantityKey = keyOf(columns, def.quantityColumn, where, 'quantityColumn');
  const unitValueKey = keyOf(columns, def.unitValueColumn, where, 'unitValueColumn');
  const totalKey = keyOf(columns, def.totalColumn, where, 'totalColumn');
  const productKey = def.productColumn ? keyOf(columns, def.productColumn, where, 'productColumn') : undefined;
  const sourceKey = def.source ? keyOf(columns, def.source.column, where, 'source.column') : undefined;
  if (def.source?.counts && !header) throw new Error(`${where}: items.source.counts needs the header table.`);
  const entidadeKey = Object.hasOwn(columns, 'entidadeId') ? 'entidadeId' : undefined;
  const system = new Set(['id', documentKey, orderKey, totalKey, ...(entidadeKey ? [entidadeKey] : [])]);
  const hidden = new Set(['id', documentKey, ...(entidadeKey ? [entidadeKey] : []), ...(def.hidden ?? [])]);
  const answered: Record<string, AnyPgColumn | SQL> = {};
  for (const [key, column] of Object.entries(columns)) if (!hidden.has(key)) answered[key] = column;
  for (const [key, expr] of Object.entries(def.extra ?? {})) answered[key] = expr;

  // values come out of the plugin's schema (quantitySchema / unitValueSchema): canonical strings,
  // taken as they are ('10.015' is ten and a bit, not the pt-BR 10.015); a number is read exactly
  const decimal = (line: Row, key: string, index: number, message: string): string => {
    const raw = line[key];
    const value = typeof raw === 'string' ? (CANONICAL.test(raw) ? raw : null) : typeof raw === 'number' ? parseDecimal(raw) : null;
    if (value === null) throw badRequest('Verifique os campos destacados.', { [`${field}.${index}.${key}`]: message });
    return value;
  };

  const totals = (lines: readonly Row[]) => {
    if (lines.length > MAX_DOCUMENT_ITEMS) {
      throw badRequest('Verifique os campos destacados.', { [field]: `Use no máximo ${MAX_DOCUMENT_ITEMS.toLocaleString('pt-BR')} itens.` });
    }
    const out = lines.map((line, i) => {
      const quantity = decimal(line, quantityKey, i, 'Informe a quantidade.');
      const unitValue = decimal(line, unitValueKey, i, 'Informe o valor unitário.');
      const total = lineTotal(quantity, unitValue);
      if (tooBig(total)) throw badRequest('Verifique os campos destacados.', { [`${field}.${i}.${totalKey}`]: 'Total do item acima do permitido.' });
      // a line that counts in the document but adds R$ 0,00 to it (0,001 × R$ 1,00) is refused
      if (lineTotalRoundsToZero(quantity, unitValue))
        throw badRequest('Verifique os campos destacados.', { [`${field}.${i}.${quantityKey}`]: ZERO_LINE_TOTAL_MESSAGE });
      return { ...line, [quantityKey]: quantity, [unitValueKey]: unitValue, [totalKey]: total };
    });
    const total = sumMoney(out.map((line) => line[totalKey] as string));
    if (tooBig(total)) throw badRequest('Verifique os campos destacados.', { [field]: 'Total do documento acima do permitido.' });
    return { lines: out, total };
  };

  const save = async (tx: Tx, documentId: string, entidadeId: string, lines: readonly Row[]) => {
    const computed = totals(lines).lines;
    // the source lines are locked and checked BEFORE the insert: an unknown one is a 400 naming the
    // line, never the foreign key's 409
    const sources = def.source && sourceKey ? await lockSources(tx, entidadeId, computed, def.source, sourceKey) : undefined;
    await tx.delete(def.table).where(eq(def.documentColumn, documentId));
    const rows = computed.map((line, i) => {
      const values: Row = {};
      for (const [key, value] of Object.entries(line)) {
        if (Object.hasOwn(columns, key) && !system.has(key) && value !== undefined) values[key] = value;
      }
      values[documentKey] = documentId;
      values[orderKey] = i + 1;
      values[totalKey] = line[totalKey];
      if (entidadeKey) values[entidadeKey] = entidadeId;
      return values;
    });
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await tx.insert(def.table).values(rows.slice(start, start + INSERT_CHUNK) as never);
    }
    if (def.source && sourceKey && sources) await checkSources(tx, computed, def.source, sourceKey, sources);
  };

  /**
   * The source lines are locked (in id order: no deadlock between two conversions), then summed in a
   * later statement, so a conversion that waited for the lock sees what the first one committed.
   */
  const lockSources = async (tx: Tx, entidadeId: string, lines: Row[], source: DocumentItemSource, key: string) => {
    const at = new Map<string, number>();
    lines.forEach((line, i) => {
      const value = line[key];
      if (typeof value === 'string' && value && !at.has(value)) at.set(value, i);
    });
    if (at.size === 0) return { at, found: new Set<string>() };
    const ids = [...at.keys()].sort();
    const valid = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
    const locked = valid.length
      ? ((await tx
          .select({ id: source.id })
          .from(source.table)
          .where(and(inArray(source.id, valid), eq(source.entidadeId, entidadeId)))
          .orderBy(asc(source.id))
          .for('update')) as { id: string }[])
      : [];
    const found = new Set(locked.map((r) => String(r.id)));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest('Verifique os campos destacados.', { [`${field}.${at.get(missing)}.${key}`]: source.missing });
    return { at, found };
  };

  const checkSources = async (tx: Tx, lines: Row[], source: DocumentItemSource, key: string, locked: { at: Map<string, number>; found: Set<string> }) => {
    const { at, found } = locked;
    if (found.size === 0) return;
    let consumers = tx
      .select({ source: def.source!.column, total: sql<string>`sum(${def.quantityColumn})::text` })
      .from(def.table)
      .$dynamic();
    if (header) consumers = consumers.innerJoin(header.table, eq(header.id, def.documentColumn));
    const sums = (await consumers.where(and(inArray(def.source!.column, [...found]), source.counts)).groupBy(def.source!.column)) as {
      source: string;
      total: string;
    }[];
    const quantities = (await tx
      .select({ id: source.id, quantity: sql<string>`${source.quantity}::text` })
      .from(source.table)
      .where(inArray(source.id, [...found]))) as { id: string; quantity: string }[];
    const units = (value: string) => toUnits(value, QUANTITY_SCALE);
    const own = (id: string) => lines.filter((line) => line[key] === id).reduce((sum, line) => sum + units(String(line[quantityKey])), 0n);
    for (const { id, quantity } of quantities) {
      const total = sums.find((s) => String(s.source) === String(id))?.total ?? '0';
      if (compareDecimal(total, quantity) > 0) {
        const pending = units(quantity) - (units(total) - own(String(id)));
        const pendente = fromUnits(pending > 0n ? pending : 0n, QUANTITY_SCALE);
        if (pending <= 0n && source.exhausted) {
          throw new AppError(409, source.exhausted.code, source.exhausted.message, {
            [`${field}.${at.get(String(id))}.${quantityKey}`]: source.exhausted.message,
          });
        }
        throw new AppError(400, 'validation_error', 'Verifique os campos destacados.', {
          [`${field}.${at.get(String(id))}.${quantityKey}`]: source.message(formatDecimal(pendente)),
        });
      }
    }
  };

  const read = async (db: DbOrTx, documentId: string): Promise<Row[]> => {
    let query = db
      .select(answered as never)
      .from(def.table)
      .$dynamic();
    for (const join of def.joins ?? []) query = query.leftJoin(join.table, join.on);
    return (await query.where(eq(def.documentColumn, documentId)).orderBy(asc(def.orderColumn))) as Row[];
  };

  const productIds = async (db: DbOrTx, documentId: string): Promise<string[]> => {
    if (!def.productColumn) return [];
    const rows = await db.selectDistinct({ id: def.productColumn }).from(def.table).where(eq(def.documentColumn, documentId));
    return rows.filter((r) => r.id !== null && r.id !== undefined).map((r) => String(r.id));
  };

  return {
    field,
    keys: { quantity: quantityKey, unitValue: unitValueKey, total: totalKey, order: orderKey, product: productKey },
    totals,
    save,
    read,
    productIds,
  };
}
