import { PageLoading } from '@app/ui';
import { use } from 'react';
import { useLocation } from 'wouter';
import type { ResolvedRoute } from '../compose';
import type { PluginRoute } from '../contract';
import { ErrorBoundary } from '../errors/ErrorBoundary';
import { reportFatal } from '../errors/fatal';
import { ChunkErrorFallback, ChunkLoadError } from './chunkError';
import { loadRoute } from './preload';
import { PermissionGate, RouteMeta } from './RouteMeta';

/**
 * The route's page: its chunk read with `use` (loaded once per route, see loadRoute). A chunk already
 * here renders at once; one still loading suspends to the shell's one Suspense boundary, which a
 * navigation (a transition) keeps showing the previous page instead of a fallback.
 */
function RoutePage({ route }: { route: PluginRoute }) {
  const Page = use(loadRoute(route)).default;
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
