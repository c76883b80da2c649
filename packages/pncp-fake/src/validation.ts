// Field validation of the PCA item as the PNCP integration manual describes it (manual v2.6,
// "Inserir Plano de Contratações" / "Inserir Itens de Plano de Contratação"; see
// docs pca-pncp-reports.md §1.4). Errors use the 400 shape {erros:[{nomeCampo, mensagem}]}.

export interface FieldError {
  nomeCampo: string;
  mensagem: string;
}

/** Decimal fields: decimal(17,4), ≥ 0. */
export const DECIMAL_FIELDS = ['quantidade', 'valorUnitario', 'valorTotal', 'valorOrcamentoExercicio'] as const;

/** Text fields and their maximum lengths. */
const TEXT_FIELDS: Record<string, number> = {
  classificacaoSuperiorCodigo: 100,
  classificacaoSuperiorNome: 255,
  pdmCodigo: 100,
  pdmDescricao: 255,
  codigoItem: 100,
  descricao: 2048,
  unidadeFornecimento: 255,
  unidadeRequisitante: 255,
  grupoContratacaoCodigo: 100,
  grupoContratacaoNome: 255,
};

/** Required on insert (plan insert and items insert; the stricter page wins for unidadeFornecimento). */
const REQUIRED_FIELDS = [
  'numeroItem',
  'categoriaItemPca',
  'catalogo',
  'classificacaoCatalogo',
  'classificacaoSuperiorCodigo',
  'classificacaoSuperiorNome',
  'unidadeFornecimento',
  ...DECIMAL_FIELDS,
  'dataDesejada',
] as const;

/** Domain codes (typed "Inteiro" in the manual, string in the Swagger DTO: both are accepted). */
const CODE_FIELDS: Record<string, readonly number[]> = {
  categoriaItemPca: [1, 2, 3, 4, 5, 6, 7, 8],
  catalogo: [1, 2],
  classificacaoCatalogo: [1, 2],
};

export const CATEGORIAS: Record<number, string> = {
  1: 'Material',
  2: 'Serviço',
  3: 'Obras',
  4: 'Serviços de Engenharia',
  5: 'Soluções de TIC',
  6: 'Locação de Imóveis',
  7: 'Alienação/Concessão/Permissão',
  8: 'Obras e Serviços de Engenharia',
};
export const CATALOGOS: Record<number, string> = { 1: 'CNBS', 2: 'Outros' };
export const CLASSIFICACOES: Record<number, string> = { 1: 'Material', 2: 'Serviço' };

const DECIMAL_TEXT = /^\d{1,13}(\.\d{1,4})?$/;

/** The text of a decimal as received, or undefined when it is not a valid decimal(17,4) ≥ 0. */
export function decimalText(value: unknown): string | undefined {
  if (typeof value === 'string') return DECIMAL_TEXT.test(value) ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) {
    // A JSON number: its shortest round-trip text. Float noise (0.1 + 0.2 = 0.30000000000000004)
    // shows as more than 4 decimal places and is rejected, as a decimal(17,4) column would.
    const text = String(value);
    return DECIMAL_TEXT.test(text) ? text : undefined;
  }
  return undefined;
}

export function codeValue(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,3}$/.test(value)) return Number(value);
  return undefined;
}

function isValidDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates one item. `partial` (rectification): only the fields present are checked, and
 * `numeroItem` is not a field that can change. `prefix` names the item in nomeCampo
 * ('itensPlano[3].').
 */
export function validateItemFields(item: unknown, prefix: string, partial: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const field = (name: string) => `${prefix}${name}`;
  if (!isRecord(item)) return [{ nomeCampo: prefix.replace(/\.$/, ''), mensagem: 'Item deve ser um objeto.' }];
  if (!partial) {
    for (const name of REQUIRED_FIELDS) {
      if (isMissing(item[name])) errors.push({ nomeCampo: field(name), mensagem: 'Campo obrigatório.' });
    }
  }
  const present = (name: string) => !isMissing(item[name]);
  if (!partial && present('numeroItem')) {
    const n = item.numeroItem;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      errors.push({ nomeCampo: field('numeroItem'), mensagem: 'Número do item deve ser um inteiro positivo.' });
    }
  }
  for (const [name, domain] of Object.entries(CODE_FIELDS)) {
    if (!present(name)) continue;
    const code = codeValue(item[name]);
    if (code === undefined || !domain.includes(code)) {
      errors.push({ nomeCampo: field(name), mensagem: `Valor inválido; valores aceitos: ${domain.join(', ')}.` });
    }
  }
  for (const [name, max] of Object.entries(TEXT_FIELDS)) {
    const value = item[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') errors.push({ nomeCampo: field(name), mensagem: 'Campo deve ser um texto.' });
    else if (value.length > max) errors.push({ nomeCampo: field(name), mensagem: `Tamanho máximo de ${max} caracteres.` });
  }
  for (const name of DECIMAL_FIELDS) {
    if (!present(name)) continue;
    if (decimalText(item[name]) === undefined) {
      errors.push({
        nomeCampo: field(name),
        mensagem: 'Valor deve ser um número maior ou igual a zero com no máximo 13 dígitos inteiros e 4 casas decimais.',
      });
    }
  }
  if (present('dataDesejada') && !isValidDate(item.dataDesejada)) {
    errors.push({ nomeCampo: field('dataDesejada'), mensagem: 'Data inválida; use o formato AAAA-MM-DD.' });
  }
  if (item.renovacaoContrato !== undefined && item.renovacaoContrato !== null && typeof item.renovacaoContrato !== 'boolean') {
    errors.push({ nomeCampo: field('renovacaoContrato'), mensagem: 'Campo deve ser verdadeiro ou falso.' });
  }
  return errors;
}

/** justificativa: required, 1 to 255 characters. */
export function validateJustificativa(value: unknown): FieldError[] {
  if (typeof value !== 'string' || value.trim() === '') {
    return [{ nomeCampo: 'justificativa', mensagem: 'Justificativa é obrigatória.' }];
  }
  if (value.length > 255) return [{ nomeCampo: 'justificativa', mensagem: 'Tamanho máximo de 255 caracteres.' }];
  return [];
}

/** Sum of decimal texts, exact (scaled by 10^4), as a decimal text. */
export function sumDecimals(values: string[]): string {
  let total = 0n;
  for (const v of values) {
    const [int, frac = ''] = v.split('.');
    total += BigInt(int ?? '0') * 10000n + BigInt(frac.padEnd(4, '0'));
  }
  const int = total / 10000n;
  const frac = (total % 10000n).toString().padStart(4, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
}
