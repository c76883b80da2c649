// A route's chunk and data, started before React renders the page (signed-in shell's chunk only):
// - loadRoute: one load() per route, tracked (loadedPage), so a page whose chunk is already here
//   renders at once (no Suspense, no fallback);
// - startRoute: a navigation starts the route's data (its `prefetch`) with its chunk, and the page's
//   own `prefetch` (a static of its component) as soon as the chunk has arrived;
// - preloadRoutes: the chunks of the menu's pages, fetched when the browser is idle.
import type { ComponentType } from 'react';
import type { PluginRoute, RoutePage, RoutePrefetchContext } from '../contract';
import { ChunkLoadError } from './chunkError';

type PageModule = { default: ComponentType };

/** A promise that says whether it has settled, and with what. */
type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

function track<T>(promise: Promise<T>): TrackedPromise<T> {
  const tracked = promise as TrackedPromise<T>;
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

function checked(mod: PageModule): PageModule {
  if (!mod || typeof mod.default !== 'function') throw new ChunkLoadError(new Error('o módulo da página não exporta um componente default'));
  return mod;
}

const loads = new WeakMap<PluginRoute, TrackedPromise<PageModule>>();

/** The route's page component when its chunk is already here (else undefined). */
export function loadedPage(route: PluginRoute): ComponentType | undefined {
  const load = loads.get(route) as TrackedPromise<PageModule> | undefined;
  return load?.status === 'fulfilled' ? load.value?.default : undefined;
}

/**
 * The route's page module, loaded once (a rejected load() is a ChunkLoadError, kept like React.lazy
 * keeps it: the recoverable fallback's 'Tentar novamente' reloads the app).
 */
export function loadRoute(route: PluginRoute): Promise<PageModule> {
  let load = loads.get(route);
  if (!load) {
    load = track(
      Promise.resolve()
        .then(() => route.load())
        .then(checked, (error: unknown) => {
          throw error instanceof ChunkLoadError ? error : new ChunkLoadError(error);
        }),
    );
    loads.set(route, load);
  }
  return load;
}

/** Loads the route's chunk ahead of a navigation; a failure is forgotten (the navigation tries again). */
export function preloadRoute(route: PluginRoute): Promise<void> {
  if (loads.has(route)) return loads.get(route)!.then(noop, noop);
  return Promise.resolve()
    .then(() => route.load())
    .then((mod) => {
      if (!loads.has(route)) loads.set(route, track(Promise.resolve(checked(mod))));
      // its page may have inner chunks to warm (no context: no data)
      return (mod.default as RoutePage).prefetch?.();
    })
    .then(noop, noop);
}

function noop() {}

/** Runs a prefetch, whatever it throws or rejects (the page's own query reports a failure). */
function attempt(run: (() => unknown) | undefined): void {
  if (!run) return;
  try {
    void Promise.resolve(run()).catch(noop);
  } catch {
    // ignored: the page reads its data itself
  }
}

/**
 * A navigation to `route` starts: its declared `prefetch` now, its chunk now, and the page
 * component's own `prefetch` as soon as the chunk is here (all at once, not page by page).
 */
export function startRoute(route: PluginRoute, context: RoutePrefetchContext): void {
  const declared = route.prefetch;
  attempt(declared && (() => declared(context)));
  loadRoute(route).then((mod) => {
    const own = (mod.default as RoutePage).prefetch;
    attempt(own && (() => own(context)));
  }, noop);
}

/**
 * Under a test's act() (Testing Library sets IS_REACT_ACT_ENVIRONMENT): React does not retry a render
 * that suspended inside act() once act() has returned, so there navigations are plain updates (not
 * transitions) and nothing is preloaded when idle (a chunk already here would suspend only inside
 * act()). Browsers get both.
 */
export const inActEnvironment = () => (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT === true;

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** Runs `callback` when the browser is idle (requestIdleCallback; else after `fallbackMs`). Returns a cancel. */
export function whenIdle(callback: () => void, fallbackMs = 200): () => void {
  const w = (typeof window === 'undefined' ? {} : window) as IdleWindow;
  if (w.requestIdleCallback) {
    const handle = w.requestIdleCallback(callback, { timeout: 2000 });
    return () => w.cancelIdleCallback?.(handle);
  }
  const timer = setTimeout(callback, fallbackMs);
  return () => clearTimeout(timer);
}

/**
 * Fetches the chunks of `routes` one after the other, each when the browser is idle, so the pages a
 * person can open from the menu are here before the click. Returns a cancel.
 */
export function preloadRoutesWhenIdle(routes: readonly PluginRoute[]): () => void {
  let cancelled = false;
  let cancel = noop;
  const next = (i: number) => {
    if (cancelled || i >= routes.length) return;
    cancel = whenIdle(() => {
      if (!cancelled) void preloadRoute(routes[i]!).then(() => next(i + 1));
    });
  };
  next(0);
  return () => {
    cancelled = true;
    cancel();
  };
}
