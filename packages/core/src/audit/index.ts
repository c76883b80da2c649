// Audit trail rendering: document timelines and the Logs de Auditoria page share this wording.
export { AUDIT_ACTION_LABELS, auditActionLabel, auditFieldLabel, humanizeField, LEGACY_AUDIT_ACTIONS } from './labels';
export {
  auditEntrySummary,
  auditUserName,
  type DescribeAuditChangeOptions,
  describeAuditChange,
  describeAuditItems,
  EMPTY_VALUE,
  formatAuditValue,
  sortAuditChanges,
} from './describe';
export { AuditChangeList, type AuditChangeListProps, RecordTimeline, type RecordTimelineProps, Timeline, type TimelineProps } from './Timeline';
export { recordHistoryKey, useRecordHistory } from './useRecordHistory';
export type {
  AuditActionLabel,
  AuditRenderOptions,
  AuditValueFormat,
  HistoryEntry,
  HistoryFieldChange,
  HistoryItemsChange,
  RecordHistory,
} from './types';
