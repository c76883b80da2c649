// A page of the kit in its own chunk that, once its chunk is here (warmed as a navigation starts or
// when the browser is idle), renders at once instead of suspending like React.lazy does on first use.
import { type ComponentType, use } from 'react';
import { ChunkLoadError } from '../routing/chunkError';

type Chunk<P> = { default: ComponentType<P> };

function settled<T>(promise: Promise<T>): Promise<T> {
  const p = promise as Promise<T> & { status?: string; value?: T };
  p.status = 'pending';
  p.then(
    (value) => Object.assign(p, { status: 'fulfilled', value }),
    () => Object.assign(p, { status: 'rejected' }),
  );
  return p;
}

/** `Page` renders the chunk's component (suspending only while it loads); `warm()` fetches it ahead. */
export function chunkPage<P extends object>(load: () => Promise<Chunk<P>>) {
  let loaded: Promise<Chunk<P>> | undefined;
  const get = () => {
    loaded ??= settled(
      load().catch((error: unknown) => {
        throw new ChunkLoadError(error);
      }),
    );
    return loaded;
  };
  // biome-ignore lint/correctness/noComponentHookFactories: created once per chunk, at module evaluation
  const Page = (props: P) => {
    const Component = use(get()).default;
    return <Component {...props} />;
  };
  // ahead of a render: a failure is forgotten (the render tries again)
  const warm = (): Promise<void> =>
    loaded
      ? loaded.then(noop, noop)
      : load().then((m) => {
          loaded ??= settled(Promise.resolve(m));
        }, noop);
  return { Page, warm };
}

function noop() {}
