// Resource kit: a registry's web pages from a declaration (see README, "Registries").
export type { ImportarPlanilhaProps, ImportResult } from './ImportPage';
export { ImportarPlanilha, ResourceForm, defineResourcePages } from './define';
export { documentRoutes, resourceRoutes, type DocumentRouteTitles, type ResourceRouteTitles } from './routes';
export { type DownloadOptions, downloadFile, useResourceOptions } from './common';
export { defineDocumentPages } from './documents/define';
export {
  type DocumentRef,
  type DocumentSource,
  type MutationFailure,
  type MutationResult,
  type TransitionInput,
  useDocument,
  useDocumentChildren,
  useDocumentTransition,
} from './documents/hooks';
export { StatusBadge } from './documents/StatusBadge';
export { documentTimeline } from './documents/timeline';
export { type CoverLine, CoverLinesPage, type CoverLinesColumns, type CoverLinesPageProps } from './documents/CoverLinesPage';
export { type CreateFromExtra, CreateFromPage, type CreateFromPageProps, type CreateFromSource } from './documents/CreateFromPage';
export {
  APPROVAL_VIA_TEXT,
  ApprovalStepList,
  type ApprovalSteps,
  type ApprovalVia,
  DocumentApprovalPage,
  type DocumentApprovalPageProps,
  useApprovalSteps,
} from './documents/ApprovalPage';
export type { DocumentConfig, DocumentItemsConfig, DocumentPages, TransitionDialogState } from './documents/types';
export { BUILTIN_FIELD_TYPES, type FieldRenderProps, type FieldTypeDefinition, fieldId, registerFieldType } from './form/registry';
export { type FieldErrors, type FieldIssue, issuesToFieldErrors } from './form/errors';
export { UNSAVED_MESSAGE, useUnsavedChangesGuard } from './form/guard';
export type {
  BuiltinFieldType,
  CustomFieldDescriptor,
  CustomFieldTypes,
  FieldBase,
  FieldDescriptor,
  ItemsFieldDescriptor,
  RecordSlotContext,
  ReferenceFieldDescriptor,
  ReferenceSource,
  ResourceSlots,
  SlotContent,
  GroupFieldDescriptor,
  ListFilter,
  MaskPreset,
  ResourceColumn,
  ResourceConfig,
  ResourceOptionsSource,
  ResourcePages,
  ScalarFieldDescriptor,
  SchemaIssue,
  SchemaLike,
} from './types';
export {
  type AtivoFilter,
  type ListDefaults,
  type ListState,
  apiParams,
  applyMask,
  parseListState,
  serializeListState,
} from './urlState';
