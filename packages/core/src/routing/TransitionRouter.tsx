// Navigations of the signed-in shell as React transitions. wouter's own location hook reads the URL
// with useSyncExternalStore, whose updates are never transitions: a page whose chunk is not here yet
// replaced the previous one with a fallback, and React 19 then holds that fallback for 300 ms. Here
// the URL is React state set in startTransition: the previous page stays on screen (no fallback, no
// 300 ms) until the next one can render, and `onNavigate` hears the new URL before React renders, so
// the route's chunk and data start together.
import { type ReactNode, createContext, startTransition, useContext, useLayoutEffect, useRef, useState } from 'react';
import { Router } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { inActEnvironment } from './preload';

/** A URL of the app: its path and its query string (with '?', as location.search). */
export interface AppLocation {
  path: string;
  search: string;
}

// the events wouter's browser location listens to (it patches pushState/replaceState to dispatch them)
const EVENTS = ['popstate', 'pushState', 'replaceState', 'hashchange'] as const;

const read = (): AppLocation => ({ path: window.location.pathname, search: window.location.search });

const LocationContext = createContext<AppLocation | null>(null);

function useAppLocation(): AppLocation {
  return useContext(LocationContext) ?? read();
}

const useTransitionLocation = (): [string, typeof navigate] => [useAppLocation().path, navigate];
const useTransitionSearch = (): string => useAppLocation().search;

/**
 * A wouter Router whose location changes are transitions. `onNavigate` is called with each new URL
 * (and the first one) before React renders it.
 */
export function TransitionRouter({ children, onNavigate }: { children: ReactNode; onNavigate?: (location: AppLocation) => void }) {
  const [location, setLocation] = useState(read);
  const heard = useRef(onNavigate);
  heard.current = onNavigate;
  useLayoutEffect(() => {
    let last: AppLocation | null = null;
    const update = () => {
      const next = read();
      if (last && last.path === next.path && last.search === next.search) return;
      last = next;
      heard.current?.(next);
      const apply = () => setLocation((prev) => (prev.path === next.path && prev.search === next.search ? prev : next));
      if (inActEnvironment()) apply();
      else startTransition(apply);
    };
    for (const event of EVENTS) addEventListener(event, update);
    update(); // the first URL, and a change between the first render and now
    return () => {
      for (const event of EVENTS) removeEventListener(event, update);
    };
  }, []);
  return (
    <LocationContext.Provider value={location}>
      <Router hook={useTransitionLocation} searchHook={useTransitionSearch}>
        {children}
      </Router>
    </LocationContext.Provider>
  );
}
