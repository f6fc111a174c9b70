/**
 * A PostgreSQL turn on one connection. When the advisory locks of the lock store live in the tracker
 * store's database, the lock store takes a conversation's lock and reads the conversation in one
 * statement (`parley_lock_and_load`, migration 6), on the connection that then holds the lock, and
 * the tracker store runs the turn's other statements on that connection too. The turn's append frees the
 * lock as it commits (`parley_append_and_unlock`, migration 7): a turn then costs two round trips (lock
 * and load, append) on one connection instead of four on two. The session ends with that append: what
 * else the turn stores goes to the pool, unlocked, and the store's expected-count check guards it as it
 * guards a turn whose lock connection was lost.
 *
 * The session is found by the conversation's id: a process holds one lock of a conversation at a time
 * (the lock store's local queue), so for one tracker store there is at most one session per id. It
 * is closed when the lock is released, so work the turn started and that outlives it goes back to the
 * pool rather than to a connection that is now another turn's. (Not AsyncLocalStorage: on Node 20 its
 * promise hooks, once enabled, tax every await of the process.)
 */
import type { PostgresConnection } from './postgres-statements.js';
import type { RecentRow } from './sqlite-statements.js';

export interface PostgresTurnSession {
  readonly conversationId: string;
  /** the tracker store the lock store was joined with: only it uses the session */
  readonly owner: object;
  readonly connection: PostgresConnection;
  /** the advisory lock key the connection holds */
  readonly lockKey: string;
  /** what the lock statement read, until the turn's first load takes it or a write makes it stale */
  prefetched: RecentRow[] | undefined;
  open: boolean;
  /** the turn's append freed the lock: the lock store has nothing left to unlock */
  released: boolean;
}

/** the open sessions, per tracker store and conversation */
const sessions = new WeakMap<object, Map<string, PostgresTurnSession>>();

/** The open session of this conversation's turn for `owner`, if a turn of it holds the lock. */
export function turnSessionOf(conversationId: string, owner: object): PostgresTurnSession | undefined {
  const session = sessions.get(owner)?.get(conversationId);
  return session?.open && !session.released ? session : undefined;
}

/** The append that freed the lock committed: the session's connection holds nothing of the turn any more. */
export function markReleased(session: PostgresTurnSession): void {
  session.released = true;
  session.prefetched = undefined;
}

/** Runs `work` with the session open and closes it when the work settles. */
export async function runTurnSession<T>(session: PostgresTurnSession, work: () => Promise<T>): Promise<T> {
  let open = sessions.get(session.owner);
  if (!open) {
    open = new Map();
    sessions.set(session.owner, open);
  }
  open.set(session.conversationId, session);
  try {
    return await work();
  } finally {
    session.open = false;
    session.prefetched = undefined;
    if (open.get(session.conversationId) === session) open.delete(session.conversationId);
  }
}

/** The rows the lock statement read, once; later loads read again. */
export function takePrefetched(session: PostgresTurnSession): RecentRow[] | undefined {
  const rows = session.prefetched;
  session.prefetched = undefined;
  return rows;
}
