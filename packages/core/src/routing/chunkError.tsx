import { Button } from '@app/ui';
import { type ComponentType, lazy } from 'react';

/** A page chunk that could not be loaded (network, a deploy replaced the file…). */
export class ChunkLoadError extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super(`Falha ao carregar a página: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ChunkLoadError';
    this.cause = cause;
  }
}

/** React.lazy whose failed load becomes a ChunkLoadError (recoverable fallback). */
export function lazyChunk<T extends ComponentType>(load: () => Promise<{ default: T }>) {
  return lazy(() =>
    load().catch((error: unknown) => {
      throw new ChunkLoadError(error);
    }),
  );
}

/** Recoverable fallback of a page whose chunk failed to load: 'Tentar novamente' reloads. */
export function ChunkErrorFallback() {
  return (
    <section className="status-page" data-testid="chunk-error" role="alert">
      <h1 className="status-page__title">Não foi possível carregar esta página</h1>
      <p className="status-page__message">Verifique sua conexão com a internet e tente novamente.</p>
      <div className="status-page__actions">
        <Button variant="primary" onClick={() => window.location.reload()}>
          Tentar novamente
        </Button>
      </div>
    </section>
  );
}
