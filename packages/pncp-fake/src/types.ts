// The public types of the fake. Names follow the PNCP manual where they describe PNCP data.

export interface FakePncpOptions {
  /** Platform credentials the login accepts. Default: one user, `compras-treina` / `Senha-Forte-Treina-2026`. */
  users?: { login: string; senha: string }[];
  /**
   * Órgãos whose plans the fake accepts, with their registered units. Default: the demo Prefeitura
   * of the seed (packages/server-core/src/platform/seed.ts), CNPJ 46358021000184, unit '1'.
   * `nome`, `municipio`, `uf` feed the read-back (consolidado); optional.
   */
  orgaos?: { cnpj: string; unidades: string[]; nome?: string; municipio?: string; uf?: string }[];
  /** Clock (ms) for token expiry and the dates the fake writes. Default: a fake clock frozen at Date.now() (moves only by `clock.advance`). */
  now?: () => number;
  /** Token lifetime. Default 3 600 000 (1 hour, as the PNCP's `expires` header). */
  tokenTtlMs?: number;
}

export interface FakePncp {
  /** 'http://127.0.0.1:<port>'. Integration base `${url}/api/pncp`, consultation base `${url}/api/consulta`. */
  url: string;
  /** The fake's clock (token expiry). With `options.now`, `advance` adds an offset to it. */
  clock: { now(): number; advance(ms: number): void };
  /** Queues a fault (matched in queue order; see FakeFault). */
  fault(f: FakeFault): void;
  clearFaults(): void;
  /** Current plans (deep copies), of one CNPJ or all, in creation order. */
  plans(cnpj?: string): FakePlan[];
  /** Every request in order (never the Authorization value nor a password). */
  calls: FakeCall[];
  /** Every token the login issued, in order: for tests that check no token reached logs or tables. */
  readonly issuedTokens: readonly string[];
  /** Fixture data for the price-source consultation routes. */
  addContratacao(c: FakeContratacao): void;
  close(): Promise<void>;
}

export type FakeFaultKind = '429' | '429-retry-after' | '500' | '503' | 'delay' | '401' | 'malformed' | 'commit-drop';

export type FakeRoute = 'login' | 'POST /pca' | 'POST /itens' | 'PATCH /itens' | 'DELETE /itens' | 'DELETE /pca' | 'GET' | '*';

export interface FakeFault {
  /** Which calls it matches: 'GET' = every GET (integration and consultation), '*' = every call. */
  route: FakeRoute;
  kind: FakeFaultKind;
  /** How many matching calls it answers (default 1). */
  times?: number;
  /** Matching calls to let through first (default 0): e.g. 401 on the 2nd items batch = after 1. */
  after?: number;
  /** For 'delay' (default 5000): the answer is sent after this much REAL time. */
  delayMs?: number;
  /** For '429-retry-after' (default 1): the Retry-After header, in seconds. */
  retryAfterSeconds?: number;
}

export interface FakePlan {
  cnpj: string;
  codigoUnidade: string;
  anoPca: number;
  sequencial: number;
  excluido: boolean;
  justificativaExclusao?: string;
  itens: FakePlanItem[];
}

export interface FakePlanItem {
  numeroItem: number;
  excluido: boolean;
  /** The item as received (JSON.parse of the request), with later rectifications merged in. */
  body: Record<string, unknown>;
  retificacoes: { campos: Record<string, unknown>; justificativa: string }[];
  /** Added: justificativa of the deletion, when excluido. */
  justificativaExclusao?: string;
  /**
   * Added: decimal fields (quantidade, valorUnitario, valorTotal, valorOrcamentoExercicio) that
   * arrived as JSON numbers instead of strings, on insert or rectification. The PNCP accepts both;
   * the product's client sends strings, so its tests can assert this is empty.
   */
  decimalsSentAsNumbers: string[];
}

export interface FakeCall {
  method: string;
  /** Path and query string. */
  path: string;
  /** The status the fake answered; 0 when it answered nothing (commit-drop). */
  status: number;
  /** A valid (known, unexpired) bearer token came with the call. */
  authenticated: boolean;
  /** The fake clock's time of the call. */
  at: number;
}

/** A published contratação with items and results, for the price-source routes. */
export interface FakeContratacao {
  orgao: { cnpj: string; nome: string; uf: string; municipio: string };
  ano: number;
  sequencial: number;
  /** YYYY-MM-DD. */
  dataPublicacao: string;
  objeto?: string;
  itens: FakeContratacaoItem[];
}

export interface FakeContratacaoItem {
  numeroItem: number;
  descricao: string;
  unidadeMedida: string;
  /** Decimal text. */
  quantidade: string;
  /** Decimal text; default '0' (orçamento sigiloso). */
  valorUnitarioEstimado?: string;
  /** CATMAT/CATSER code. */
  catalogoCodigoItem?: string;
  /** 'M' material (default) or 'S' serviço. */
  materialOuServico?: 'M' | 'S';
  resultados: FakeResultado[];
}

export interface FakeResultado {
  /** Decimal text. */
  valorUnitarioHomologado: string;
  /** Decimal text. */
  quantidadeHomologada: string;
  niFornecedor: string;
  nomeRazaoSocialFornecedor: string;
  /** YYYY-MM-DD. */
  dataResultado: string;
  /** Decimal text; optional. */
  percentualDesconto?: string;
}
