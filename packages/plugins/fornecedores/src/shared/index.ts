// @app/fornecedores/shared: suppliers (pessoa física or jurídica, with the 2026 alphanumeric CNPJ),
// validated the same way by the form, the API and the spreadsheet import.
import { cepSchema, comprasBusca, cpfCnpjSchema, formatCpfCnpj, optionalDateSchema, ufSchema } from '@app/br';
import { z } from 'zod';

/** Permission tag of 'Fornecedores'. */
export const FORNECEDORES_TAG = 26;
export const FORNECEDORES_TAG_NOME = 'Fornecedores';

export const SITUACOES = ['ativo', 'inativo', 'impedido'] as const;
export type Situacao = (typeof SITUACOES)[number];
export const SITUACAO_LABEL: Record<Situacao, string> = { ativo: 'Ativo', inativo: 'Inativo', impedido: 'Impedido' };

export type TipoPessoa = 'fisica' | 'juridica';
export const TIPO_PESSOA_LABEL: Record<TipoPessoa, string> = { fisica: 'Pessoa física', juridica: 'Pessoa jurídica' };

/** '12ABC34501DE35' → '12.ABC.345/01DE-35'; '12345678909' → '123.456.789-09'. */
export const formatDocumento = formatCpfCnpj;

export const DUPLICATE_DOCUMENT_MESSAGE = 'Já existe um fornecedor com este CPF/CNPJ nesta entidade.';

const text = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label}: no máximo ${max} caracteres.`)
    .nullish()
    .transform((v) => (v ? v : null));

const required = (max: number, message: string) => z.string({ error: message }).trim().min(1, message).max(max, `No máximo ${max} caracteres.`);

/** Telephone: 10 or 11 digits (DDD + number), stored without mask. */
export const telefoneSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v.replace(/\D/g, '') : null))
  .refine((v) => v === null || /^\d{10,11}$/.test(v), { error: 'Telefone com DDD: 10 ou 11 dígitos.' });

export const contatoSchema = z.object({
  nome: required(120, 'Informe o nome do contato.'),
  email: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null))
    .refine((v) => v === null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { error: 'E-mail inválido.' }),
  telefone: telefoneSchema,
});
export type Contato = z.output<typeof contatoSchema>;

const fornecedorFields = {
  documento: cpfCnpjSchema,
  razaoSocial: required(200, 'Informe a razão social (ou o nome, para pessoa física).'),
  nomeFantasia: text(200, 'Nome fantasia'),
  logradouro: required(200, 'Informe o logradouro.'),
  numero: text(20, 'Número'),
  complemento: text(100, 'Complemento'),
  bairro: text(100, 'Bairro'),
  cep: cepSchema,
  municipio: required(100, 'Informe o município.'),
  uf: z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), ufSchema),
  contatos: z.array(contatoSchema).max(20, 'No máximo 20 contatos.').default([]),
  ramoIds: z
    .array(z.uuid({ error: 'Ramo de atividade inválido.' }), { error: 'Escolha ao menos um ramo de atividade.' })
    .min(1, 'Escolha ao menos um ramo de atividade.')
    .max(50, 'No máximo 50 ramos de atividade.')
    .transform((ids) => [...new Set(ids)]),
  situacao: z.enum(SITUACOES, { error: 'Escolha a situação: ativo, inativo ou impedido.' }).default('ativo'),
  impedimentoMotivo: text(1000, 'Motivo do impedimento'),
  // @app/br's one date schema: dd/mm/aaaa (the spreadsheet) or aaaa-mm-dd (the form) in, aaaa-mm-dd out, blank = null
  impedimentoDe: optionalDateSchema('Impedido de'),
  impedimentoAte: optionalDateSchema('Impedido até'),
};

type ImpedimentoFields = {
  situacao: Situacao;
  impedimentoMotivo: string | null;
  impedimentoDe: string | null;
  impedimentoAte: string | null;
};

/** Impedido: motivo and período de/até required (até ≥ de). Other situações clear them. */
function checkImpedimento(value: ImpedimentoFields, ctx: z.RefinementCtx): void {
  if (value.situacao !== 'impedido') return;
  if (!value.impedimentoMotivo) ctx.addIssue({ code: 'custom', path: ['impedimentoMotivo'], message: 'Informe o motivo do impedimento.' });
  if (!value.impedimentoDe) ctx.addIssue({ code: 'custom', path: ['impedimentoDe'], message: 'Informe o início do impedimento.' });
  if (!value.impedimentoAte) ctx.addIssue({ code: 'custom', path: ['impedimentoAte'], message: 'Informe o fim do impedimento.' });
  if (value.impedimentoDe && value.impedimentoAte && value.impedimentoAte < value.impedimentoDe) {
    ctx.addIssue({ code: 'custom', path: ['impedimentoAte'], message: 'O fim do impedimento é anterior ao início.' });
  }
}

/** Situação other than impedido: motivo and período are cleared (by the server and the form). */
export function clearImpedimento<T extends ImpedimentoFields>(value: T): T {
  return value.situacao === 'impedido' ? value : { ...value, impedimentoMotivo: null, impedimentoDe: null, impedimentoAte: null };
}

/** Body of POST /api/fornecedores/fornecedores (PUT adds `version`). */
export const fornecedorInputSchema = z.object(fornecedorFields).superRefine(checkImpedimento);
export type FornecedorInput = z.output<typeof fornecedorInputSchema>;

export const fornecedorSchema = z.object({
  id: z.string(),
  documento: z.string(),
  /** Masked: '12.ABC.345/01DE-35'. */
  documentoFormatado: z.string(),
  tipoPessoa: z.enum(['fisica', 'juridica']),
  razaoSocial: z.string(),
  nomeFantasia: z.string().nullable(),
  logradouro: z.string(),
  numero: z.string().nullable(),
  complemento: z.string().nullable(),
  bairro: z.string().nullable(),
  cep: z.string(),
  municipio: z.string(),
  uf: z.string(),
  contatos: z.array(z.object({ nome: z.string(), email: z.string().nullable(), telefone: z.string().nullable() })),
  ramoIds: z.array(z.string()),
  ramos: z.array(z.object({ id: z.string(), nome: z.string() })),
  situacao: z.enum(SITUACOES),
  impedimentoMotivo: z.string().nullable(),
  impedimentoDe: z.string().nullable(),
  impedimentoAte: z.string().nullable(),
  ativo: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Fornecedor = z.infer<typeof fornecedorSchema>;

/** Columns of the import file and of the template, in order. */
export const FORNECEDOR_IMPORT_COLUMNS = {
  'CPF/CNPJ': {
    field: 'documento',
    required: true,
    hint: 'CPF (11 dígitos) ou CNPJ (14 caracteres, também alfanumérico), com ou sem máscara.',
    example: '12.ABC.345/01DE-35',
    width: 22,
  },
  'Razão social': { field: 'razaoSocial', required: true, hint: 'Razão social (ou nome, para pessoa física).', example: 'Papelaria Central Ltda', width: 36 },
  'Nome fantasia': { field: 'nomeFantasia', example: 'Papelaria Central', width: 28 },
  Logradouro: { field: 'logradouro', required: true, example: 'Rua Barão de Jundiaí', width: 30 },
  Número: { field: 'numero', example: '1200', width: 10 },
  Complemento: { field: 'complemento', example: 'Sala 3', width: 16 },
  Bairro: { field: 'bairro', example: 'Centro', width: 18 },
  CEP: { field: 'cep', required: true, hint: '8 dígitos, com ou sem máscara.', example: '13201-010', width: 12 },
  Município: { field: 'municipio', required: true, example: 'Jundiaí', width: 20 },
  UF: { field: 'uf', required: true, example: 'SP', width: 6 },
  'Ramos de atividade': {
    field: 'ramos',
    required: true,
    hint: 'Códigos ou nomes dos ramos cadastrados em Registros, separados por ";" ou "|".',
    example: 'Material de expediente',
    width: 32,
  },
  'Contato - nome': { field: 'contatoNome', example: 'Ana Paula Ribeiro', width: 24 },
  'Contato - e-mail': { field: 'contatoEmail', example: 'vendas@papelariacentral.com.br', width: 30 },
  'Contato - telefone': { field: 'contatoTelefone', example: '(11) 4521-3300', width: 18 },
  Situação: { field: 'situacao', hint: 'Ativo, Inativo ou Impedido (vazio = Ativo).', example: 'Ativo', width: 12 },
  'Motivo do impedimento': { field: 'impedimentoMotivo', hint: 'Obrigatório quando Impedido.', width: 30 },
  'Impedido de': { field: 'impedimentoDe', hint: 'dd/mm/aaaa; obrigatório quando Impedido.', width: 12 },
  'Impedido até': { field: 'impedimentoAte', hint: 'dd/mm/aaaa; obrigatório quando Impedido.', width: 12 },
} as const;

const normal = (v: string) => comprasBusca(v.normalize('NFC').trim());

/**
 * A spreadsheet program turns a CPF/CNPJ typed in a General cell into a number, dropping leading
 * zeros: 9–10 digits are a CPF and 12–13 digits a CNPJ missing them (the check digits still decide).
 */
export function restoreLeadingZeros(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) return value;
  const v = value.trim();
  if (v.length === 9 || v.length === 10) return v.padStart(11, '0');
  if (v.length === 12 || v.length === 13) return v.padStart(14, '0');
  return v;
}

/** CEP typed as a number (7 digits): the leading zero is restored. */
export function restoreCepZero(value: unknown): unknown {
  return typeof value === 'string' && /^\d{7}$/.test(value.trim()) ? value.trim().padStart(8, '0') : value;
}

/** One row of the import file, before the ramos are looked up. */
export const fornecedorImportRowSchema = z
  .object({
    documento: z.preprocess(restoreLeadingZeros, cpfCnpjSchema),
    razaoSocial: fornecedorFields.razaoSocial,
    nomeFantasia: fornecedorFields.nomeFantasia,
    logradouro: fornecedorFields.logradouro,
    numero: fornecedorFields.numero,
    complemento: fornecedorFields.complemento,
    bairro: fornecedorFields.bairro,
    cep: z.preprocess(restoreCepZero, cepSchema),
    municipio: fornecedorFields.municipio,
    uf: fornecedorFields.uf,
    ramos: z
      .string({ error: 'Informe ao menos um ramo de atividade.' })
      .transform((v) =>
        v
          .split(/[;|\n]/)
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .refine((list) => list.length > 0, { error: 'Informe ao menos um ramo de atividade.' }),
    contatoNome: z.string().optional(),
    contatoEmail: z.string().optional(),
    contatoTelefone: z.string().optional(),
    situacao: z
      .string()
      .optional()
      .transform((v, ctx): Situacao => {
        if (v === undefined) return 'ativo';
        const s = SITUACOES.find((x) => x === normal(v));
        if (!s) ctx.addIssue({ code: 'custom', message: 'Use Ativo, Inativo ou Impedido.' });
        return s ?? 'ativo';
      }),
    impedimentoMotivo: fornecedorFields.impedimentoMotivo,
    impedimentoDe: fornecedorFields.impedimentoDe,
    impedimentoAte: fornecedorFields.impedimentoAte,
  })
  .transform((row, ctx) => {
    const { contatoNome, contatoEmail, contatoTelefone, ...rest } = row;
    const contatos: Contato[] = [];
    if (contatoNome || contatoEmail || contatoTelefone) {
      const parsed = contatoSchema.safeParse({ nome: contatoNome ?? '', email: contatoEmail, telefone: contatoTelefone });
      if (parsed.success) contatos.push(parsed.data);
      else {
        const column: Record<string, string> = { nome: 'contatoNome', email: 'contatoEmail', telefone: 'contatoTelefone' };
        for (const issue of parsed.error.issues) {
          ctx.addIssue({ code: 'custom', path: [column[String(issue.path[0])] ?? 'contatoNome'], message: issue.message });
        }
      }
    }
    return { ...rest, contatos };
  })
  .superRefine(checkImpedimento)
  .transform(clearImpedimento);
export type FornecedorImportRow = z.output<typeof fornecedorImportRowSchema>;
