// @app/auditoria/shared: filters, answers and the field-level diff of an audit row.
import { isCalendarDate, TIME_ZONE } from '@app/br';
import { z } from 'zod';

/** 'Logs de Auditoria' (tag 90). */
export const AUDITORIA_TAG = 90;
/** The application's time zone (days of the filters, dates shown). */
export { TIME_ZONE };
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

const data = (campo: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${campo}: use o formato aaaa-mm-dd.`)
    .refine(isCalendarDate, `${campo}: data inexistente.`)
    .optional()
    .or(z.literal('').transform(() => undefined));

const texto = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use no máximo ${max} caracteres.`)
    .optional()
    .transform((v) => (v ? v : undefined));

const filterFields = {
  de: data('Data inicial'),
  ate: data('Data final'),
  /** A user id, or part of a login / name. */
  usuario: texto(200),
  plugin: texto(100),
  registro: texto(200),
  acao: texto(100),
};

const periodoValido = (f: { de?: string | undefined; ate?: string | undefined }) => !f.de || !f.ate || f.de <= f.ate;
const periodoMensagem = { message: 'A data inicial deve ser anterior ou igual à final.', path: ['ate'] };

/** Filters of the list and of the CSV: de/ate are calendar days in America/Sao_Paulo (inclusive). */
export const logFiltersSchema = z.object(filterFields).refine(periodoValido, periodoMensagem);

export const logQuerySchema = z
  .object({
    ...filterFields,
    /** Id of the last row already shown: the page continues after it (keyset, newest first). */
    cursor: z
      .string()
      .regex(/^\d{1,18}$/, 'Cursor inválido.')
      .optional(),
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  })
  .refine(periodoValido, periodoMensagem);

export const FILTER_KEYS = ['de', 'ate', 'usuario', 'plugin', 'registro', 'acao'] as const;
/** The filters given (empty ones left out). */
export type LogFilters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

export const logItemSchema = z.object({
  id: z.number().int(),
  /** ISO 8601 (UTC). */
  at: z.string(),
  usuarioId: z.string().nullable(),
  usuarioNome: z.string().nullable(),
  usuarioLogin: z.string().nullable(),
  plugin: z.string(),
  registro: z.string().nullable(),
  acao: z.string(),
  antes: z.unknown().nullable(),
  depois: z.unknown().nullable(),
  ip: z.string().nullable(),
});

export const logPageSchema = z.object({
  items: z.array(logItemSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});

export const verificacaoSchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  brokenAt: z.number().int().nullable(),
  reason: z.enum(['hash_mismatch', 'broken_link', 'checkpoint_mismatch', 'rows_missing', 'checkpoint_invalid']).nullable(),
  verificadoEm: z.string(),
  mensagem: z.string(),
  /** What anchors the trail outside the database (signed checkpoints), or that nothing does. */
  ancora: z.string().optional(),
});

export type LogItem = z.infer<typeof logItemSchema>;
export type LogPage = z.infer<typeof logPageSchema>;
export type Verificacao = z.infer<typeof verificacaoSchema>;

export interface FieldChange {
  campo: string;
  antes: string;
  depois: string;
}

/** A value as shown in a diff: '—' for none, strings as they are, anything else as JSON. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Field-level 'antes → depois' of an audit row: one line per key of either object (a change stores only
 * the changed fields); non-object values become one line named '(valor)'.
 */
export function diffFields(antes: unknown, depois: unknown): FieldChange[] {
  if (antes == null && depois == null) return [];
  if ((antes == null || isObject(antes)) && (depois == null || isObject(depois))) {
    const a = (antes ?? {}) as Record<string, unknown>;
    const d = (depois ?? {}) as Record<string, unknown>;
    return [...new Set([...Object.keys(a), ...Object.keys(d)])].map((campo) => ({
      campo,
      antes: showValue(a[campo]),
      depois: showValue(d[campo]),
    }));
  }
  return [{ campo: '(valor)', antes: showValue(antes), depois: showValue(depois) }];
}

/** Readable names of the usual actions. */
export const ACOES: Readonly<Record<string, string>> = {
  criar: 'Inclusão',
  alterar: 'Alteração',
  excluir: 'Exclusão',
  entrar: 'Entrada no sistema',
  entrar_falhou: 'Entrada sem sucesso',
  sair: 'Saída do sistema',
  trocar_entidade: 'Troca de entidade',
  acesso_negado: 'Acesso negado',
  desativar: 'Desativação',
  reativar: 'Reativação',
  remover_da_entidade: 'Remoção da entidade',
  exportar_csv: 'Exportação CSV',
  devtools_aberto: 'Ferramentas do desenvolvedor abertas',
  devtools_fechado: 'Ferramentas do desenvolvedor fechadas',
  importar: 'Importação',
  importar_arquivo: 'Importação de arquivo',
  dados_demonstracao: 'Dados de demonstração',
};

export const acaoNome = (acao: string): string => ACOES[acao] ?? acao;
