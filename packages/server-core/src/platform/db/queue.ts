import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A FIFO queue that runs one job at a time. PGlite is a single-connection database: every query and
 * every transaction goes through this queue, and a transaction holds it until COMMIT/ROLLBACK.
 *
 * Re-entrance (a job asking the queue for more access while it holds it, e.g. using `ctx.db` instead
 * of `tx` inside `ctx.mutate`) would wait forever; it fails fast with a clear error instead.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  readonly #holding = new AsyncLocalStorage<true>();
  #pending = 0;

  get pending(): number {
    return this.#pending;
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#holding.getStore()) {
      return Promise.reject(
        new Error(
          'Embedded database re-entrance: this code already holds the single PGlite connection ' +
            '(inside a transaction). Use the transaction handle `tx` given by ctx.mutate, not ctx.db.',
        ),
      );
    }
    this.#pending++;
    const result = this.#tail.then(() => this.#holding.run(true, job));
    this.#tail = result.then(
      () => {
        this.#pending--;
      },
      () => {
        this.#pending--;
      },
    );
    return result;
  }
}
