// The server half of the document kit (the isomorphic half is @app/documents).
export {
  type DocumentLabel,
  type DocumentPdfContent,
  type DocumentResource,
  type DocumentResourceDefinition,
  type DocumentSaveContext,
  type DocumentTransitionContext,
  type DocumentTable,
  defineDocumentResource,
} from './define.js';
export {
  type DocumentItems,
  type DocumentItemsDefinition,
  type DocumentItemsHeader,
  type DocumentItemSource,
  MAX_DOCUMENT_ITEMS,
  MAX_TOTAL_INTEGER_DIGITS,
  createDocumentItems,
} from './items.js';
export { catalogueItemsPdf } from './pdf-items.js';
export { decimal4Column, documentHeaderColumns, documentLineColumns, documentLineItems, moneyColumn, versionColumns } from './columns.js';
export { type DocumentStepsOptions, documentSteps, documentStepsPdf } from './pdf-steps.js';
export { type NextDocumentNumberOptions, documentCounters, lastDocumentNumber, nextDocumentNumber } from './numbering.js';
export {
  DIRECT_AUTHOR_ROLES,
  RASCUNHOS_ALHEIOS_TAG,
  RASCUNHOS_ALHEIOS_TAG_INFO,
  RASCUNHOS_ALHEIOS_TAG_NOME,
  type DocumentAuthorRole,
  copySourceAuthors,
  documentAuthorRoles,
  documentAuthorSql,
  isDocumentAuthor,
  recordDocumentAuthor,
} from './authors.js';
export { type LockSourcesOptions, type SourceTable, lockSources } from './sources.js';
export {
  type CreateFromArgs,
  type DocumentLinkDefinition,
  type DocumentSource,
  type LinkSourceTable,
  consolidateLines,
  documentoVinculos,
  liveLink,
} from './links.js';
export { type DocumentCoverage, type DocumentCoverageDefinition, type DocumentCoveragePicker, defineDocumentCoverage } from './coverage.js';
export {
  type VerifiableContent,
  type VerifiableIssue,
  type VerifiableReader,
  type VerifiedPdfInput,
  VERIFICATION_CHANGED,
  VERIFICATION_NOT_FOUND,
  canonicalJson,
  documentContentHash,
  formatVerificationCode,
  issueVerifiedPdf,
  parseVerificationCode,
  registerVerifiableDocument,
} from './verification.js';
export { type DocumentProductUseDocument, type DocumentProductUses, DOCUMENT_PRODUCT_USES } from './product-uses.js';
export {
  APPROVAL_VIA_LABEL,
  type ApprovalDecider,
  type ApprovalLevel,
  type ApprovalLevelsTable,
  type ApprovalRecordsTable,
  type ApprovalVia,
  type DocumentApprovals,
  type DocumentApprovalsDefinition,
  approvalStepsShape,
  defineDocumentApprovals,
} from './approvals.js';
export {
  type DocumentEntidade,
  type DocumentFileChild,
  type DocumentFileContext,
  type DocumentFileDefinition,
  type DocumentFileFormats,
  type DocumentFilePaths,
  type DocumentFiles,
  documentEntidade,
  documentFile,
  fileNameSlug,
} from './files.js';
export {
  type Attachment,
  type AttachmentChild,
  type AttachmentColumns,
  type AttachmentParent,
  type AttachmentReference,
  type DocumentAttachments,
  type DocumentAttachmentsDefinition,
  attachmentSchema,
  defineDocumentAttachments,
  documentAttachmentParent,
  removeUnreferencedAttachments,
} from './attachments.js';
export {
  type DocumentActionDefinition,
  type DocumentChildAction,
  type DocumentChildAudit,
  type DocumentChildContext,
  type DocumentChildCreate,
  type DocumentChildDelete,
  type DocumentChildOperation,
  type DocumentChildReference,
  type DocumentChildTable,
  type DocumentChildUpdate,
  type DocumentChildren,
  type DocumentChildrenDefinition,
  defineDocumentAction,
  defineDocumentChildren,
} from './children.js';
