import { PageLoading } from '@app/ui';
import { type ComponentType, type LazyExoticComponent, Suspense, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import type { ResolvedRoute } from '../compose';
import type { PluginRoute } from '../contract';
import { ErrorBoundary } from '../errors/ErrorBoundary';
import { reportFatal } from '../errors/fatal';
import { getQueryClient } from '../query';
import { ChunkErrorFallback, ChunkLoadError } from './chunkError';
import { type PageModule, type TrackedPromise, lazyFrom, loadPage } from './preload';
import { PermissionGate, RouteMeta } from './RouteMeta';

const pages = new WeakMap<PluginRoute, LazyExoticComponent<ComponentType>>();

/** One lazy component per route, over its page module (loaded ahead or not: see loadPage). */
export function lazyPage(route: PluginRoute): LazyExoticComponent<ComponentType> {
  let page = pages.get(route);
  if (!page) {
    page = lazyFrom(() => loadPage(route));
    pages.set(route, page);
  }
  return page;
}

function RouteFailure({ error }: { error: unknown }) {
  if (error instanceof ChunkLoadError) return <ChunkErrorFallback />;
  return <PageLoading />;
}

/**
 * Starts the page's data (its `prefetch`) as soon as its module is in: at once when it already is
 * (in this render, so the request leaves before the page renders, as TanStack Query's
 * usePrefetchQuery does), else when it arrives. A failure is the page's to show (its own query).
 */
function prefetchPage(page: TrackedPromise<PageModule>, search: string, params: Record<string, string | undefined>) {
  const run = (mod: PageModule) => {
    const prefetch = mod.default.prefetch;
    if (typeof prefetch !== 'function') return;
    try {
      void prefetch({ queryClient: getQueryClient(), search, params })?.catch(() => undefined);
    } catch {
      // the page's own query asks again and shows it
    }
  };
  if (page.status === 'fulfilled' && page.value) run(page.value);
  else page.then(run, () => undefined);
}

/**
 * The page of a route: its module (and the chunks it renders) loaded once, rendered without a
 * fallback when already in; mounting it (a navigation) starts its data together with its chunk.
 */
function RoutePage({ route }: { route: PluginRoute }) {
  const page = loadPage(route);
  const search = useSearch();
  const params = useParams() as Record<string, string | undefined>;
  // once per mount (a suspended first render runs it again: TanStack Query dedupes the request)
  useState(() => prefetchPage(page, search, params));
  const Page = lazyPage(route);
  return <Page />;
}

/**
 * One plugin route: permission check → tag/title registration → error boundary (a failed chunk
 * gets the recoverable fallback; any other error the full-page error screen) → Suspense.
 */
export function RouteView({ resolved }: { resolved: ResolvedRoute }) {
  const [location] = useLocation();
  return (
    <PermissionGate tag={resolved.tag} leitura={resolved.leitura}>
      <RouteMeta tag={resolved.tag} title={resolved.title} />
      <ErrorBoundary
        key={location}
        onError={(error) => {
          if (!(error instanceof ChunkLoadError)) reportFatal(error);
        }}
        fallback={(error) => <RouteFailure error={error} />}
      >
        <Suspense fallback={<PageLoading />}>
          <RoutePage route={resolved.route} />
        </Suspense>
      </ErrorBoundary>
    </PermissionGate>
  );
}
