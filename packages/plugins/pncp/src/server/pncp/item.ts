// A PCA item as the PNCP receives it (manual "Inserir Plano de Contratações" / "Inserir Itens", §1.4 of the research):
// exact decimals and coded values travel as JSON strings exactly as given ("12.3400", "1"); nothing is parsed to a number.
import { createHash } from 'node:crypto';
import { z } from 'zod';

const decimal = z.string().regex(/^\d{1,13}(\.\d{1,4})?$/, 'deve ser um decimal não negativo com até 4 casas, com ponto (ex.: "12.3400")');
const codigo = z.string().regex(/^\d{1,9}$/, 'deve ser um código numérico (ex.: "1")');
const texto = (max: number) => z.string().trim().min(1, 'é obrigatório').max(max, `deve ter até ${max} caracteres`);
const opcional = (max: number) => z.string().max(max, `deve ter até ${max} caracteres`).nullish();

/** The insert fields of one PCA item plus its `numeroItem` (1..N, stable, never renumbered once sent). */
export const itemPcaSchema = z.object({
  numeroItem: z.number().int().min(1, 'deve ser um inteiro ≥ 1'),
  categoriaItemPca: codigo,
  catalogo: codigo,
  classificacaoCatalogo: codigo,
  classificacaoSuperiorCodigo: texto(100),
  classificacaoSuperiorNome: texto(255),
  pdmCodigo: opcional(100),
  pdmDescricao: opcional(255),
  codigoItem: opcional(100),
  descricao: opcional(2048),
  unidadeFornecimento: texto(255),
  quantidade: decimal,
  valorUnitario: decimal,
  valorTotal: decimal,
  valorOrcamentoExercicio: decimal,
  dataDesejada: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'deve ser uma data AAAA-MM-DD'),
  unidadeRequisitante: opcional(255),
  grupoContratacaoCodigo: opcional(100),
  grupoContratacaoNome: opcional(255),
});

export type ItemPca = z.infer<typeof itemPcaSchema>;

/** The fields sent for an item, in the manual's order (`numeroItem` first). */
export const CAMPOS_ITEM = [
  'numeroItem',
  'categoriaItemPca',
  'catalogo',
  'classificacaoCatalogo',
  'classificacaoSuperiorCodigo',
  'classificacaoSuperiorNome',
  'pdmCodigo',
  'pdmDescricao',
  'codigoItem',
  'descricao',
  'unidadeFornecimento',
  'quantidade',
  'valorUnitario',
  'valorTotal',
  'valorOrcamentoExercicio',
  'dataDesejada',
  'unidadeRequisitante',
  'grupoContratacaoCodigo',
  'grupoContratacaoNome',
] as const satisfies readonly (keyof ItemPca)[];

/** The JSON object sent to the PNCP for an item: the known fields only, absent/null optional fields left out. */
export function corpoItem(item: ItemPca): Record<string, string | number> {
  const corpo: Record<string, string | number> = {};
  for (const campo of CAMPOS_ITEM) {
    const valor = item[campo];
    if (valor === undefined || valor === null) continue;
    corpo[campo] = valor;
  }
  return corpo;
}

/**
 * Stable hash of what is sent for an item (all sent fields but `numeroItem`, keys in a fixed order, values as given).
 * Stored per item after a successful send; a different fingerprint later means the item needs a rectification.
 */
export function fingerprint(item: ItemPca): string {
  const corpo = corpoItem(item);
  const pares = CAMPOS_ITEM.filter((c) => c !== 'numeroItem' && corpo[c] !== undefined).map((c) => [c, corpo[c]]);
  return `v1:${createHash('sha256').update(JSON.stringify(pares)).digest('hex').slice(0, 40)}`;
}

/** Normalises a decimal as the PNCP may echo it ("12.3400", "12.34", 12.34 → "12.34"), as text, without floats. */
function normalizarDecimal(valor: unknown): string | undefined {
  if (typeof valor !== 'string' && typeof valor !== 'number') return undefined;
  const s = String(valor).trim();
  const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return s;
  const inteiro = m[1]!.replace(/^0+(?=\d)/, '');
  const fracao = (m[2] ?? '').replace(/0+$/, '');
  return fracao ? `${inteiro}.${fracao}` : inteiro;
}

const DECIMAIS = new Set<string>(['quantidade', 'valorUnitario', 'valorTotal', 'valorOrcamentoExercicio']);
/** Names the PNCP uses when it reads an item back, for the fields whose name changes. */
const APELIDOS: Record<string, readonly string[]> = {
  categoriaItemPca: ['categoriaItemPca', 'categoriaItemPcaId'],
  catalogo: ['catalogo', 'catalogoId'],
  classificacaoCatalogo: ['classificacaoCatalogo', 'classificacaoCatalogoId'],
  descricao: ['descricao', 'descricaoItem'],
  quantidade: ['quantidade', 'quantidadeEstimada'],
};

/**
 * Whether an item read back from the PNCP holds the same values as the local item, comparing only the fields the
 * answer carries (decimals compared as normalised text; dates by their first 10 characters).
 */
export function itemPncpIgual(local: ItemPca, lido: Record<string, unknown>): boolean {
  const corpo = corpoItem(local);
  for (const campo of CAMPOS_ITEM) {
    if (campo === 'numeroItem') continue;
    const nomes = APELIDOS[campo] ?? [campo];
    const nome = nomes.find((n) => lido[n] !== undefined);
    if (nome === undefined) continue;
    const remoto = lido[nome];
    const meu = corpo[campo];
    if (remoto === null || remoto === '') {
      if (meu !== undefined && meu !== '') return false;
      continue;
    }
    if (meu === undefined) return false;
    if (DECIMAIS.has(campo)) {
      if (normalizarDecimal(remoto) !== normalizarDecimal(meu)) return false;
    } else if (campo === 'dataDesejada') {
      if (String(remoto).slice(0, 10) !== String(meu)) return false;
    } else if (String(remoto).trim() !== String(meu).trim()) {
      return false;
    }
  }
  return true;
}
