// @app/memorandos/shared: the memorando (DFD, Documento de Formalização da Demanda, Lei 14.133) as
// both halves see it: the status flow, the body the form sends and the API validates, labels.
import { optionalDateSchema } from '@app/br';
import { defineFlow, quantitySchema, refineLineTotals, unitValueSchema } from '@app/documents';
import { z } from 'zod';

/** Permission tag of 'Memorandos'. */
export const MEMORANDOS_TAG = 29;
export const MEMORANDOS_TAG_NOME = 'Memorandos';

/**
 * Who may act, computed on the server from the memorando and the person:
 * - 'origem': the person belongs to the origin centro de custo (the requesting area) — edits, sends,
 *   cancels;
 * - 'destino': the person belongs to the destination centro de custo (usually Compras) and is not
 *   the requester — accepts, returns, archives.
 * A perfil that sees every centro (todos os centros) holds both, except that the requester is never
 *   'destino' of their own memorando (segregação de funções, Lei 14.133 art. 7º §1º).
 */
export type MemorandoPapel = 'origem' | 'destino';

export const fluxo = defineFlow<'rascunho' | 'enviado' | 'devolvido' | 'aceito' | 'arquivado' | 'cancelado', MemorandoPapel>({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    enviado: { label: 'Enviado', tone: 'info' },
    devolvido: { label: 'Devolvido', editable: true, tone: 'warning' },
    aceito: { label: 'Aceito', tone: 'success' },
    arquivado: { label: 'Arquivado', tone: 'neutral' },
    cancelado: { label: 'Cancelado', tone: 'danger' },
  },
  transitions: {
    // authoring: who sends answers for it; independent: never by who wrote, changed or sent it (segregação de funções)
    enviar: { from: ['rascunho', 'devolvido'], to: 'enviado', label: 'Enviar', done: 'enviado', who: ['origem'], tone: 'primary', authoring: true },
    aceitar: { from: ['enviado'], to: 'aceito', label: 'Aceitar', done: 'aceito', who: ['destino'], tone: 'primary', independent: true },
    devolver: { from: ['enviado'], to: 'devolvido', label: 'Devolver', done: 'devolvido', who: ['destino'], reason: true, independent: true },
    arquivar: { from: ['aceito'], to: 'arquivado', label: 'Arquivar', done: 'arquivado', who: ['destino'] },
    cancelar: { from: ['rascunho', 'devolvido'], to: 'cancelado', label: 'Cancelar', done: 'cancelado', who: ['origem'], reason: true, tone: 'danger' },
  },
});
export type MemorandoStatus = (typeof fluxo.stateNames)[number];

export const PRIORIDADES = ['baixa', 'media', 'alta'] as const;
export type Prioridade = (typeof PRIORIDADES)[number];
export const PRIORIDADE_LABEL: Record<Prioridade, string> = { baixa: 'Baixa', media: 'Média', alta: 'Alta' };

/**
 * The roles of a person on a memorando (see MemorandoPapel). `pessoa` is what the session knows:
 * the user's id, centros de custo and whether the perfil sees every centro.
 */
export function papeisNoMemorando(
  memorando: { origemId: string; destinoId: string; solicitanteId: string },
  pessoa: { userId: string; centrosCusto: readonly string[]; todosCentros: boolean },
): Set<MemorandoPapel> {
  const papeis = new Set<MemorandoPapel>();
  const pertence = (centro: string) => pessoa.todosCentros || pessoa.centrosCusto.includes(centro);
  if (pertence(memorando.origemId)) papeis.add('origem');
  if (pertence(memorando.destinoId) && memorando.solicitanteId !== pessoa.userId) papeis.add('destino');
  return papeis;
}

/** PNCP's categoriaItemPca (Manual de Integração do PNCP, tabela de domínio). */
export const CATEGORIAS_ITEM_PCA = {
  1: 'Material',
  2: 'Serviço',
  3: 'Obras',
  4: 'Serviços de Engenharia',
  5: 'Soluções de TIC',
  6: 'Locação de Imóveis',
  7: 'Alienação/Concessão/Permissão',
  8: 'Obras e Serviços de Engenharia',
} as const;

const vazio = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));
const categoriaItemPcaSchema = z
  .preprocess(vazio, z.number({ error: 'Escolha a categoria do item no PCA.' }).int().min(1, 'Categoria de 1 a 8.').max(8, 'Categoria de 1 a 8.').nullable())
  .optional();

const uuid = (message: string) => z.uuid({ error: message });

/** One line: a product of the catalogue, quantity and estimated unit value (exact decimals as strings). */
export const memorandoItemSchema = z.object({
  produtoId: uuid('Escolha o produto ou serviço.'),
  quantidade: quantitySchema,
  valorUnitario: unitValueSchema,
  /** PCA category (1–8); absent: from the product (material → 1, serviço → 2). */
  categoriaItemPca: categoriaItemPcaSchema,
});

export const MAX_ITENS = 500;

/** Body of POST /api/memorandos/memorandos (PUT adds `version`). */
export const memorandoInputSchema = z.object({
  origemId: uuid('Escolha o centro de custo de origem.'),
  destinoId: uuid('Escolha o destino do memorando.'),
  assunto: z
    .string({ error: 'Informe o assunto.' })
    .trim()
    .min(3, 'Informe o assunto (ao menos 3 caracteres).')
    .max(200, 'O assunto tem no máximo 200 caracteres.'),
  justificativa: z
    .string({ error: 'Informe a justificativa da necessidade.' })
    .trim()
    .min(10, 'Justifique a necessidade (ao menos 10 caracteres).')
    .max(5000, 'A justificativa tem no máximo 5000 caracteres.'),
  prioridade: z.enum(PRIORIDADES, { error: 'Escolha a prioridade.' }),
  dataDesejada: optionalDateSchema('Data desejada'),
  /** The year of the Plano de Contratações Anual this demand is for (absent: not for a plan yet). */
  anoPca: z
    .preprocess(
      vazio,
      z
        .number({ error: 'Informe o ano do PCA.' })
        .int('Informe o ano com 4 dígitos.')
        .min(2000, 'Informe o ano com 4 dígitos.')
        .max(9999, 'Informe o ano com 4 dígitos.')
        .nullable(),
    )
    .optional(),
  itens: z
    .array(memorandoItemSchema, { error: 'Inclua ao menos um item.' })
    .min(1, 'Inclua ao menos um item.')
    .max(MAX_ITENS, `Um memorando tem no máximo ${MAX_ITENS} itens.`)
    .superRefine((itens, ctx) => {
      // one line per product: a second line of the same product is a mistake, not a demand
      const seen = new Set<string>();
      itens.forEach((item, index) => {
        if (seen.has(item.produtoId)) ctx.addIssue({ code: 'custom', path: [index, 'produtoId'], message: 'Este produto já está em outro item.' });
        seen.add(item.produtoId);
      });
      refineLineTotals(itens, ctx);
    }),
});
