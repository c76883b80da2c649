import type { FakePncp } from '../src';

export const CNPJ = '46358021000184';
export const LOGIN = { login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' };

/** A valid PCA item as the product's client sends it (decimals as strings). */
export function item(numeroItem: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    numeroItem,
    categoriaItemPca: '1',
    catalogo: '1',
    classificacaoCatalogo: '1',
    classificacaoSuperiorCodigo: '7510',
    classificacaoSuperiorNome: 'Artigos de expediente',
    codigoItem: '150012',
    descricao: `Papel A4, resma com 500 folhas (item ${numeroItem})`,
    unidadeFornecimento: 'Resma',
    quantidade: '3',
    valorUnitario: '25.3333',
    valorTotal: '75.9999',
    valorOrcamentoExercicio: '75.9999',
    dataDesejada: '2027-03-15',
    unidadeRequisitante: 'Secretaria de Educação',
    ...overrides,
  };
}

export const items = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => item(from + i));

export async function login(fake: FakePncp, credentials: { login: string; senha: string } = LOGIN): Promise<string> {
  const res = await fetch(`${fake.url}/api/pncp/v1/usuarios/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return res.headers.get('authorization') as string;
}

/** A JSON call to the integration API (`path` after /api/pncp). */
export function call(fake: FakePncp, method: string, path: string, authorization?: string, body?: unknown, init: RequestInit = {}) {
  return fetch(`${fake.url}/api/pncp${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...init,
  });
}

export function createPlan(fake: FakePncp, authorization: string, itensPlano: unknown[], extra: Record<string, unknown> = {}, init: RequestInit = {}) {
  return call(fake, 'POST', `/v1/orgaos/${CNPJ}/pca`, authorization, { codigoUnidade: '1', anoPca: 2027, itensPlano, ...extra }, init);
}
