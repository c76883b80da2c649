import type { Flow } from '@app/documents';
import type { ReactNode } from 'react';

type Row = Record<string, unknown>;

/** What a transition's dialog content gets: the extra body fields it holds and the server's errors on them. */
export interface TransitionDialogState {
  /** Fields sent with the transition besides `version` and `motivo` (e.g. `{ ciente: true }`). */
  body: Row;
  setBody: (next: Row) => void;
  /** The server's 400 `fields` for them (field → pt-BR message). */
  errors: Record<string, string>;
  /**
   * A field the dialog still requires (message) or no longer does (null): the dialog refuses to
   * confirm while one is required, showing the message in `errors`, before anything is sent (e.g. an
   * acknowledgement checkbox shown only when there is something to acknowledge).
   */
  require: (field: string, message: string | null) => void;
}

/** What the document pieces need of the declaration. */
export interface DocumentInfo {
  endpoint: string;
  base?: string;
  flow: Flow;
  documento: string;
  feminino: boolean;
  duplicate: boolean;
  pdf: boolean;
  /** More content (and body fields) of a transition's confirmation dialog. */
  transitionDialog?: (name: string, record: Row, state: TransitionDialogState) => ReactNode;
  /** The toast after a transition (default: 'Requisição 7/2026 aprovada.'), e.g. an approval that moves on to the next level. */
  transitionDone?: (name: string, record: Row) => string | undefined;
}
