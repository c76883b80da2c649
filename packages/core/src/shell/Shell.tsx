import { AppLayout, type MenuItem } from '@app/ui';
import { QueryClientProvider, useQueries } from '@tanstack/react-query';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { api, apiErrorMessage } from '../api';
import { type ComposedApp, type MenuEntry, PluginCompositionError, type ResolvedMount, type ResolvedRoute, buildMenu, routeAccess } from '../compose';
import { coreRangeProblems } from '../ranges';
import { getQueryClient } from '../query';
import { queryKeys } from '../queryKeys';
import { ForbiddenPage, NotFoundPage } from '../routing/ErrorPages';
import { RouteView } from '../routing/RouteView';
import { preloadPage, whenIdle } from '../routing/preload';
import { themeAtom } from '../runtime/theme';
import { loadSession } from '../session';
import { signOut } from '../signOut';
import { composedAppAtom, getCoreStore, sessionAtom, tokenAtom } from '../store';
import { toast, toasterWantedAtom } from '../toast/queue';

/** Header switcher of the working entidade (only when the user has more than one). */
function EntidadeSwitcher() {
  const session = useAtomValue(sessionAtom);
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  if (!session || session.entidades.length < 2) return null;

  const change = async (entidadeId: string) => {
    if (entidadeId === session.entidade.id) return;
    const nome = session.entidades.find((e) => e.id === entidadeId)?.nome ?? '';
    setBusy(true);
    try {
      const { token } = await api.post('auth/entidade', { json: { entidadeId } }).json<{ token: string }>();
      getCoreStore().set(tokenAtom, token);
      await loadSession({ background: true });
      await getQueryClient().resetQueries();
      navigate('/');
      toast.success(`Você está trabalhando em ${nome}.`, 'Entidade alterada');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Não foi possível trocar de entidade.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <label className="entidade-switcher">
      <span className="visually-hidden">Entidade</span>
      <select
        className="input select entidade-switcher__select"
        aria-label="Entidade"
        data-testid="entidade-switcher"
        value={session.entidade.id}
        disabled={busy}
        onChange={(e) => void change(e.target.value)}
      >
        {session.entidades.map((e) => (
          <option key={e.id} value={e.id}>
            {e.nome}
          </option>
        ))}
      </select>
    </label>
  );
}

/** How often the menu's counts are asked again (they also refresh when a page invalidates queryKeys.menuCounts()). */
export const MENU_COUNT_REFRESH_MS = 60_000;

/**
 * The menu with its counts: GET /api<count.endpoint> → `{ total }` for each entry that declares one
 * (a failed count is simply not shown: the menu never breaks for a number).
 */
function useMenuWithCounts(entries: MenuEntry[]): MenuItem[] {
  const counted = entries.filter((e) => e.count);
  const results = useQueries(
    {
      queries: counted.map((e) => ({
        queryKey: queryKeys.menuCount(e.count!.endpoint),
        queryFn: () => api.get(e.count!.endpoint.replace(/^\/+/, '')).json<{ total?: unknown }>(),
        refetchInterval: MENU_COUNT_REFRESH_MS,
      })),
    },
    getQueryClient(),
  );
  return entries.map((e) => {
    const { count, ...item } = e;
    if (!count) return item;
    const total = results[counted.indexOf(e)]?.data?.total;
    return typeof total === 'number' && total > 0 ? { ...item, count: total, countLabel: count.label } : item;
  });
}

function PluginRoutes({ routes }: { routes: ResolvedRoute[] }) {
  return (
    <Switch>
      {routes.map((r) => (
        <Route key={r.route.path} path={r.route.path}>
          <RouteView resolved={r} />
        </Route>
      ))}
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

function routesOf(app: ComposedApp, section: ResolvedMount): ResolvedRoute[] {
  return app.routes.filter((r) => r.mount === section.mount);
}

/** Checks for the page's own data to be in before what can wait is loaded (every 100 ms, at most ~5 s). */
const PRELOAD_WAIT_TRIES = 50;

/**
 * Runs `task` once the browser is idle and the page's own requests are answered (or after ~5 s of
 * requests), so that what can wait never queues with a cold load's chunks and data on the browser's
 * six connections (issue 23). Returns a cancel function.
 */
function afterPageData(task: () => void): () => void {
  let cancel = () => {};
  const attempt = (tries: number) => {
    cancel = whenIdle(() => {
      if (getQueryClient().isFetching() > 0 && tries < PRELOAD_WAIT_TRIES) {
        const timer = setTimeout(() => attempt(tries + 1), 100);
        cancel = () => clearTimeout(timer);
        return;
      }
      task();
    });
  };
  attempt(0);
  return () => cancel();
}

/**
 * When the browser is idle and the page's own requests are answered, the chunks of the pages the
 * menu opens (each entry's list, when the person may open it): a click then renders the page at once
 * and only waits for its data (issue 23). Not before: on a cold load those ~40 requests would queue
 * with the list's data on the browser's six connections.
 */
function usePreloadMenuPages(app: ComposedApp | null, entries: MenuEntry[], tags: readonly number[] | undefined) {
  useEffect(() => {
    if (!app) return;
    const routes = entries
      .map((e) => app.routes.find((r) => r.fullPath === e.href))
      .filter((r): r is ResolvedRoute => r !== undefined && routeAccess(tags, r.tag, r.leitura) !== null);
    return afterPageData(() => {
      for (const r of routes) void preloadPage(r.route);
    });
  }, [app, entries, tags]);
}

/**
 * The signed-in frame (lazy chunk): one QueryClientProvider, @app/ui's AppLayout with the side
 * menu, entidade switcher and 'Sair', and every plugin section mounted under its basePath.
 */
export default function Shell() {
  const app = useAtomValue(composedAppAtom);
  // The plugins' `core` ranges, checked as the signed-in app starts, before any plugin page renders
  // (the semver library lives in this lazy chunk, not on the sign-in page). A refusal is the error screen.
  const rangeProblems = useMemo(() => (app ? coreRangeProblems(app.plugins) : []), [app]);
  if (rangeProblems.length > 0) throw new PluginCompositionError(rangeProblems);
  const session = useAtomValue(sessionAtom);
  const [theme, setTheme] = useAtom(themeAtom);
  const [location, navigate] = useLocation();
  const queryClient = getQueryClient();

  const setToasterWanted = useSetAtom(toasterWantedAtom);
  // signed in: mount the toaster (its live region) before the first toast, but after the page's
  // data: its chunk (Radix Toast, ~11 KB) is no part of a cold load's first screen (issue 23); a
  // toast queued sooner mounts it at once (App's ToasterHost)
  useEffect(() => afterPageData(() => setToasterWanted(true)), [setToasterWanted]);

  const entries = useMemo<MenuEntry[]>(() => (app ? buildMenu(app.plugins, session?.tags) : []), [app, session?.tags]);
  const menu = useMenuWithCounts(entries);
  usePreloadMenuPages(app, entries, session?.tags);

  if (!app || !session) return null;
  const homeRoutes = app.home ? routesOf(app, app.home) : [];

  return (
    <QueryClientProvider client={queryClient}>
      <AppLayout
        appName={session.config.appName || 'Compras'}
        entidadeNome={session.entidade.nome}
        userName={session.user.nome}
        menu={menu}
        currentPath={location}
        theme={theme}
        onThemeChange={setTheme}
        onSignOut={() => void signOut(navigate)}
        headerExtra={session.entidades.length > 1 ? <EntidadeSwitcher /> : undefined}
      >
        <Switch>
          <Route path="/403">
            <ForbiddenPage />
          </Route>
          {app.mounted.map((section) => (
            <Route key={section.basePath} path={section.basePath} nest>
              <PluginRoutes routes={routesOf(app, section)} />
            </Route>
          ))}
          {homeRoutes.map((r) => (
            <Route key={r.fullPath} path={r.fullPath}>
              <RouteView resolved={r} />
            </Route>
          ))}
          <Route>
            <NotFoundPage />
          </Route>
        </Switch>
      </AppLayout>
    </QueryClientProvider>
  );
}
