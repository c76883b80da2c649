import { clearCaches } from './runtime/caches';
import { resetCoreStore } from './store';

/**
 * For tests of plugins and apps: drops core's in-memory state between tests: a fresh jotai store
 * (token re-read from localStorage, no session, no toasts) and an empty query cache.
 * Not for application code.
 */
export function resetCoreState(): void {
  clearCaches();
  resetCoreStore();
}
