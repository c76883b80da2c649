// Resource kit: a registry's web pages from a declaration (see README, "Registries").
export type { ImportarPlanilhaProps, ImportResult } from './ImportPage';
export { ImportarPlanilha, defineResourcePages, resourceRoutes, type ResourceRouteTitles } from './define';
export type {
  FieldDescriptor,
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
