// @app/__ID__, isomorphic half: the tag, the API path, the status flow (the server enforces it, the
// web shows what this person may do now) and the zod schema of the body (the same pt-BR messages in
// the form and in the API). Used by the web and the server halves.
import { defineFlow, quantitySchema, refineLineTotals, unitValueSchema } from '@app/documents';
import { z } from 'zod';

/** Permission tag of the section (spec §6): the server declares it, so a perfil can grant it. */
export const __CONST___TAG = __TAG__;

/** Name of the tag in the perfil checklist. */
export const __CONST___TAG_NOME = __TITLE_TS__;

/** The documents' path under /api/__ID__ (the list is GET /api/__ID____BASE_PATH__). */
export const __CONST___PATH = '__BASE_PATH__';

/** Titles of the pages (no imports: read by the cheap manifest and by the lazy pages). */
export const __CONST___TITLES = {
  title: __TITLE_TS__,
  newTitle: 'Novo documento',
  editTitle: 'Editar documento',
} as const;

/**
 * The flow. Drafts (rascunho, devolvido) are edited by their authors and sent; someone else holding
 * the tag accepts or returns them (`independent`: never who wrote, changed or sent the document);
 * a draft given up is cancelled with a reason (numbered documents are never deleted). Add `who`
 * roles (computed by the server's `roles`) when only some people may act.
 */
export const fluxo = defineFlow<'rascunho' | 'enviado' | 'devolvido' | 'aceito' | 'cancelado'>({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    enviado: { label: 'Enviado', tone: 'info' },
    devolvido: { label: 'Devolvido', editable: true, tone: 'warning' },
    aceito: { label: 'Aceito', tone: 'success' },
    cancelado: { label: 'Cancelado', tone: 'danger' },
  },
  transitions: {
    enviar: { from: ['rascunho', 'devolvido'], to: 'enviado', label: 'Enviar', done: 'enviado', tone: 'primary', authoring: true },
    aceitar: { from: ['enviado'], to: 'aceito', label: 'Aceitar', done: 'aceito', tone: 'primary', independent: true },
    devolver: { from: ['enviado'], to: 'devolvido', label: 'Devolver', done: 'devolvido', reason: true, independent: true },
    cancelar: { from: ['rascunho', 'devolvido'], to: 'cancelado', label: 'Cancelar', done: 'cancelado', reason: true, tone: 'danger' },
  },
});
/** A state of the flow. */
export type __PASCAL__Status = (typeof fluxo.stateNames)[number];

/** One line: a product of the catalogue, quantity and unit value (exact decimals as strings). */
const itemSchema = z.object({
  produtoId: z.uuid({ error: 'Escolha o produto ou serviço.' }),
  quantidade: quantitySchema,
  valorUnitario: unitValueSchema,
});

/** Body of POST /api/__ID____BASE_PATH__ (PUT adds `version`). */
export const __CAMEL__Schema = z.object({
  assunto: z
    .string({ error: 'Informe o assunto.' })
    .trim()
    .min(3, 'Informe o assunto (ao menos 3 caracteres).')
    .max(200, 'O assunto tem no máximo 200 caracteres.'),
  observacao: z
    .string()
    .trim()
    .max(2000, 'Use no máximo 2000 caracteres.')
    .nullish()
    .transform((v) => (v ? v : null)),
  itens: z
    .array(itemSchema, { error: 'Inclua ao menos um item.' })
    .min(1, 'Inclua ao menos um item.')
    .max(500, 'Use no máximo 500 itens.')
    .superRefine((itens, ctx) => refineLineTotals(itens, ctx)),
});
