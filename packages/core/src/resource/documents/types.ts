import type { Flow } from '@app/documents';
import type { ReactNode } from 'react';
import type { ItemsFieldDescriptor, RecordSlotContext, ResourceConfig, ResourcePages, SlotContent } from '../types';
import type { TransitionDialogState } from './info';

export type { TransitionDialogState } from './info';

type Row = Record<string, unknown>;

/** The items grid of a document: an `items` field without its type (name 'itens', label 'Itens' by default). */
export type DocumentItemsConfig = Omit<ItemsFieldDescriptor, 'type' | 'name' | 'label'> & { name?: string; label?: string };

/** A document's pages: a resource declaration plus its flow, its name and its line items. */
export interface DocumentConfig<T = Row> extends Omit<ResourceConfig<T>, 'ativo' | 'noToggle' | 'noun' | 'feminine' | 'slots'> {
  /** The status flow, from the plugin's shared code (the server enforces the same one). */
  flow: Flow;
  /** What the document is called, capitalised: 'Memorando' ('Memorando 12/2026 enviado.'). */
  documento: string;
  /** The name is feminine: 'Requisição 3/2026 criada…', 'Esta requisição…'. */
  feminino?: boolean;
  /** Line items: a grid after the fields (its own card, 'Itens'). */
  items?: DocumentItemsConfig;
  /**
   * The list's period filter: dates sent as `${name}De`/`${name}Ate` (the server's `ranges`).
   * Default { name: 'data', label: 'Período' }; false: none.
   */
  period?: { name: string; label?: string } | false;
  /** 'Duplicar' (POST /:id/duplicar and the duplicar/:id route); default true. */
  duplicate?: boolean;
  /** 'Imprimir (PDF)' (GET /:id.pdf); default true. */
  pdf?: boolean;
  /** The timeline panel (GET /:id/historico); default true. */
  timeline?: boolean;
  /** Labels of the timeline's fields beyond the form's own (key → label), e.g. { origemId: 'Origem' }. */
  timelineLabels?: Record<string, string>;
  /** Formats of the timeline's fields beyond valorTotal and the items' (key → format), e.g. { valorAprovado: 'money' }. */
  timelineFormats?: Record<string, 'money' | 'decimal' | 'datetime' | 'date' | 'text' | 'boolean'>;
  slots?: {
    /** More buttons in the Edit page's header, after the transitions, Duplicar and Imprimir. */
    actions?: SlotContent<[T, RecordSlotContext<T>]>;
    /** Buttons of the list's header. */
    listActions?: SlotContent<[]>;
    /** More links/buttons of a list row (before 'Editar'/'Abrir'). */
    rowActions?: (row: T) => ReactNode;
    /** Panels under the form, before the timeline. */
    panels?: SlotContent<[T, RecordSlotContext<T>]>;
    /**
     * More content in a transition's confirmation dialog (e.g. an alert shown where the decision is
     * taken, a checkbox acknowledging it) and more fields of its body (`state.body`, sent with
     * `version` and `motivo`; the server's 400 `fields` about them in `state.errors`).
     */
    transitionDialog?: (name: string, record: T, state: TransitionDialogState) => ReactNode;
  };
}

/** The page components of a document (give them to `documentRoutes`). */
export interface DocumentPages extends Omit<ResourcePages, 'config'> {
  /** The declaration. */
  config: DocumentConfig;
  /** duplicar/:id: duplicates the document and opens the new draft. */
  Duplicate: () => ReactNode;
}
