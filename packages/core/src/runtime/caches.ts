/** Caches that must be dropped on sign-out and by "Limpar aplicação" (the query cache lives in a lazy chunk). */
const clearers = new Set<() => void>();

export function registerCacheClearer(clear: () => void): () => void {
  clearers.add(clear);
  return () => clearers.delete(clear);
}

export function clearCaches(): void {
  for (const clear of clearers) {
    try {
      clear();
    } catch {
      // ignore
    }
  }
}

let buildId: string | null = null;
/** The buildId seen at start (from GET /api/version or the session config). */
export function setKnownBuildId(id: string): void {
  buildId ??= id;
}
export function getKnownBuildId(): string | null {
  return buildId;
}
