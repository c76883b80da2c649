import { PageLoading } from '@app/ui';
import { Provider, useAtomValue } from 'jotai';
import { Suspense, lazy, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Route, Switch, useLocation, useRouter } from 'wouter';
import { api } from './api';
import { checkToken, isAuthenticatedAtom } from './auth';
import { type ComposedApp, composePlugins } from './compose';
import type { PluginManifest } from './contract';
import { ErrorBoundary } from './errors/ErrorBoundary';
import { ErrorScreen } from './errors/ErrorScreen';
import { installFatalHandlers } from './errors/fatal';
import { SignInPage } from './pages/SignInPage';
import { BoomPage, ServerErrorPage } from './routing/ErrorPages';
import { Guard } from './routing/Guard';
import { ChunkErrorFallback, ChunkLoadError, lazyChunk } from './routing/chunkError';
import { type TrackedPromise, loadPage, preloadPage, preloadable, routeForPath, routeParams, track } from './routing/preload';
import { setKnownBuildId } from './runtime/caches';
import { APP_TITLE } from './hooks';
import { startDevtoolsDetection } from './runtime/devtools';
import { applyDevtoolsPolicy } from './runtime/devtoolsPolicy';
import { installEnterBlocking } from './runtime/enterBlocking';
import { applyTheme, resolvedThemeAtom } from './runtime/theme';
import { startTokenRefresh } from './runtime/tokenRefresh';
import { startVersionPoll } from './runtime/versionPoll';
import { loadSession } from './session';
import { composedAppAtom, devtoolsOpenAtom, fatalErrorAtom, getCoreStore, sessionAtom, sessionStatusAtom, tokenAtom } from './store';
import { toast, toasterWantedAtom, toastsAtom } from './toast/queue';
import type { VersionResponse } from './types';

export const UPDATE_MESSAGE = 'Atualização disponível, pressione Ctrl + F5 para aplicar as mudanças';
export const UPDATE_TITLE = 'Nova Versão';

// loaded together with the session (not after it), and so is the page the address opens (issue 23)
const Shell = preloadable(() => import('./shell/Shell'));
const RecoveryPage = lazyChunk(() => import('./pages/RecoveryPage'));
const VerifyPage = lazyChunk(() => import('./pages/VerifyPage'));
const Toaster = lazy(() => import('./toast/Toaster'));

export interface AppOptions {
  /** The enabled plugins (apps/web/src/plugins.ts). */
  plugins: readonly PluginManifest[];
  /** Update-check interval; default window.__COMPRAS_VERSION_POLL_MS__ ?? 60 000 ms. */
  versionPollMs?: number;
  /** Developer-tools poll interval; default 250 ms (spec §9). */
  devtoolsPollMs?: number;
  /** Start the background timers (devtools, version, token refresh). Default true; tests turn them off. */
  pollers?: boolean;
}

let startedFor: string | null = null;
let startupChunks: TrackedPromise<unknown> | null = null;

/**
 * Signed in (a valid token): the session first (its request leaves ahead of the chunks in the
 * browser's queue of six connections), then the signed-in shell's chunk and the page the address
 * opens, all at once (issue 23). Once per token; called while the app first renders, before its
 * tree, and again when a token appears (after the sign-in page).
 */
function startSignedIn(parser: Parameters<typeof routeForPath>[2]): void {
  const store = getCoreStore();
  const token = store.get(tokenAtom);
  if (!token || startedFor === token || checkToken(token).status !== 'ok') return;
  startedFor = token;
  if (store.get(sessionStatusAtom) === 'idle') void loadSession({ token });
  const app = store.get(composedAppAtom);
  const route = app ? routeForPath(app, window.location.pathname, parser) : null;
  startupChunks = track(Promise.allSettled([Shell.load(), route ? preloadPage(route.route) : null]));
  // the page's data as soon as its module is in (RouteView asks again when it renders: one request)
  // (query.ts, not RouteView's prefetchPage: importing RouteView from here tied the first chunk to the
  // shell's in a cycle, and the sign-in page failed with React undefined)
  if (route) {
    const search = window.location.search.replace(/^\?/, '');
    void Promise.all([loadPage(route.route), import('./query')])
      .then(([mod, { getQueryClient }]) => mod.default.prefetch?.({ queryClient: getQueryClient(), search, params: routeParams(route, parser) }))
      .catch(() => undefined);
  }
}

/**
 * The signed-in shell once its chunk and the first page's are in (or failed: the shell shows the
 * failure), so the first screen is revealed by a plain render, not by a Suspense fallback that React
 * would then hold for 300 ms; later, the shell at once.
 */
function ShellWhenLoaded() {
  const [, settled] = useReducer((n: number) => n + 1, 0);
  // once shown, the shell stays (a later token, e.g. a refreshed one, never hides it again)
  const shown = useRef(false);
  const pending = !shown.current && startupChunks?.status === 'pending' ? startupChunks : null;
  useEffect(() => {
    pending?.then(settled, settled);
  }, [pending]);
  if (pending) return <PageLoading fullScreen />;
  shown.current = true;
  return (
    <Suspense fallback={<PageLoading fullScreen />}>
      <Shell />
    </Suspense>
  );
}

/** Side effects of the running app: theme, Enter blocking, fatal handlers, pollers, devtools policy. */
function Runtime({ versionPollMs, devtoolsPollMs, pollers = true }: Omit<AppOptions, 'plugins'>) {
  const theme = useAtomValue(resolvedThemeAtom);
  const devtoolsOpen = useAtomValue(devtoolsOpenAtom);
  const session = useAtomValue(sessionAtom);
  const token = useAtomValue(tokenAtom);
  const [location] = useLocation();
  const { parser } = useRouter();

  useLayoutEffect(() => applyTheme(theme), [theme]);
  // signed in after the first render (the sign-in page): the shell and the page ahead, as at start
  // biome-ignore lint/correctness/useExhaustiveDependencies: startSignedIn reads the token from the store; run when it changes
  useEffect(() => {
    startSignedIn(parser);
  }, [token, parser]);
  useEffect(() => installEnterBlocking(document), []);
  useEffect(() => installFatalHandlers(window), []);
  useEffect(() => (pollers ? startDevtoolsDetection({ intervalMs: devtoolsPollMs }) : undefined), [pollers, devtoolsPollMs]);
  useEffect(() => {
    if (!pollers) return;
    return startTokenRefresh({
      refresh: async () => (await api.post('auth/refresh', { timeout: 15_000 }).json<{ token: string }>()).token,
    });
  }, [pollers]);
  useEffect(() => {
    if (!pollers) return;
    return startVersionPoll({
      intervalMs: versionPollMs,
      fetchBuildId: async () => {
        const v = await api.get('version', { timeout: 10_000, cache: 'no-store' }).json<VersionResponse>();
        setKnownBuildId(v.buildId);
        return v.buildId;
      },
      onUpdate: () => toast.info(UPDATE_MESSAGE, UPDATE_TITLE, { duration: Number.POSITIVE_INFINITY }),
    });
  }, [pollers, versionPollMs]);

  // policy is read from the session config; `location` is deliberately not a dependency
  // biome-ignore lint/correctness/useExhaustiveDependencies: report the route at detection time only
  useEffect(() => {
    const pagina = document.title.replace(new RegExp(` · ${APP_TITLE}$`), '');
    applyDevtoolsPolicy({ open: devtoolsOpen, policy: session?.config.devtools?.policy, token, route: location, pagina });
  }, [devtoolsOpen, session, token]);

  return null;
}

/** Mounts the (lazy) radix toaster once the first toast is queued, or when the signed-in shell asks. */
function ToasterHost() {
  const count = useAtomValue(toastsAtom).length;
  const wanted = useAtomValue(toasterWantedAtom);
  const [mounted, setMounted] = useState(false);
  if ((count > 0 || wanted) && !mounted) setMounted(true);
  if (!mounted) return null;
  return (
    <ErrorBoundary fallback={() => null}>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </ErrorBoundary>
  );
}

function Guarded() {
  return (
    <Guard>
      <ShellWhenLoaded />
    </Guard>
  );
}

function AppRoutes() {
  const isAuthenticated = useAtomValue(isAuthenticatedAtom);
  return (
    <Switch>
      <Route path="/signin">
        <SignInPage />
      </Route>
      <Route path="/recoveryPass">
        <Suspense fallback={<PageLoading fullScreen />}>
          <RecoveryPage />
        </Suspense>
      </Route>
      <Route path="/verificar">
        <Suspense fallback={<PageLoading fullScreen />}>
          <VerifyPage />
        </Suspense>
      </Route>
      <Route path="/500">
        <ServerErrorPage />
      </Route>
      <Route path="/__boom">
        <BoomPage />
      </Route>
      <Route path="/">{isAuthenticated ? <Guarded /> : <SignInPage />}</Route>
      <Route>
        <Guarded />
      </Route>
    </Switch>
  );
}

function FatalScreen() {
  const fatal = useAtomValue(fatalErrorAtom);
  useEffect(() => {
    document.title = 'Erro · Compras';
  }, []);
  return <ErrorScreen error={fatal?.error} message={fatal?.message} />;
}

function Content({ composed }: { composed: { app: ComposedApp } | { error: unknown } }) {
  const fatal = useAtomValue(fatalErrorAtom);
  if (fatal) return <FatalScreen />;
  if ('error' in composed) {
    const message = composed.error instanceof Error ? composed.error.message : String(composed.error);
    return <ErrorScreen error={composed.error} message={message} />;
  }
  return (
    <ErrorBoundary
      onError={(error) => {
        if (!(error instanceof ChunkLoadError)) console.error(error);
      }}
      fallback={(error) => (error instanceof ChunkLoadError ? <ChunkErrorFallback /> : <ErrorScreen error={error} />)}
    >
      <AppRoutes />
    </ErrorBoundary>
  );
}

/**
 * The whole app: core's one jotai Provider, the runtime effects, the toaster and the routes
 * (public sign-in/recovery, guarded shell with every plugin, error routes).
 */
export function App({ plugins, ...options }: AppOptions) {
  const { parser } = useRouter();
  const composed = useMemo(() => {
    try {
      const app = composePlugins(plugins);
      getCoreStore().set(composedAppAtom, app);
      // before the tree renders: the session and the chunks leave as early as they can
      startSignedIn(parser);
      return { app };
    } catch (error) {
      console.error(error);
      return { error };
    }
  }, [plugins, parser]);

  return (
    <Provider store={getCoreStore()}>
      <Runtime {...options} />
      <ErrorBoundary fallback={(error) => <ErrorScreen error={error} />} onError={(error) => console.error(error)}>
        <Content composed={composed} />
      </ErrorBoundary>
      <ToasterHost />
    </Provider>
  );
}
