// What a document's list adds to its declaration (the status and period filters, the sort by
// number, no `ativo`), as build.tsx gives it to the list page: a navigation's prefetch asks for the
// list under the same key without loading the kit's chunk (test/routePrefetch.test.tsx keeps both equal).
import type { ListFilter } from '../types';
import type { DocumentConfig } from './types';

export function documentListOptions(c: DocumentConfig): { filters: ListFilter[]; defaultSort: string; ativo: false } {
  const period = c.period === false ? null : (c.period ?? { name: 'data', label: 'Período' });
  const filters: ListFilter[] = [
    { name: 'status', label: 'Situação', options: c.flow.stateNames.map((s) => ({ value: s, label: c.flow.stateLabel(s) })), multiple: true },
    ...(period ? [{ name: period.name, label: period.label ?? 'Período', period: true as const }] : []),
    ...(c.filters ?? []),
  ];
  return { filters, defaultSort: c.defaultSort ?? '-numero', ativo: false };
}
