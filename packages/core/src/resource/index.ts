// Resource kit: a registry's web pages from a declaration (see README, "Registries").
export type { ImportarPlanilhaProps, ImportResult } from './ImportPage';
export { ImportarPlanilha, defineResourcePages, resourceRoutes, type ResourceRouteTitles } from './define';
export type {
  FieldDescriptor,
  ListFilter,
  ResourceColumn,
  ResourceConfig,
  ResourceOptionsSource,
  ResourcePages,
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
