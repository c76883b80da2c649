// A document's resource declaration, built from its DocumentConfig: what the list and the form of
// the resource kit need, plus what every document has (in the pages' lazy chunks, never on the
// first page).
import { Card } from '@app/ui';
import { Suspense, lazy } from 'react';
import { RecordTimeline } from '../../audit/Timeline';
import { ChunkLoadError } from '../../routing/chunkError';
import { renderSlot } from '../form/slots';
import type { ListFilter, ResourceColumn, ResourceConfig } from '../types';
import type { DocumentInfo } from './info';
import { numeroOf } from './numero';
import { StatusBadge } from './StatusBadge';
import { documentFields, documentTimeline } from './timeline';
import type { DocumentConfig } from './types';

type Row = Record<string, unknown>;

const chunk = <T,>(load: () => Promise<T>) =>
  load().catch((error: unknown) => {
    throw new ChunkLoadError(error);
  });
// only the Edit page shows it
const DocumentActions = lazy(() => chunk(() => import('./DocumentActions')));

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export interface DocumentResource {
  resource: ResourceConfig;
  doc: DocumentInfo;
  duplicateTitle: string;
}

const built = new WeakMap<DocumentConfig, DocumentResource>();

/** The resource config of a document (built once per declaration). */
export function documentResource(config: DocumentConfig): DocumentResource {
  let entry = built.get(config);
  if (!entry) {
    entry = buildDocumentResource(config);
    built.set(config, entry);
  }
  return entry;
}

function buildDocumentResource(c: DocumentConfig): DocumentResource {
  const { flow, documento } = c;
  const feminino = c.feminino === true;
  const doc: DocumentInfo = {
    endpoint: c.endpoint,
    base: c.base,
    flow,
    documento,
    feminino,
    duplicate: c.duplicate !== false,
    pdf: c.pdf !== false,
    transitionDialog: c.slots?.transitionDialog,
  };

  const hasColumn = (key: string) => c.columns.some((col) => col.key === key);
  const statusColumn: ResourceColumn = {
    key: 'status',
    header: 'Situação',
    width: '9rem',
    value: (row) => flow.stateLabel(String(row.status ?? '')),
    render: (row) => <StatusBadge flow={flow} status={row.status} />,
  };
  const columns: ResourceColumn[] = [
    ...(hasColumn('numero') ? [] : [{ key: 'numero', header: 'Número', width: '7rem', value: (row: Row) => numeroOf(row) }]),
    ...c.columns.map((col) => (col.key === 'status' && !col.render ? { ...statusColumn, ...col, render: statusColumn.render } : col)),
    ...(hasColumn('status') ? [] : [statusColumn]),
  ];

  const fields = documentFields(c);

  const period = c.period === false ? null : (c.period ?? { name: 'data', label: 'Período' });
  const filters: ListFilter[] = [
    { name: 'status', label: 'Situação', options: flow.stateNames.map((s) => ({ value: s, label: flow.stateLabel(s) })), multiple: true },
    ...(period ? [{ name: period.name, label: period.label ?? 'Período', period: true as const }] : []),
    ...(c.filters ?? []),
  ];

  const este = feminino ? 'Esta' : 'Este';
  const timeline = documentTimeline(c);

  const resource: ResourceConfig = {
    ...(c as unknown as ResourceConfig),
    columns,
    fields,
    filters,
    ativo: false,
    noToggle: true,
    // numbered at creation, never deleted (the server answers 409 numerado): a draft is cancelled with a reason
    noDelete: true,
    noun: documento,
    feminine: feminino,
    afterSave: c.afterSave ?? 'record',
    defaultSort: c.defaultSort ?? '-numero',
    recordLabel: c.recordLabel ?? numeroOf,
    describe: c.describe ?? ((row) => `${documento} ${numeroOf(row)} · ${flow.stateLabel(String(row.status ?? ''))}`),
    readOnlyWhen:
      c.readOnlyWhen ??
      ((_values, record) =>
        record?.editavel === false
          ? flow.isEditable(String(record.status ?? ''))
            ? // another person's draft (segregation of duties: only its authors change it)
              'Só quem criou este rascunho pode alterá-lo: somente leitura.'
            : `${este} ${lower(documento)} está ${lower(flow.stateLabel(String(record.status ?? '')))}: somente leitura.`
          : false),
    messages: { ...c.messages },
    slots: {
      listActions: c.slots?.listActions,
      rowActions: c.slots?.rowActions,
      actions: (record, ctx) => (
        <>
          <Suspense fallback={null}>
            <DocumentActions doc={doc} record={record} ctx={ctx} />
          </Suspense>
          {renderSlot(c.slots?.actions, record, ctx)}
        </>
      ),
      panels: (record, ctx) => (
        <>
          {renderSlot(c.slots?.panels, record, ctx)}
          {c.timeline === false ? null : (
            <Card title="Histórico">
              <RecordTimeline id={String(record.id)} {...timeline} />
            </Card>
          )}
        </>
      ),
    },
  };
  return { resource, doc, duplicateTitle: c.editTitle.replace(/^Editar\b/, 'Duplicar') };
}
