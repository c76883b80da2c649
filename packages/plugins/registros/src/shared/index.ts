// @app/registros, isomorphic half: the zod schemas (same pt-BR messages in the form and in the API),
// the list/export columns and the API paths of every registry.
import { z } from 'zod';

/** Permission tag of the registries (spec §6: 'Cadastros'). */
export const REGISTROS_TAG = 24;

/** A column of the list and of the CSV/XLSX export (both kits accept this shape). */
export interface RegistroColumn {
  key: string;
  header: string;
  value?: (row: Record<string, unknown>) => string | number | boolean | null;
}

// ------------------------------------------------------------------------------- field helpers

/** Required text, trimmed. */
const text = (message: string, max = 120) => z.string({ error: message }).trim().min(1, message).max(max, `Use no máximo ${max} caracteres.`);

/** Optional text: '' / null / undefined → null. */
const optionalText = (max = 255) =>
  z
    .string()
    .trim()
    .max(max, `Use no máximo ${max} caracteres.`)
    .nullish()
    .transform((v) => (v ? v : null));

/** Required id of another registry (a <select>). */
const requiredId = (message: string) => z.string({ error: message }).min(1, message);

/** Optional id of another registry: '' → null. */
const optionalId = () =>
  z
    .string()
    .nullish()
    .transform((v) => (v ? v : null));

export const TIPOS_CATALOGO = [
  { value: 'material', label: 'Material (CATMAT)' },
  { value: 'servico', label: 'Serviço (CATSER)' },
] as const;

/**
 * Mapping to the federal catalogue: for a material the CATMAT Classe, for a service the CATSER Grupo
 * (what the PNCP calls `classificacaoSuperiorCodigo`/`Nome`). All three or none.
 */
const catalogoFields = {
  catalogoTipo: z
    .enum(['material', 'servico'], { error: 'Escolha Material ou Serviço.' })
    .or(z.literal(''))
    .nullish()
    .transform((v) => (v ? v : null)),
  catalogoCodigo: z
    .string()
    .trim()
    .max(20, 'Use no máximo 20 caracteres.')
    .regex(/^[0-9.]*$/, 'Use apenas números (e pontos).')
    .nullish()
    .transform((v) => (v ? v : null)),
  catalogoNome: optionalText(200),
};

function refineCatalogo(value: { catalogoTipo: string | null; catalogoCodigo: string | null; catalogoNome: string | null }, ctx: z.RefinementCtx) {
  const filled = [value.catalogoTipo, value.catalogoCodigo, value.catalogoNome].filter(Boolean).length;
  if (filled === 0 || filled === 3) return;
  if (!value.catalogoTipo) ctx.addIssue({ code: 'custom', path: ['catalogoTipo'], message: 'Escolha Material ou Serviço.' });
  if (!value.catalogoCodigo) ctx.addIssue({ code: 'custom', path: ['catalogoCodigo'], message: 'Informe o código da classe/grupo.' });
  if (!value.catalogoNome) ctx.addIssue({ code: 'custom', path: ['catalogoNome'], message: 'Informe o nome da classe/grupo.' });
}

const catalogoLabel = (row: Record<string, unknown>) =>
  row.catalogoCodigo ? `${row.catalogoTipo === 'servico' ? 'CATSER' : 'CATMAT'} ${row.catalogoCodigo} – ${row.catalogoNome ?? ''}` : '';

// ------------------------------------------------------------------------------- registries

export const grupoSchema = z
  .object({
    codigo: text('Informe o código.', 20),
    nome: text('Informe o nome do grupo.'),
    ...catalogoFields,
  })
  .superRefine(refineCatalogo);
export const grupoColumns: RegistroColumn[] = [
  { key: 'codigo', header: 'Código' },
  { key: 'nome', header: 'Nome' },
  { key: 'catalogoCodigo', header: 'Classe/Grupo no catálogo', value: catalogoLabel },
];

export const subgrupoSchema = z
  .object({
    grupoId: requiredId('Selecione o grupo.'),
    codigo: text('Informe o código.', 20),
    nome: text('Informe o nome do sub-grupo.'),
    ...catalogoFields,
  })
  .superRefine(refineCatalogo);
export const subgrupoColumns: RegistroColumn[] = [
  { key: 'grupoNome', header: 'Grupo' },
  { key: 'codigo', header: 'Código' },
  { key: 'nome', header: 'Nome' },
  { key: 'catalogoCodigo', header: 'Classe/Grupo no catálogo', value: catalogoLabel },
];

export const unidadeSchema = z.object({
  sigla: z
    .string({ error: 'Informe a sigla.' })
    .trim()
    .min(1, 'Informe a sigla.')
    .max(10, 'Use no máximo 10 caracteres.')
    .regex(/^[A-Za-z0-9²³/.-]+$/, 'Use letras e números, sem espaços.')
    .transform((v) => v.toUpperCase()),
  descricao: text('Informe a descrição.', 60),
  fracionavel: z.boolean().default(false),
});
export const unidadeColumns: RegistroColumn[] = [
  { key: 'sigla', header: 'Sigla' },
  { key: 'descricao', header: 'Descrição' },
  { key: 'fracionavel', header: 'Fracionável' },
];

export const tipoMaterialSchema = z.object({
  nome: text('Informe o nome.', 80),
  descricao: optionalText(500),
});
export const tipoMaterialColumns: RegistroColumn[] = [
  { key: 'nome', header: 'Nome' },
  { key: 'descricao', header: 'Descrição' },
];

export const centroCustoSchema = z.object({
  codigo: text('Informe o código.', 20),
  nome: text('Informe o nome do centro de custo.', 150),
  parentId: optionalId(),
  responsavelNome: optionalText(120),
});
export const centroCustoColumns: RegistroColumn[] = [
  { key: 'codigo', header: 'Código' },
  { key: 'nome', header: 'Nome' },
  { key: 'parentNome', header: 'Centro de custo superior' },
  { key: 'responsavelNome', header: 'Responsável' },
];

export const nucleoConsumoSchema = z.object({
  nome: text('Informe o nome do núcleo.', 120),
  descricao: optionalText(500),
  centroIds: z.array(z.string()).default([]),
});
export const nucleoConsumoColumns: RegistroColumn[] = [
  { key: 'nome', header: 'Nome' },
  { key: 'centrosNomes', header: 'Centros de custo' },
];

/** CNAE subclass: 7 digits, shown 0000-0/00. */
export const cnaeSchema = z
  .string()
  .nullish()
  .transform((v) => (v ?? '').replace(/\D/g, ''))
  .refine((v) => v === '' || v.length === 7, 'O código CNAE tem 7 dígitos (0000-0/00).')
  .transform((v) => (v ? v : null));
export const formatCnae = (v: unknown) => {
  const d = String(v ?? '').replace(/\D/g, '');
  return d.length === 7 ? `${d.slice(0, 4)}-${d.slice(4, 5)}/${d.slice(5)}` : d;
};

export const ramoAtividadeSchema = z.object({
  nome: text('Informe o nome do ramo de atividade.', 150),
  cnae: cnaeSchema,
});
export const ramoAtividadeColumns: RegistroColumn[] = [
  { key: 'nome', header: 'Nome' },
  { key: 'cnae', header: 'CNAE', value: (row) => formatCnae(row.cnae) },
];

export const tipoSolicitacaoSchema = z.object({
  nome: text('Informe o nome.', 100),
  descricao: optionalText(500),
  prazoDias: z
    .number({ error: 'Informe um número de dias.' })
    .int('Informe um número inteiro de dias.')
    .min(0, 'O prazo não pode ser negativo.')
    .max(3650, 'Use no máximo 3650 dias.')
    .nullish()
    .transform((v) => v ?? null),
});
export const tipoSolicitacaoColumns: RegistroColumn[] = [
  { key: 'nome', header: 'Nome' },
  { key: 'prazoDias', header: 'Prazo de atendimento (dias)' },
];

export const cargoSchema = z.object({
  nome: text('Informe o nome do cargo.', 100),
  descricao: optionalText(500),
});
export const cargoColumns: RegistroColumn[] = [
  { key: 'nome', header: 'Nome' },
  { key: 'descricao', header: 'Descrição' },
];

/** API paths under /api/registros (web endpoints are '/registros' + path). */
export const REGISTROS_PATHS = {
  grupos: '/grupos',
  subgrupos: '/subgrupos',
  unidades: '/unidades',
  tiposMaterial: '/tipos-material',
  centrosCusto: '/centros-custo',
  nucleosConsumo: '/nucleos-consumo',
  ramosAtividade: '/ramos-atividade',
  tiposSolicitacao: '/tipos-solicitacao',
  cargos: '/cargos',
} as const;
