// A page of the kit in its own chunk that, once its chunk is here (warmed as a navigation starts or
// when the browser is idle), renders at once instead of suspending like React.lazy does on first use.
import { type ComponentType, lazy, useState } from 'react';
import { ChunkLoadError } from '../routing/chunkError';

type Chunk<P> = { default: ComponentType<P> };
type Settled<T> = Promise<T> & { value?: T };

function settled<T>(promise: Promise<T>): Settled<T> {
  const p = promise as Settled<T>;
  p.then(
    (value) => {
      p.value = value;
    },
    () => {},
  );
  return p;
}

/**
 * `Page` renders the chunk's component: at once when the chunk is here, else through React.lazy
 * (suspending while it loads; the choice is made once per mount, so the page is never remounted);
 * `warm()` fetches the chunk ahead.
 */
export function chunkPage<P extends object>(load: () => Promise<Chunk<P>>) {
  let loaded: Settled<Chunk<P>> | undefined;
  const get = () => {
    loaded ??= settled(
      load().catch((error: unknown) => {
        throw new ChunkLoadError(error);
      }),
    );
    return loaded;
  };
  const Lazy = lazy(get) as unknown as ComponentType<P>;
  // biome-ignore lint/correctness/noComponentHookFactories: created once per chunk, at module evaluation
  const Page = (props: P) => {
    const [Component] = useState(() => loaded?.value?.default ?? Lazy);
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
