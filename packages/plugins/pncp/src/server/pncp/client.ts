// HTTP client of the PNCP integration API for the Plano de Contratações Anual (manual v2.6; research §1.2–1.6).
//
// Retry policy, per operation:
// - reads (GET) and login: 429, 5xx, timeout, network error and an unreadable success body are retried inside the call,
//   up to `maxTentativas`, with exponential back-off and full jitter (base 500 ms, cap 30 s) or the `Retry-After` wait.
// - PATCH (rectify items) and DELETE (items, plan): idempotent in effect, retried the same way. A DELETE repeated after a
//   lost answer may meet 404 (already deleted): `excluirPlano` answers `{ jaExcluido: true }`; `excluirItens` throws
//   PncpErroNaoEncontrado and the synchronisation reconciles against the PNCP's item list.
// - inserts (POST /pca, POST /itens) are NOT idempotent: they are repeated only when the PNCP certainly did not carry
//   them out (429, 503, connection refused). After a timeout, a dropped connection, another 5xx or an unreadable success
//   answer the client throws at once with `incerto: true`; `sincronizarPlano` then looks at the PNCP's state
//   (`sequenciaisPlano`, item count/list) before sending anything again.
// - 400/422 are never retried (PncpErroDados). A 401 on an authenticated call renews the token once and repeats the call
//   once; a second 401 is PncpErroAutenticacao.
// Secrets: the password only travels in the login body; the token only in the Authorization header. Neither is logged,
// put into an error or kept anywhere but the in-memory token cache.
import {
  type PncpErroCampo,
  PncpErroAutenticacao,
  PncpErroDados,
  PncpErroNaoEncontrado,
  type PncpOperacao,
  PncpErroResposta,
  PncpErroTemporario,
} from './errors.js';
import { corpoItem, type ItemPca } from './item.js';

export interface PncpCredenciais {
  login: string;
  senha: string;
}

export interface PncpLogger {
  debug?(mensagem: string, dados?: Record<string, unknown>): void;
  info?(mensagem: string, dados?: Record<string, unknown>): void;
  warn?(mensagem: string, dados?: Record<string, unknown>): void;
  error?(mensagem: string, dados?: Record<string, unknown>): void;
}

/** In-memory tokens per (baseUrl, login). A process shares one by default; tests pass their own. */
export interface PncpCacheTokens {
  readonly entradas: Map<string, { token?: string; expiraEm: number; pendente?: Promise<string> }>;
}

export function criarCacheTokens(): PncpCacheTokens {
  return { entradas: new Map() };
}

const cacheGlobal = criarCacheTokens();

export interface PncpClientOpcoes {
  /** Integration API, e.g. `https://treina.pncp.gov.br/api/pncp` (no trailing slash needed). */
  baseUrl: string;
  /** Consultation API, e.g. `https://pncp.gov.br/api/consulta` (kept for the read-only services). */
  consultaUrl?: string;
  /** Read when a login is needed (not on every call); the password is not kept afterwards. */
  credenciais: () => Promise<PncpCredenciais>;
  fetch?: typeof fetch;
  /** One number for every call, or per kind. Defaults: writes 120 s, reads 60 s. */
  timeoutMs?: number | { leitura?: number; escrita?: number };
  /** Back-off wait; injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** [0, 1) for the back-off jitter. */
  random?: () => number;
  /** Clock for the token's expiry (ms). */
  now?: () => number;
  /** Attempts per call for retryable failures (default 5). */
  maxTentativas?: number;
  /** Back-off base and cap (defaults 500 ms and 30 s). */
  esperaBaseMs?: number;
  esperaMaximaMs?: number;
  /** A `Retry-After` longer than this is not slept inside the call: the error goes up with `retryAfterMs` (default 60 s). */
  retryAfterMaximoMs?: number;
  /** Minimum spacing between two writes of this client (default 500 ms; research §1.6). */
  intervaloEscritasMs?: number;
  /** Renew the token this long before it expires (default 5 min, at most a tenth of its life). */
  margemRenovacaoMs?: number;
  cacheTokens?: PncpCacheTokens;
  logger?: PncpLogger;
}

export interface SequenciaisPlano {
  sequencialPlano: number;
  sequencialUltimoItemInserido: number | null;
}

/** An item as the PNCP's integration API lists it (the insert fields plus read-only ones). */
export type ItemPncpLido = Record<string, unknown> & { numeroItem: number };

export interface PncpClient {
  readonly baseUrl: string;
  readonly consultaUrl: string | undefined;
  /** `POST /v1/orgaos/{cnpj}/pca` with 1..1000 items → the plan's sequencial (last segment of `location`). */
  inserirPlano(cnpj: string, plano: { codigoUnidade: string; anoPca: number; itensPlano: ItemPca[] }): Promise<{ sequencial: number }>;
  /** `GET /v1/orgaos/{cnpj}/pca/{codigoUnidade}/{ano}/sequenciaisplano` → null when the unit has no plan that year. */
  sequenciaisPlano(cnpj: string, codigoUnidade: string, ano: number): Promise<SequenciaisPlano | null>;
  /** `POST …/pca/{ano}/{sequencial}/itens` with 1..1000 items. */
  inserirItens(cnpj: string, ano: number, sequencial: number, itens: ItemPca[]): Promise<void>;
  /** `PATCH …/pca/{ano}/{sequencial}/itens` `{lista, justificativa}`. */
  retificarItens(cnpj: string, ano: number, sequencial: number, lista: ItemPca[], justificativa: string): Promise<void>;
  /** `DELETE …/pca/{ano}/{sequencial}/itens` `{listaNumerosItens, justificativa}`. */
  excluirItens(cnpj: string, ano: number, sequencial: number, numeros: number[], justificativa: string): Promise<void>;
  /** `DELETE /v1/orgaos/{cnpj}/pca/{ano}/{sequencial}` `{justificativa}`; 404 → `{ jaExcluido: true }`. */
  excluirPlano(cnpj: string, ano: number, sequencial: number, justificativa: string): Promise<{ jaExcluido: boolean }>;
  /** `GET …/pca/{ano}/{sequencial}/itens?pagina&tamanhoPagina` (bare array; page 1 first). */
  listarItens(cnpj: string, ano: number, sequencial: number, pagina: number, tamanho: number): Promise<ItemPncpLido[]>;
  /** `GET …/pca/{ano}/{sequencial}/itens/quantidade`. */
  quantidadeItens(cnpj: string, ano: number, sequencial: number): Promise<number>;
}

type Repeticao = 'sempre' | 'seguro';

interface Pedido {
  operacao: PncpOperacao;
  metodo: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  caminho: string;
  corpo?: unknown;
  autenticado: boolean;
  /** 'sempre': retry every temporary failure; 'seguro': only those the PNCP certainly did not carry out. */
  repeticao: Repeticao;
}

interface Resposta {
  status: number;
  headers: Headers;
  texto: string;
}

/** What a reader returns for an unreadable success answer. */
const ILEGIVEL: unique symbol = Symbol('ilegivel');

/** Empty body, or JSON: the answer of a PATCH/DELETE (an HTML page from a proxy is not a success). */
const vazioOuJson = (r: Resposta): true | typeof ILEGIVEL => (r.texto.trim() === '' || lerJsonDecimais(r.texto) !== ILEGIVEL ? true : ILEGIVEL);

/**
 * JSON.parse that keeps every non-integer number as its exact text ("12.3400" stays "12.3400"): the PNCP serialises
 * decimals as JSON numbers (Java BigDecimal), which a double would round. ILEGIVEL when the text is not JSON.
 */
export function lerJsonDecimais(texto: string): unknown {
  let saida = '';
  let i = 0;
  const n = texto.length;
  while (i < n) {
    const c = texto[i]!;
    if (c === '"') {
      // Copy a string literal as is (escapes included).
      let j = i + 1;
      while (j < n && texto[j] !== '"') j += texto[j] === '\\' ? 2 : 1;
      saida += texto.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(texto.slice(i, i + 64));
      const numero = m?.[0] ?? c;
      saida += m && (m[1] || m[2]) ? `"${numero}"` : numero;
      i += numero.length;
    } else {
      saida += c;
      i++;
    }
  }
  try {
    return JSON.parse(saida);
  } catch {
    return ILEGIVEL;
  }
}

const MARGEM_PADRAO_MS = 5 * 60_000;
const TTL_PADRAO_MS = 3_600_000;
/** Connection errors where the request never reached the server. */
const CODIGOS_NAO_ENVIADO = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

const dormir = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Only the 14 digits of a CNPJ. */
export function cnpjDigitos(cnpj: string): string {
  const d = cnpj.replace(/\D/g, '');
  if (d.length !== 14) throw new PncpErroDados([{ campo: 'cnpj', mensagem: 'CNPJ deve ter 14 dígitos' }], { operacao: 'sincronizar' });
  return d;
}

function errorCode(erro: unknown): string | undefined {
  let atual: unknown = erro;
  for (let i = 0; i < 4 && atual && typeof atual === 'object'; i++) {
    const code = (atual as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    atual = (atual as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `Retry-After` in seconds or as an HTTP date → ms. */
export function lerRetryAfter(valor: string | null, agora: number): number | undefined {
  if (valor === null || valor.trim() === '') return undefined;
  const s = valor.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const data = Date.parse(s);
  if (Number.isNaN(data)) return undefined;
  return Math.max(0, data - agora);
}

/** Reads the PNCP's error body: `{erros:[{nomeCampo, mensagem}]}`, then `message`, then a string, then a map. */
export function lerErrosPncp(texto: string): PncpErroCampo[] {
  const limpo = texto.trim();
  if (limpo === '') return [];
  let corpo: unknown;
  try {
    corpo = JSON.parse(limpo);
  } catch {
    // Plain text or an HTML page: keep a short text, without tags.
    const semTags = limpo
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return semTags ? [{ campo: '', mensagem: semTags.slice(0, 300) }] : [];
  }
  if (typeof corpo === 'string') return corpo.trim() ? [{ campo: '', mensagem: corpo.trim().slice(0, 500) }] : [];
  if (Array.isArray(corpo)) return corpo.flatMap((e) => lerErroUnico(e));
  if (corpo && typeof corpo === 'object') {
    const obj = corpo as Record<string, unknown>;
    if (Array.isArray(obj.erros)) {
      const erros = obj.erros.flatMap((e) => lerErroUnico(e));
      if (erros.length > 0) return erros;
    }
    for (const chave of ['message', 'mensagem', 'detail', 'error']) {
      const v = obj[chave];
      if (typeof v === 'string' && v.trim()) return [{ campo: '', mensagem: v.trim().slice(0, 500) }];
    }
    return Object.entries(obj)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .filter(([k]) => !['status', 'timestamp', 'path'].includes(k))
      .map(([k, v]) => ({ campo: k, mensagem: String(v).slice(0, 500) }));
  }
  return [];
}

function lerErroUnico(e: unknown): PncpErroCampo[] {
  if (typeof e === 'string') return [{ campo: '', mensagem: e }];
  if (!e || typeof e !== 'object') return [];
  const o = e as Record<string, unknown>;
  const mensagem = [o.mensagem, o.message, o.defaultMessage].find((v) => typeof v === 'string');
  const campo = [o.nomeCampo, o.campo, o.field].find((v) => typeof v === 'string');
  if (typeof mensagem !== 'string') return [];
  return [{ campo: typeof campo === 'string' ? campo : '', mensagem: mensagem.slice(0, 500) }];
}

/** Maps `itensPlano[3].quantidade`, `[3].x`, `lista[3]…`, `listaNumerosItens[3]` (index in the batch sent) to numeroItem. */
export function mapearErrosAosItens(erros: PncpErroCampo[], numerosDoLote: readonly number[]): PncpErroCampo[] {
  return erros.map((e) => {
    const m = /\[(\d+)\]/.exec(e.campo);
    if (!m) return e;
    const numero = numerosDoLote[Number(m[1])];
    return numero === undefined ? e : { ...e, numeroItem: numero };
  });
}

export function createPncpClient(opcoes: PncpClientOpcoes): PncpClient {
  const baseUrl = opcoes.baseUrl.replace(/\/+$/, '');
  const consultaUrl = opcoes.consultaUrl?.replace(/\/+$/, '');
  const fetchFn = opcoes.fetch ?? globalThis.fetch;
  const sleep = opcoes.sleep ?? dormir;
  const random = opcoes.random ?? Math.random;
  const now = opcoes.now ?? Date.now;
  const maxTentativas = Math.max(1, opcoes.maxTentativas ?? 5);
  const base = opcoes.esperaBaseMs ?? 500;
  const teto = opcoes.esperaMaximaMs ?? 30_000;
  const retryAfterMaximo = opcoes.retryAfterMaximoMs ?? 60_000;
  const intervaloEscritas = opcoes.intervaloEscritasMs ?? 500;
  const timeoutLeitura = typeof opcoes.timeoutMs === 'number' ? opcoes.timeoutMs : (opcoes.timeoutMs?.leitura ?? 60_000);
  const timeoutEscrita = typeof opcoes.timeoutMs === 'number' ? opcoes.timeoutMs : (opcoes.timeoutMs?.escrita ?? 120_000);
  const cache = opcoes.cacheTokens ?? cacheGlobal;
  const log = opcoes.logger;

  let loginConhecido: string | undefined;
  // Writes of one client go one at a time, spaced (research §1.6: concurrency 1 per host for writes).
  let filaEscritas: Promise<unknown> = Promise.resolve();
  let ultimaEscrita = Number.NEGATIVE_INFINITY;

  const chave = (login: string) => `${baseUrl}\u0000${login}`;
  const valido = (e: { token?: string; expiraEm: number } | undefined): e is { token: string; expiraEm: number } => !!e?.token && now() < e.expiraEm;

  async function obterToken(): Promise<string> {
    if (loginConhecido !== undefined) {
      const e = cache.entradas.get(chave(loginConhecido));
      if (valido(e)) return e.token;
      if (e?.pendente) return e.pendente;
    }
    const cred = await opcoes.credenciais();
    loginConhecido = cred.login;
    const k = chave(cred.login);
    const existente = cache.entradas.get(k);
    if (valido(existente)) return existente.token;
    if (existente?.pendente) return existente.pendente;
    const entrada: { token?: string; expiraEm: number; pendente?: Promise<string> } = { expiraEm: 0 };
    const pendente = login(cred).then(
      ({ token, validadeMs, inicio }) => {
        const margem = Math.min(opcoes.margemRenovacaoMs ?? MARGEM_PADRAO_MS, validadeMs / 10);
        entrada.token = token;
        entrada.expiraEm = inicio + validadeMs - margem;
        delete entrada.pendente;
        return token;
      },
      (erro: unknown) => {
        if (cache.entradas.get(k) === entrada) cache.entradas.delete(k);
        throw erro;
      },
    );
    entrada.pendente = pendente;
    cache.entradas.set(k, entrada);
    return pendente;
  }

  function invalidarToken(token: string): void {
    if (loginConhecido === undefined) return;
    const k = chave(loginConhecido);
    const e = cache.entradas.get(k);
    if (e && e.token === token) cache.entradas.delete(k);
  }

  async function login(cred: PncpCredenciais): Promise<{ token: string; validadeMs: number; inicio: number }> {
    const inicio = now();
    const lido = await executar(
      {
        operacao: 'login',
        metodo: 'POST',
        caminho: '/v1/usuarios/login',
        corpo: { login: cred.login, senha: cred.senha },
        autenticado: false,
        repeticao: 'sempre',
      },
      (r) => {
        const token = (r.headers.get('authorization') ?? '').replace(/^\s*Bearer\s+/i, '').trim();
        if (!token) return ILEGIVEL;
        const expires = Number(r.headers.get('expires'));
        return { token, validadeMs: Number.isFinite(expires) && expires > 0 ? expires : TTL_PADRAO_MS };
      },
    );
    log?.info?.('PNCP: login realizado', { validadeMs: lido.validadeMs });
    return { ...lido, inicio };
  }

  function espera(tentativa: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return retryAfterMs;
    return Math.floor(random() * Math.min(teto, base * 2 ** (tentativa - 1)));
  }

  async function umaChamada(pedido: Pedido, token: string | undefined): Promise<Resposta> {
    const escrita = pedido.metodo !== 'GET';
    const timeoutMs = escrita ? timeoutEscrita : timeoutLeitura;
    const controle = new AbortController();
    const timer = setTimeout(() => controle.abort(), timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
    if (pedido.corpo !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const inicio = performance.now();
    try {
      const r = await fetchFn(`${baseUrl}${pedido.caminho}`, {
        method: pedido.metodo,
        headers,
        body: pedido.corpo === undefined ? null : JSON.stringify(pedido.corpo),
        signal: controle.signal,
      });
      const texto = await r.text();
      log?.debug?.('PNCP: resposta', {
        operacao: pedido.operacao,
        metodo: pedido.metodo,
        caminho: pedido.caminho,
        status: r.status,
        ms: Math.round(performance.now() - inicio),
      });
      return { status: r.status, headers: r.headers, texto };
    } catch (erro) {
      const tempo = controle.signal.aborted;
      const naoEnviado = !tempo && CODIGOS_NAO_ENVIADO.has(errorCode(erro) ?? '');
      log?.warn?.('PNCP: falha sem resposta', {
        operacao: pedido.operacao,
        metodo: pedido.metodo,
        caminho: pedido.caminho,
        motivo: tempo ? 'tempo' : 'rede',
        codigo: errorCode(erro),
      });
      throw new PncpErroTemporario({
        operacao: pedido.operacao,
        motivo: tempo ? 'tempo' : 'rede',
        timeoutMs,
        incerto: !naoEnviado,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One call with the retry policy; resolves with what `ler` makes of the 2xx answer, or throws a PncpErro.
   * 404 → PncpErroNaoEncontrado. `ler` returns ILEGIVEL for an unreadable success answer (retried like a 5xx).
   */
  async function executar<T>(pedido: Pedido, ler: (r: Resposta) => T | typeof ILEGIVEL): Promise<T> {
    let autenticado = pedido.autenticado;
    let renovou = false;
    let tentativa = 0;
    for (;;) {
      tentativa++;
      const token = autenticado ? await obterToken() : undefined;
      let erro: PncpErroTemporario | PncpErroResposta;
      try {
        const r = await umaChamada(pedido, token);
        if (r.status >= 200 && r.status < 300) {
          const lido = ler(r);
          if (lido !== ILEGIVEL) return lido;
          log?.warn?.('PNCP: resposta de sucesso ilegível', { operacao: pedido.operacao, status: r.status });
          throw new PncpErroResposta(
            pedido.operacao === 'inserirPlano' ? 'a inclusão não devolveu o cabeçalho location com o sequencial do plano' : 'corpo ilegível',
            { operacao: pedido.operacao, status: r.status, incerto: pedido.repeticao === 'seguro' },
          );
        }
        if (r.status === 401) {
          if (pedido.operacao === 'login')
            throw new PncpErroAutenticacao('Usuário ou senha do PNCP recusados: confira em Configuração.', { operacao: 'login', status: 401 });
          if (!autenticado) {
            // A read the PNCP wants authenticated after all: repeat it once with the token.
            autenticado = true;
            tentativa--;
            continue;
          }
          if (!renovou && token) {
            renovou = true;
            invalidarToken(token);
            log?.info?.('PNCP: sessão recusada (401); novo login', { operacao: pedido.operacao });
            tentativa--;
            continue;
          }
          throw new PncpErroAutenticacao('O PNCP recusou a sessão mesmo após um novo login: confira o usuário do PNCP em Configuração.', {
            operacao: pedido.operacao,
            status: 401,
          });
        }
        if (r.status === 429 || r.status >= 500) {
          const naoExecutado = r.status === 429 || r.status === 503;
          erro = new PncpErroTemporario({
            operacao: pedido.operacao,
            status: r.status,
            motivo: r.status === 429 ? 'limite' : 'indisponivel',
            retryAfterMs: lerRetryAfter(r.headers.get('retry-after'), Date.now()),
            incerto: !naoExecutado && pedido.repeticao === 'seguro',
          });
        } else if (r.status === 404) {
          throw new PncpErroNaoEncontrado({ operacao: pedido.operacao });
        } else if (pedido.operacao === 'login') {
          // 400/403/422 on login: the PNCP refuses the credentials.
          throw new PncpErroAutenticacao('Usuário ou senha do PNCP recusados: confira em Configuração.', { operacao: 'login', status: r.status });
        } else if (r.status === 403) {
          throw new PncpErroAutenticacao(
            'O usuário do PNCP não tem permissão para esta operação neste órgão (403): confira em Configuração e no portal do PNCP.',
            { operacao: pedido.operacao, status: 403 },
          );
        } else {
          throw new PncpErroDados(lerErrosPncp(r.texto), { operacao: pedido.operacao, status: r.status });
        }
      } catch (e) {
        if (!(e instanceof PncpErroTemporario) && !(e instanceof PncpErroResposta)) throw e;
        erro = e;
      }
      const podeRepetir = pedido.repeticao === 'sempre' || !erro.incerto;
      if (!podeRepetir || tentativa >= maxTentativas) throw erro;
      const retryAfter = erro instanceof PncpErroTemporario ? erro.retryAfterMs : undefined;
      if (retryAfter !== undefined && retryAfter > retryAfterMaximo) throw erro;
      const ms = espera(tentativa, retryAfter);
      log?.info?.('PNCP: nova tentativa', { operacao: pedido.operacao, tentativa: tentativa + 1, esperaMs: ms, status: erro.status });
      await sleep(ms);
    }
  }

  /** Writes one at a time per client, spaced by `intervaloEscritasMs`. */
  function escrever<T>(f: () => Promise<T>): Promise<T> {
    const vez = filaEscritas.then(async () => {
      const falta = ultimaEscrita + intervaloEscritas - performance.now();
      if (falta > 0) await sleep(falta);
      try {
        return await f();
      } finally {
        ultimaEscrita = performance.now();
      }
    });
    filaEscritas = vez.catch(() => undefined);
    return vez;
  }

  const pca = (cnpj: string) => `/v1/orgaos/${cnpjDigitos(cnpj)}/pca`;
  const plano = (cnpj: string, ano: number, sequencial: number) => `${pca(cnpj)}/${ano}/${sequencial}`;
  const escritaSimples = (pedido: Pedido) => escrever(() => executar(pedido, vazioOuJson)).then(() => undefined);

  return {
    baseUrl,
    consultaUrl,

    inserirPlano(cnpj, dados) {
      const pedido: Pedido = {
        operacao: 'inserirPlano',
        metodo: 'POST',
        caminho: pca(cnpj),
        corpo: { codigoUnidade: dados.codigoUnidade, anoPca: dados.anoPca, itensPlano: dados.itensPlano.map(corpoItem) },
        autenticado: true,
        repeticao: 'seguro',
      };
      return escrever(() =>
        executar(pedido, (r) => {
          const location = r.headers.get('location') ?? '';
          const ultimo =
            location
              .replace(/[?#].*$/, '')
              .replace(/\/+$/, '')
              .split('/')
              .pop() ?? '';
          return /^\d+$/.test(ultimo) ? { sequencial: Number(ultimo) } : ILEGIVEL;
        }),
      );
    },

    async sequenciaisPlano(cnpj, codigoUnidade, ano) {
      const pedido: Pedido = {
        operacao: 'sequenciaisPlano',
        metodo: 'GET',
        caminho: `${pca(cnpj)}/${encodeURIComponent(codigoUnidade)}/${ano}/sequenciaisplano`,
        autenticado: false,
        repeticao: 'sempre',
      };
      try {
        return await executar(pedido, (r): SequenciaisPlano | null | typeof ILEGIVEL => {
          if (r.status === 204 || r.texto.trim() === '') return null;
          const corpo = lerJsonDecimais(r.texto);
          if (!corpo || typeof corpo !== 'object' || Array.isArray(corpo) || !('sequencialPlano' in corpo)) return ILEGIVEL;
          const o = corpo as { sequencialPlano?: unknown; sequencialUltimoItemInserido?: unknown };
          const seq = Number(o.sequencialPlano);
          if (o.sequencialPlano === null || !Number.isInteger(seq) || seq <= 0) return null;
          const ultimo = Number(o.sequencialUltimoItemInserido);
          return {
            sequencialPlano: seq,
            sequencialUltimoItemInserido: o.sequencialUltimoItemInserido == null || !Number.isInteger(ultimo) ? null : ultimo,
          };
        });
      } catch (e) {
        if (e instanceof PncpErroNaoEncontrado) return null;
        throw e;
      }
    },

    inserirItens(cnpj, ano, sequencial, itens) {
      // Success = 2xx with a JSON array (the new items' URLs) or an empty body; an HTML page is not a success.
      const pedido: Pedido = {
        operacao: 'inserirItens',
        metodo: 'POST',
        caminho: `${plano(cnpj, ano, sequencial)}/itens`,
        corpo: itens.map(corpoItem),
        autenticado: true,
        repeticao: 'seguro',
      };
      return escrever(() => executar(pedido, (r) => (r.texto.trim() === '' || Array.isArray(lerJsonDecimais(r.texto)) ? true : ILEGIVEL))).then(
        () => undefined,
      );
    },

    retificarItens(cnpj, ano, sequencial, lista, justificativa) {
      return escritaSimples({
        operacao: 'retificarItens',
        metodo: 'PATCH',
        caminho: `${plano(cnpj, ano, sequencial)}/itens`,
        corpo: { lista: lista.map(corpoItem), justificativa },
        autenticado: true,
        repeticao: 'sempre',
      });
    },

    excluirItens(cnpj, ano, sequencial, numeros, justificativa) {
      return escritaSimples({
        operacao: 'excluirItens',
        metodo: 'DELETE',
        caminho: `${plano(cnpj, ano, sequencial)}/itens`,
        corpo: { listaNumerosItens: numeros, justificativa },
        autenticado: true,
        repeticao: 'sempre',
      });
    },

    async excluirPlano(cnpj, ano, sequencial, justificativa) {
      try {
        await escritaSimples({
          operacao: 'excluirPlano',
          metodo: 'DELETE',
          caminho: plano(cnpj, ano, sequencial),
          corpo: { justificativa },
          autenticado: true,
          repeticao: 'sempre',
        });
        return { jaExcluido: false };
      } catch (e) {
        if (e instanceof PncpErroNaoEncontrado) return { jaExcluido: true };
        throw e;
      }
    },

    listarItens(cnpj, ano, sequencial, pagina, tamanho) {
      return executar(
        {
          operacao: 'listarItens',
          metodo: 'GET',
          caminho: `${plano(cnpj, ano, sequencial)}/itens?pagina=${pagina}&tamanhoPagina=${tamanho}`,
          autenticado: false,
          repeticao: 'sempre',
        },
        (r): ItemPncpLido[] | typeof ILEGIVEL => {
          if (r.status === 204 || r.texto.trim() === '') return [];
          const corpo = lerJsonDecimais(r.texto);
          if (!Array.isArray(corpo)) return ILEGIVEL;
          const itens: ItemPncpLido[] = [];
          for (const i of corpo) {
            const numero = Number((i as { numeroItem?: unknown } | null)?.numeroItem);
            if (!i || typeof i !== 'object' || !Number.isInteger(numero)) return ILEGIVEL;
            itens.push({ ...(i as Record<string, unknown>), numeroItem: numero });
          }
          return itens;
        },
      );
    },

    quantidadeItens(cnpj, ano, sequencial) {
      return executar(
        {
          operacao: 'quantidadeItens',
          metodo: 'GET',
          caminho: `${plano(cnpj, ano, sequencial)}/itens/quantidade`,
          autenticado: false,
          repeticao: 'sempre',
        },
        (r) => {
          const t = r.texto.trim();
          return /^"?\d+"?$/.test(t) ? Number(t.replace(/"/g, '')) : ILEGIVEL;
        },
      );
    },
  };
}
