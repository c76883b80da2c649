// An in-process fake of the PNCP API (integration API under /api/pncp, a consultation route under
// /api/consulta) for tests: in-memory state, a fake clock for token expiry, queued faults.
// Shapes follow the PNCP integration manual v2.6 and the research in docs pca-pncp-reports.md
// §1 and §7. Where the manual is silent, the fake's choice is marked UNCONFIRMED.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpBindings, serve } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import type { FakeCall, FakeContratacao, FakeFault, FakePlanItem, FakePncp, FakePncpOptions, FakeRoute } from './types';
import {
  CATALOGOS,
  CATEGORIAS,
  CLASSIFICACOES,
  codeValue,
  DECIMAL_FIELDS,
  decimalText,
  type FieldError,
  isRecord,
  sumDecimals,
  validateItemFields,
  validateJustificativa,
} from './validation';

const DEFAULT_USERS = [{ login: 'compras-treina', senha: 'Senha-Forte-Treina-2026' }];
/** The demo Prefeitura of packages/server-core/src/platform/seed.ts (463580210001 + check digits). */
const DEFAULT_ORGAOS = [{ cnpj: '46358021000184', unidades: ['1'], nome: 'Prefeitura Municipal de Exemplo', municipio: 'Jundiaí', uf: 'SP' }];
const MAX_ITEMS = 1000;

interface PlanState {
  cnpj: string;
  codigoUnidade: string;
  anoPca: number;
  sequencial: number;
  excluido: boolean;
  justificativaExclusao?: string;
  usuario: string;
  dataInclusao: number;
  dataAtualizacao: number;
  itens: Map<number, ItemState>;
}

interface ItemState extends FakePlanItem {
  dataInclusao: number;
  dataAtualizacao: number;
}

interface QueuedFault {
  fault: FakeFault;
  seen: number;
  remaining: number;
}

type Env = { Bindings: HttpBindings };
type Ctx = Context<Env>;

/**
 * A decimal written into the JSON as a number literal with its exact text (as the PNCP's Java
 * BigDecimal serialisation does): `{"valorUnitario":10.5000}`.
 */
class RawNumber {
  readonly text: string;
  constructor(decimal: string) {
    // A JSON number literal has no leading zeros: '007.50' is written 7.50.
    const [int = '0', frac] = decimal.split('.');
    this.text = frac === undefined ? String(BigInt(int)) : `${BigInt(int)}.${frac}`;
  }
  toJSON(): string {
    return `\u0000RAW:${this.text}\u0000`;
  }
}
const raw = (text: string | undefined): RawNumber | null => (text === undefined ? null : new RawNumber(text));

function jsonBody(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000RAW:([0-9.]+)\\u0000"/g, '$1');
}

function json(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(jsonBody(value), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers } });
}

const erros = (list: FieldError[], status: 400 | 404 | 422): Response => json({ erros: list }, status);

/** PNCP date-time as it reads back ('2026-12-05T12:00:00', no zone). */
const dateTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

/** Which fault route a call is. */
function classify(method: string, path: string): FakeRoute | undefined {
  if (method === 'GET') return 'GET';
  if (method === 'POST' && path.endsWith('/v1/usuarios/login')) return 'login';
  if (method === 'POST' && /\/orgaos\/[^/]+\/pca\/?$/.test(path)) return 'POST /pca';
  if (method === 'POST' && /\/pca\/\d+\/\d+\/itens\/?$/.test(path)) return 'POST /itens';
  if (method === 'PATCH' && /\/pca\/\d+\/\d+\/itens(\/|$)/.test(path)) return 'PATCH /itens';
  if (method === 'DELETE' && /\/pca\/\d+\/\d+\/itens(\/|$)/.test(path)) return 'DELETE /itens';
  if (method === 'DELETE' && /\/pca\/\d+\/\d+\/?$/.test(path)) return 'DELETE /pca';
  return undefined;
}

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

function normalizeText(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function positiveInt(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
}

async function readJson(c: Ctx): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const body = await c.req.text();
  if (body.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false, response: erros([{ nomeCampo: 'corpo', mensagem: 'Corpo da requisição não é um JSON válido.' }], 400) };
  }
}

export async function startFakePncp(options: FakePncpOptions = {}): Promise<FakePncp> {
  const users = options.users ?? DEFAULT_USERS;
  const orgaos = new Map((options.orgaos ?? DEFAULT_ORGAOS).map((o) => [o.cnpj, o]));
  const tokenTtlMs = options.tokenTtlMs ?? 3_600_000;
  const start = Date.now();
  const base = options.now ?? (() => start);
  let offset = 0;
  const clock = {
    now: () => base() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };

  const tokens = new Map<string, { login: string; expiresAt: number }>();
  const issuedTokens: string[] = [];
  const plans: PlanState[] = [];
  const sequences = new Map<string, number>();
  let faults: QueuedFault[] = [];
  const calls: FakeCall[] = [];
  const contratacoes: FakeContratacao[] = [];
  const pendingDelays = new Set<() => void>();
  let baseUrl = '';

  const session = (header: string | undefined) => {
    const token = bearer(header);
    if (token === undefined) return undefined;
    const entry = tokens.get(token);
    if (!entry) return undefined;
    if (clock.now() >= entry.expiresAt) {
      tokens.delete(token);
      return undefined;
    }
    return { token, login: entry.login };
  };
  const unauthorized = () => text('Token de acesso ausente, inválido ou expirado.', 401);

  const findPlan = (cnpj: string, ano: string, seq: string) =>
    plans.find((p) => p.cnpj === cnpj && String(p.anoPca) === ano && String(p.sequencial) === seq && !p.excluido);
  const planNotFound = () => erros([{ nomeCampo: 'sequencial', mensagem: 'Plano de contratação não encontrado.' }], 404);
  const itemNotFound = (n: number | string) => erros([{ nomeCampo: 'numeroItem', mensagem: `Item ${n} não encontrado no plano de contratação.` }], 404);
  const planUrl = (p: PlanState) => `${baseUrl}/api/pncp/v1/orgaos/${p.cnpj}/pca/${p.anoPca}/${p.sequencial}`;

  /**
   * Validates a batch of items for insertion into `plan` (undefined for a new plan). `field` is
   * the array's name in nomeCampo: 'itensPlano' (POST /pca) or 'itens' (POST …/itens, whose body
   * is a bare array; UNCONFIRMED name).
   */
  function validateBatch(items: unknown, field: string, plan: PlanState | undefined): FieldError[] {
    if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ITEMS) {
      return [{ nomeCampo: field, mensagem: `Informe de 1 a ${MAX_ITEMS} itens.` }];
    }
    const errors: FieldError[] = [];
    const used = new Set(plan ? plan.itens.keys() : []);
    let last = Math.max(0, ...used);
    items.forEach((item, i) => {
      const prefix = `${field}[${i}].`;
      errors.push(...validateItemFields(item, prefix, false));
      const n = isRecord(item) ? item.numeroItem : undefined;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return;
      if (used.has(n)) {
        errors.push({ nomeCampo: `${prefix}numeroItem`, mensagem: `Número do item ${n} já utilizado no plano.` });
      } else if (n <= last) {
        errors.push({
          nomeCampo: `${prefix}numeroItem`,
          mensagem: `Número do item deve ser único e sequencial crescente: ${n} não é maior que ${last}.`,
        });
      }
      used.add(n);
      last = Math.max(last, n);
    });
    return errors;
  }

  function newItem(body: Record<string, unknown>, at: number): ItemState {
    return {
      numeroItem: body.numeroItem as number,
      excluido: false,
      body,
      retificacoes: [],
      decimalsSentAsNumbers: DECIMAL_FIELDS.filter((f) => typeof body[f] === 'number'),
      dataInclusao: at,
      dataAtualizacao: at,
    };
  }

  function readBack(plan: PlanState, item: ItemState): Record<string, unknown> {
    const body = item.body;
    const categoria = codeValue(body.categoriaItemPca) ?? 0;
    const catalogo = codeValue(body.catalogo) ?? 0;
    const classificacao = codeValue(body.classificacaoCatalogo) ?? 0;
    const decimals = Object.fromEntries(DECIMAL_FIELDS.map((f) => [f, raw(decimalText(body[f]))]));
    return {
      ...body,
      ...decimals,
      numeroItem: item.numeroItem,
      cnpj: plan.cnpj,
      codigoUnidade: plan.codigoUnidade,
      nomeUnidade: `Unidade ${plan.codigoUnidade}`,
      anoPca: plan.anoPca,
      sequencialPca: plan.sequencial,
      categoriaItemPcaId: categoria,
      categoriaItemPcaNome: CATEGORIAS[categoria] ?? null,
      classificacaoCatalogoId: classificacao,
      nomeClassificacao: CLASSIFICACOES[classificacao] ?? null,
      catalogoId: catalogo,
      nomeCatalogo: CATALOGOS[catalogo] ?? null,
      dataPublicacaoPncp: dateTime(plan.dataInclusao),
      dataInclusao: dateTime(item.dataInclusao),
      dataAtualizacao: dateTime(item.dataAtualizacao),
    };
  }

  /** Rectification of one item: validation errors, or a function that applies it. */
  function rectify(
    plan: PlanState,
    campos: Record<string, unknown>,
    prefix: string,
    justificativa: string,
  ): { errors: FieldError[]; notFound?: number; apply?: () => void } {
    const n = campos.numeroItem;
    const changes = { ...campos };
    delete changes.numeroItem;
    delete changes.justificativa;
    const errors = validateItemFields(changes, prefix, true);
    if (Object.keys(changes).length === 0) errors.push({ nomeCampo: `${prefix}campos`, mensagem: 'Informe ao menos um campo a retificar.' });
    if (errors.length > 0) return { errors };
    const item = plan.itens.get(n as number);
    if (!item || item.excluido) return { errors: [], notFound: n as number };
    return {
      errors: [],
      apply: () => {
        Object.assign(item.body, changes);
        item.retificacoes.push({ campos: changes, justificativa });
        for (const f of DECIMAL_FIELDS) {
          if (typeof changes[f] === 'number' && !item.decimalsSentAsNumbers.includes(f)) item.decimalsSentAsNumbers.push(f);
        }
        item.dataAtualizacao = clock.now();
        plan.dataAtualizacao = clock.now();
      },
    };
  }

  const app = new Hono<Env>();
  const pncp = new Hono<Env>();

  // ---- Authentication -------------------------------------------------------------------
  pncp.post('/v1/usuarios/login', async (c) => {
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const { login, senha } = isRecord(body.value) ? body.value : {};
    const errors: FieldError[] = [];
    if (typeof login !== 'string' || login === '' || login.length > 255)
      errors.push({ nomeCampo: 'login', mensagem: 'Login é obrigatório (até 255 caracteres).' });
    if (typeof senha !== 'string' || senha === '' || senha.length > 255)
      errors.push({ nomeCampo: 'senha', mensagem: 'Senha é obrigatória (até 255 caracteres).' });
    if (errors.length > 0) return erros(errors, 400);
    const user = users.find((u) => u.login === login && u.senha === senha);
    if (!user) return text('Usuário ou senha inválidos.', 401);
    const token = randomBytes(48).toString('base64url');
    tokens.set(token, { login: user.login, expiresAt: clock.now() + tokenTtlMs });
    issuedTokens.push(token);
    return new Response(null, { status: 200, headers: { authorization: `Bearer ${token}`, expires: String(tokenTtlMs) } });
  });

  // ---- PCA: writes ----------------------------------------------------------------------
  pncp.post('/v1/orgaos/:cnpj/pca', async (c) => {
    const user = session(c.req.header('authorization'));
    if (!user) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const cnpj = c.req.param('cnpj');
    const value = isRecord(body.value) ? body.value : {};
    const errors: FieldError[] = [];
    const { codigoUnidade, anoPca } = value;
    if (typeof codigoUnidade !== 'string' || codigoUnidade.trim() === '' || codigoUnidade.length > 30) {
      errors.push({ nomeCampo: 'codigoUnidade', mensagem: 'Código da unidade é obrigatório (até 30 caracteres).' });
    }
    if (typeof anoPca !== 'number' || !Number.isInteger(anoPca) || anoPca < 2021 || anoPca > 2100) {
      errors.push({ nomeCampo: 'anoPca', mensagem: 'Ano do plano é obrigatório (inteiro de 4 dígitos, a partir de 2021).' });
    }
    errors.push(...validateBatch(value.itensPlano, 'itensPlano', undefined));
    if (errors.length > 0) return erros(errors, 400);
    const unidade = codigoUnidade as string;
    const ano = anoPca as number;
    // Business errors → 422. UNCONFIRMED: the real 422 body (Swagger: map string→string) and its
    // messages are not documented; the fake uses the 400 shape {erros:[{nomeCampo, mensagem}]},
    // which e-Cidade also reads from 422 answers.
    const orgao = orgaos.get(cnpj);
    if (!orgao) {
      return erros([{ nomeCampo: 'cnpj', mensagem: 'Órgão não cadastrado no PNCP ou plataforma não habilitada para o órgão.' }], 422);
    }
    if (!orgao.unidades.includes(unidade)) {
      return erros([{ nomeCampo: 'codigoUnidade', mensagem: 'Unidade não cadastrada para o órgão.' }], 422);
    }
    // UNCONFIRMED: whether the PNCP rejects a second plan of the same unit and year (the
    // sequenciaisplano route suggests one plan per unit/year); the fake rejects it.
    const existing = plans.find((p) => p.cnpj === cnpj && p.codigoUnidade === unidade && p.anoPca === ano && !p.excluido);
    if (existing) {
      return erros(
        [{ nomeCampo: 'anoPca', mensagem: `Já existe plano de contratações da unidade ${unidade} para o ano ${ano} (sequencial ${existing.sequencial}).` }],
        422,
      );
    }
    const key = `${cnpj}/${ano}`;
    const sequencial = (sequences.get(key) ?? 0) + 1;
    sequences.set(key, sequencial);
    const at = clock.now();
    const plan: PlanState = {
      cnpj,
      codigoUnidade: unidade,
      anoPca: ano,
      sequencial,
      excluido: false,
      usuario: user.login,
      dataInclusao: at,
      dataAtualizacao: at,
      itens: new Map(),
    };
    for (const item of value.itensPlano as Record<string, unknown>[]) plan.itens.set(item.numeroItem as number, newItem(item, at));
    plans.push(plan);
    return new Response(null, { status: 201, headers: { location: planUrl(plan) } });
  });

  pncp.post('/v1/orgaos/:cnpj/pca/:ano/:seq/itens', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const errors = validateBatch(body.value, 'itens', plan);
    if (errors.length > 0) return erros(errors, 400);
    const at = clock.now();
    const urls: string[] = [];
    for (const item of body.value as Record<string, unknown>[]) {
      plan.itens.set(item.numeroItem as number, newItem(item, at));
      urls.push(`${planUrl(plan)}/itens/${item.numeroItem}`);
    }
    plan.dataAtualizacao = at;
    return json(urls, 201);
  });

  pncp.patch('/v1/orgaos/:cnpj/pca/:ano/:seq/itens/:n', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const value = isRecord(body.value) ? body.value : {};
    const errors = validateJustificativa(value.justificativa);
    const n = Number(c.req.param('n'));
    if (value.numeroItem !== undefined && value.numeroItem !== n) {
      errors.push({ nomeCampo: 'numeroItem', mensagem: 'O número do item não pode ser alterado.' });
    }
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (errors.length > 0) return erros(errors, 400);
    if (!plan) return planNotFound();
    const result = rectify(plan, { ...value, numeroItem: n }, '', value.justificativa as string);
    if (result.errors.length > 0) return erros(result.errors, 400);
    if (!result.apply) return itemNotFound(c.req.param('n'));
    result.apply();
    return new Response(null, { status: 200 });
  });

  pncp.patch('/v1/orgaos/:cnpj/pca/:ano/:seq/itens', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const value = isRecord(body.value) ? body.value : {};
    const errors = validateJustificativa(value.justificativa);
    const lista = value.lista;
    if (!Array.isArray(lista) || lista.length < 1 || lista.length > MAX_ITEMS) {
      errors.push({ nomeCampo: 'lista', mensagem: `Informe de 1 a ${MAX_ITEMS} itens.` });
      return erros(errors, 400);
    }
    const seen = new Set<number>();
    lista.forEach((entry, i) => {
      const n = isRecord(entry) ? entry.numeroItem : undefined;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
        errors.push({ nomeCampo: `lista[${i}].numeroItem`, mensagem: 'Número do item é obrigatório (inteiro positivo).' });
      } else if (seen.has(n)) {
        errors.push({ nomeCampo: `lista[${i}].numeroItem`, mensagem: `Número do item ${n} repetido na lista.` });
      } else seen.add(n);
    });
    if (errors.length > 0) return erros(errors, 400);
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const applies: (() => void)[] = [];
    for (const [i, entry] of (lista as Record<string, unknown>[]).entries()) {
      const result = rectify(plan, entry, `lista[${i}].`, value.justificativa as string);
      errors.push(...result.errors);
      if (result.notFound !== undefined && errors.length === 0) return itemNotFound(result.notFound);
      if (result.apply) applies.push(result.apply);
    }
    if (errors.length > 0) return erros(errors, 400);
    for (const apply of applies) apply();
    return new Response(null, { status: 200 });
  });

  const deleteItems = (plan: PlanState, numbers: number[], justificativa: string) => {
    const at = clock.now();
    for (const n of numbers) {
      const item = plan.itens.get(n) as ItemState;
      item.excluido = true;
      item.justificativaExclusao = justificativa;
      item.dataAtualizacao = at;
    }
    plan.dataAtualizacao = at;
  };

  pncp.delete('/v1/orgaos/:cnpj/pca/:ano/:seq/itens/contratacao', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const value = isRecord(body.value) ? body.value : {};
    const errors = validateJustificativa(value.justificativa);
    const numero = c.req.query('numeroContratacao');
    if (!numero || numero.length > 14) errors.push({ nomeCampo: 'numeroContratacao', mensagem: 'Número da contratação é obrigatório (até 14 caracteres).' });
    if (errors.length > 0) return erros(errors, 400);
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const numbers = [...plan.itens.values()].filter((i) => !i.excluido && i.body.grupoContratacaoCodigo === numero).map((i) => i.numeroItem);
    if (numbers.length === 0) return erros([{ nomeCampo: 'numeroContratacao', mensagem: 'Nenhum item encontrado para a contratação.' }], 404);
    deleteItems(plan, numbers, value.justificativa as string);
    return new Response(null, { status: 200 });
  });

  pncp.delete('/v1/orgaos/:cnpj/pca/:ano/:seq/itens/:n', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const value = isRecord(body.value) ? body.value : {};
    const errors = validateJustificativa(value.justificativa);
    if (errors.length > 0) return erros(errors, 400);
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const n = Number(c.req.param('n'));
    if (plan.itens.get(n)?.excluido !== false) return itemNotFound(c.req.param('n'));
    deleteItems(plan, [n], value.justificativa as string);
    return new Response(null, { status: 200 });
  });

  pncp.delete('/v1/orgaos/:cnpj/pca/:ano/:seq/itens', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const value = isRecord(body.value) ? body.value : {};
    const errors = validateJustificativa(value.justificativa);
    const list = value.listaNumerosItens;
    const valid =
      Array.isArray(list) &&
      list.length >= 1 &&
      list.length <= MAX_ITEMS &&
      list.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 1) &&
      new Set(list).size === list.length;
    if (!valid) errors.push({ nomeCampo: 'listaNumerosItens', mensagem: `Informe de 1 a ${MAX_ITEMS} números de itens, sem repetição.` });
    if (errors.length > 0) return erros(errors, 400);
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const numbers = list as number[];
    const missing = numbers.find((n) => plan.itens.get(n)?.excluido !== false);
    if (missing !== undefined) return itemNotFound(missing);
    deleteItems(plan, numbers, value.justificativa as string);
    return new Response(null, { status: 200 });
  });

  pncp.delete('/v1/orgaos/:cnpj/pca/:ano/:seq', async (c) => {
    if (!session(c.req.header('authorization'))) return unauthorized();
    const body = await readJson(c);
    if (!body.ok) return body.response;
    const value = isRecord(body.value) ? body.value : {};
    const errors = validateJustificativa(value.justificativa);
    if (errors.length > 0) return erros(errors, 400);
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    plan.excluido = true;
    plan.justificativaExclusao = value.justificativa as string;
    plan.dataAtualizacao = clock.now();
    return new Response(null, { status: 200 });
  });

  // ---- PCA: reads (public) ---------------------------------------------------------------
  const activeItems = (plan: PlanState, categoria: string | undefined) =>
    [...plan.itens.values()]
      .filter((i) => !i.excluido && (categoria === undefined || String(codeValue(i.body.categoriaItemPca)) === categoria))
      .sort((a, b) => a.numeroItem - b.numeroItem);

  pncp.get('/v1/orgaos/:cnpj/pca/:ano/:seq/itens', (c) => {
    const pagina = positiveInt(c.req.query('pagina'), 1);
    // UNCONFIRMED default page size (the measured minimum is 1, no maximum).
    const tamanhoPagina = positiveInt(c.req.query('tamanhoPagina'), 100);
    const errors: FieldError[] = [];
    if (pagina === undefined) errors.push({ nomeCampo: 'pagina', mensagem: 'Página deve ser um inteiro maior ou igual a 1.' });
    if (tamanhoPagina === undefined) errors.push({ nomeCampo: 'tamanhoPagina', mensagem: 'Tamanho da página deve ser um inteiro maior ou igual a 1.' });
    if (pagina === undefined || tamanhoPagina === undefined) return erros(errors, 400);
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const page = activeItems(plan, c.req.query('categoria')).slice((pagina - 1) * tamanhoPagina, pagina * tamanhoPagina);
    return json(
      page.map((item) => readBack(plan, item)),
      200,
    );
  });

  pncp.get('/v1/orgaos/:cnpj/pca/:ano/:seq/itens/quantidade', (c) => {
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    return json(activeItems(plan, c.req.query('categoria')).length, 200);
  });

  pncp.get('/v1/orgaos/:cnpj/pca/:ano/:seq/consolidado', (c) => {
    const plan = findPlan(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!plan) return planNotFound();
    const orgao = orgaos.get(plan.cnpj);
    const items = activeItems(plan, undefined);
    return json(
      {
        cnpj: plan.cnpj,
        codigoUnidade: plan.codigoUnidade,
        nomeUnidade: `Unidade ${plan.codigoUnidade}`,
        anoPca: plan.anoPca,
        numeroControlePNCP: `${plan.cnpj}-0-${String(plan.sequencial).padStart(6, '0')}/${plan.anoPca}`,
        quantidade: items.length,
        valorTotal: raw(sumDecimals(items.map((i) => decimalText(i.body.valorTotal) ?? '0'))),
        dataPublicacaoPncp: dateTime(plan.dataInclusao),
        dataAtualizacao: dateTime(plan.dataAtualizacao),
        usuario: plan.usuario,
        municipio: orgao?.municipio ?? null,
        uf: orgao?.uf ?? null,
      },
      200,
    );
  });

  pncp.get('/v1/orgaos/:cnpj/pca/:codigoUnidade/:ano/sequenciaisplano', (c) => {
    const { cnpj, codigoUnidade, ano } = c.req.param();
    const plan = plans.find((p) => p.cnpj === cnpj && p.codigoUnidade === codigoUnidade && String(p.anoPca) === ano && !p.excluido);
    if (!plan) return erros([{ nomeCampo: 'codigoUnidade', mensagem: 'Nenhum plano de contratações encontrado para a unidade e o ano.' }], 404);
    return json({ sequencialPlano: plan.sequencial, sequencialUltimoItemInserido: Math.max(0, ...plan.itens.keys()) }, 200);
  });

  const domain = (names: Record<number, string>) =>
    Object.entries(names).map(([id, nome]) => ({
      id: Number(id),
      nome,
      descricao: nome,
      dataInclusao: '2021-01-01T00:00:00',
      dataAtualizacao: '2021-01-01T00:00:00',
      statusAtivo: true,
    }));
  pncp.get('/v1/categoriaItemPcas', () => json(domain(CATEGORIAS), 200));
  pncp.get('/v1/catalogos', () => json(domain(CATALOGOS), 200));

  // ---- Contratações: items and results (public integration GETs, from fixtures) ---------
  const findCompra = (cnpj: string, ano: string, seq: string) =>
    contratacoes.find((k) => k.orgao.cnpj === cnpj && String(k.ano) === ano && String(k.sequencial) === seq);
  const numeroControle = (k: FakeContratacao) => `${k.orgao.cnpj}-1-${String(k.sequencial).padStart(6, '0')}/${k.ano}`;
  const compraNotFound = () => erros([{ nomeCampo: 'sequencial', mensagem: 'Contratação não encontrada.' }], 404);
  const multiply = (a: string, b: string): string => {
    const scale = (v: string) => {
      const [int, frac = ''] = v.split('.');
      return { n: BigInt(`${int}${frac}`), d: frac.length };
    };
    const x = scale(a);
    const y = scale(b);
    const digits = (x.n * y.n).toString().padStart(x.d + y.d + 1, '0');
    const cut = digits.length - (x.d + y.d);
    const frac = digits.slice(cut).replace(/0+$/, '');
    return frac ? `${digits.slice(0, cut)}.${frac}` : digits.slice(0, cut);
  };

  pncp.get('/v1/orgaos/:cnpj/compras/:ano/:seq/itens', (c) => {
    const compra = findCompra(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!compra) return compraNotFound();
    const pagina = positiveInt(c.req.query('pagina'), 1) ?? 1;
    const tamanhoPagina = positiveInt(c.req.query('tamanhoPagina'), 100) ?? 100;
    const page = compra.itens.slice((pagina - 1) * tamanhoPagina, pagina * tamanhoPagina);
    return json(
      page.map((item) => {
        const estimado = item.valorUnitarioEstimado ?? '0';
        const material = (item.materialOuServico ?? 'M') === 'M';
        return {
          numeroItem: item.numeroItem,
          descricao: item.descricao,
          materialOuServico: material ? 'M' : 'S',
          materialOuServicoNome: material ? 'Material' : 'Serviço',
          quantidade: raw(item.quantidade),
          unidadeMedida: item.unidadeMedida,
          valorUnitarioEstimado: raw(estimado),
          valorTotal: raw(multiply(estimado, item.quantidade)),
          orcamentoSigiloso: estimado === '0',
          catalogoCodigoItem: item.catalogoCodigoItem ?? null,
          ncmNbsCodigo: null,
          temResultado: item.resultados.length > 0,
          situacaoCompraItem: item.resultados.length > 0 ? 2 : 1,
          situacaoCompraItemNome: item.resultados.length > 0 ? 'Homologado' : 'Em Andamento',
          dataInclusao: `${compra.dataPublicacao}T00:00:00`,
          dataAtualizacao: `${compra.dataPublicacao}T00:00:00`,
        };
      }),
      200,
    );
  });

  const resultadoJson = (compra: FakeContratacao, item: FakeContratacao['itens'][number]) =>
    item.resultados.map((r, i) => ({
      numeroItem: item.numeroItem,
      sequencialResultado: i + 1,
      quantidadeHomologada: raw(r.quantidadeHomologada),
      valorUnitarioHomologado: raw(r.valorUnitarioHomologado),
      valorTotalHomologado: raw(multiply(r.valorUnitarioHomologado, r.quantidadeHomologada)),
      percentualDesconto: raw(r.percentualDesconto ?? '0'),
      niFornecedor: r.niFornecedor,
      tipoPessoa: r.niFornecedor.length === 11 ? 'PF' : 'PJ',
      nomeRazaoSocialFornecedor: r.nomeRazaoSocialFornecedor,
      porteFornecedorId: 3,
      porteFornecedorNome: 'Demais',
      dataResultado: r.dataResultado,
      situacaoCompraItemResultadoId: 1,
      situacaoCompraItemResultadoNome: 'Informado',
      numeroControlePNCPCompra: numeroControle(compra),
    }));

  pncp.get('/v1/orgaos/:cnpj/compras/:ano/:seq/itens/:n/resultados', (c) => {
    const compra = findCompra(c.req.param('cnpj'), c.req.param('ano'), c.req.param('seq'));
    if (!compra) return compraNotFound();
    const item = compra.itens.find((i) => String(i.numeroItem) === c.req.param('n'));
    if (!item) return itemNotFound(c.req.param('n'));
    return json(resultadoJson(compra, item), 200);
  });

  // ---- Consultation: item results search (price source) ---------------------------------
  // The fake's own route, modelled on Compras.gov.br dados abertos
  // "3_consultarResultadoItensContratacoes_PNCP_14133" (homologated item prices of Lei 14.133
  // contratações published on the PNCP): the product's client uses this path against the fake;
  // the real service lives elsewhere (dadosabertos.compras.gov.br/modulo-contratacoes/…).
  // Envelope as the PNCP consultation API: {data, totalRegistros, totalPaginas, numeroPagina,
  // paginasRestantes, empty}; 204 when nothing matches; tamanhoPagina 10..50 (default 10).
  const consulta = new Hono<Env>();
  consulta.get('/v1/itens-resultado', (c) => {
    const q = c.req.query();
    const errors: FieldError[] = [];
    const isDate = (v: string | undefined) => v !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
    if (!isDate(q.dataInicial)) errors.push({ nomeCampo: 'dataInicial', mensagem: 'Data inicial é obrigatória (AAAA-MM-DD).' });
    if (!isDate(q.dataFinal)) errors.push({ nomeCampo: 'dataFinal', mensagem: 'Data final é obrigatória (AAAA-MM-DD).' });
    const pagina = positiveInt(q.pagina, 1);
    if (pagina === undefined) errors.push({ nomeCampo: 'pagina', mensagem: 'Página deve ser um inteiro maior ou igual a 1.' });
    const tamanhoPagina = positiveInt(q.tamanhoPagina, 10);
    if (tamanhoPagina === undefined || tamanhoPagina < 10 || tamanhoPagina > 50) {
      errors.push({ nomeCampo: 'tamanhoPagina', mensagem: 'Tamanho de página deve estar entre 10 e 50.' });
    }
    if (errors.length > 0 || pagina === undefined || tamanhoPagina === undefined) return erros(errors, 400);
    const dataInicial = q.dataInicial as string;
    const dataFinal = q.dataFinal as string;
    const descricao = q.descricao ? normalizeText(q.descricao) : undefined;
    const rows: Record<string, unknown>[] = [];
    for (const compra of contratacoes) {
      for (const item of compra.itens) {
        if (q.codigoItemCatalogo && item.catalogoCodigoItem !== q.codigoItemCatalogo) continue;
        if (descricao && !normalizeText(item.descricao).includes(descricao)) continue;
        for (const r of resultadoJson(compra, item)) {
          const data = r.dataResultado.slice(0, 10);
          if (data < dataInicial || data > dataFinal) continue;
          rows.push({
            ...r,
            idCompra: numeroControle(compra),
            orgaoEntidadeCnpj: compra.orgao.cnpj,
            orgaoEntidadeRazaoSocial: compra.orgao.nome,
            unidadeOrgaoUfSigla: compra.orgao.uf,
            unidadeOrgaoMunicipioNome: compra.orgao.municipio,
            anoCompra: compra.ano,
            sequencialCompra: compra.sequencial,
            objetoCompra: compra.objeto ?? null,
            dataPublicacaoPncp: compra.dataPublicacao,
            descricaoItem: item.descricao,
            codigoItemCatalogo: item.catalogoCodigoItem ?? null,
            materialOuServico: item.materialOuServico ?? 'M',
            unidadeMedida: item.unidadeMedida,
            quantidade: raw(item.quantidade),
          });
        }
      }
    }
    rows.sort((a, b) => String(b.dataResultado).localeCompare(String(a.dataResultado)));
    const data = rows.slice((pagina - 1) * tamanhoPagina, pagina * tamanhoPagina);
    if (data.length === 0) return new Response(null, { status: 204 });
    const totalPaginas = Math.ceil(rows.length / tamanhoPagina);
    return json(
      { data, totalRegistros: rows.length, totalPaginas, numeroPagina: pagina, paginasRestantes: Math.max(0, totalPaginas - pagina), empty: false },
      200,
    );
  });

  app.route('/api/pncp', pncp);
  app.route('/api/consulta', consulta);
  app.notFound(() => text('Recurso não encontrado.', 404));
  app.onError((error) => text(`Erro interno do servidor: ${error.message}`, 500));

  // ---- Faults, call log ---------------------------------------------------------------
  /** The fault that answers this call, if any (see FakeFault.after). */
  function takeFault(route: FakeRoute | undefined): FakeFault | undefined {
    let chosen: QueuedFault | undefined;
    for (const queued of faults) {
      if (queued.fault.route !== '*' && queued.fault.route !== route) continue;
      if (queued.seen < (queued.fault.after ?? 0)) queued.seen++;
      else chosen ??= queued;
    }
    if (!chosen) return undefined;
    chosen.remaining--;
    if (chosen.remaining <= 0) faults = faults.filter((q) => q !== chosen);
    return chosen.fault;
  }

  function faultResponse(fault: FakeFault, method: string, token: string | undefined): Response | undefined {
    switch (fault.kind) {
      case '429':
        return text('Too Many Requests', 429);
      case '429-retry-after':
        return text('Too Many Requests', 429, { 'retry-after': String(fault.retryAfterSeconds ?? 1) });
      case '500':
        return text('Erro interno do servidor.', 500);
      case '503':
        return text('Serviço temporariamente indisponível.', 503);
      case '401':
        // As if the token had expired on the server: the token of this call stops working.
        if (token) tokens.delete(token);
        return unauthorized();
      case 'malformed':
        // A success status with an HTML page (as from a proxy or gateway); nothing is applied
        // and no location header is sent.
        return new Response('<!DOCTYPE html><html><head><title>PNCP</title></head><body><h1>Portal Nacional de Contratações Públicas</h1></body></html>', {
          status: method === 'POST' ? 201 : 200,
          headers: { 'content-type': 'text/html;charset=UTF-8' },
        });
      default:
        return undefined; // 'delay' and 'commit-drop' answer normally first
    }
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        pendingDelays.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      pendingDelays.add(done);
    });

  async function handle(request: Request, env: HttpBindings): Promise<Response> {
    const url = new URL(request.url);
    const route = classify(request.method, url.pathname);
    const token = bearer(request.headers.get('authorization') ?? undefined);
    const authenticated = session(request.headers.get('authorization') ?? undefined) !== undefined;
    const call: FakeCall = { method: request.method, path: url.pathname + url.search, status: 0, authenticated, at: clock.now() };
    calls.push(call);
    const fault = takeFault(route);
    const faulted = fault && faultResponse(fault, request.method, token);
    if (faulted) {
      call.status = faulted.status;
      return faulted;
    }
    const response = await app.fetch(request, env);
    if (fault?.kind === 'commit-drop') {
      // The change is applied; the connection is closed without an answer (status 0 in calls).
      await response.arrayBuffer();
      env.incoming.socket.destroy();
      return new Response(null, { status: 500 });
    }
    call.status = response.status;
    if (fault?.kind === 'delay') {
      // Applied now; answered only after the delay (real time), as a slow server would.
      await sleep(fault.delayMs ?? 5000);
    }
    return response;
  }

  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: (request, env) => handle(request, env as HttpBindings), port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server)) as Server;
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    clock,
    calls,
    issuedTokens,
    fault(f) {
      faults.push({ fault: { ...f }, seen: 0, remaining: f.times ?? 1 });
    },
    clearFaults() {
      faults = [];
    },
    plans(cnpj) {
      return plans
        .filter((p) => cnpj === undefined || p.cnpj === cnpj)
        .map((p) => ({
          cnpj: p.cnpj,
          codigoUnidade: p.codigoUnidade,
          anoPca: p.anoPca,
          sequencial: p.sequencial,
          excluido: p.excluido,
          ...(p.justificativaExclusao === undefined ? {} : { justificativaExclusao: p.justificativaExclusao }),
          itens: [...p.itens.values()]
            .sort((a, b) => a.numeroItem - b.numeroItem)
            .map((i) =>
              structuredClone({
                numeroItem: i.numeroItem,
                excluido: i.excluido,
                body: i.body,
                retificacoes: i.retificacoes,
                decimalsSentAsNumbers: i.decimalsSentAsNumbers,
                ...(i.justificativaExclusao === undefined ? {} : { justificativaExclusao: i.justificativaExclusao }),
              }),
            ),
        }));
    },
    addContratacao(c) {
      for (const item of c.itens) {
        const decimals = [
          item.quantidade,
          item.valorUnitarioEstimado,
          ...item.resultados.flatMap((r) => [r.valorUnitarioHomologado, r.quantidadeHomologada, r.percentualDesconto]),
        ];
        const bad = decimals.find((d) => d !== undefined && decimalText(d) === undefined);
        if (bad !== undefined) throw new Error(`addContratacao: '${bad}' (item ${item.numeroItem}) is not a decimal text like '12.3456'`);
      }
      contratacoes.push(structuredClone(c));
    },
    async close() {
      for (const done of [...pendingDelays]) done();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
