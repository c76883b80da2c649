// @app/produtos/shared: the catalogue of materials and services, validated the same way by the form
// and by the API (and by the spreadsheet import).
import { comprasBusca } from '@app/br';
import { z } from 'zod';

/** Permission tag of 'Produtos e Serviços'. */
export const PRODUTOS_TAG = 25;
export const PRODUTOS_TAG_NOME = 'Produtos e Serviços';

export const TIPOS_ITEM = ['material', 'servico'] as const;
export type TipoItem = (typeof TIPOS_ITEM)[number];
export const TIPO_ITEM_LABEL: Record<TipoItem, string> = { material: 'Material', servico: 'Serviço' };

export const tipoItemSchema = z.enum(TIPOS_ITEM, { error: 'Escolha material ou serviço.' });

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

const optionalId = (message: string) =>
  z
    .union([z.uuid({ error: message }), z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null));

/** Código: letters, digits and . - / _ (kept as typed, compared without case). */
export const codigoSchema = z
  .string({ error: 'Informe o código.' })
  .trim()
  .min(1, 'Informe o código.')
  .max(30, 'O código tem no máximo 30 caracteres.')
  .regex(/^[0-9A-Za-z][0-9A-Za-z./_-]*$/, 'Use no código apenas letras, números e . - / _');

/** CATMAT (materiais) or CATSER (serviços) item code: digits only. */
export const codigoCatalogoSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || /^\d{1,9}$/.test(v), { error: 'O código CATMAT/CATSER tem apenas números (até 9 dígitos).' });

const codigoCnbs = (mensagem: string) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || /^\d{1,10}$/.test(v), { error: mensagem });
const nomeCnbs = (mensagem: string) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || (v.length >= 2 && v.length <= 255), { error: mensagem });

const produtoFields = {
  /** Empty on creation: the next sequential number is assigned. */
  codigo: z
    .union([codigoSchema, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  descricao: z
    .string({ error: 'Informe a descrição.' })
    .trim()
    .min(3, 'Informe a descrição (ao menos 3 caracteres).')
    .max(500, 'A descrição tem no máximo 500 caracteres.'),
  tipo: tipoItemSchema,
  grupoId: z.uuid({ error: 'Escolha o grupo.' }),
  subGrupoId: optionalId('Escolha um sub-grupo válido.'),
  unidadeId: z.uuid({ error: 'Escolha a unidade de fornecimento.' }),
  tipoMaterialId: optionalId('Escolha um tipo de material válido.'),
  codigoCatalogo: codigoCatalogoSchema,
  /** The CNBS Classe (material) or Grupo (serviço) the PNCP classifies the item under (the PCA sends it). */
  classeCnbsCodigo: codigoCnbs('O código da classe ou grupo do CNBS tem apenas números (até 10 dígitos).'),
  classeCnbsNome: nomeCnbs('Informe o nome da classe ou grupo do CNBS (2 a 255 caracteres).'),
  /** The material's PDM (Padrão Descritivo de Material) in the CNBS. */
  pdmCodigo: codigoCnbs('O código do PDM tem apenas números (até 10 dígitos).'),
  pdmDescricao: nomeCnbs('Informe a descrição do PDM (2 a 255 caracteres).'),
  especificacao: optionalText(5000, 'A especificação tem no máximo 5000 caracteres.'),
  ativo: z.boolean().default(true),
};

/** What the PNCP classification asks of a product's fields: code and name together, a PDM only for materials. */
function classificacaoCnbs(
  value: { tipo: TipoItem; classeCnbsCodigo?: string | null; classeCnbsNome?: string | null; pdmCodigo?: string | null; pdmDescricao?: string | null },
  ctx: z.RefinementCtx,
) {
  const par = (codigo: string | null | undefined, nome: string | null | undefined, campos: [string, string], mensagens: [string, string]) => {
    if (codigo && !nome) ctx.addIssue({ code: 'custom', path: [campos[1]], message: mensagens[1] });
    if (nome && !codigo) ctx.addIssue({ code: 'custom', path: [campos[0]], message: mensagens[0] });
  };
  par(
    value.classeCnbsCodigo,
    value.classeCnbsNome,
    ['classeCnbsCodigo', 'classeCnbsNome'],
    ['Informe também o código da classe ou grupo do CNBS.', 'Informe também o nome da classe ou grupo do CNBS.'],
  );
  par(value.pdmCodigo, value.pdmDescricao, ['pdmCodigo', 'pdmDescricao'], ['Informe também o código do PDM.', 'Informe também a descrição do PDM.']);
  if (value.tipo === 'servico' && value.pdmCodigo) ctx.addIssue({ code: 'custom', path: ['pdmCodigo'], message: 'PDM só se aplica a materiais.' });
}

/** A service has no tipo de material: the server (and the form) clear it. */
export function clearTipoMaterial<T extends { tipo: TipoItem; tipoMaterialId?: string | null | undefined }>(value: T): T {
  return value.tipo === 'servico' ? { ...value, tipoMaterialId: null } : value;
}

/** Body of POST /api/produtos/produtos (PUT adds `version`). */
export const produtoInputSchema = z.object(produtoFields).superRefine(classificacaoCnbs);
export type ProdutoInput = z.output<typeof produtoInputSchema>;

/** A product as the API answers it (with the names of what it points to). */
export const produtoSchema = z.object({
  id: z.string(),
  codigo: z.string(),
  descricao: z.string(),
  tipo: tipoItemSchema,
  grupoId: z.string(),
  grupoNome: z.string().nullable(),
  subGrupoId: z.string().nullable(),
  subGrupoNome: z.string().nullable(),
  unidadeId: z.string(),
  unidadeSigla: z.string().nullable(),
  unidadeNome: z.string().nullable(),
  tipoMaterialId: z.string().nullable(),
  tipoMaterialNome: z.string().nullable(),
  codigoCatalogo: z.string().nullable(),
  classeCnbsCodigo: z.string().nullable(),
  classeCnbsNome: z.string().nullable(),
  pdmCodigo: z.string().nullable(),
  pdmDescricao: z.string().nullable(),
  especificacao: z.string().nullable(),
  ativo: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Produto = z.infer<typeof produtoSchema>;

/** Where a product is used: one line per document, e.g. 'Memorando 12/2026'. */
export const produtoUsoSchema = z.object({ origem: z.string(), descricao: z.string() });

/** 'Material'/'Serviço' (also 'M', 'S', 'servico', 'serviços'…) → tipo; undefined when unknown. */
export function parseTipoItem(value: string | undefined): TipoItem | undefined {
  const v = comprasBusca((value ?? '').normalize('NFC').trim());
  if (['m', 'mat', 'material', 'materiais'].includes(v)) return 'material';
  if (['s', 'serv', 'servico', 'servicos'].includes(v)) return 'servico';
  return undefined;
}

/** 'Sim'/'Não' of a spreadsheet cell (also S/N, true/false, 1/0, ativo/inativo). */
export function parseSimNao(value: string | undefined): boolean | undefined {
  const v = comprasBusca((value ?? '').normalize('NFC').trim());
  if (['sim', 's', 'true', 'verdadeiro', '1', 'ativo', 'x'].includes(v)) return true;
  if (['nao', 'n', 'false', 'falso', '0', 'inativo'].includes(v)) return false;
  return undefined;
}

/** Columns of the import file and of the template ('Baixar modelo'), in order. */
export const PRODUTO_IMPORT_COLUMNS = {
  Código: { field: 'codigo', hint: 'Código do item; vazio para numerar automaticamente.', example: '000123', width: 12 },
  Descrição: { field: 'descricao', required: true, hint: 'Descrição do item (3 a 500 caracteres).', example: 'Papel A4 75 g/m², resma 500 folhas', width: 50 },
  Tipo: { field: 'tipo', required: true, hint: 'Material ou Serviço.', example: 'Material', width: 12 },
  Grupo: { field: 'grupo', required: true, hint: 'Código ou nome de um grupo cadastrado em Registros.', example: 'Material de expediente', width: 28 },
  'Sub-grupo': { field: 'subGrupo', hint: 'Código ou nome de um sub-grupo do grupo informado.', example: 'Papelaria', width: 24 },
  Unidade: { field: 'unidade', required: true, hint: 'Sigla ou nome da unidade de fornecimento.', example: 'RESMA', width: 12 },
  'Tipo de material': { field: 'tipoMaterial', hint: 'Só para materiais: código ou nome do tipo de material.', example: 'Consumo', width: 20 },
  'CATMAT/CATSER': { field: 'codigoCatalogo', hint: 'Código do item no catálogo federal (apenas números).', example: '461800', width: 14 },
  'Classe/grupo CNBS': { field: 'classeCnbsCodigo', hint: 'Código da classe (material) ou do grupo (serviço) no CNBS.', example: '7530', width: 14 },
  'Nome da classe/grupo CNBS': { field: 'classeCnbsNome', hint: 'Nome da classe ou do grupo no CNBS.', example: 'Artigos de papelaria', width: 28 },
  PDM: { field: 'pdmCodigo', hint: 'Só para materiais: código do Padrão Descritivo de Material.', example: '4408', width: 10 },
  'Descrição do PDM': { field: 'pdmDescricao', hint: 'Descrição do PDM.', example: 'Papel A4', width: 24 },
  Especificação: { field: 'especificacao', hint: 'Especificação técnica (opcional).', width: 50 },
  Ativo: { field: 'ativo', hint: 'Sim ou Não (vazio = Sim).', example: 'Sim', width: 8 },
} as const;

/** One row of the import file, before the registros are looked up. */
export const produtoImportRowSchema = z
  .object({
    codigo: codigoSchema.optional().transform((v) => v ?? null),
    descricao: produtoFields.descricao,
    tipo: z.string({ error: 'Informe Material ou Serviço.' }).transform((v, ctx) => {
      const tipo = parseTipoItem(v);
      if (!tipo) ctx.addIssue({ code: 'custom', message: 'Informe Material ou Serviço.' });
      return tipo ?? 'material';
    }),
    grupo: z.string({ error: 'Informe o grupo.' }),
    subGrupo: z.string().optional(),
    unidade: z.string({ error: 'Informe a unidade de fornecimento.' }),
    tipoMaterial: z.string().optional(),
    codigoCatalogo: codigoCatalogoSchema,
    classeCnbsCodigo: produtoFields.classeCnbsCodigo,
    classeCnbsNome: produtoFields.classeCnbsNome,
    pdmCodigo: produtoFields.pdmCodigo,
    pdmDescricao: produtoFields.pdmDescricao,
    especificacao: produtoFields.especificacao,
    ativo: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return true;
        const b = parseSimNao(v);
        if (b === undefined) ctx.addIssue({ code: 'custom', message: 'Use Sim ou Não.' });
        return b ?? true;
      }),
  })
  .superRefine((row, ctx) => {
    if (row.tipo === 'servico' && row.tipoMaterial) {
      ctx.addIssue({ code: 'custom', path: ['tipoMaterial'], message: 'Tipo de material só se aplica a materiais.' });
    }
    classificacaoCnbs(row, ctx);
  });
export type ProdutoImportRow = z.output<typeof produtoImportRowSchema>;
