// @app/auditoria/shared: filters, answers and the field-level diff of an audit row.
import { comprasBusca, dateSchema } from '@app/br';
import { z } from 'zod';

/** 'Logs de Auditoria' (tag 90). */
export const AUDITORIA_TAG = 90;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** A day of the filters (@app/br's date schema: dd/mm/aaaa or aaaa-mm-dd), blank = no filter. */
const data = (campo: string) =>
  dateSchema(campo)
    .optional()
    .or(z.literal('').transform(() => undefined));

const texto = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use no máximo ${max} caracteres.`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** Fewest characters of the free-text search (what a trigram index can look up). */
export const BUSCA_MIN = 3;
/** Most matching audit rows the free-text search looks at (newest first); their records' rows all show. */
export const BUSCA_MAX_ROWS = 1000;

const filterFields = {
  de: data('Data inicial'),
  ate: data('Data final'),
  /** A user id, or part of a login / name. */
  usuario: texto(200),
  /** A plugin id ('produtos', 'core'), or part of its name ('Produtos', 'Sistema'). */
  plugin: texto(100),
  registro: texto(200),
  /** An action code ('alterar'), or its name ('Alteração'). */
  acao: texto(100),
  /**
   * Text of a record as the table shows it (a product's código or descrição, a name, a document's
   * 12/2026): the records whose audited name (código, descrição, nome… in `depois`) contains it,
   * accent- and case-insensitively, with every row of those records.
   */
  busca: texto(200).refine((v) => v === undefined || v.length >= BUSCA_MIN, `Pesquisa: digite ao menos ${BUSCA_MIN} caracteres.`),
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

export const FILTER_KEYS = ['de', 'ate', 'usuario', 'plugin', 'registro', 'acao', 'busca'] as const;
/** The filters given (empty ones left out). */
export type LogFilters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

/** `rotulo`: the field's label from its plugin's vocabulary (server-core's VOCABULARIO_AUDITORIA), when it has one. */
const fieldChangeShape = { campo: z.string(), rotulo: z.string().optional(), antes: z.unknown(), depois: z.unknown() };

/** A changed field as server-core's auditChanges gives it (ids of other records named). */
export const fieldChangeSchema = z.object({
  ...fieldChangeShape,
  itens: z
    .object({
      adicionados: z.array(z.string()),
      removidos: z.array(z.string()),
      alterados: z.array(z.object({ item: z.string(), mudancas: z.array(z.object(fieldChangeShape)) })),
    })
    .optional(),
});

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
  /** The record's name (code and description, name, number/year), from its own audit trail; null when unknown. */
  registroNome: z.string().nullable(),
  /** Reason of a transition (`depois.motivo`). */
  motivo: z.string().nullable(),
  /** Document this one was duplicated from. */
  duplicadoDe: z.string().nullable(),
  /** Field-level changes, ids of other records replaced by their names. */
  mudancas: z.array(fieldChangeSchema),
});

export const logPageSchema = z.object({
  items: z.array(logItemSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
  /** The free-text search matched more rows than it looks at (BUSCA_MAX_ROWS, newest kept). */
  buscaLimitada: z.boolean().optional(),
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
 * @deprecated The list answers each row's `mudancas` (server-core's auditChanges, ids named) and the
 * page renders them with @app/core's AuditChangeList; kept for callers of this export.
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

/**
 * Readable names of the usual actions (the CSV's 'Ação'): the same as @app/core's AUDIT_ACTION_LABELS,
 * which the page and the document timelines use (a test holds them equal).
 */
export const ACOES: Readonly<Record<string, string>> = {
  criar: 'Criação',
  alterar: 'Alteração',
  excluir: 'Exclusão',
  ativar: 'Ativação',
  desativar: 'Desativação',
  duplicar: 'Duplicação',
  entrar: 'Entrada no sistema',
  entrar_falhou: 'Entrada sem sucesso',
  sair: 'Saída do sistema',
  trocar_entidade: 'Troca de entidade',
  acesso_negado: 'Acesso negado',
  remover_da_entidade: 'Remoção da entidade',
  exportar_csv: 'Exportação CSV',
  devtools_aberto: 'Ferramentas do desenvolvedor abertas',
  devtools_fechado: 'Ferramentas do desenvolvedor fechadas',
  importar: 'Importação',
  importar_arquivo: 'Importação de arquivo',
  dados_demonstracao: 'Dados de demonstração',
};

/**
 * Codes of old rows read as the code of today (rows are append-only and hash-chained: they keep the
 * code they were written with). The same as @app/core's LEGACY_AUDIT_ACTIONS (a test holds them equal).
 */
export const ACOES_LEGADAS: Readonly<Record<string, string>> = { reativar: 'ativar' };

const atual = (acao: string) => (Object.hasOwn(ACOES_LEGADAS, acao) ? ACOES_LEGADAS[acao]! : acao);

export const acaoNome = (acao: string): string => (Object.hasOwn(ACOES, atual(acao)) ? ACOES[atual(acao)]! : acao);

/** The codes plus the legacy codes that mean them ('ativar' → ativar, reativar). */
const comLegadas = (codigos: string[]): string[] => [
  ...codigos,
  ...Object.keys(ACOES_LEGADAS).filter((l) => codigos.includes(ACOES_LEGADAS[l]!) && !codigos.includes(l)),
];

/** Other names users give the actions (the filter accepts them too). */
const SINONIMOS: Readonly<Record<string, readonly string[]>> = {
  criar: ['Inclusão', 'Cadastro'],
  alterar: ['Edição'],
  excluir: ['Remoção'],
};

/** Lower case without accents: 'Alteração' → 'alteracao' (as compras_busca does in the database). */
export function normalizar(text: string): string {
  return comprasBusca(text.normalize('NFC')).trim();
}

/**
 * The action codes a filter text means: a code as is ('alterar'); a name ('Alteração', 'alteracao',
 * 'Inclusão') → the codes with that name; otherwise the codes whose name contains it ('entrada' →
 * entrar, entrar_falhou). Text that names nothing is taken as a code (a plugin's own action).
 */
export function acoesDoFiltro(text: string): string[] {
  const t = normalizar(text);
  if (!t) return [];
  if (Object.hasOwn(ACOES, text.trim())) return comLegadas([text.trim()]);
  const names = Object.keys(ACOES).map((codigo) => ({ codigo, nomes: [ACOES[codigo]!, ...(SINONIMOS[codigo] ?? [])].map(normalizar) }));
  const exact = names.filter((n) => n.nomes.includes(t)).map((n) => n.codigo);
  if (exact.length) return comLegadas(exact);
  const partial = names.filter((n) => n.nomes.some((nome) => nome.includes(t))).map((n) => n.codigo);
  return partial.length ? comLegadas(partial) : [text.trim()];
}

/** Name of core's own rows (sign-in, perfis, usuários of the entidade) in the plugin filter and column. */
export const PLUGIN_CORE_NOME = 'Sistema';

/**
 * The plugin ids a filter text means: an id as is ('produtos'); otherwise the plugins whose id or
 * permission name contains it ('Produtos' → produtos, named 'Produtos e Serviços'; 'Sistema' → core).
 * Text that names no installed plugin is taken as an id, in lower case (rows of a plugin removed since).
 */
export function pluginsDoFiltro(text: string, plugins: readonly { id: string; tags: readonly { nome: string }[] }[]): string[] {
  const raw = text.trim();
  const t = normalizar(raw);
  if (!t) return [];
  const all = [{ id: 'core', tags: [{ nome: PLUGIN_CORE_NOME }] }, ...plugins];
  const byId = all.find((p) => p.id.toLowerCase() === raw.toLowerCase());
  if (byId) return [byId.id];
  const found = all.filter((p) => normalizar(p.id).includes(t) || p.tags.some((tag) => normalizar(tag.nome).includes(t))).map((p) => p.id);
  // plugin ids are lower case (defineServerPlugin): 'Memorandos' of a plugin removed since is 'memorandos'
  return found.length ? [...new Set(found)] : [raw.toLowerCase()];
}
