// Audit changes as pt-BR text: 'Campo: antes → depois', with labels, record names, Sim/Não, dates
// dd/mm/aaaa and decimals in pt-BR. Pure: the Timeline and the Logs de Auditoria page both use it.
import { formatDate, formatDateTime } from '@app/br';
import { formatDecimal, formatMoney } from '@app/documents';
import { auditActionLabel, auditFieldLabel } from './labels';
import type { AuditRenderOptions, AuditValueFormat, HistoryEntry, HistoryFieldChange } from './types';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** What the API sends for NUMERIC columns: '12.50', '-0.0125' (a código like '001.2' is not one). */
const DECIMAL = /^-?(0|[1-9]\d*)\.\d+$/;
/** An id the server could not name (the record was deleted, or is another entidade's): never shown raw. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UNNAMED_RECORD = 'registro não encontrado';
export const EMPTY_VALUE = '—';

function lookup<T>(map: Readonly<Record<string, T>> | undefined, campo: string, parent?: string): T | undefined {
  if (!map) return undefined;
  if (parent && Object.hasOwn(map, `${parent}.${campo}`)) return map[`${parent}.${campo}`];
  return Object.hasOwn(map, campo) ? map[campo] : undefined;
}

function formatAs(format: AuditValueFormat, value: unknown): string {
  const text = String(value);
  switch (format) {
    case 'text':
      return text;
    case 'boolean':
      return value === true || text === 'true' ? 'Sim' : 'Não';
    case 'date':
      return formatDate(text) || text;
    case 'datetime':
      return formatDateTime(text) || text;
    case 'decimal':
      return formatDecimal(text);
    case 'money':
      return formatMoney(text, 4);
  }
}

/**
 * A value as shown in the audit trail: '—' for none, Sim/Não, a value label ('alta' → 'Alta'),
 * dates dd/mm/aaaa (instants dd/mm/aaaa hh:mm in America/Sao_Paulo), decimals in pt-BR without
 * float ('1234.50' → '1.234,5'), lists joined with ', ', objects as 'Campo: valor; …', an id left
 * unnamed by the server 'registro não encontrado'.
 */
export function formatAuditValue(value: unknown, campo: string, options: AuditRenderOptions = {}, parent?: string): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (Array.isArray(value)) {
    return value.length ? value.map((v) => formatAuditValue(v, campo, options, parent)).join(', ') : EMPTY_VALUE;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return EMPTY_VALUE;
    return entries.map(([k, v]) => `${auditFieldLabel(k, options.labels, campo)}: ${formatAuditValue(v, k, options, campo)}`).join('; ');
  }
  const valueLabel = lookup(options.values, campo, parent)?.[String(value)];
  if (valueLabel !== undefined) return typeof valueLabel === 'string' ? valueLabel : valueLabel.label;
  const format = lookup(options.formats, campo, parent);
  if (format) return formatAs(format, value);
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatDecimal(value);
  const text = String(value);
  if (DATE_ONLY.test(text)) return formatDate(text) || text;
  if (INSTANT.test(text)) return formatDateTime(text) || text;
  if (DECIMAL.test(text)) return formatDecimal(text);
  if (UUID.test(text)) return UNNAMED_RECORD;
  return text;
}

export interface DescribeAuditChangeOptions extends AuditRenderOptions {
  /** The row's action: on 'criar' only the new value is shown, on 'excluir' only the old one. */
  acao?: string;
  /** Field holding this one (a line item's list, e.g. 'itens'): labels/formats 'itens.quantidade' first. */
  parent?: string;
}

/**
 * One change as a line: 'Situação: Rascunho → Enviado', 'Assunto: Papel' (creation), 'Itens: 3 → 4'
 * (line items: their count; describeAuditItems gives what happened to them).
 */
export function describeAuditChange(change: HistoryFieldChange, options: DescribeAuditChangeOptions = {}): string {
  const label = change.rotulo ?? auditFieldLabel(change.campo, options.labels, options.parent);
  const show = (v: unknown) => (change.itens ? (typeof v === 'number' ? String(v) : '0') : formatAuditValue(v, change.campo, options, options.parent));
  if (options.acao === 'criar') return `${label}: ${show(change.depois)}`;
  if (options.acao === 'excluir') return `${label}: ${show(change.antes)}`;
  return `${label}: ${show(change.antes)} → ${show(change.depois)}`;
}

/** What happened to line items, one line each: 'Incluídos: A, B', 'Removido: C', 'A — Quantidade: 2 → 5'. */
export function describeAuditItems(change: HistoryFieldChange, options: AuditRenderOptions = {}): string[] {
  const itens = change.itens;
  if (!itens) return [];
  const lines: string[] = [];
  // an item the server could not name (its product was deleted, or never audited) is not shown by its id
  const nome = (item: string) => (UUID.test(item) ? UNNAMED_RECORD : item);
  const lista = (nomes: string[]) => nomes.map(nome).join(', ');
  if (itens.adicionados.length) lines.push(`${itens.adicionados.length > 1 ? 'Incluídos' : 'Incluído'}: ${lista(itens.adicionados)}`);
  if (itens.removidos.length) lines.push(`${itens.removidos.length > 1 ? 'Removidos' : 'Removido'}: ${lista(itens.removidos)}`);
  for (const { item, mudancas } of itens.alterados) {
    const sub = sortAuditChanges(mudancas, options.labels, change.campo).map((m) => describeAuditChange(m, { ...options, parent: change.campo }));
    lines.push(`${nome(item)} — ${sub.join('; ')}`);
  }
  return lines;
}

/** Changes in the order of the labels' keys (a form's field order); fields without a label last, as they came. */
export function sortAuditChanges<T extends { campo: string }>(changes: readonly T[], labels?: Readonly<Record<string, string>>, parent?: string): T[] {
  if (!labels) return [...changes];
  const keys = Object.keys(labels);
  const rank = (campo: string) => {
    const i = keys.indexOf(parent ? `${parent}.${campo}` : campo);
    const j = i >= 0 ? i : keys.indexOf(campo);
    return j >= 0 ? j : keys.length;
  };
  return changes
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c.campo) - rank(b.c.campo) || a.i - b.i)
    .map((x) => x.c);
}

/** What was done: 'Alteração', 'Enviado', 'Criação — duplicado a partir de 12/2026'. */
export function auditEntrySummary(entry: Pick<HistoryEntry, 'acao' | 'duplicadoDe'>, options: AuditRenderOptions = {}): string {
  const what = auditActionLabel(entry.acao, options.actions);
  return entry.duplicadoDe ? `${what} — duplicado a partir de ${entry.duplicadoDe}` : what;
}

/** Who did it: the user's name, or 'Sistema'. */
export const auditUserName = (entry: Pick<HistoryEntry, 'usuario'>): string => entry.usuario?.nome ?? 'Sistema';
