import type { Flow } from '@app/documents';

/** What the document pieces need of the declaration. */
export interface DocumentInfo {
  endpoint: string;
  base?: string;
  flow: Flow;
  documento: string;
  feminino: boolean;
  duplicate: boolean;
  pdf: boolean;
}
