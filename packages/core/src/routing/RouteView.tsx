import { PageLoading } from '@app/ui';
import { type ComponentType, type LazyExoticComponent, lazy, useState } from 'react';
import { useLocation } from 'wouter';
import type { ResolvedRoute } from '../compose';
import type { PluginRoute } from '../contract';
import { ErrorBoundary } from '../errors/ErrorBoundary';
import { reportFatal } from '../errors/fatal';
import { ChunkErrorFallback, ChunkLoadError } from './chunkError';
import { loadRoute, loadedPage } from './preload';
import { PermissionGate, RouteMeta } from './RouteMeta';

const pages = new WeakMap<PluginRoute, LazyExoticComponent<ComponentType>>();

/** One React.lazy per route, on the route's one load (loadRoute: a rejected load is a ChunkLoadError). */
export function lazyPage(route: PluginRoute): LazyExoticComponent<ComponentType> {
  let page = pages.get(route);
  if (!page) {
    page = lazy(() => loadRoute(route));
    pages.set(route, page);
  }
  return page;
}

/**
 * The route's page: a chunk already here (preloaded when idle, or loaded by an earlier visit) renders
 * at once; one still loading suspends to the shell's one Suspense boundary, which a navigation (a
 * transition) keeps showing the previous page instead of a fallback. Chosen once per mount.
 */
function RoutePage({ route }: { route: PluginRoute }) {
  const [Page] = useState<ComponentType>(() => loadedPage(route) ?? lazyPage(route));
  return <Page />;
}

function RouteFailure({ error }: { error: unknown }) {
  if (error instanceof ChunkLoadError) return <ChunkErrorFallback />;
  return <PageLoading />;
}

/**
 * One plugin route: permission check → tag/title registration → error boundary (a failed chunk
 * gets the recoverable fallback; any other error the full-page error screen) → the page. The
 * Suspense boundary is the shell's (one for every route, so a navigation never mounts a new one).
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
        <RoutePage route={resolved.route} />
      </ErrorBoundary>
    </PermissionGate>
  );
}
