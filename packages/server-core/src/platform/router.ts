import { type OpenAPIHono, type RouteConfig, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { type AuditEntry, type AuditFn, writeAudit, type AuditDefaults } from './audit.js';
import { clientIp, hasTag, requireAuth, requireTag } from './auth.js';
import type { AppEnv, MutateFn, PluginContext, PublicRequestContext, RequestContext } from './context.js';
import type { Tx } from './db/types.js';
import { AppError, validationError } from './errors.js';
import { findInvalidInput } from './input-guard.js';
import { type MailMessage, outboxMailer } from './mail.js';
import { bindMutation, deliverInBackground, retryTransient } from './mutation.js';
import type { Runtime } from './runtime.js';
import { CONTROLE_INTERNO_TAG } from './scope.js';
import { EXEMPT_TAGS } from './version.js';

type Schema = z.ZodType;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Validated input of a route: `c.req.valid('json' | 'query' | 'param')`. */
export type RouteInput<Q, P, B> = {
  in: object;
  out: (Q extends Schema ? { query: z.output<Q> } : object) &
    (P extends Schema ? { param: z.output<P> } : object) &
    (B extends Schema ? { json: z.output<B> } : object);
};

/** The Hono context given to a handler, typed with the route's validated input. */
export type RouteContext<Q = undefined, P = undefined, B = undefined> = Context<AppEnv, string, RouteInput<Q, P, B>>;

/**
 * A response: a zod schema (described as 'Sucesso') or a description with an optional schema, or with
 * `file`: the media type of a file answered (e.g. 'application/pdf'), published as binary content.
 */
export type RouteResponse = Schema | { description: string; schema?: Schema; file?: string };

interface RouteBase<Q, P, B> {
  method: Method;
  /** Relative to /api/<plugin>: '/items', '/items/:id' (or '/items/{id}'). */
  path: string;
  summary: string;
  description?: string;
  request?: {
    query?: Q;
    params?: P;
    /** JSON body (Content-Type: application/json). */
    body?: B;
  };
  /** Documented answers by status, e.g. `{ 200: itemSchema, 204: { description: 'Excluído' } }`. */
  responses?: Record<number, RouteResponse>;
  /**
   * The operation's `operationId` in /api/openapi.json, `<plugin>.<resource>.<action>` (camelCase
   * parts), e.g. 'cotacoes.cotacoes.mapa'; it must start with the plugin's id. Default: derived from
   * the method and the path (see `defaultOperationId`), e.g. `POST /pre-requisicoes/de-memorando` →
   * 'requisicoes.preRequisicoes.postDeMemorando'. Unique in the document: the server refuses to start
   * on a duplicate.
   */
  operationId?: string;
  /**
   * The path published in /api/openapi.json when `path` uses a Hono regex parameter a client cannot
   * call as written: a path `/x/{id{[^/]+\.pdf}}` is published as `/x/{id}.pdf`, with the `id`
   * parameter (the handler still receives what Hono matched, e.g. '<id>.pdf').
   */
  openApiPath?: string;
  /**
   * A larger request body than the server's 1 MB, for a file upload: over `maxBytes` the answer is
   * 413 `payload_too_large` with `message` (pt-BR), before the body is read.
   */
  bodyLimit?: RouteBodyLimit;
}

/** See RouteBase.bodyLimit. */
export interface RouteBodyLimit {
  maxBytes: number;
  message: string;
}

/** Where a router records the routes' own body limits (the server applies them before any route). */
export interface RouteBodyLimits {
  /** `path` is the full path with its parameters (':id' or '{id}'), e.g. '/api/cotacoes/cotacoes/:id/evidencias'. */
  add(method: Method, path: string, rule: RouteBodyLimit): void;
}

/** A route reachable by a signed-in user holding `tag` in the current entidade. */
export interface TaggedRouteDefinition<Q, P, B> extends RouteBase<Q, P, B> {
  /** Permission tag required (0 and -1..-4: any signed-in user). */
  tag: number;
  public?: false;
  /**
   * false: a call is not user activity, so it does not keep the session from its idle timeout
   * (polling routes, token refresh). Default true.
   */
  activity?: boolean;
  /**
   * GET only: whether the controle interno (CONTROLE_INTERNO_TAG) also opens this route, read-only,
   * with every centro de custo in scope (`ctx.leituraControleInterno`). Default: true for the read
   * routes of a document declared on this router (see `PluginRouter.declareDocument`), else false.
   */
  controleInterno?: boolean;
  handler: (c: RouteContext<Q, P, B>, ctx: RequestContext) => Response | Promise<Response>;
}

/** A route reachable without a token (sign-in, health, version…). */
export interface PublicRouteDefinition<Q, P, B> extends RouteBase<Q, P, B> {
  public: true;
  tag?: undefined;
  handler: (c: RouteContext<Q, P, B>, ctx: PublicRequestContext) => Response | Promise<Response>;
}

export interface PluginRouter {
  /** Id of the plugin the routes belong to (mounted at /api/<id>). */
  readonly pluginId: string;
  /**
   * Declares a route. Requests pass, in this order: bearer token + live session (401), the tag in the
   * session's entidade (403, audited), the hostile-input guard (NUL, lone surrogates, absurd nesting:
   * 400 with `fields`), zod validation of params/query/body (400 with `fields`), then
   * `handler`. The route is listed in /api/openapi.json with `x-permission-tag` or `x-public`.
   */
  route<Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
    definition: TaggedRouteDefinition<Q, P, B>,
  ): void;
  route<Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
    definition: PublicRouteDefinition<Q, P, B>,
  ): void;
  /**
   * Declares `path` (e.g. '/requisicoes') the path of a document guarded by `tag`
   * (defineDocumentResource calls it). The GET routes of this router guarded by `tag` at `path`,
   * `path.csv`, `path.xlsx` and `path/:id…` (the list, the exports, the record, its PDF and timeline,
   * and every other read of one document a plugin declares there, e.g. `/requisicoes/:id/aprovacao`)
   * are also opened, read-only, to the controle interno (CONTROLE_INTERNO_TAG), with every centro de
   * custo in scope. Writes (POST/PUT/PATCH/DELETE) are never opened. Routes declared before or after
   * the call alike.
   */
  declareDocument(path: string, tag: number): void;
}

/** Added to the OpenAPI description of a read the controle interno opens (see `declareDocument`). */
const CONTROLE_INTERNO_NOTE = `Também aberta, somente leitura, ao controle interno (tag ${CONTROLE_INTERNO_TAG}): os documentos de todos os centros de custo, sem nenhuma ação.`;

/** A route of a document `docPath` that reads it: the list, its exports, or `<docPath>/:id…` (one document). */
function isDocumentRead(routePath: string, docPath: string): boolean {
  if (routePath === docPath || routePath === `${docPath}.csv` || routePath === `${docPath}.xlsx`) return true;
  if (!routePath.startsWith(`${docPath}/`)) return false;
  return /^(:id(?=$|[/.])|\{id(?=[{}]))/.test(routePath.slice(docPath.length + 1));
}

/** `{ error: { code, message, fields? } }` */
export const errorResponseSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
    }),
  })
  .openapi('Erro');

const STATUS_TEXT: Record<number, string> = {
  200: 'Sucesso',
  201: 'Criado',
  204: 'Sem conteúdo',
  400: 'Dados inválidos (fields traz uma mensagem por campo)',
  401: 'Sem sessão válida',
  403: 'Sem a permissão exigida',
  404: 'Não encontrado',
  409: 'Conflito',
  429: 'Muitas tentativas (Retry-After diz quantos segundos esperar)',
  500: 'Erro interno',
  503: 'Banco de dados indisponível no momento (code database_unavailable; Retry-After diz quantos segundos esperar)',
};

/** 'pre-requisicoes' → 'preRequisicoes', 'memoria.pdf' → 'memoriaPdf'. */
function camelCase(text: string): string {
  const words = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return words.map((word, i) => (i === 0 ? word.charAt(0).toLowerCase() : word.charAt(0).toUpperCase()) + word.slice(1)).join('');
}

const pascalCase = (text: string): string => {
  const camel = camelCase(text);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
};

/**
 * The operationId of a route of a kit (CRUD, document, lookup, import): `<plugin>.<resource>.<action>`,
 * the resource being the kit's path in camelCase, e.g. ('requisicoes', '/pre-requisicoes', 'list') →
 * 'requisicoes.preRequisicoes.list'.
 */
export function kitOperationId(pluginId: string, path: string, action: string): string {
  return `${pluginId}.${camelCase(path) || camelCase(pluginId)}.${camelCase(action)}`;
}

/**
 * The operationId of a route that declares none: `<plugin>.<resource>.<method><Rest>`, the resource
 * being the path's first segment and `Rest` its other fixed segments (parameters left out, except a
 * last one: `By<Name>`), all in camelCase. `GET /requisicoes/:id/aprovacao` →
 * 'requisicoes.requisicoes.getAprovacao'; `DELETE /cotacoes/:id/precos/:precoId` →
 * 'cotacoes.cotacoes.deletePrecosByPrecoId'; `GET /pendencias` → 'requisicoes.pendencias.get'.
 */
export function defaultOperationId(pluginId: string, method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  // the core's own routes are declared with their /api prefix
  if (pluginId === 'core' && segments[0] === 'api') segments.shift();
  const param = (segment: string) => /^(:\w+|\{.*\})$/.test(segment);
  const nameOf = (segment: string) => segment.replace(/^:/, '').replace(/^\{(\w+).*\}$/, '$1');
  const first = segments[0];
  const resource = first && !param(first) ? camelCase(first) : camelCase(pluginId);
  const rest = first && !param(first) ? segments.slice(1) : segments;
  const action = rest.map((segment, i) => (!param(segment) ? pascalCase(segment) : i === rest.length - 1 ? `By${pascalCase(nameOf(segment))}` : '')).join('');
  return `${pluginId}.${resource}.${method.toLowerCase()}${action}`;
}

// the plugin id may hold hyphens ('contratos-teste'): they are URL-safe
const OPERATION_ID = /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9]*)+$/;

/**
 * Throws when two operations of an OpenAPI document share an operationId (called by the server once
 * every route is declared). `operations` are `{ operationId, method, path }` as published.
 */
export function assertUniqueOperationIds(operations: Iterable<{ operationId: string | undefined; method: string; path: string }>): void {
  const seen = new Map<string, string>();
  for (const { operationId, method, path } of operations) {
    if (!operationId) continue;
    const route = `${method.toUpperCase()} ${path}`;
    const other = seen.get(operationId);
    if (other) {
      throw new Error(
        `OpenAPI: the routes ${other} and ${route} share the operationId '${operationId}'; give one of them its own \`operationId\` in router.route.`,
      );
    }
    seen.set(operationId, route);
  }
}

function errorResponse(status: number) {
  return { description: STATUS_TEXT[status] ?? 'Erro', content: { 'application/json': { schema: errorResponseSchema } } };
}

export function createMutate(runtime: Runtime, defaults: AuditDefaults): MutateFn {
  return async <T>(fn: (tx: Tx, audit: AuditFn) => Promise<T>) => {
    const afterCommit: MailMessage[] = [];
    const attempt = async (tx: Tx) => {
      afterCommit.length = 0;
      const entries: AuditEntry[] = [];
      const mails: MailMessage[] = [];
      let open = true;
      const audit: AuditFn = (entry) => {
        if (!open) throw new Error('audit() was called after its ctx.mutate callback had finished.');
        entries.push(entry);
      };
      const mail = (message: MailMessage) => {
        if (!open) throw new Error('sendMail() was called after its ctx.mutate callback had finished.');
        mails.push(message);
      };
      bindMutation(tx, { audit, mail });
      const result = await fn(tx, audit);
      open = false;
      await writeAudit(tx, entries, defaults);
      if (runtime.mailer.kind === 'outbox') {
        const outbox = outboxMailer(tx, runtime.clock);
        for (const message of mails) await outbox.send(message);
      } else afterCommit.push(...mails);
      return result;
    };
    // a deadlock or serialization failure (40P01, 40001) runs the transaction again, then answers 409
    const out = await retryTransient(() => runtime.database.db.transaction(attempt), { logger: runtime.logger, what: `ctx.mutate (${defaults.plugin})` });
    for (const message of afterCommit) deliverInBackground(runtime, message);
    return out;
  };
}

function buildRouteConfig(
  definition: RouteBase<unknown, unknown, unknown> & { tag?: number | undefined; public?: boolean | undefined },
  pluginId: string,
  middleware: MiddlewareHandler<AppEnv>[],
): RouteConfig {
  const path = definition.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(definition.responses ?? { 200: { description: STATUS_TEXT[200]! } })) {
    const described = response instanceof z.ZodType ? { description: STATUS_TEXT[Number(status)] ?? 'Resposta', schema: response } : response;
    const file = 'file' in described ? described.file : undefined;
    responses[status] = described.schema
      ? { description: described.description, content: { 'application/json': { schema: described.schema } } }
      : file
        ? { description: described.description, content: { [file]: { schema: { type: 'string', format: 'binary' } } } }
        : { description: described.description };
  }
  const request: NonNullable<RouteConfig['request']> = {};
  const input = definition.request ?? {};
  if (input.query) request.query = input.query as never;
  if (input.params) request.params = input.params as never;
  if (input.body) request.body = { required: true, content: { 'application/json': { schema: input.body as Schema } } };
  if (input.query || input.params || input.body) responses['400'] ??= errorResponse(400);
  if (!definition.public) {
    responses['401'] ??= errorResponse(401);
    if (!EXEMPT_TAGS.includes(definition.tag!)) responses['403'] ??= errorResponse(403);
  }
  responses['500'] ??= errorResponse(500);
  responses['503'] ??= errorResponse(503);
  const extensions = definition.public ? { 'x-public': true, security: [] } : { 'x-permission-tag': definition.tag!, security: [{ bearerAuth: [] }] };
  const operationId = definition.operationId ?? defaultOperationId(pluginId, definition.method, definition.path);
  if (!OPERATION_ID.test(operationId) || !operationId.startsWith(`${pluginId}.`)) {
    throw new Error(
      `Server plugin '${pluginId}': route ${definition.method.toUpperCase()} ${definition.path} has the operationId '${operationId}'; it must be '${pluginId}.<resource>.<action>' (letters and digits).`,
    );
  }
  return createRoute({
    method: definition.method,
    path,
    operationId,
    summary: definition.summary,
    ...(definition.description ? { description: definition.description } : {}),
    tags: [pluginId],
    request,
    responses,
    middleware,
    ...extensions,
  } as RouteConfig);
}

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

function invalidInput(target: string, problem: { path: string; message: string }): AppError {
  return new AppError(400, 'validation_error', 'Verifique os campos destacados.', { [problem.path || target]: problem.message });
}

/**
 * Runs before zod on every route (public ones too): path parameters, query values and the parsed
 * JSON body are walked, and a NUL character, a lone UTF-16 surrogate (PostgreSQL text and jsonb
 * cannot hold either) or a body nested deeper than any the API takes is a 400 `validation_error`
 * naming the field. The parsed body is cached by Hono, so the json validator reads it again for free;
 * a body that is not JSON is left to that validator (400).
 */
function rejectHostileInput(hasBody: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const params = findInvalidInput(c.req.param());
    if (params) throw invalidInput('param', params);
    const query = findInvalidInput(c.req.queries());
    if (query) throw invalidInput('query', { ...query, path: query.path.replace(/\.\d+$/, '') });
    const mediaType = c.req.header('content-type')?.split(';')[0]?.trim() ?? '';
    if (hasBody && JSON_MEDIA_TYPE.test(mediaType)) {
      let body: unknown;
      let parsed = true;
      try {
        body = await c.req.json();
      } catch {
        parsed = false; // malformed JSON: the json validator answers it (400)
      }
      const problem = parsed ? findInvalidInput(body) : undefined;
      if (problem) throw invalidInput('json', problem);
    }
    await next();
  };
}

/** Router of one plugin (or of server-core itself), declaring OpenAPI routes on `app`. */
export function createPluginRouter(
  app: OpenAPIHono<AppEnv>,
  pluginCtx: PluginContext,
  runtime: Runtime,
  bodyLimits?: { prefix: string; limits: RouteBodyLimits },
): PluginRouter {
  const pluginId = pluginCtx.plugin.id;
  const documents: { path: string; tag: number }[] = [];
  const route = (
    definition: (TaggedRouteDefinition<unknown, unknown, unknown> | PublicRouteDefinition<unknown, unknown, unknown>) & {
      public?: boolean;
    },
  ): void => {
    if (definition.public !== true) {
      if (typeof definition.tag !== 'number' || !Number.isInteger(definition.tag)) {
        throw new Error(`Server plugin '${pluginId}': route ${definition.method.toUpperCase()} ${definition.path} must declare a numeric tag or public: true.`);
      }
    }
    if (definition.bodyLimit) {
      if (!bodyLimits)
        throw new Error(`Server plugin '${pluginId}': route ${definition.method.toUpperCase()} ${definition.path} cannot declare bodyLimit here.`);
      bodyLimits.limits.add(definition.method, `${bodyLimits.prefix}${definition.path}`, definition.bodyLimit);
    }
    const controleInterno = (definition as { controleInterno?: boolean }).controleInterno;
    if (controleInterno === true && definition.method !== 'get') {
      throw new Error(
        `Server plugin '${pluginId}': route ${definition.method.toUpperCase()} ${definition.path} cannot be opened to the controle interno (reads only).`,
      );
    }
    const opens = (): boolean =>
      !definition.public &&
      definition.method === 'get' &&
      (controleInterno ?? documents.some((d) => d.tag === definition.tag && isDocumentRead(definition.path, d.path)));
    // decided at the first request, when every route and document of the router is declared
    let opened: boolean | undefined;
    const openToControleInterno = (): boolean => {
      opened ??= opens();
      return opened;
    };
    const guard = rejectHostileInput(definition.request?.body !== undefined);
    const middleware: MiddlewareHandler<AppEnv>[] = definition.public
      ? [guard]
      : [
          requireAuth(runtime, { activity: (definition as { activity?: boolean }).activity !== false }),
          requireTag(runtime, definition.tag!, pluginId, () => (openToControleInterno() ? CONTROLE_INTERNO_TAG : undefined)),
          guard,
        ];
    const config = buildRouteConfig(definition, pluginId, middleware);
    const handler = async (c: Context<AppEnv>) => {
      const ip = clientIp(c, runtime.trustProxy);
      const auth = c.get('auth');
      if (definition.public || !auth) {
        const ctx: PublicRequestContext = {
          ...pluginCtx,
          user: null,
          entidadeId: null,
          sessionId: null,
          tags: [],
          ip,
          mutate: createMutate(runtime, { plugin: pluginId, usuarioId: null, entidadeId: null, ip }),
        };
        return (definition as PublicRouteDefinition<unknown, unknown, unknown>).handler(c as never, ctx);
      }
      const ctx: RequestContext = {
        ...pluginCtx,
        user: auth.user,
        entidadeId: auth.entidadeId,
        sessionId: auth.sessionId,
        tags: auth.tags,
        ip,
        hasTag: (tag) => hasTag(auth, tag),
        centrosCusto: auth.centrosCusto,
        todosCentros: auth.todosCentros,
        leituraControleInterno: openToControleInterno() && auth.tags.includes(CONTROLE_INTERNO_TAG),
        mutate: createMutate(runtime, { plugin: pluginId, usuarioId: auth.user.id, entidadeId: auth.entidadeId, ip }),
      };
      return (definition as TaggedRouteDefinition<unknown, unknown, unknown>).handler(c as never, ctx);
    };
    const hook = (result: { success: boolean; error?: unknown; target?: unknown }) => {
      if (!result.success) throw validationError(result.error as never, result.target as never);
      return undefined;
    };
    if (definition.openApiPath) {
      // routed at `path` (a Hono regex parameter), published at `openApiPath`
      app.openapi({ ...config, hide: true }, handler as never, hook as never);
      const { middleware: _middleware, ...published } = config;
      app.openAPIRegistry.registerPath({ ...published, path: definition.openApiPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}') });
    } else {
      app.openapi(config, handler as never, hook as never);
    }
    // its OpenAPI description says when the controle interno opens it, read when the plugin's app is
    // mounted (server.ts: right after its `routes`, so every document of this router is declared by then)
    const registered = app.openAPIRegistry.definitions.at(-1);
    if (registered?.type === 'route' && !definition.public && definition.method === 'get') {
      const base = definition.description;
      Object.defineProperty(registered.route, 'description', {
        enumerable: true,
        configurable: true,
        get: () => (opens() ? (base ? `${base} ${CONTROLE_INTERNO_NOTE}` : CONTROLE_INTERNO_NOTE) : base),
      });
    }
  };
  const declareDocument = (path: string, tag: number): void => {
    if (!Number.isInteger(tag)) throw new Error(`Server plugin '${pluginId}': document ${path} must declare a numeric tag.`);
    documents.push({ path, tag });
  };
  return { pluginId, route: route as PluginRouter['route'], declareDocument };
}
