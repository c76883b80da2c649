// @app/server-core: the server plugin contract, database, auth, permissions, audit, validation,
// errors and OpenAPI. See README.md for a plugin example.
import './platform/zod-locale.js';

export { SERVER_CORE_VERSION, EXEMPT_TAGS, isExemptTag } from './platform/version.js';
export {
  defineServerPlugin,
  composePlugins,
  RESERVED_IDS,
  type ServerPlugin,
  type ServerPluginDefinition,
  type ServerPluginInfo,
  type PluginTag,
} from './platform/plugin.js';
export {
  defineJob,
  JobFailed,
  type JobDefinition,
  type JobContext,
  type JobRun,
  type JobOutput,
  type JobInfo,
  type JobPolicy,
  type JobQueueOptions,
  type JobsOptions,
  type PluginJobs,
  type SendJobOptions,
} from './platform/jobs.js';
export {
  contribute,
  extensionPoint,
  type Contribution,
  type ContributionsOf,
  type ExtensionPoint,
  type PluginContribution,
} from './platform/contributions.js';
export {
  RELATORIOS,
  type ReportColumn,
  type ReportColumnType,
  type ReportDefinition,
  type ReportFilter,
  type ReportFilters,
  type ReportOption,
  defineReport,
} from './kit/reports.js';
export { VOCABULARIO_AUDITORIA, type RotulosDeValores, type VocabularioAuditoria, juntarVocabularios, rotuloDeValor } from './kit/vocabulario.js';
export { INDICADORES, type Indicador, type IndicadorProvider, type Medida, type NivelIndicador, indicadoresResponseSchema } from './kit/indicadores.js';
export { PENDENCIAS, type Pendencia, type PendenciaProvider, pendenciasDe, pendenciasResponseSchema } from './kit/pendencias.js';
export {
  type PluginRouter,
  type RouteContext,
  type RouteInput,
  type RouteResponse,
  type RouteBodyLimit,
  type TaggedRouteDefinition,
  type PublicRouteDefinition,
  errorResponseSchema,
} from './platform/router.js';
export type {
  AppEnv,
  AuthState,
  MutateFn,
  PluginContext,
  PublicRequestContext,
  RequestContext,
  SessionUser,
} from './platform/context.js';
export { centroCustoScope, type CentroCustoScopeContext } from './platform/scope.js';
export {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  validationError,
  type ErrorBody,
} from './platform/errors.js';
export {
  AUDIT_ROW_HASH_SQL,
  type AuditAction,
  type AuditAnchor,
  type AuditAnchorReport,
  type AuditBreakReason,
  type AuditChainResult,
  type AuditCheckpoint,
  type AuditEntry,
  type AuditFn,
  type VerifyAuditOptions,
  auditAnchorFromEnv,
  auditAnchorSummary,
  auditCheckpointProblem,
  auditKeyId,
  auditValues,
  countForeignCheckpoints,
  listAuditCheckpoints,
  setAuditAnchor,
  verifyAuditChain,
  writeAuditCheckpoint,
} from './platform/audit.js';
export {
  HISTORY_SKIPPED_FIELDS,
  type AuditChanges,
  type AuditChangesOptions,
  type HistoryEntry,
  type HistoryFieldChange,
  type HistoryItemsChange,
  type HistoryNamer,
  type HistoryNames,
  type HistoryNameSource,
  type RecordHistory,
  type RecordHistoryOptions,
  auditChanges,
  collectReferencedIds,
  historyEntrySchema,
  historyFieldChangeSchema,
  recordHistory,
  recordHistorySchema,
  resolveHistoryNames,
} from './platform/audit-history.js';
export { openDatabase, type OpenDatabaseOptions } from './platform/db/open.js';
export { runMigrations, type MigrationResult, type RunMigrationsOptions } from './platform/db/migrate.js';
export type { Database, DatabaseEngine, Db, DbOrTx, Listener, QueryResultHKT, RawClient, Tx } from './platform/db/types.js';
export * as coreSchema from './platform/db/schema.js';
export { appConfig, auditLog, entidades, perfis, sessoes, usuarioEntidades, usuarios } from './platform/db/schema.js';
export { HASH_QUEUE_FULL_MESSAGE, HashQueue, type HashQueueOptions, hashPassword, verifyPassword } from './platform/passwords.js';
export { signAccessToken, type AccessTokenPayload } from './platform/auth.js';
export { SESSION_EXPIRED_MESSAGE, revokeUserSessions } from './platform/auth.js';
export { INVALID_RECOVERY_LINK_MESSAGE, OUTBOX_TAG, RECOVER_MESSAGE, RECOVERY_LINK_TTL_MS } from './platform/auth-routes.js';
export { type Clock, systemClock } from './platform/clock.js';
export {
  MAIL_ATTACHMENTS_MAX,
  MAIL_ATTACHMENTS_MAX_BYTES,
  type MailAttachment,
  type MailMessage,
  type Mailer,
  type OutboxAttachment,
  type OutboxMessage,
  listOutbox,
  outboxMailer,
} from './platform/mail.js';
export { auditOf, sendMail } from './platform/mutation.js';
export { SENHA_DICA, SENHA_MAX, SENHA_MESSAGES, SENHA_MIN, isCommonPassword, novaSenhaProblem } from './platform/password-policy.js';
export { DEFAULT_THROTTLE, TOO_MANY_ATTEMPTS_MESSAGE, type ThrottleOptions } from './platform/throttle.js';
export { createServer, type ComposedServer, type CreateServerOptions } from './platform/server.js';
export type { HeapTrimOptions } from './platform/heap-trim.js';
export {
  DEMO,
  DEMO_EXTRA_TAGS,
  allTags,
  createAdmin,
  seedDemo,
  type CreateAdminInput,
  type SeedContext,
  type SeedOptions,
  type SeedResult,
} from './platform/seed.js';
export { computeBuildId } from './platform/static.js';
export { consoleLogger, silentLogger, type Logger } from './platform/logger.js';
export { pageQuerySchema, pageOf, type PageQuery, type Page } from './kit/pagination.js';
export {
  defineCrudResource,
  describeReferences,
  searchCondition,
  searchTerms,
  STALE_MESSAGE,
  MAX_EXPORT_ROWS,
  type CrudColumn,
  type CrudCondition,
  type CrudListOptions,
  type CrudReference,
  type CrudResourceDefinition,
  type CrudTable,
  type CrudUnique,
  type CrudWriteContext,
} from './kit/crud.js';
export {
  MAX_SET_VALUES,
  type CrudExportQuery,
  type CrudListQuery,
  type CrudResource,
  type CrudRow,
  type CrudSetFilter,
} from './kit/crud.js';
export * from './kit/documents/index.js';
export { defineLookup, type LookupDefinition } from './kit/lookup.js';
export * from './formats/spreadsheet.js';
export { defineSpreadsheetImport, importResultSchema, type SpreadsheetImportDefinition } from './kit/spreadsheet-routes.js';
export { type CellValue, type DecimalCell, type XlsxInput, type XlsxSheet, csvField, csvLine, toCsv, toXlsx, xlsxWorkbook } from './formats/xlsx.js';
export * from './platform/core-schemas.js';
export { INVALID_CHARS_MESSAGE, dateSchema, findInvalidInput, hasInvalidChars, isCalendarDate } from './platform/input-guard.js';
export {
  type PdfBlock,
  type PdfDocument,
  type PdfDocumentColumn,
  type PdfDocumentField,
  type PdfTable,
  pdfSafeText,
  renderDocumentPdf,
} from './formats/pdf.js';
export { documentoAutores } from './platform/db/schema.js';
export { documentoVerificacoes } from './platform/db/schema.js';
export { FILE_NAME_MAX, cleanFileName } from './formats/file-name.js';
export {
  FILE_TYPES,
  FILE_TYPE_NAMES,
  type FileType,
  attachmentResponseHeaders,
  contentMatchesType,
  declaredFileType,
  describeFileTypes,
} from './formats/file-type.js';
export { CONTROLE_INTERNO_TAG, CONTROLE_INTERNO_TAG_NOME } from './platform/scope.js';
export { DOCUMENTS_PER_PERSON, type DocumentJob, type DocumentKind, documentJob, documentJobStats, withDocumentJob } from './formats/document-jobs.js';
export { type WorkerPoolStats, type WorkerTaskOptions, clientGone, writeXlsxInWorker, xlsxPoolStats } from './formats/spreadsheet-pool.js';
export { pdfPoolStats } from './formats/pdf.js';
export { type PdfColumnOf, type XlsxColumnOf, pdfTable, xlsxTable } from './formats/columns.js';
export { CONCURRENT_CHANGE_MESSAGE, describeDatabaseCause } from './platform/errors.js';
export { MUTATION_ATTEMPTS } from './platform/mutation.js';
