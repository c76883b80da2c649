// @app/cotacoes/shared: the pesquisa de preços (IN SEGES/ME 65/2021) as both halves see it: the tags,
// the status flow, the bodies the forms send and the API validates, the price sources of art. 5, the
// calculation methods of art. 6 and the shapes of the API's answers (mapa comparativo, prices).
// The calculation itself (pure, exact decimals) is in ./estatistica.ts and ./avaliacao.ts.
import { dateSchema, dateTimeSchema, optionalDateSchema, optionalDateTimeSchema } from '@app/br';
import { defineFlow, decimalSchema, quantitySchema, UNIT_VALUE_SCALE } from '@app/documents';
import { ADMIN_TAG as TAG_ADMINISTRACAO } from '@app/core/tags';
import { z } from 'zod';

export * from './estatistica.js';
export * from './avaliacao.js';

/** Permission tag of 'Cotações' (spec §6). */
export const COTACOES_TAG = 73;
export const COTACOES_TAG_NOME = 'Cotações';
/**
 * Tag of the 'autoridade competente': approves the justification of an item with fewer than three
 * valid prices (IN 65, art. 6 §5). Granted in Usuários → Perfis like any tag.
 */
export const AUTORIDADE_TAG = 100;
export const AUTORIDADE_TAG_NOME = 'Autoridade competente (pesquisa de preços)';
/**
 * @deprecated The platform's `ADMIN_TAG` of `@app/core/tags` (tag 3, the administration); kept for the 1.x API.
 * @public
 */
export const ADMIN_TAG: number = TAG_ADMINISTRACAO;

/** Shortest reason to choose a winner other than the lowest valid price (mapa comparativo). */
export const MOTIVO_VENCEDOR_MIN = 20;
/** Shortest reason for a cancellation, an exclusion or an inclusion of a price. */
export const MOTIVO_MIN = 10;
/** Largest evidence file (PDF, image or HTML snapshot of a price source). */
export const EVIDENCIA_MAX_BYTES = 5 * 1024 * 1024;
export const EVIDENCIA_TIPOS = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'text/html'] as const;
export const MAX_ITENS = 1000;
/** Fewest valid prices per item without a justification (IN 65, art. 6 §5). */
export const MINIMO_PRECOS = 3;

// ---------------------------------------------------------------------------------------------
// Flow

/**
 * Who the person is for a cotação (computed on the server):
 * - 'comprador': holds the tag and belongs to its centro de custo (or sees every centro) — edits,
 *   starts the collection, finishes and cancels.
 */
export type CotacaoPapel = 'comprador';

export const fluxoCotacao = defineFlow<'rascunho' | 'em_coleta' | 'concluida' | 'cancelada', CotacaoPapel>({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true, tone: 'neutral' },
    em_coleta: { label: 'Em coleta', editable: true, tone: 'info' },
    concluida: { label: 'Concluída', tone: 'success' },
    cancelada: { label: 'Cancelada', tone: 'danger' },
  },
  transitions: {
    // authoring: who starts the collection answers for the cotação (segregation of duties)
    iniciar: { from: ['rascunho'], to: 'em_coleta', label: 'Iniciar coleta', done: 'em coleta', who: ['comprador'], tone: 'primary', authoring: true },
    concluir: { from: ['em_coleta'], to: 'concluida', label: 'Concluir', done: 'concluída', who: ['comprador'], tone: 'primary' },
    cancelar: {
      from: ['rascunho', 'em_coleta'],
      to: 'cancelada',
      label: 'Cancelar',
      done: 'cancelada',
      who: ['comprador'],
      reason: true,
      reasonMin: MOTIVO_MIN,
      tone: 'danger',
    },
  },
});
export type CotacaoStatus = (typeof fluxoCotacao.stateNames)[number];
/** States in which prices, suppliers and winners may change. */
export const COTACAO_ABERTA: readonly CotacaoStatus[] = ['rascunho', 'em_coleta'];

// ---------------------------------------------------------------------------------------------
// Price sources (IN 65, art. 5) and age limits (against the cotação's reference date)

export const FONTES = ['painel', 'contrato', 'midia', 'fornecedor', 'nota_fiscal'] as const;
export type Fonte = (typeof FONTES)[number];
export const FONTE_LABEL: Record<Fonte, string> = {
  painel: 'Sistema oficial de preços (art. 5º, I)',
  contrato: 'Contratação similar da administração pública (art. 5º, II)',
  midia: 'Mídia especializada ou sítio eletrônico (art. 5º, III)',
  fornecedor: 'Cotação direta com fornecedor (art. 5º, IV)',
  nota_fiscal: 'Nota fiscal eletrônica (art. 5º, V)',
};
export const FONTE_CURTA: Record<Fonte, string> = {
  painel: 'Painel de preços',
  contrato: 'Contratação similar',
  midia: 'Mídia/sítio',
  fornecedor: 'Fornecedor',
  nota_fiscal: 'Nota fiscal',
};
/**
 * Age limit in months per source (null: none). IN 65: sites and quotes within 6 months (art. 5 III
 * and IV), similar contracts and invoices within 1 year (art. 5 II and V). A price is old when its
 * date is BEFORE the reference date minus the months (the same day is still valid).
 */
export const IDADE_MAXIMA_MESES: Record<Fonte, number | null> = {
  painel: null,
  contrato: 12,
  midia: 6,
  fornecedor: 6,
  nota_fiscal: 12,
};

// ---------------------------------------------------------------------------------------------
// Methods (IN 65, art. 6)

export const METODOS = ['media', 'mediana', 'menor', 'media_saneada', 'intervalo_mediana'] as const;
export type Metodo = (typeof METODOS)[number];
export const METODO_LABEL: Record<Metodo, string> = {
  media: 'Média',
  mediana: 'Mediana',
  menor: 'Menor preço',
  media_saneada: 'Média saneada',
  intervalo_mediana: 'Intervalo da mediana',
};
/** The rule as printed in the mapa and the memória de cálculo (with `iterar` where it applies). */
export function descreverMetodo(metodo: Metodo, iterar: boolean): string {
  switch (metodo) {
    case 'media':
      return 'Média aritmética dos preços válidos.';
    case 'mediana':
      return 'Mediana dos preços válidos.';
    case 'menor':
      return 'Menor dos preços válidos.';
    case 'media_saneada':
      return `Média saneada: descartam-se os preços fora do intervalo média ± 1 desvio-padrão amostral${
        iterar
          ? ' (repetido enquanto o coeficiente de variação dos restantes passar de 25%, sem nunca deixar menos de 3 preços; cada rodada fica na memória de cálculo)'
          : ' (aplicado uma vez)'
      }; se o coeficiente de variação dos restantes for ≤ 25%, usa-se a média deles; senão, a mediana.`;
    case 'intervalo_mediana':
      return 'Intervalo da mediana: mantêm-se os preços entre 75% e 125% da mediana; o preço estimado é a mediana dos mantidos.';
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies

const uuid = (message: string) => z.uuid({ error: message });
/** An optional id: absent, null or empty → null. */
const uuidOpcional = (message: string) =>
  z
    .uuid({ error: message })
    .nullish()
    .transform((v) => v ?? null);
const textoOpcional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use no máximo ${max} caracteres.`)
    .nullish()
    .transform((v) => (v ? v : null));
const motivo = (min: number, label = 'o motivo') =>
  z
    .string({ error: `Informe ${label}.` })
    .trim()
    .min(min, `Informe ${label} (ao menos ${min} caracteres).`)
    .max(2000, 'Use no máximo 2000 caracteres.');
/** A unit price: positive, up to 4 decimal places (exact decimal string). */
export const precoSchema = decimalSchema({ scale: UNIT_VALUE_SCALE, message: 'Informe o preço unitário.', positive: true });
export const cotacaoItemSchema = z.object({
  produtoId: uuid('Escolha o produto ou serviço.'),
  quantidade: quantitySchema,
  /** Reference unit value (from the requisição); replaced by the estimated price when concluded. */
  valorUnitario: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      decimalSchema({ scale: UNIT_VALUE_SCALE, message: 'Valor de referência inválido.', positive: false }).nullish(),
    )
    .transform((v) => v ?? '0')
    .refine((v) => !v.startsWith('-'), 'O valor de referência não pode ser negativo.'),
  requisicaoItemId: uuidOpcional('Item de requisição inválido.'),
});

/** Body of POST /api/cotacoes/cotacoes (PUT adds `version`). */
export const cotacaoInputSchema = z.object({
  objeto: z.string({ error: 'Informe o objeto.' }).trim().min(10, 'Descreva o objeto (ao menos 10 caracteres).').max(2000, 'Use no máximo 2000 caracteres.'),
  centroCustoId: uuid('Escolha o centro de custo.'),
  requisicaoId: uuidOpcional('Requisição inválida.'),
  dataReferencia: dateSchema('Data de referência'),
  prazo: optionalDateTimeSchema('Prazo de resposta'),
  metodo: z.enum(METODOS, { error: 'Escolha o método de cálculo.' }),
  iterar: z.boolean().default(false),
  observacoes: textoOpcional(5000),
  itens: z
    .array(cotacaoItemSchema, { error: 'Inclua ao menos um item.' })
    .min(1, 'Inclua ao menos um item.')
    .max(MAX_ITENS, `Uma cotação tem no máximo ${MAX_ITENS} itens.`)
    .superRefine((itens, ctx) => {
      const seen = new Set<string>();
      itens.forEach((item, index) => {
        if (seen.has(item.produtoId)) ctx.addIssue({ code: 'custom', path: [index, 'produtoId'], message: 'Este produto já está em outro item.' });
        seen.add(item.produtoId);
      });
    }),
});

/** Body of POST /api/cotacoes/cotacoes/de-requisicao: a new draft with the items of an approved requisição. */
export const deRequisicaoInputSchema = z.object({ requisicaoId: uuid('Escolha a requisição aprovada.') });

/** Body of POST /cotacoes/:id/fornecedores: invite a supplier (not impedido). */
export const conviteInputSchema = z.object({
  fornecedorId: uuid('Escolha o fornecedor.'),
  /** Why this supplier was chosen (IN 65, art. 5 IV). */
  motivoEscolha: textoOpcional(1000),
});
/** Body of POST /cotacoes/:id/fornecedores/:fornecedorId/nao-respondeu. */
export const naoRespondeuInputSchema = z.object({ motivo: textoOpcional(1000) });

/** One line of a supplier's answer (by hand or from its XLSX). */
export const respostaItemSchema = z.object({
  produtoId: uuid('Item inválido.'),
  /** Empty: the supplier did not quote this item. */
  valorUnitario: precoSchema.nullish().transform((v) => v ?? null),
  marca: textoOpcional(200),
});
/** Body of PUT /cotacoes/:id/fornecedores/:fornecedorId/resposta: the whole answer (replaces the previous). */
export const respostaInputSchema = z.object({
  /** Date (and time) of the quote document. */
  dataProposta: dateTimeSchema('Data da proposta'),
  /** Validity of the quote. */
  validade: optionalDateSchema('Validade da proposta'),
  itens: z.array(respostaItemSchema).min(1, 'Informe ao menos um preço.').max(MAX_ITENS),
});
export type RespostaInput = z.output<typeof respostaInputSchema>;

/** Body of POST /cotacoes/:id/precos (a price of another source) and PUT /cotacoes/:id/precos/:precoId. */
export const precoInputSchema = z
  .object({
    produtoId: uuid('Escolha o item.'),
    fonte: z.enum(FONTES, { error: 'Escolha a fonte do preço.' }),
    /** Site, system, órgão and contract number, invoice number… */
    fonteDescricao: z
      .string({ error: 'Descreva a fonte.' })
      .trim()
      .min(3, 'Descreva a fonte (ao menos 3 caracteres).')
      .max(500, 'Use no máximo 500 caracteres.'),
    valorUnitario: precoSchema,
    marca: textoOpcional(200),
    /** When the price was collected (site access) or the date of the document (contract, invoice). */
    dataColeta: dateTimeSchema('Data da coleta'),
    link: z
      .url({ protocol: /^https?$/, error: 'Informe um endereço http(s) válido.' })
      .max(2000, 'Use no máximo 2000 caracteres.')
      .nullish()
      .transform((v) => v ?? null),
    /** An uploaded evidence (POST /cotacoes/:id/evidencias). */
    evidenciaId: uuidOpcional('Evidência inválida.'),
    version: z.number().int().optional(),
  })
  .refine((v) => v.fonte !== 'fornecedor', {
    path: ['fonte'],
    message: 'Preços de fornecedores entram pela resposta do fornecedor.',
  })
  .refine((v) => v.fonte !== 'midia' || v.link, { path: ['link'], message: 'Informe o endereço do sítio consultado.' });
export type PrecoInput = z.output<typeof precoInputSchema>;

// ---------------------------------------------------------------------------------------------
// External price sources (a plugin contributes one to COTACAO_FONTES_EXTERNAS: @app/pncp, "Buscar no PNCP")

/** GET /api/cotacoes/fontes-externas: the sources the enabled plugins contribute. */
export const fonteExternaSchema = z.object({
  id: z.string(),
  /** 'PNCP'. */
  nome: z.string(),
  /** The button: 'Buscar no PNCP'. */
  acao: z.string(),
  /** What it searches, for the dialog. */
  descricao: z.string(),
  fonte: z.enum(FONTES),
});
export type FonteExterna = z.infer<typeof fonteExternaSchema>;

/** What is searched: a catalogue code (CATMAT/CATSER) or words of the description, one page. */
const consultaExternaCampos = z.object({
  produtoId: uuid('Escolha o item.'),
  codigo: z
    .string()
    .trim()
    .max(20, 'Use no máximo 20 caracteres.')
    .regex(/^\d*$/, 'O código do catálogo tem só algarismos.')
    .optional()
    .transform((v) => v || null),
  descricao: z
    .string()
    .trim()
    .max(200, 'Use no máximo 200 caracteres.')
    .optional()
    .transform((v) => v || null),
  pagina: z.coerce.number({ error: 'Página inválida.' }).int('Página inválida.').min(1, 'Página inválida.').max(1000, 'Página inválida.').default(1),
});
const algoParaBuscar = {
  check: (v: { codigo: string | null; descricao: string | null }) => Boolean(v.codigo || (v.descricao && v.descricao.length >= 3)),
  params: { path: ['descricao'], message: 'Informe o código do catálogo ou ao menos 3 letras da descrição.' },
};
export const consultaExternaSchema = consultaExternaCampos.refine(algoParaBuscar.check, algoParaBuscar.params);
export type ConsultaExterna = z.output<typeof consultaExternaSchema>;

/** One price a source found (a homologated result of a similar contratação, for the PNCP). */
export const precoExternoSchema = z.object({
  /** The source's key of the row (PNCP: control number, item and result). */
  ref: z.string(),
  descricao: z.string(),
  unidade: z.string(),
  /** The unit differs from the item's: compare before using the price. */
  unidadeDiferente: z.boolean(),
  quantidade: z.string().nullable(),
  valorUnitario: z.string(),
  fornecedor: z.string().nullable(),
  orgao: z.string(),
  /** 'Município/UF'. */
  local: z.string().nullable(),
  /** AAAA-MM-DD (the result's date: its age counts from it). */
  data: z.string(),
  link: z.string().nullable(),
  /** The price's "fonte" text once included. */
  fonteDescricao: z.string(),
  /** Already a price of this item in the cotação. */
  jaIncluido: z.boolean(),
});
export type PrecoExterno = z.infer<typeof precoExternoSchema>;

/** GET /cotacoes/:id/fontes-externas/:fonte?produtoId&codigo&descricao&pagina. */
export const buscaExternaSchema = z.object({
  itens: z.array(precoExternoSchema),
  pagina: z.number().int(),
  tamanhoPagina: z.number().int(),
  totalPaginas: z.number().int(),
  total: z.number().int(),
  /** The period searched (a year up to the cotação's reference date), AAAA-MM-DD. */
  dataInicial: z.string(),
  dataFinal: z.string(),
  codigo: z.string().nullable(),
  descricao: z.string().nullable(),
  consultadoEm: z.string(),
});
export type BuscaExterna = z.infer<typeof buscaExternaSchema>;

/** Body of POST /cotacoes/:id/fontes-externas/:fonte: the same search, and the rows chosen. */
export const incluirExternosInputSchema = consultaExternaCampos
  .extend({
    refs: z
      .array(z.string().min(1).max(200), { error: 'Escolha os preços a incluir.' })
      .min(1, 'Escolha ao menos um preço.')
      .max(20, 'Escolha no máximo 20 preços de uma vez.')
      .refine((r) => new Set(r).size === r.length, 'Um preço foi escolhido duas vezes.'),
  })
  .refine(algoParaBuscar.check, algoParaBuscar.params);
/** The body a client sends (the server reads the schema's output). */
export type IncluirExternosInput = z.input<typeof incluirExternosInputSchema>;

/** Body of POST /cotacoes/:id/precos/:precoId/incluir | excluir: a person's decision, with the reason. */
export const decisaoPrecoInputSchema = z.object({ motivo: motivo(MOTIVO_MIN) });
/** Body of PUT /cotacoes/:id/vencedores/:produtoId: another winner than the lowest valid price. */
export const vencedorInputSchema = z.object({
  precoId: uuid('Escolha o preço vencedor.'),
  motivo: motivo(MOTIVO_VENCEDOR_MIN, 'o motivo da escolha'),
});
/** Body of PUT /cotacoes/:id/justificativa: why some items have fewer than three valid prices. */
export const justificativaInputSchema = z.object({ texto: motivo(20, 'a justificativa') });
/** Body of PUT /api/cotacoes/configuracao (tag 3): the entidade's defaults. */
export const configuracaoInputSchema = z.object({
  metodo: z.enum(METODOS, { error: 'Escolha o método de cálculo.' }),
  iterar: z.boolean(),
  version: z.number().int().optional(),
});
export type Configuracao = z.output<typeof configuracaoInputSchema>;

// ---------------------------------------------------------------------------------------------
// Answers

export const SITUACOES_CONVITE = ['convidado', 'respondeu', 'nao_respondeu'] as const;
export type SituacaoConvite = (typeof SITUACOES_CONVITE)[number];
export const SITUACAO_CONVITE_LABEL: Record<SituacaoConvite, string> = {
  convidado: 'Aguardando resposta',
  respondeu: 'Respondeu',
  nao_respondeu: 'Não respondeu',
};

export const conviteSchema = z.object({
  id: z.string(),
  fornecedorId: z.string(),
  fornecedorNome: z.string(),
  /** CNPJ/CPF digits (masked for display by @app/br). */
  fornecedorDocumento: z.string(),
  fornecedorEmail: z.string().nullable(),
  situacao: z.enum(SITUACOES_CONVITE),
  motivoEscolha: z.string().nullable(),
  motivoNaoResposta: z.string().nullable(),
  convidadoEm: z.string(),
  dataProposta: z.string().nullable(),
  validade: z.string().nullable(),
  precos: z.number().int(),
});
export type Convite = z.infer<typeof conviteSchema>;

export const precoListadoSchema = z.object({
  id: z.string(),
  produtoId: z.string(),
  fonte: z.enum(FONTES),
  fonteDescricao: z.string(),
  fornecedorId: z.string().nullable(),
  fornecedorNome: z.string().nullable(),
  valorUnitario: z.string(),
  marca: z.string().nullable(),
  dataColeta: z.string(),
  validade: z.string().nullable(),
  link: z.string().nullable(),
  evidencia: z.object({ id: z.string(), nome: z.string(), tipo: z.string(), tamanho: z.number(), sha256: z.string() }).nullable(),
  coletadoPorNome: z.string(),
  /** A person's decision: included despite age/validity, or excluded, with the reason. */
  inclusaoMotivo: z.string().nullable(),
  exclusaoMotivo: z.string().nullable(),
  version: z.number().int(),
});
export type PrecoListado = z.infer<typeof precoListadoSchema>;

/** The header as the mapa, the collection page and the memória de cálculo read it. */
export interface CotacaoCabecalho {
  id: string;
  numero: number;
  ano: number;
  status: CotacaoStatus;
  objeto: string;
  centroCustoId: string;
  /** '01 – Secretaria de Saúde'. */
  centroCustoNome: string;
  requisicaoId: string | null;
  /** '12/2026'. */
  requisicaoNumero: string | null;
  /** 'aaaa-mm-dd'. */
  dataReferencia: string;
  /** ISO date-time. */
  prazo: string | null;
  metodo: Metodo;
  iterar: boolean;
  observacoes: string | null;
  responsavelNome: string;
  justificativa: string | null;
  justificativaPorNome: string | null;
  justificativaEm: string | null;
  /** Set only while the approval stands: it is null once a change voided it (see justificativaAnulada*). */
  justificativaAprovadaPorNome: string | null;
  justificativaAprovadaEm: string | null;
  /** An approval voided by a later change of what it covered (issue 18): when, whose, and why (pt-BR, naming the items). */
  justificativaAnuladaEm: string | null;
  justificativaAnuladaAprovador: string | null;
  justificativaAnuladaMotivo: string | null;
  /** Cents. */
  valorTotal: string;
  concluidaEm: string | null;
  version: number;
}

/** An item an approval of the justification covered, with the fingerprint of what it saw of it. */
export interface ItemAprovado {
  produtoId: string;
  /** '2. Caneta azul' at approval time. */
  rotulo: string;
  /** SHA-256 (hex) of the item's canonical content (quantity, estimate, every price with its decisions). */
  impressao: string;
}

/** An item of the cotação with its reference value (from the requisição; '0': none). */
export interface ItemCotacao {
  id: string;
  produtoId: string;
  ordem: number;
  codigo: string;
  descricao: string;
  unidade: string;
  quantidade: string;
  valorReferencia: string;
  requisicaoItemId: string | null;
  /** The product's CATMAT/CATSER code (searches of external sources start from it). */
  codigoCatalogo: string | null;
}

export interface VencedorRegistrado {
  produtoId: string;
  precoId: string;
  motivo: string;
  escolhidoPorNome: string;
  escolhidoEm: string;
}

/**
 * GET /api/cotacoes/cotacoes/:id/mapa: everything about one cotação at once (the collection page,
 * the mapa comparativo and the memória de cálculo read the same answer).
 */
export interface MapaCotacao {
  cotacao: CotacaoCabecalho;
  itens: ItemCotacao[];
  convites: Convite[];
  precos: PrecoListado[];
  vencedores: VencedorRegistrado[];
  avaliacao: import('./avaliacao.js').Avaliacao;
  /** Prices, suppliers and winners may change (open cotação, person's centro). */
  podeEditar: boolean;
  /** The person holds AUTORIDADE_TAG and may approve the justification. */
  podeAprovarJustificativa: boolean;
}
