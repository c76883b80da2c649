// @app/requisicoes/shared: pré-requisições and requisições as both halves see them: the two status
// flows, the bodies the forms send and the API validates, the approval levels (alçadas), the dispensa
// limits (Lei 14.133, art. 75) and the shapes of the API's own answers.
import { compareDecimal, defineFlow, quantitySchema, refineLineTotals, unitValueSchema } from '@app/documents';
import { ADMIN_TAG as TAG_ADMINISTRACAO } from '@app/core/tags';
import { z } from 'zod';

/** Permission tag of 'Pré-requisições e requisições'. */
export const REQUISICOES_TAG = 39;
export const REQUISICOES_TAG_NOME = 'Pré-requisições e requisições';
/**
 * @deprecated The platform's `ADMIN_TAG` of `@app/core/tags` (tag 3, the administration); kept for the 1.x API.
 * @public
 */
export const ADMIN_TAG: number = TAG_ADMINISTRACAO;

/** Shortest reason of a rejection or a return (segregação de funções: a refusal always says why). */
export const MOTIVO_MIN = 10;
/** A transition that asks why (a refusal, a return, a cancellation). */
const comMotivo = { reason: true, reasonMin: MOTIVO_MIN } as const;

// ---------------------------------------------------------------------------------------------
// Pré-requisição

/**
 * Who the person is for a pré-requisição (computed on the server):
 * - 'origem': belongs to its centro de custo (or sees every centro) — edits, sends, cancels;
 * - 'compras': sees every centro (purchasing sector) and did not write it — returns it.
 */
export type PreRequisicaoPapel = 'origem' | 'compras';

export const fluxoPreRequisicao = defineFlow<'rascunho' | 'enviada' | 'parcialmente_atendida' | 'atendida' | 'devolvida' | 'cancelada', PreRequisicaoPapel>({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    enviada: { label: 'Enviada', tone: 'info' },
    // these two follow the conversions into requisições (never a button)
    parcialmente_atendida: { label: 'Parcialmente atendida', tone: 'warning' },
    atendida: { label: 'Atendida', tone: 'success' },
    devolvida: { label: 'Devolvida', editable: true, tone: 'warning' },
    cancelada: { label: 'Cancelada', tone: 'danger' },
  },
  transitions: {
    // authoring: who sends answers for it; independent: never by an author (segregação de funções)
    enviar: { from: ['rascunho', 'devolvida'], to: 'enviada', label: 'Enviar', done: 'enviada', who: ['origem'], tone: 'primary', authoring: true },
    devolver: { from: ['enviada'], to: 'devolvida', label: 'Devolver', done: 'devolvida', who: ['compras'], independent: true, ...comMotivo },
    cancelar: {
      from: ['rascunho', 'devolvida', 'enviada'],
      to: 'cancelada',
      label: 'Cancelar',
      done: 'cancelada',
      who: ['origem', 'compras'],
      ...comMotivo,
      tone: 'danger',
    },
  },
});
export type PreRequisicaoStatus = (typeof fluxoPreRequisicao.stateNames)[number];

/** States whose items may be converted into requisições. */
export const PRE_REQUISICAO_CONVERSIVEL: readonly PreRequisicaoStatus[] = ['enviada', 'parcialmente_atendida'];

const uuid = (message: string) => z.uuid({ error: message });
/** An optional id: absent, null or '' is null. */
const uuidOuNulo = (message: string) =>
  z
    .uuid({ error: message })
    .nullish()
    .transform((v) => v ?? null);
/** The centro de custo and the tipo de solicitação every document of the plugin names. */
const origem = { centroCustoId: uuid('Escolha o centro de custo.'), tipoSolicitacaoId: uuid('Escolha o tipo de solicitação.') };
const justificativa = z
  .string({ error: 'Informe a justificativa.' })
  .trim()
  .min(10, 'Justifique (ao menos 10 caracteres).')
  .max(5000, 'A justificativa tem no máximo 5000 caracteres.');

export const MAX_ITENS = 500;

/** The lines of a document: at least one, at most MAX_ITENS, one per product (and source item), exact totals. */
const linhas = <T extends z.ZodType<{ produtoId: string; preRequisicaoItemId?: string | null; quantidade: string; valorUnitario: string }>>(
  item: T,
  documento: string,
) =>
  z
    .array(item, { error: 'Inclua ao menos um item.' })
    .min(1, 'Inclua ao menos um item.')
    .max(MAX_ITENS, `${documento} tem no máximo ${MAX_ITENS} itens.`)
    .superRefine(umaLinhaPorProduto)
    .superRefine((itens, ctx) => refineLineTotals(itens, ctx));

/** One product per document: a second line of the same product is a mistake. */
function umaLinhaPorProduto(itens: { produtoId: string; preRequisicaoItemId?: string | null }[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  itens.forEach((item, index) => {
    const key = `${item.produtoId}|${item.preRequisicaoItemId ?? ''}`;
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'produtoId'], message: 'Este produto já está em outro item.' });
    seen.add(key);
  });
}

export const preRequisicaoItemSchema = z.object({
  produtoId: uuid('Escolha o produto ou serviço.'),
  quantidade: quantitySchema,
  valorUnitario: unitValueSchema,
});

/** Body of POST /api/requisicoes/pre-requisicoes (PUT adds `version`). */
export const preRequisicaoInputSchema = z.object({
  ...origem,
  justificativa,
  memorandoId: uuidOuNulo('Memorando inválido.'),
  itens: linhas(preRequisicaoItemSchema, 'Uma pré-requisição'),
});

/** Body of POST /api/requisicoes/pre-requisicoes/de-memorando: a new draft from an accepted memorando. */
export const deMemorandoInputSchema = z.object({
  memorandoId: uuid('Escolha o memorando.'),
  ...origem,
});

// ---------------------------------------------------------------------------------------------
// Requisição

/**
 * Who the person is for a requisição (computed on the server):
 * - 'editor': belongs to its centro de custo (or sees every centro) — edits, sends, cancels;
 * - 'aprovador': may approve the level it awaits: named at that level (perfil or user, for its
 *   centro de custo), is not its requester nor the requester of a pré-requisição it converts, and
 *   approved no other level of this round (Lei 14.133, art. 7º §1º).
 */
export type RequisicaoPapel = 'editor' | 'aprovador';

export const fluxoRequisicao = defineFlow<'rascunho' | 'em_aprovacao' | 'aprovada' | 'reprovada' | 'devolvida' | 'cancelada', RequisicaoPapel>({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    em_aprovacao: { label: 'Em aprovação', tone: 'info' },
    aprovada: { label: 'Aprovada', tone: 'success' },
    reprovada: { label: 'Reprovada', tone: 'danger' },
    devolvida: { label: 'Devolvida', editable: true, tone: 'warning' },
    cancelada: { label: 'Cancelada', tone: 'danger' },
  },
  transitions: {
    enviar: {
      from: ['rascunho', 'devolvida'],
      to: 'em_aprovacao',
      label: 'Enviar para aprovação',
      done: 'enviada para aprovação',
      who: ['editor'],
      tone: 'primary',
      authoring: true,
    },
    // at the last level the requisição is approved; before it, it stays em aprovação at the next level
    // independent: never by who wrote, changed or sent it, nor by an author of its pré-requisições or memorandos
    aprovar: { from: ['em_aprovacao'], to: 'aprovada', label: 'Aprovar', done: 'aprovada', who: ['aprovador'], tone: 'primary', independent: true },
    reprovar: {
      from: ['em_aprovacao'],
      to: 'reprovada',
      label: 'Reprovar',
      done: 'reprovada',
      who: ['aprovador'],
      independent: true,
      ...comMotivo,
      tone: 'danger',
    },
    devolver: { from: ['em_aprovacao'], to: 'devolvida', label: 'Devolver', done: 'devolvida', who: ['aprovador'], independent: true, ...comMotivo },
    cancelar: { from: ['rascunho', 'devolvida'], to: 'cancelada', label: 'Cancelar', done: 'cancelada', who: ['editor'], ...comMotivo, tone: 'danger' },
  },
});
export type RequisicaoStatus = (typeof fluxoRequisicao.stateNames)[number];

/** Requisições whose value counts against the dispensa limit (pending and approved). */
export const REQUISICAO_CONTA_DISPENSA: readonly RequisicaoStatus[] = ['em_aprovacao', 'aprovada'];
/** Requisições whose lines keep pré-requisição items taken (all but these). */
export const REQUISICAO_LIBERA_ITENS: readonly RequisicaoStatus[] = ['cancelada', 'reprovada'];

/** Category of the object: decides the dispensa limit (Lei 14.133, art. 75). */
export const CATEGORIAS = ['compras', 'obras'] as const;
export type Categoria = (typeof CATEGORIAS)[number];
export const CATEGORIA_LABEL: Record<Categoria, string> = {
  compras: 'Compras e outros serviços',
  obras: 'Obras e serviços de engenharia',
};
export const CATEGORIA_ARTIGO: Record<Categoria, string> = {
  compras: 'art. 75, II, da Lei 14.133/2021',
  obras: 'art. 75, I, da Lei 14.133/2021',
};

/**
 * The fracionamento rule, one place for every plugin that flags it (requisições' alert, the PCA's "exige
 * licitação"): a year's total of a grupo passes the dispensa limit when it is above it (at the limit: not).
 */
export const passaDoLimite = (total: string, limite: string): boolean => compareDecimal(total, limite) > 0;

export const requisicaoItemSchema = preRequisicaoItemSchema.extend({
  /** The pré-requisição item this line converts (absent: a line typed directly). */
  preRequisicaoItemId: uuidOuNulo('Item de pré-requisição inválido.'),
});

/** Body of POST /api/requisicoes/requisicoes (PUT adds `version`). */
export const requisicaoInputSchema = z.object({
  ...origem,
  categoria: z.enum(CATEGORIAS, { error: 'Escolha a categoria do objeto.' }),
  dotacao: z
    .string()
    .trim()
    .max(200, 'A dotação tem no máximo 200 caracteres.')
    .nullish()
    .transform((v) => (v ? v : null)),
  justificativa,
  itens: linhas(requisicaoItemSchema, 'Uma requisição'),
});

// ---------------------------------------------------------------------------------------------
// Alçadas (approval levels)

const valorMinimo = z.union([z.string(), z.number()], { error: 'Informe o valor mínimo.' }).transform((raw, ctx) => {
  const text = String(raw).trim();
  const canonical = /^\d{1,15}(\.\d{1,2})?$/.test(text)
    ? text
    : /^\d{1,3}(\.\d{3})*(,\d{1,2})?$|^\d{1,15}(,\d{1,2})?$/.test(text)
      ? text.replace(/\./g, '').replace(',', '.')
      : null;
  if (canonical === null) {
    ctx.addIssue({ code: 'custom', message: 'Informe um valor em reais, por exemplo 10.000,00.' });
    return z.NEVER;
  }
  return canonical;
});

const ids = (message: string, max: number) =>
  z
    .array(z.uuid({ error: message }))
    .max(max)
    .default([]);

/** Body of POST /api/requisicoes/alcadas (PUT adds `version`). */
export const alcadaInputSchema = z
  .object({
    nivel: z.number({ error: 'Informe o nível.' }).int('O nível é um número inteiro.').min(1, 'O nível começa em 1.').max(20, 'No máximo 20 níveis.'),
    nome: z.string({ error: 'Informe o nome do nível.' }).trim().min(2, 'Informe o nome do nível.').max(100, 'Use no máximo 100 caracteres.'),
    valorMinimo,
    centroCustoId: uuidOuNulo('Centro de custo inválido.'),
    perfis: ids('Perfil inválido.', 50),
    usuarios: ids('Usuário inválido.', 200),
    /** Who decides the level when nobody of it nor of the next higher level may (segregation). */
    substitutos: ids('Usuário inválido.', 50),
  })
  .refine((a) => a.perfis.length + a.usuarios.length > 0, { path: ['perfis'], message: 'Indique ao menos um perfil ou usuário aprovador.' });

/**
 * How many levels a total needs: the number of distinct levels whose minimum is ≤ the total (a value
 * equal to a minimum takes that level). Exact decimals: '9999.99' < '10000.00'.
 * @deprecated The levels are the document kit's approvals now (defineDocumentApprovals); kept for
 * the 1.x API, unused by the plugin.
 * @public
 */
export function niveisNecessarios(total: string, alcadas: readonly { nivel: number; valorMinimo: string }[]): number {
  const niveis = new Set<number>();
  for (const a of alcadas) if (compareDecimal(a.valorMinimo, total) <= 0) niveis.add(a.nivel);
  return niveis.size;
}

// ---------------------------------------------------------------------------------------------
// Dispensa limits (fracionamento)

/** The legal values (Decreto 12.343/2024 for 2025; the 2026 update), used when an entidade set none. */
export const LIMITES_DISPENSA_PADRAO: readonly { ano: number; categoria: Categoria; valor: string }[] = [
  { ano: 2025, categoria: 'obras', valor: '125451.15' },
  { ano: 2025, categoria: 'compras', valor: '62725.59' },
  { ano: 2026, categoria: 'obras', valor: '130984.20' },
  { ano: 2026, categoria: 'compras', valor: '65492.11' },
];

/** Body of POST /api/requisicoes/limites-dispensa (PUT adds `version`). */
export const limiteDispensaInputSchema = z.object({
  ano: z.number({ error: 'Informe o ano.' }).int('Informe o ano.').min(2000, 'Ano inválido.').max(9999, 'Ano inválido.'),
  categoria: z.enum(CATEGORIAS, { error: 'Escolha a categoria.' }),
  valor: valorMinimo.refine((v) => /[1-9]/.test(v), { message: 'Informe um valor maior que zero.' }),
});

// ---------------------------------------------------------------------------------------------
// Answers of the API (besides the kit's document answers)

/** One item of GET /pre-requisicoes/itens-pendentes: what is left to convert. */
export const itemPendenteSchema = z.object({
  id: z.string(),
  preRequisicaoId: z.string(),
  preRequisicaoNumero: z.number().int(),
  preRequisicaoAno: z.number().int(),
  centroCustoId: z.string(),
  centroCustoNome: z.string(),
  tipoSolicitacaoId: z.string(),
  produtoId: z.string(),
  produtoCodigo: z.string(),
  produtoDescricao: z.string(),
  unidadeSigla: z.string().nullable(),
  quantidade: z.string(),
  atendido: z.string(),
  pendente: z.string(),
  valorUnitario: z.string(),
});
export type ItemPendente = z.infer<typeof itemPendenteSchema>;

/**
 * One option of GET /pre-requisicoes/memorandos-aceitos: an accepted memorando of the person's
 * centros (origin or destination) that a pré-requisição may copy, and the pré-requisição (not
 * cancelled) that already came from it, if any: a memorando is attended once.
 */
export const memorandoAceitoSchema = z.object({
  id: z.string(),
  numero: z.number().int(),
  ano: z.number().int(),
  data: z.string(),
  assunto: z.string(),
  solicitanteNome: z.string(),
  origemId: z.string(),
  origemNome: z.string(),
  destinoNome: z.string(),
  valorTotal: z.string(),
  itens: z.number().int(),
  preRequisicao: z.object({ id: z.string(), numero: z.number().int(), ano: z.number().int() }).nullable(),
});
export type MemorandoAceito = z.infer<typeof memorandoAceitoSchema>;

/** A fracionamento alert: the year's total of a grupo in a category passes the dispensa limit. */
export const alertaDispensaSchema = z.object({
  grupoId: z.string(),
  grupoCodigo: z.string(),
  grupoNome: z.string(),
  categoria: z.enum(CATEGORIAS),
  /** 'art. 75, II, da Lei 14.133/2021'. */
  artigo: z.string(),
  ano: z.number().int(),
  /** Year of the limit applied (the latest ≤ ano). */
  anoLimite: z.number().int(),
  limite: z.string(),
  /** The year's requisições em aprovação and aprovadas of the grupo (this one included only when it is one of them). */
  total: z.string(),
  /** This requisição is counted in `total` (em aprovação or aprovada). */
  estaConta: z.boolean(),
  /** This requisição's amount in the grupo. */
  valorDesta: z.string(),
  /** `total` plus this requisição when it is not counted yet (what the total becomes when it is sent). */
  totalComEsta: z.string(),
  /** The requisições counted in `total`. */
  requisicoes: z.array(z.object({ id: z.string(), numero: z.number().int(), ano: z.number().int(), valor: z.string(), status: z.string() })),
  /** More requisições make up the total than the 50 listed. */
  mais: z.number().int(),
  /** `totalComEsta` passes the limit (else the alert comes from what the year's plans set aside). */
  excedido: z.boolean(),
  /** What the year's contracting plans (PCA) set aside for the grupo in the category, when a plugin plans (null: none). */
  planejado: z
    .object({
      total: z.string(),
      /** The planned total passes the limit: the year's purchases of the grupo call for a licitação. */
      passa: z.boolean(),
      planos: z.array(z.object({ rotulo: z.string(), situacao: z.string(), valor: z.string() })),
    })
    .nullable(),
});
export type AlertaDispensa = z.infer<typeof alertaDispensaSchema>;
export const alertasDispensaSchema = z.object({ items: z.array(alertaDispensaSchema) });

/** GET /requisicoes/:id/aprovacao: the levels, who approved, who may approve now. */
export const aprovacaoSchema = z.object({
  niveis: z.number().int(),
  nivelAtual: z.number().int().nullable(),
  ciclo: z.number().int(),
  etapas: z.array(
    z.object({
      nivel: z.number().int(),
      nome: z.string(),
      aprovadoPor: z.string().nullable(),
      aprovadoEm: z.string().nullable(),
      /** The approval was given por substituição: 'nivel_superior' or 'substituto'. */
      substituicao: z.enum(['nivel_superior', 'substituto']).nullable(),
    }),
  ),
  /** Who may decide it now (em aprovação), and how: by the level, or por substituição. */
  podemDecidir: z.array(z.object({ nome: z.string(), via: z.enum(['titular', 'nivel_superior', 'substituto']) })),
  /** The total the last level approved (null before the first approval). */
  valorAprovado: z.string().nullable(),
  /** The total after the price research of a cotação (null before it). */
  valorPesquisado: z.string().nullable(),
});
/**
 * @deprecated GET /requisicoes/:id/aprovacao is the document kit's approvals route now; kept for the 1.x API.
 * @public
 */
export type Aprovacao = z.infer<typeof aprovacaoSchema>;

/**
 * GET /requisicoes/aguardando-minha-aprovacao/contagem.
 * @deprecated The count is the document kit's approvals route now; kept for the 1.x API.
 * @public
 */
export const contagemSchema = z.object({ total: z.number().int() });
