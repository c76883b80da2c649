// @app/pca, isomorphic half: the tags, the API path, the plan's flow (the server enforces it, the web
// shows what this person may do now), the body's zod schema and the labels of the PNCP domain values.
import { compareDecimal, decimalSchema, defineFlow, fromUnits, quantitySchema, toUnits, unitValueSchema } from '@app/documents';
import { dateSchema } from '@app/br';
import { CATEGORIAS_ITEM_PCA, PRIORIDADES } from '@app/memorandos/shared';
import type { Categoria } from '@app/requisicoes/shared';
import { z } from 'zod';

export * from './tag.js';

/**
 * 'setor': the person belongs to the plan's centro de custo (the setor de contratações): edits,
 * consolidates, sends, publishes, cancels. 'autoridade': holds PCA_APROVAR_TAG: approves or returns
 * (`independent`: never an author of the plan nor of its DFDs, segregação de funções).
 */
type PcaPapel = 'setor' | 'autoridade';

export const fluxo = defineFlow<'em_elaboracao' | 'em_aprovacao' | 'devolvido' | 'aprovado' | 'publicado' | 'em_revisao' | 'cancelado', PcaPapel>({
  initial: 'em_elaboracao',
  states: {
    em_elaboracao: { label: 'Em elaboração', editable: true, tone: 'neutral' },
    em_aprovacao: { label: 'Em aprovação', tone: 'info' },
    devolvido: { label: 'Devolvido', editable: true, tone: 'warning' },
    aprovado: { label: 'Aprovado', tone: 'success' },
    publicado: { label: 'Publicado', tone: 'success' },
    em_revisao: { label: 'Em revisão', editable: true, tone: 'warning' },
    cancelado: { label: 'Cancelado', tone: 'danger' },
  },
  transitions: {
    enviar: {
      from: ['em_elaboracao', 'devolvido', 'em_revisao'],
      to: 'em_aprovacao',
      label: 'Enviar para aprovação',
      done: 'enviado para aprovação',
      who: ['setor'],
      tone: 'primary',
      authoring: true,
    },
    aprovar: { from: ['em_aprovacao'], to: 'aprovado', label: 'Aprovar', done: 'aprovado', who: ['autoridade'], tone: 'primary', independent: true },
    devolver: { from: ['em_aprovacao'], to: 'devolvido', label: 'Devolver', done: 'devolvido', who: ['autoridade'], reason: true, independent: true },
    publicar: { from: ['aprovado'], to: 'publicado', label: 'Publicar', done: 'publicado', who: ['setor'], tone: 'primary' },
    // a new version of an approved or published plan (inclusions, exclusions, resizing), approved again
    revisar: { from: ['aprovado', 'publicado'], to: 'em_revisao', label: 'Revisar', done: 'em revisão', who: ['setor'], authoring: true },
    // a revision given up: the plan back to the approved (or published) version as it stood (server/revisao.ts)
    desistir: {
      from: ['em_revisao'],
      to: 'aprovado',
      label: 'Desistir da revisão',
      done: 'de volta à versão aprovada',
      who: ['setor'],
      confirm: 'Desistir da revisão? O plano volta à versão aprovada como estava, e as alterações desta revisão são descartadas.',
    },
    cancelar: { from: ['em_elaboracao', 'devolvido'], to: 'cancelado', label: 'Cancelar', done: 'cancelado', who: ['setor'], reason: true, tone: 'danger' },
  },
});
export type PcaStatus = (typeof fluxo.stateNames)[number];

/** PNCP's categoriaItemPca (the DFD's, @app/memorandos). */
export const CATEGORIA_ITEM_PCA: Record<number, string> = CATEGORIAS_ITEM_PCA;

/**
 * The dispensa category (Lei 14.133 art. 75: I obras e serviços de engenharia, II compras e outros
 * serviços) of each PCA category; locação de imóveis and alienação are not bought under those limits.
 */
export const CATEGORIA_DISPENSA: Record<number, Categoria | null> = {
  1: 'compras',
  2: 'compras',
  3: 'obras',
  4: 'obras',
  5: 'compras',
  6: null,
  7: null,
  8: 'obras',
};

/** One grupo of the catalogue in one dispensa category: the plan's total against the year's limit (GET /planos/:id `fracionamento`). */
export interface FracionamentoDoGrupo {
  grupoId: string;
  grupoCodigo: string;
  grupoNome: string;
  categoria: Categoria;
  /** 'Compras e outros serviços (art. 75, II, da Lei 14.133/2021)'. */
  categoriaRotulo: string;
  itens: number;
  /** The plan items of the grupo (numeroItem): a CNBS item shows its CNBS classe, not this grupo. */
  numerosItem: number[];
  total: string;
  /** The limit of the plan's year (null: no limit known for that year). */
  limite: string | null;
  anoLimite: number | null;
  /** The total passes the limit: the grupo's purchases of the year call for a licitação. */
  exigeLicitacao: boolean;
}

/** What a plan item lacks for the PNCP (the catalogue does not say it: fix the product or the DFD). */
export const PENDENCIA_LABEL: Record<string, string> = {
  classe_cnbs: 'Produto com código CATMAT/CATSER sem a classe ou o grupo do CNBS',
  grupo: 'Produto sem grupo no catálogo',
  unidade: 'Produto sem unidade de fornecimento',
  data_desejada: 'DFD sem data desejada',
};

const MAX_MEMORANDOS = 10000;

const ano = z.preprocess(
  (v) => (v === '' || v === null || v === undefined ? undefined : Number(v)),
  z
    .number({ error: 'Informe o ano do plano.' })
    .int('Informe o ano com 4 dígitos.')
    .min(2000, 'Informe o ano com 4 dígitos.')
    .max(9999, 'Informe o ano com 4 dígitos.'),
);

/** Body of POST /api/pca/planos (PUT adds `version`). */
export const pcaSchema = z.object({
  anoPca: ano,
  codigoUnidade: z
    .string({ error: 'Informe o código da unidade no PNCP.' })
    .trim()
    .regex(/^[0-9A-Za-z.-]{1,30}$/, 'Informe o código da unidade no PNCP (até 30 letras ou dígitos).'),
  centroCustoId: z.uuid({ error: 'Escolha o setor de contratações.' }),
  observacao: z
    .string()
    .trim()
    .max(2000, 'Use no máximo 2000 caracteres.')
    .nullish()
    .transform((v) => (v ? v : null)),
  /** The DFDs consolidated (absent on PUT: kept as they are). */
  memorandoIds: z
    .array(z.uuid({ error: 'Memorando inválido.' }))
    .max(MAX_MEMORANDOS, `Um plano consolida no máximo ${MAX_MEMORANDOS} memorandos.`)
    .optional(),
});

const categoriaSchema = z.coerce
  .number({ error: 'Escolha a categoria.' })
  .int('Escolha a categoria.')
  .min(1, 'Escolha a categoria.')
  .max(8, 'Escolha a categoria.');

/** Body of POST /planos/:id/itens-manuais (PUT adds `version`): a line the setor adds without a DFD, with its justification. */
export const itemManualSchema = z.object({
  produtoId: z.uuid({ error: 'Escolha o produto ou serviço.' }),
  categoriaItemPca: categoriaSchema,
  quantidade: quantitySchema,
  valorUnitario: unitValueSchema,
  dataDesejada: dateSchema('Data desejada'),
  justificativa: z
    .string({ error: 'Justifique a inclusão sem DFD.' })
    .trim()
    .min(10, 'Justifique a inclusão sem DFD (ao menos 10 caracteres).')
    .max(2000, 'Use no máximo 2000 caracteres.'),
  version: z.number().int().optional(),
});

/** Body of POST /planos/:id/contratacoes and of PUT …/:contratacaoId (adds `version`): a contratação planejada. */
export const contratacaoSchema = z
  .object({
    titulo: z.string({ error: 'Informe o título da contratação.' }).trim().min(1, 'Informe o título da contratação.').max(200, 'Use no máximo 200 caracteres.'),
    categoriaItemPca: categoriaSchema,
    prioridade: z.enum(PRIORIDADES, { error: 'Escolha a prioridade.' }),
    inicio: dateSchema('Início do processo'),
    fim: dateSchema('Conclusão do processo'),
    /** The plan items it groups (numeroItem), all of its category and of no other contratação. */
    numerosItem: z
      .array(z.number({ error: 'Item inválido.' }).int('Item inválido.').min(1, 'Item inválido.'), { error: 'Escolha os itens da contratação.' })
      .min(1, 'Escolha ao menos um item do plano.')
      .max(5000, 'Uma contratação agrupa no máximo 5000 itens.'),
    version: z.number().int().optional(),
  })
  .refine((c) => c.fim >= c.inicio, { path: ['fim'], message: 'A conclusão do processo não pode ser antes do início.' });

/** A contratação planejada as GET /planos/:id answers it. */
export type ContratacaoPlanejada = {
  id: string;
  numero: number;
  titulo: string;
  categoriaItemPca: number;
  prioridade: (typeof PRIORIDADES)[number];
  inicio: string;
  fim: string;
  version: number;
  numerosItem: number[];
  valorTotal: string;
  /** The earliest desired date of its items, when the process ends after it (the contratação comes late). */
  atrasada: string | null;
};

/** The calendar: one line per month from the first start to the last end ('2027-03'), with the contratações running and those concluding. */
export function calendarioPorMes(contratacoes: readonly Pick<ContratacaoPlanejada, 'numero' | 'inicio' | 'fim' | 'valorTotal'>[]) {
  if (contratacoes.length === 0) return [];
  const mes = (iso: string) => iso.slice(0, 7);
  const primeiro = contratacoes.map((c) => mes(c.inicio)).sort()[0]!;
  const fins = contratacoes.map((c) => mes(c.fim)).sort();
  const ultimo = fins[fins.length - 1]!;
  const meses: { mes: string; emAndamento: number[]; concluidas: number[]; valorConcluido: string }[] = [];
  let [a, m] = primeiro.split('-').map(Number) as [number, number];
  // at most 36 months: a process longer than that is drawn up to there
  while (meses.length < 36) {
    const chave = `${a}-${String(m).padStart(2, '0')}`;
    const concluidas = contratacoes.filter((c) => mes(c.fim) === chave);
    meses.push({
      mes: chave,
      emAndamento: contratacoes.filter((c) => mes(c.inicio) <= chave && mes(c.fim) >= chave).map((c) => c.numero),
      concluidas: concluidas.map((c) => c.numero),
      valorConcluido: fromUnits(
        concluidas.reduce((t, c) => t + toUnits(c.valorTotal, 4), 0n),
        4,
      ),
    });
    if (chave >= ultimo) break;
    [a, m] = m === 12 ? [a + 1, 1] : [a, m + 1];
  }
  return meses;
}

/** '2027-03' → 'março de 2027'. */
export function mesPorExtenso(mes: string): string {
  const [a, m] = mes.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(a, m - 1, 1)).toLocaleDateString('pt-BR', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** One item of an approved version (pca_versoes.itens): what the next version is compared with. */
export type ItemDaVersao = { chave: string; numeroItem: number; descricao: string; unidade: string | null; quantidade: string; valorTotal: string };

/** 'aaaa-mm-dd' + n days. */
const maisDias = (iso: string, dias: number) => new Date(Date.parse(`${iso}T12:00:00Z`) + dias * 86_400_000).toISOString().slice(0, 10);

/**
 * Whether `hoje` falls in a revision window of the plan of `anoPca` (Decreto 10.947/2022 art. 12): 15/09 to
 * 15/11 of the year before, or the 15 days after the publication of the budget law (LOA). Outside them a
 * revision needs a justification.
 */
export function dentroDaJanelaDeRevisao(hoje: string, anoPca: number, dataLoa: string | null | undefined): boolean {
  if (hoje >= `${anoPca - 1}-09-15` && hoje <= `${anoPca - 1}-11-15`) return true;
  return Boolean(dataLoa && hoje >= dataLoa && hoje <= maisDias(dataLoa, 15));
}

/**
 * Body of POST /api/pca/loas (PUT adds `version`): the entidade records when the budget law (LOA) of a
 * year was published; the 15 days after it are a revision window of that year's plan.
 */
export const loaInputSchema = z.object({
  ano: z.number({ error: 'Informe o ano.' }).int('Informe o ano.').min(2000, 'Ano inválido.').max(9999, 'Ano inválido.'),
  dataPublicacao: dateSchema('Data de publicação'),
  lei: z.string().trim().max(120, 'Use no máximo 120 caracteres.').nullish(),
});

// ---------------------------------------------------------------------------------------------
// Sugestão de quantidade (GET /planos/:id/sugestao): what the person's centros consumed of a product (approved requisições)

/** Largest factor accepted (10 = ten times the last 12 months). */
export const FATOR_MAXIMO = '10';

/**
 * Query of GET /planos/:id/sugestao: the product and the factor over the last 12 months' consumption
 * (absent: 1; '1.1' or '1,10' = 10 % more; up to 4 places, above zero, at most FATOR_MAXIMO).
 */
export const sugestaoQuerySchema = z.object({
  produtoId: z.uuid({ error: 'Escolha o produto ou serviço.' }),
  fator: decimalSchema({ scale: 4, message: 'Informe o fator.', positive: true })
    .refine((v) => compareDecimal(v, FATOR_MAXIMO) <= 0, `Use um fator de no máximo ${FATOR_MAXIMO}.`)
    .optional(),
});

/** Answer of GET /planos/:id/sugestao: exact decimals as canonical strings ('12', '0.9167'), never floats. */
export const sugestaoSchema = z.object({
  /** The plan's year: the suggestion is for it. */
  anoPca: z.number().int(),
  /** The product's unit of supply (the catalogue's unidade). */
  unidade: z.object({ sigla: z.string(), descricao: z.string() }),
  /** The last 12 whole months before today (America/Sao_Paulo), 'AAAA-MM'. */
  periodo: z.object({ de: z.string(), ate: z.string() }),
  /** Quantity consumed in those 12 months. */
  totalDozeMeses: z.string(),
  /** Consumo médio mensal: the 12 months' total ÷ 12, to 4 places (shown; the suggestion uses the exact total). */
  mediaMensal: z.string(),
  fator: z.string(),
  /** The unit of supply's multiple the suggestion is rounded up to (the catalogue has none: 1, a whole unit). */
  multiplo: z.string(),
  /** The 12 months' total × fator (= média × 12 × fator), rounded up to `multiplo`. */
  quantidade: z.string(),
  /** The quantities of the plan's 3 previous calendar years, the nearest first. */
  anos: z.array(z.object({ ano: z.number().int(), quantidade: z.string() })),
  /** Nothing in the 12 months nor in the 3 years. */
  semConsumo: z.boolean(),
});
export type SugestaoQuantidade = z.infer<typeof sugestaoSchema>;
