// @app/dashboard/shared: what GET /api/dashboard/resumo answers (validated on the server, usable by the page).
import { z } from 'zod';

/** The dashboard is the home page: any signed-in user (exempt tag 0). */
export const DASHBOARD_TAG = 0;

/**
 * 'Logs de Auditoria' (@app/auditoria's AUDITORIA_TAG; not imported: the dashboard does not depend on
 * it). Only its holders see the entidade's audit activity on the home page.
 */
export const AUDITORIA_TAG_DASHBOARD = 90;
/** 'Usuários' (@app/usuarios' USUARIOS_TAG): its holders see how many users the entidade has. */
export const USUARIOS_TAG_DASHBOARD = 3;

/** One figure shown as a card on the home page. */
export const resumoCardSchema = z.object({
  id: z.string(),
  label: z.string(),
  value: z.union([z.number(), z.string()]),
  /** Short explanation under the value. */
  hint: z.string().optional(),
  /** Where the card leads (absolute path of a section). */
  href: z.string().optional(),
  /** Permission tag of the section the card leads to. */
  tag: z.number().int().optional(),
});

export const resumoSchema = z.object({
  usuario: z.object({ id: z.string(), nome: z.string() }),
  entidade: z.object({
    id: z.string(),
    nome: z.string(),
    municipio: z.string().nullable(),
    uf: z.string().nullable(),
  }),
  /** Today in America/Sao_Paulo, YYYY-MM-DD. */
  dia: z.string(),
  /** Audit events recorded today in the current entidade. */
  eventosHoje: z.object({
    /** All events of the entidade today: only for holders of the audit tag (AUDITORIA_TAG_DASHBOARD). */
    total: z.number().int().optional(),
    /** Done by the current user (always present: the user's own activity). */
    meus: z.number().int(),
    /** Events of the entidade today by action: only for holders of the audit tag. */
    porAcao: z.array(z.object({ acao: z.string(), total: z.number().int() })).optional(),
  }),
  /** Users with access to the current entidade: only for holders of the users or the audit tag. */
  usuariosDaEntidade: z.number().int().optional(),
  /** The user's previous sign-in (ISO 8601), null on the first one. */
  ultimoAcesso: z.string().nullable(),
  /** Failed sign-ins with the user's login since the previous sign-in. */
  tentativasFalhas: z.number().int(),
  /** The same figures as cards, ready to show. */
  cards: z.array(resumoCardSchema),
  /** When the figures were computed (ISO 8601). */
  geradoEm: z.string(),
});

export type ResumoCard = z.infer<typeof resumoCardSchema>;
export type Resumo = z.infer<typeof resumoSchema>;
