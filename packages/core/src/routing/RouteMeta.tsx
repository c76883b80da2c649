import { useAtomValue } from 'jotai';
import { type ReactNode, createContext, useContext } from 'react';
import { Redirect } from 'wouter';
import { type RouteAccess, routeAccess } from '../compose';
import { useRegisterRoute } from '../hooks';
import { sessionAtom } from '../store';

/** Registers tag and title of a route on every navigation (renders nothing). */
export function RouteMeta({ tag, title }: { tag: number; title: string }) {
  useRegisterRoute(tag, title);
  return null;
}

const RouteAccessContext = createContext<RouteAccess>('full');

/**
 * How the person opened the page on screen: 'full', or 'leitura' (the controle interno on a read
 * page of a document: show no Novo, Salvar, Duplicar nor transition). Outside a route: 'full'.
 */
export function useRouteAccess(): Exclude<RouteAccess, null> {
  return useContext(RouteAccessContext) ?? 'full';
}

/** True when the page on screen was opened read-only (the controle interno): see useRouteAccess. */
export function useSomenteLeitura(): boolean {
  return useRouteAccess() === 'leitura';
}

/**
 * Permission check of one route (spec §6): exempt tags (0, -1..-4) or a tag the user holds
 * render the children; a `leitura` route also renders them, read-only, for the controle interno
 * (CONTROLE_INTERNO_TAG); otherwise `<Redirect to="~/403">` (absolute, also from a nested router).
 */
export function PermissionGate({ tag, leitura, children }: { tag: number; leitura?: boolean; children: ReactNode }) {
  const session = useAtomValue(sessionAtom);
  const access = routeAccess(session?.tags, tag, leitura);
  if (!access) return <Redirect to="~/403" replace />;
  return <RouteAccessContext.Provider value={access}>{children}</RouteAccessContext.Provider>;
}
