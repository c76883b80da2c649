// @app/pncp/shared: what the web and server halves of the PNCP integration share.
import { z } from 'zod';

export * from './tag.js';

/** PUT /credenciais: the PNCP system user (the password omitted keeps the stored one). */
export const credenciaisInputSchema = z.object({
  login: z.string().trim().min(1, 'Informe o login do usuário do PNCP.').max(255, 'No máximo 255 caracteres.'),
  senha: z
    .string()
    .max(255, 'No máximo 255 caracteres.')
    .optional()
    .transform((s) => (s ? s.trim() || undefined : undefined)),
});

/** What the PNCP requires to rectify or delete (1 to 255 characters). */
export const justificativaSchema = z.string().trim().min(1, 'Informe a justificativa que o PNCP exige.').max(255, 'No máximo 255 caracteres (limite do PNCP).');

/** The states of a publication, in the order of its life. */
export const ESTADOS_PUBLICACAO = ['aguardando', 'enviando', 'concluido', 'erro', 'cancelado'] as const;
/** 'aguardando' (in the queue, or waiting for a retry), 'enviando', 'concluido', 'erro' (failed for good), 'cancelado'. */
export type EstadoPublicacao = (typeof ESTADOS_PUBLICACAO)[number];

const ESTADO = `(${ESTADOS_PUBLICACAO.join('|')})`;
/**
 * GET /publicacoes?estado=erro | ?estado=aguardando,enviando: the list filtered on one or more states
 * (comma-separated; empty or absent: every state). The web list reads the same parameter from its URL.
 */
export const publicacoesFiltroSchema = z.object({
  estado: z
    .string()
    .regex(new RegExp(`^(${ESTADO}(,${ESTADO})*)?$`), 'Situação desconhecida: escolha uma das situações da lista.')
    .optional(),
});

/** The states `estado` of {@link publicacoesFiltroSchema} names (none: every state). */
export const estadosDoFiltro = (estado: string | undefined): EstadoPublicacao[] =>
  [...new Set((estado ?? '').split(',').filter(Boolean))] as EstadoPublicacao[];

/** A publication as GET /publicacoes lists it. */
export const publicacaoSchema = z.object({
  id: z.string(),
  planoId: z.string(),
  documento: z.string(),
  operacao: z.enum(['publicar', 'excluir']),
  estado: z.enum(ESTADOS_PUBLICACAO),
  etapa: z.string().nullable(),
  feitos: z.number(),
  total: z.number(),
  tentativas: z.number(),
  proximaTentativa: z.string().nullable(),
  ultimoErro: z.string().nullable(),
  erros: z.array(z.object({ numeroItem: z.number().optional(), campo: z.string().optional(), mensagem: z.string() })),
  solicitadoPorNome: z.string(),
  createdAt: z.string(),
  concluidoEm: z.string().nullable(),
  numeroControle: z.string().nullable(),
  /** The plan on the PNCP's portal (of the environment the server publishes to). */
  link: z.string().nullable(),
});
export type Publicacao = z.infer<typeof publicacaoSchema>;
