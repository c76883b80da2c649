import { PageLoading } from '@app/ui';
import { type ComponentType, type LazyExoticComponent, Suspense, lazy } from 'react';
import { useLocation } from 'wouter';
import type { ResolvedRoute } from '../compose';
import type { PluginRoute } from '../contract';
import { ErrorBoundary } from '../errors/ErrorBoundary';
import { reportFatal } from '../errors/fatal';
import { ChunkErrorFallback, ChunkLoadError } from './chunkError';
import { PermissionGate, RouteMeta } from './RouteMeta';

const pages = new WeakMap<PluginRoute, LazyExoticComponent<ComponentType>>();

/** One React.lazy per route; a rejected load() becomes a ChunkLoadError. */
export function lazyPage(route: PluginRoute): LazyExoticComponent<ComponentType> {
  let page = pages.get(route);
  if (!page) {
    page = lazy(() =>
      route.load().then(
        (mod) => {
          if (!mod || typeof mod.default !== 'function') {
            throw new ChunkLoadError(new Error('o módulo da página não exporta um componente default'));
          }
          return mod;
        },
        (error: unknown) => {
          throw new ChunkLoadError(error);
        },
      ),
    );
    pages.set(route, page);
  }
  return page;
}

function RouteFailure({ error }: { error: unknown }) {
  if (error instanceof ChunkLoadError) return <ChunkErrorFallback />;
  return <PageLoading />;
}

/**
 * One plugin route: permission check → tag/title registration → error boundary (a failed chunk
 * gets the recoverable fallback; any other error the full-page error screen) → Suspense.
 */
export function RouteView({ resolved }: { resolved: ResolvedRoute }) {
  const Page = lazyPage(resolved.route);
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
          <Page />
        </Suspense>
      </ErrorBoundary>
    </PermissionGate>
  );
}
