import type { ConversationPageRequest, LockStore, TrackerStore } from '../core/ports.js';
import type { CallOutcome } from './instrumented-action-runner.js';

export type StoreKind = 'tracker' | 'lock';

/**
 * Tracker operations are the port's method names; the lock store reports `acquire`: the wait from
 * asking for a conversation's lock until the turn may start (not the time the turn then holds it).
 */
export type StoreOperation = 'loadRecent' | 'loadAll' | 'append' | 'remove' | 'listConversations' | 'acquire';

/** Milliseconds from an arbitrary origin, never going back: what durations are measured with. */
export type Stopwatch = () => number;

const performanceNow: Stopwatch = () => performance.now();

/** Hears of every store call (metrics); must be cheap and must not throw. */
export interface StoreObserver {
  storeOperationFinished(
    store: StoreKind,
    operation: StoreOperation,
    seconds: number,
    outcome: CallOutcome,
  ): void;
}

/**
 * A TrackerStore that times each call of the store it wraps; data and errors pass unchanged, and the
 * optional methods stay absent when the wrapped store lacks them (callers test for `remove`).
 */
export function instrumentTrackerStore(
  inner: TrackerStore,
  observer: StoreObserver,
  now: Stopwatch = performanceNow,
): TrackerStore {
  const timed = async <T>(operation: StoreOperation, call: () => Promise<T>): Promise<T> => {
    const started = now();
    let outcome: CallOutcome = 'error';
    try {
      const result = await call();
      outcome = 'ok';
      return result;
    } finally {
      observer.storeOperationFinished('tracker', operation, (now() - started) / 1000, outcome);
    }
  };
  const remove = inner.remove?.bind(inner);
  const close = inner.close?.bind(inner);
  const listConversations = inner.listConversations?.bind(inner);
  return {
    loadRecent: (conversationId, hint) => timed('loadRecent', () => inner.loadRecent(conversationId, hint)),
    loadAll: (conversationId) => timed('loadAll', () => inner.loadAll(conversationId)),
    append: (conversationId, events, options) =>
      timed('append', () => inner.append(conversationId, events, options)),
    ...(remove ? { remove: (conversationId: string) => timed('remove', () => remove(conversationId)) } : {}),
    ...(listConversations
      ? {
          listConversations: (page: ConversationPageRequest) =>
            timed('listConversations', () => listConversations(page)),
        }
      : {}),
    ...(close ? { close } : {}),
  };
}

/** A LockStore that reports how long each turn waited for its conversation's lock. */
export function instrumentLockStore(
  inner: LockStore,
  observer: StoreObserver,
  now: Stopwatch = performanceNow,
): LockStore {
  return {
    async withLock<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
      const started = now();
      let acquired = false;
      const report = (outcome: CallOutcome) =>
        observer.storeOperationFinished('lock', 'acquire', (now() - started) / 1000, outcome);
      try {
        return await inner.withLock(conversationId, () => {
          acquired = true;
          report('ok');
          return work();
        });
      } catch (error) {
        // A failure after the lock was taken belongs to the turn, not to the lock store.
        if (!acquired) report('error');
        throw error;
      }
    },
  };
}
