/** Shapes of the HTTP API core talks to (see docs/interfaces.md). */

export interface EntidadeRef {
  id: string;
  nome: string;
}

export interface SessionUser {
  id: string;
  nome: string;
  login: string;
  email: string;
}

export interface SessionEntidade {
  id: string;
  nome: string;
  cnpj: string;
  municipio: string;
  uf: string;
  telefoneSuporte: string;
}

export type DevtoolsPolicy = 'report' | 'ignore';

export interface SessionConfig {
  appName: string;
  supportPhone: string;
  buildId: string;
  devtools: { policy: DevtoolsPolicy };
}

export interface Session {
  user: SessionUser;
  entidade: SessionEntidade;
  entidades: EntidadeRef[];
  tags: number[];
  /**
   * Ids of the centros de custo the user belongs to in this entidade (the default origin of a new
   * document); the row-level scope of documents. Older servers omit it.
   */
  centrosCusto?: string[];
  /** The user's perfil sees the documents of every centro de custo. Older servers omit it. */
  todosCentros?: boolean;
  config: SessionConfig;
}

export interface SignInResponse {
  token: string;
  entidades: EntidadeRef[];
  /** The token's entidade (the last one the user worked in); older servers may omit it. */
  entidadeId?: string;
}

export interface VersionResponse {
  buildId: string;
  version: string;
}

/** Error body of every failing API call. */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export type ThemePreference = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

/** What the route being shown registered (spec §2: tag and title on every navigation). */
export interface RouteInfo {
  tag: number;
  title: string;
  path: string;
}
