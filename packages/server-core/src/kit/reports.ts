// Reports contributed by the plugins that own their data: a plugin declares a report (its filters,
// its columns, the tag that opens it and how it reads its rows in the person's scope) and
// contributes it to RELATORIOS; @app/relatorios lists the reports a person may run at /reports and
// gives each its preview, PDF and XLSX (filters checked, sort, exact totals, title, entidade, filters
// used, who and when). Declared by server-core, like PENDENCIAS, so that contributors and the reader
// need not depend on each other.
import { type ExtensionPoint, extensionPoint } from '../platform/contributions.js';
import type { RequestContext } from '../platform/context.js';

/**
 * How a column's values come and are shown: `text`; `integer` (a number); `decimal` and `money`
 * (exact decimal strings, '1234.5': never floats; money as 'R$ 1.234,50'); `date` ('2026-03-31',
 * shown dd/mm/aaaa); `datetime` (an instant, shown dd/mm/aaaa hh:mm in America/Sao_Paulo).
 */
export type ReportColumnType = 'text' | 'integer' | 'decimal' | 'money' | 'date' | 'datetime';

export interface ReportColumn {
  /** The row's property. */
  key: string;
  /** Header, pt-BR. */
  label: string;
  /** Default `text`. */
  type?: ReportColumnType;
  /** Decimal places shown for `decimal` (default 2; more digits are kept, never rounded). */
  places?: number;
  /** Summed exactly in the totals row (integer, decimal and money columns). */
  total?: boolean;
}

export interface ReportOption {
  value: string;
  label: string;
}

/**
 * A filter of a report, given in the URL (`?de=2026-01-01&centro=…`). `date`: dd/mm/aaaa or
 * aaaa-mm-dd, an impossible date is a 400; `ano`: four digits, 2000–2100; `text`: up to 200
 * characters; `select`: one of `options` (given, or computed for the person: their centros de
 * custo), anything else is a 400 — so an id in a filter never reaches past the person's scope.
 */
export interface ReportFilter {
  name: string;
  label: string;
  kind: 'date' | 'ano' | 'text' | 'select';
  options?: readonly ReportOption[] | ((ctx: RequestContext) => Promise<readonly ReportOption[]>);
  required?: boolean;
  /** Value when the person gives none (e.g. the current year), or computed. */
  default?: string | ((ctx: RequestContext) => string);
  /** `date` only: the name of a date filter this one may not precede ('ate' not before 'de'). */
  notBefore?: string;
}

/** The filters as the report's `load` gets them: checked, dates as aaaa-mm-dd; absent when not given. */
export type ReportFilters = Readonly<Record<string, string | undefined>>;

export interface ReportDefinition {
  /** '<plugin id>.<name>' ('requisicoes.por-periodo'): its URL (/reports/requisicoes.por-periodo). */
  id: string;
  /** pt-BR: the catalogue, the page and the file's title. */
  title: string;
  /** One sentence: what it answers. */
  description: string;
  /** Heading it is listed under in the catalogue ('Requisições'). */
  group: string;
  /** Tag the person must hold (besides /reports' own). */
  tag: number;
  filters: readonly ReportFilter[];
  columns: readonly ReportColumn[];
  /** The PDF's page (default landscape when more than 6 columns). */
  orientation?: 'portrait' | 'landscape';
  /**
   * The rows, read in the person's scope (centroCustoScope, the entidade): at most `limit` of them
   * (the reader asks one more than it accepts, to know when a report is too large).
   */
  load(ctx: RequestContext, filters: ReportFilters, limit: number): Promise<readonly Record<string, unknown>[]>;
  /**
   * A chart of the rows (as the file has them: one value per column key, in the person's order),
   * printed above the table in the PDF: an SVG — the same chart code the plugin's pages draw, with
   * ECharts' server-side SVG renderer — and its height in points (it is scaled to the page's width).
   * Null when there is nothing to draw. The spreadsheet has the figures only.
   */
  chart?(rows: readonly Readonly<Record<string, unknown>>[], filters: ReportFilters): { svg: string; height: number } | null;
}

/** `contributes: [contribute(RELATORIOS, defineReport({ … }))]`. */
export const RELATORIOS: ExtensionPoint<ReportDefinition> = extensionPoint<ReportDefinition>('core.relatorios');

const REPORT_ID = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;
const NAME = /^[a-z][a-zA-Z0-9]*$/;
const RESERVED_FILTERS = new Set(['ordem', 'direcao']);
const SUMMABLE = new Set<ReportColumnType>(['integer', 'decimal', 'money']);

/** Checks a report's declaration at start (a mistake stops the server, not a request). */
export function defineReport(report: ReportDefinition): ReportDefinition {
  const where = `defineReport(${report.id})`;
  if (!REPORT_ID.test(report.id)) throw new Error(`${where}: the id must be '<plugin id>.<name>' in lowercase letters, digits and '-'.`);
  if (report.columns.length === 0) throw new Error(`${where}: declare at least one column.`);
  const keys = new Set<string>();
  for (const column of report.columns) {
    if (keys.has(column.key)) throw new Error(`${where}: the column '${column.key}' is declared twice.`);
    keys.add(column.key);
    if (column.total && !SUMMABLE.has(column.type ?? 'text'))
      throw new Error(`${where}: only integer, decimal and money columns have a total ('${column.key}').`);
  }
  const names = new Set<string>();
  for (const filter of report.filters) {
    if (!NAME.test(filter.name) || RESERVED_FILTERS.has(filter.name) || names.has(filter.name)) {
      throw new Error(`${where}: the filter '${filter.name}' needs a unique name of letters and digits (not 'ordem' or 'direcao').`);
    }
    names.add(filter.name);
    if (filter.kind === 'select' && !filter.options) throw new Error(`${where}: the filter '${filter.name}' is a select without options.`);
    if (filter.notBefore && !report.filters.some((f) => f.name === filter.notBefore && f.kind === 'date')) {
      throw new Error(`${where}: the filter '${filter.name}' names '${filter.notBefore}', which is not a date filter.`);
    }
  }
  return Object.freeze(report);
}
