// Chunks that can be asked for before they render (issue 23): a route's page, the kit's inner pages,
// the signed-in shell. Each load is one promise that records how it settled, so a chunk already in
// renders at once: no Suspense fallback and none of React's 300 ms hold on a revealed fallback.
// Cheap (React and wouter only): part of the first chunk.
import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { matchRoute } from 'wouter';
import type { ComposedApp, ResolvedRoute } from '../compose';
import type { PluginRoute } from '../contract';
import { ChunkLoadError } from './chunkError';

/** A promise that records how it settled (status/value/reason), so a settled load is read at once. */
export type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

export function track<T>(promise: Promise<T>): TrackedPromise<T> {
  const tracked = promise as TrackedPromise<T>;
  if (tracked.status) return tracked;
  tracked.status = 'pending';
  tracked.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}

const asChunkError = (error: unknown) => (error instanceof ChunkLoadError ? error : new ChunkLoadError(error));

/**
 * What a navigation gives a page's `prefetch`: the query client, the URL's query string (without '?')
 * and the route's parameters, so the page asks exactly what it will render with.
 */
export interface PagePrefetchContext {
  queryClient: QueryClient;
  search: string;
  params: Readonly<Record<string, string | undefined>>;
}

/**
 * Optional statics of a route's page component: `preload` loads the chunks it renders (awaited
 * before the page renders, so it suspends once), `prefetch` starts its data (the query options its
 * own hooks use), called by the route on a navigation as soon as the page module is in.
 */
export interface PageStatics {
  preload?: () => Promise<unknown>;
  prefetch?: (context: PagePrefetchContext) => Promise<unknown> | undefined;
}

export type PageModule = { default: ComponentType & PageStatics };

/**
 * React.lazy over a tracked load: a load already settled is handed to React as a thenable that
 * answers at once, so React renders the component in the same pass (React.lazy reads a thenable that
 * resolves synchronously without suspending); otherwise it suspends as React.lazy does.
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props
export function lazyFrom<M extends { default: ComponentType<any> }>(load: () => TrackedPromise<M>): LazyExoticComponent<M['default']> {
  return lazy(() => {
    const promise = load();
    if (promise.status !== 'fulfilled') return promise;
    const value = promise.value as M;
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose (React.lazy reads it at once)
    const settled = { status: 'fulfilled', value, then: (resolve: (module: M) => unknown) => resolve(value) };
    return settled as unknown as Promise<M>;
  });
}

/**
 * A lazy component that can be loaded ahead (`.load()`), like React.lazy otherwise; a failed load
 * is a ChunkLoadError (a later `.load()` tries again; a rendered one keeps its failure, as React.lazy).
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props
export function preloadable<M extends { default: ComponentType<any> }>(load: () => Promise<M>) {
  let loaded: TrackedPromise<M> | null = null;
  const loadOnce = (): TrackedPromise<M> => {
    if (!loaded) {
      const attempt: TrackedPromise<M> = track(
        load().catch((error: unknown) => {
          if (loaded === attempt) loaded = null;
          throw asChunkError(error);
        }),
      );
      loaded = attempt;
    }
    return loaded;
  };
  return Object.assign(lazyFrom<M>(loadOnce), { load: loadOnce });
}

const pages = new WeakMap<PluginRoute, TrackedPromise<PageModule>>();

/**
 * A route's page module with the chunks it renders (its `preload`), loaded once; a failure is a
 * ChunkLoadError and is forgotten, so the next navigation asks again.
 */
export function loadPage(route: PluginRoute): TrackedPromise<PageModule> {
  let page = pages.get(route);
  if (!page) {
    const attempt: TrackedPromise<PageModule> = track(
      route
        .load()
        .then(async (mod) => {
          if (!mod || typeof mod.default !== 'function') throw new ChunkLoadError(new Error('o módulo da página não exporta um componente default'));
          const Page = mod.default as PageModule['default'];
          if (typeof Page.preload === 'function') await Page.preload();
          return mod as PageModule;
        })
        .catch((error: unknown) => {
          if (pages.get(route) === attempt) pages.delete(route);
          throw asChunkError(error);
        }),
    );
    page = attempt;
    pages.set(route, page);
  }
  return page;
}

/** Loads a page ahead, ignoring a failure (the navigation will ask again and show it). */
export function preloadPage(route: PluginRoute): Promise<void> {
  return loadPage(route).then(
    () => undefined,
    () => undefined,
  );
}

/** The route the signed-in shell renders for `pathname` (its Switch's order), or null. */
export function routeForPath(app: ComposedApp, pathname: string, parser: Parameters<typeof matchRoute>[0]): ResolvedRoute | null {
  if (pathname === '/403') return null;
  for (const section of app.mounted) {
    const [matched, , base] = matchRoute(parser, section.basePath, pathname, true) as [boolean, unknown, string?];
    if (!matched) continue;
    const rest = pathname.slice((base ?? section.basePath).length) || '/';
    return app.routes.find((r) => r.mount === section.mount && matchRoute(parser, r.route.path, rest)[0]) ?? null;
  }
  if (app.home) {
    const home = app.home;
    return app.routes.find((r) => r.mount === home.mount && matchRoute(parser, r.fullPath, pathname)[0]) ?? null;
  }
  return null;
}

/** The parameters of `resolved` in `pathname` (as the page's useParams() reads them). */
export function routeParams(
  resolved: ResolvedRoute,
  parser: Parameters<typeof matchRoute>[0],
  pathname = window.location.pathname,
): Record<string, string | undefined> {
  const [matched, params] = matchRoute(parser, resolved.fullPath, pathname) as [boolean, Record<string, string | undefined> | null];
  return matched && params ? { ...params } : {};
}

/** Runs `task` when the browser is idle (a short timeout where requestIdleCallback is missing). */
export function whenIdle(task: () => void): () => void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 50);
  return () => clearTimeout(id);
}
