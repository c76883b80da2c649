// @app/pncp/shared: what the web and server halves of the PNCP integration share.
import { z } from 'zod';

/** 'Publicar no PNCP': publish an approved PCA, follow the publications, retry or cancel them. */
export const PNCP_TAG = 103;
export const PNCP_TAG_NOME = 'Publicar no PNCP';
/** 'Configurar a integração com o PNCP': the entidade's PNCP system user (login and password). */
export const PNCP_CONFIG_TAG = 104;
export const PNCP_CONFIG_TAG_NOME = 'Configurar a integração com o PNCP';

/** PUT /credenciais: the PNCP system user (the password omitted keeps the stored one). */
export const credenciaisInputSchema = z.object({
  login: z.string().trim().min(1, 'Informe o login do usuário do PNCP.').max(255, 'No máximo 255 caracteres.'),
  senha: z
    .string()
    .max(255, 'No máximo 255 caracteres.')
    .optional()
    .transform((s) => (s ? s.trim() || undefined : undefined)),
});
export type CredenciaisInput = z.input<typeof credenciaisInputSchema>;

/** What the PNCP requires to rectify or delete (1 to 255 characters). */
export const justificativaSchema = z.string().trim().min(1, 'Informe a justificativa que o PNCP exige.').max(255, 'No máximo 255 caracteres (limite do PNCP).');
