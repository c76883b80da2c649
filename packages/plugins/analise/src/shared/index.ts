// @app/analise/shared: the tag of 'Análise de Consumo e Preços', the filters and the answers of its
// API (validated on the server; the page imports types only, and the zod-free ./meses.ts).
import { optionalDateSchema } from '@app/br';
import { z } from 'zod';
import { MAX_MESES, isMes, mesesDoPeriodo } from './meses.js';
import { ORIGENS_PRECO } from './pontos.js';

export * from './meses.js';
export * from './pontos.js';
export * from './tag.js';

/** How the consumption series are split: one line per centro de custo, núcleo de consumo or grupo. */
export const AGRUPAMENTOS = ['centro', 'nucleo', 'grupo'] as const;
export type Agrupamento = (typeof AGRUPAMENTOS)[number];

const mes = (campo: string) => z.string({ error: `Informe ${campo} (AAAA-MM).` }).refine(isMes, `Informe ${campo} no formato AAAA-MM, por exemplo 2026-01.`);
const id = (message: string) => z.uuid({ error: message }).optional();

/** The filters of every consumption figure (GET /api/analise/consumo and its documentos). */
export const filtrosConsumoSchema = z
  .object({
    de: mes('o mês inicial'),
    ate: mes('o mês final'),
    centroCustoId: id('Centro de custo inválido.'),
    nucleoId: id('Núcleo de consumo inválido.'),
    grupoId: id('Grupo inválido.'),
    subgrupoId: id('Subgrupo inválido.'),
    produtoId: id('Produto inválido.'),
    por: z.enum(AGRUPAMENTOS, { error: 'Agrupe por centro de custo, núcleo de consumo ou grupo.' }).default('centro'),
    /** Documentos only: the month of the figure (absent: the whole period). */
    mes: mes('o mês').optional(),
  })
  .superRefine((f, issue) => {
    if (!isMes(f.de) || !isMes(f.ate)) return;
    if (f.ate < f.de) issue.addIssue({ code: 'custom', path: ['ate'], message: 'O mês final deve ser igual ou posterior ao mês inicial.' });
    else if (mesesDoPeriodo(f.de, f.ate).length > MAX_MESES) {
      issue.addIssue({ code: 'custom', path: ['ate'], message: `O período pode ter no máximo ${MAX_MESES} meses.` });
    }
    if (f.mes && isMes(f.mes) && (f.mes < f.de || f.mes > f.ate))
      issue.addIssue({ code: 'custom', path: ['mes'], message: 'Escolha um mês dentro do período.' });
  });
export type FiltrosConsumo = z.infer<typeof filtrosConsumoSchema>;

/** Exact decimal strings ('1234.50'): sums made by the database on numeric columns. */
const valoresSchema = z.object({ quantidade: z.string(), valor: z.string() });
export type Valores = z.infer<typeof valoresSchema>;

const serieSchema = z.object({
  /** The centro, núcleo or grupo (null: the centros in no núcleo). */
  id: z.string().nullable(),
  nome: z.string(),
  /** One entry per month of the period, in order (zero where nothing was approved). */
  meses: z.array(valoresSchema),
  total: valoresSchema,
  /** Consumo médio mensal: the total over the number of months of the period. */
  media: valoresSchema,
});
export type Serie = z.infer<typeof serieSchema>;

export const consumoSchema = z.object({
  de: z.string(),
  ate: z.string(),
  por: z.enum(AGRUPAMENTOS),
  /** Every month of the period, 'AAAA-MM'. */
  meses: z.array(z.string()),
  /** By `por`, highest total first. */
  series: z.array(serieSchema),
  /** By grupo of the catalogue (the stacked bars). */
  grupos: z.array(serieSchema),
  /** All of the filtered consumption (a centro in two núcleos counts once here). */
  total: serieSchema,
});
export type Consumo = z.infer<typeof consumoSchema>;

const documentoConsumoSchema = z.object({
  id: z.string(),
  /** 'n/aaaa' */
  numero: z.string(),
  /** The requisição's date and the day it was approved (America/Sao_Paulo), 'AAAA-MM-DD'. */
  data: z.string(),
  aprovadaEm: z.string(),
  centroCusto: z.string(),
  /** The items of the requisição behind the figure (those the filters keep). */
  quantidade: z.string(),
  valor: z.string(),
  /** The requisição's page. */
  href: z.string(),
});
export const documentosConsumoSchema = z.object({
  items: z.array(documentoConsumoSchema),
  total: valoresSchema,
  /** How many requisições are behind the figure (items holds the first 500). */
  quantidadeDocumentos: z.number().int(),
});
export type DocumentosConsumo = z.infer<typeof documentosConsumoSchema>;

const opcaoSchema = z.object({ id: z.string(), nome: z.string() });
/** The choices of the filters: the person's centros, the núcleos, grupos and subgrupos of the entidade. */
export const opcoesConsumoSchema = z.object({
  centros: z.array(opcaoSchema),
  nucleos: z.array(opcaoSchema),
  grupos: z.array(opcaoSchema),
  subgrupos: z.array(opcaoSchema.extend({ grupoId: z.string() })),
});
export const produtosConsumoSchema = z.object({ items: z.array(opcaoSchema) });
export type OpcoesConsumo = z.infer<typeof opcoesConsumoSchema>;

// ---------------------------------------------------------------------------------------------
// Preços: the history of one product's unit price (GET /api/analise/precos)

/** The filters of the price history: the product (required) and an optional period of days ('aaaa-mm-dd' or 'dd/mm/aaaa'). */
export const filtrosPrecosSchema = z
  .object({
    produtoId: z.uuid({ error: 'Escolha um produto ou serviço.' }),
    de: optionalDateSchema('Data inicial'),
    ate: optionalDateSchema('Data final'),
  })
  .superRefine((f, issue) => {
    if (f.de && f.ate && f.ate < f.de) issue.addIssue({ code: 'custom', path: ['ate'], message: 'A data final deve ser igual ou posterior à data inicial.' });
  });
export type FiltrosPrecos = z.infer<typeof filtrosPrecosSchema>;

const indice = z.number().int().nonnegative();
/**
 * The prices of the period, oldest first, one array per field (price i is index i of each; see ./pontos.ts):
 * the day in America/Sao_Paulo ('aaaa-mm-dd'), the exact unit price ('27.90', '0.0125') and the indexes of its
 * source, document, supplier, source's description and atypical reason in `dicionarios` (null: none).
 */
const colunasPrecosSchema = z.object({
  data: z.array(z.string()),
  valor: z.array(z.string()),
  fonte: z.array(indice),
  documento: z.array(indice),
  fornecedor: z.array(indice.nullable()),
  descricao: z.array(indice.nullable()),
  atipico: z.array(indice.nullable()),
});
/** Each text of the prices once: the sources in pt-BR with their origin, the documents ('Cotação 3/2026' and its page), suppliers, descriptions, atypical reasons. */
const dicionariosPrecosSchema = z.object({
  fontes: z.array(z.object({ origem: z.enum(ORIGENS_PRECO), nome: z.string() })),
  documentos: z.array(z.object({ rotulo: z.string(), href: z.string() })),
  fornecedores: z.array(z.string()),
  descricoes: z.array(z.string()),
  motivos: z.array(z.string()),
});

const fornecedorPrecosSchema = z.object({
  nome: z.string(),
  quantidade: z.number().int(),
  menor: z.string(),
  mediana: z.string(),
  ultimo: z.string(),
  /** Day of the last price, 'aaaa-mm-dd'. */
  ultimaData: z.string(),
});
export type FornecedorPrecos = z.infer<typeof fornecedorPrecosSchema>;

export const precosSchema = z.object({
  produto: z.object({ id: z.string(), nome: z.string(), unidade: z.string().nullable() }),
  de: z.string().nullable(),
  ate: z.string().nullable(),
  /** Every price of the period, oldest first, as columns (`pontosDe` makes them objects again). */
  pontos: colunasPrecosSchema,
  dicionarios: dicionariosPrecosSchema,
  resumo: z.object({
    quantidade: z.number().int(),
    /** Exact (mean of the two middle prices when the count is even). */
    mediana: z.string().nullable(),
    menor: z.string().nullable(),
    maior: z.string().nullable(),
    primeiro: z.string().nullable(),
    ultimo: z.string().nullable(),
    /** (último − primeiro) ÷ primeiro in percent, two decimals ('5.66', '-3.10'); null with fewer than two prices. */
    variacao: z.string().nullable(),
    /** 75% and 125% of the median: prices outside are atypical (the cotações' 'intervalo da mediana' rule). */
    faixa: z.object({ inferior: z.string(), superior: z.string() }).nullable(),
    atipicos: z.number().int(),
  }),
  /** The suppliers' prices of the product, lowest median first. */
  fornecedores: z.array(fornecedorPrecosSchema),
});
export type Precos = z.infer<typeof precosSchema>;
