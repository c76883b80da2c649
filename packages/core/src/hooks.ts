import { useAtomValue, useSetAtom } from 'jotai';
import type { KyInstance } from 'ky';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { api } from './api';
import { hasTag } from './compose';
import type { PluginManifest } from './contract';
import { bridge } from './runtime/bridge';
import { composedAppAtom, routeInfoAtom, sessionAtom } from './store';
import type { RouteInfo, Session } from './types';

export const APP_TITLE = 'Compras';

/** The session of GET /api/session (null while loading or signed out). */
export function useSession(): Session | null {
  return useAtomValue(sessionAtom);
}

/** Permission check of one tag: exempt tags (0, -1..-4) or a tag the user holds. */
export function useHasTag(tag: number): boolean {
  const session = useAtomValue(sessionAtom);
  return hasTag(session?.tags, tag);
}

/** The enabled plugins' manifests (in the order of apps/web/src/plugins.ts). */
export function usePlugins(): PluginManifest[] {
  return useAtomValue(composedAppAtom)?.plugins ?? [];
}

/** The one ky instance (prefix '/api', bearer token, 401 → signed out). */
export function useApi(): KyInstance {
  return api;
}

/** Tag and title of the route on screen. */
export function useRouteInfo(): RouteInfo | null {
  return useAtomValue(routeInfoAtom);
}

/**
 * Registers tag and title of the route being shown, on every navigation: routeInfoAtom,
 * `document.title = "<title> · Compras"` and the desktop shell's title.
 */
export function useRegisterRoute(tag: number, title: string): void {
  const setRouteInfo = useSetAtom(routeInfoAtom);
  const [location] = useLocation();
  useEffect(() => {
    // absolute path, also inside a nested (plugin) router
    const path = typeof window === 'undefined' ? location : window.location.pathname;
    setRouteInfo({ tag, title, path });
    document.title = `${title} · ${APP_TITLE}`;
    bridge.setTitle(title);
  }, [tag, title, location, setRouteInfo]);
}
