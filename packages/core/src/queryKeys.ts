// The cache keys of the app, in one place (TanStack Query's query-key-factory convention: from the
// general to the specific, so invalidating a prefix refreshes everything under it). The kits use
// them and so does every plugin: a key is never spelled by hand. Cheap (no imports): it is part of
// @app/core's first chunk.

/** A resource's (or document's) endpoint, as its declaration spells it: '/memorandos/memorandos'. */
type Endpoint = string;
type Params = Readonly<Record<string, unknown>>;

/**
 * The query keys of the app.
 *
 * Everything of a resource or document lives under `all(endpoint)`:
 *
 *   ['resource', endpoint]                                  all: lists, records, options, timelines
 *   ['resource', endpoint, 'list']                          lists: every page of its list
 *   ['resource', endpoint, 'list', params]                  list: one page (the query string)
 *   ['resource', endpoint, 'item', id]                      item / document: one record (GET /:id)
 *   ['resource', endpoint, 'item', id, 'children', name]    children: a child collection of the record
 *   ['resource', endpoint, 'item', id, 'view', name, …]     view: another read of the record (a mapa, its alerts)
 *   ['resource', endpoint, 'historico', id]                 history: its timeline
 *   ['resource', endpoint, 'options', params]               options: its rows as a select's options
 *   ['resource', endpoint, name, …]                         extra: another read of the resource (choices of a form)
 *
 * so after a save `invalidateQueries({ queryKey: queryKeys.all(endpoint) })` refreshes its lists, its
 * records, their children and views and its timelines; `queryKeys.item(endpoint, id)` refreshes one
 * record with its children and views. Outside the resources: `pendencias()` (GET /api/pendencias,
 * the dashboard and the menu counts read it), `menuCounts()` and `plugin(id, …)` for a plugin's own
 * reads that are no resource (a configuration, a summary).
 *
 *   useQuery({ queryKey: queryKeys.view('/cotacoes/cotacoes', id, 'mapa'), queryFn: … });
 *   await queryClient.invalidateQueries({ queryKey: queryKeys.all('/cotacoes/cotacoes') });
 */
export const queryKeys = {
  /** Everything of a resource or document (lists, records, children, views, timelines, options). */
  all: (endpoint: Endpoint) => ['resource', endpoint] as const,
  /** Every page of a resource's list. */
  lists: (endpoint: Endpoint) => ['resource', endpoint, 'list'] as const,
  /** One page of a resource's list (`params`: its query string). */
  list: (endpoint: Endpoint, params: Params) => ['resource', endpoint, 'list', params] as const,
  /** One record (GET <endpoint>/:id): the Edit page, `useDocument` and any page reading it share it. */
  item: (endpoint: Endpoint, id: string) => ['resource', endpoint, 'item', id] as const,
  /** One document (the same key as `item`). */
  document: (endpoint: Endpoint, id: string) => ['resource', endpoint, 'item', id] as const,
  /** A child collection of a record (GET <endpoint>/:id/<children>). */
  children: (endpoint: Endpoint, id: string, children: string) => ['resource', endpoint, 'item', id, 'children', children] as const,
  /** Another read of a record (GET <endpoint>/:id/<name>, e.g. a cotação's mapa), refreshed with it. */
  view: (endpoint: Endpoint, id: string, name: string, ...args: readonly unknown[]) => ['resource', endpoint, 'item', id, 'view', name, ...args] as const,
  /** A record's timeline (GET <endpoint>/:id/historico). */
  history: (endpoint: Endpoint, id: string) => ['resource', endpoint, 'historico', id] as const,
  /** A resource's rows as select options. */
  options: (endpoint: Endpoint, params: Params) => ['resource', endpoint, 'options', params] as const,
  /** Records of a resource read one by one for a select (inactive values). */
  optionItems: (endpoint: Endpoint, ids: readonly string[]) => ['resource', endpoint, 'option-items', ids] as const,
  /** Another read of the resource that is no record (e.g. the choices of its form), refreshed with it. */
  extra: (endpoint: Endpoint, name: string, ...args: readonly unknown[]) => ['resource', endpoint, name, ...args] as const,
  /** What the person must act on (GET /api/pendencias). */
  pendencias: () => ['pendencias'] as const,
  /** Every count of the menu. */
  menuCounts: () => ['menu-count'] as const,
  /** The menu count read from `endpoint`. */
  menuCount: (endpoint: Endpoint) => ['menu-count', endpoint] as const,
  /** A plugin's own read that is no resource: `plugin('cotacoes', 'configuracao')`. */
  plugin: (pluginId: string, ...parts: readonly unknown[]) => [pluginId, ...parts] as const,
};
