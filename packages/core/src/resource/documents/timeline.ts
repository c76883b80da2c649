// A document's timeline as its declaration describes it: the labels (the form's fields, the items'
// columns, the status, the plugin's `timelineLabels`), the values (a select's options), the formats
// (money, decimals, instants, the plugin's `timelineFormats`), the flow's actions and states. The Edit
// page's timeline uses it, and so can any other page of the document (an approval page, a read-only view): one declaration, the same
// words everywhere.
import type { RecordTimelineProps } from '../../audit/Timeline';
import type { AuditValueFormat } from '../../audit/types';
import { itemsNames } from '../form/itemsNames';
import type { FieldDescriptor, ItemsFieldDescriptor } from '../types';
import type { DocumentConfig } from './types';

/** The form's fields of a document, its items grid (an `items` field) included. */
export function documentFields(c: Pick<DocumentConfig, 'fields' | 'items'>): FieldDescriptor[] {
  const itemsField: FieldDescriptor | null = c.items
    ? ({ section: 'Itens', ...c.items, type: 'items', name: c.items.name ?? 'itens', label: c.items.label ?? 'Itens' } as ItemsFieldDescriptor)
    : null;
  return itemsField ? [...c.fields, itemsField] : c.fields;
}

const optionLabels = (options: readonly { value: string; label: string }[]) => Object.fromEntries(options.map((o) => [o.value, o.label]));

/**
 * `<RecordTimeline id={id} {...documentTimeline(pages.config)} />`, or the `timeline` of
 * DocumentApprovalPage: the endpoint, labels, formats, actions and states of the document's timeline.
 */
export function documentTimeline(c: DocumentConfig): Omit<RecordTimelineProps, 'id'> {
  const fields = documentFields(c);
  const labels: Record<string, string> = {};
  const formats: Record<string, AuditValueFormat> = { valorTotal: 'money' };
  const values: Record<string, Record<string, string>> = {};
  for (const field of fields) {
    if (typeof field.label === 'string') labels[field.name] = field.label;
    // a select's stored code as its option reads ('media_saneada' → 'Média saneada'), as the form shows it
    if (field.type === 'select' && 'options' in field) values[field.name] = optionLabels(field.options);
    // instants in the timeline as the form shows them (dd/mm/aaaa hh:mm in São Paulo)
    if (field.type === 'datetime') formats[field.name] = 'datetime';
    if (field.type === 'items') {
      const f = field as ItemsFieldDescriptor;
      const n = itemsNames(f);
      const h = f.headers ?? {};
      labels[`${f.name}.${n.product}`] = f.product.header ?? 'Produto ou serviço';
      labels[`${f.name}.${n.quantity}`] = h.quantity ?? 'Quantidade';
      labels[`${f.name}.${n.unitValue}`] = h.unitValue ?? 'Valor unitário';
      for (const sub of f.fields ?? []) {
        if (typeof sub.label === 'string') labels[`${f.name}.${sub.name}`] = sub.label;
        if (sub.type === 'select' && 'options' in sub) values[`${f.name}.${sub.name}`] = optionLabels(sub.options);
      }
      formats[n.quantity] = 'decimal';
      formats[n.unitValue] = 'money';
    }
  }
  return {
    endpoint: c.endpoint,
    labels: { status: 'Situação', ...labels, ...c.timelineLabels },
    formats: { ...formats, ...c.timelineFormats },
    actions: c.flow.transitions,
    values: { ...values, status: c.flow.states },
  };
}
