import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { useHasTag, useRegisterRoute } from '../hooks';

/** Registers tag and title of a route on every navigation (renders nothing). */
export function RouteMeta({ tag, title }: { tag: number; title: string }) {
  useRegisterRoute(tag, title);
  return null;
}

/**
 * Permission check of one route (spec §6): exempt tags (0, -1..-4) or a tag the user holds
 * render the children; otherwise `<Redirect to="~/403">` (absolute, also from a nested router).
 */
export function PermissionGate({ tag, children }: { tag: number; children: ReactNode }) {
  const allowed = useHasTag(tag);
  if (!allowed) return <Redirect to="~/403" replace />;
  return <>{children}</>;
}
