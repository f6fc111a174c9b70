/**
 * Waiting for events instead of for time: a test that sleeps "long enough" fails on a loaded machine
 * and passes when the thing it waits for never happens.
 */

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

/** A promise that the test (or the code under test) settles at the moment something happened. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * Polls `condition` until it holds. The deadline only turns a condition that never holds into a
 * failure with a message; it is generous because it is not what the test measures.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  deadlineMs = 10_000,
): Promise<void> {
  const giveUpAt = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
