/**
 * Conversation locks shared by every process using one PostgreSQL database: a session advisory lock
 * (pg_advisory_lock) on a 64-bit hash of the conversation id, held on a dedicated pooled connection
 * for the whole turn. The server grants waiters in arrival order and frees the lock by itself when
 * the holding connection dies, so a crashed process never leaves a conversation locked.
 *
 * If the holding connection is lost mid-turn, another process may enter while this turn still runs;
 * the tracker store's expected-count check then refuses the second writer (TRACKER_CONFLICT).
 *
 * Joined with a PostgreSQL tracker store on the same database (`joinTrackerStore`), the lock is taken
 * in the statement that also reads the conversation, and the turn's statements run on the connection
 * holding the lock (postgres-turn-session.ts).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { LockStore } from '../../core/ports.js';
import { isConnectionError, storeError } from '../sql/sql-errors.js';
import type { PostgresTarget } from '../sql/postgres-target.js';
import { postgresConnection } from '../sql/sql-connection.js';
import { LOCK_AND_LOAD_STATEMENT, UNLOCK_STATEMENT } from '../sql/postgres-statements.js';
import type { PostgresConnection } from '../sql/postgres-statements.js';
import { runTurnSession } from '../sql/postgres-turn-session.js';
import type { RecentRow } from '../sql/sqlite-statements.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import { LocalQueue, lockTimeout } from './local-queue.js';

export interface PostgresLockStoreOptions {
  readonly target: PostgresTarget;
  readonly logger?: StoreLogger;
  /** how long a turn waits for its conversation before LOCK_TIMEOUT (default 60 s) */
  readonly waitTimeoutMs?: number;
  /** connections, i.e. conversations locked at once by this process (default 20) */
  readonly poolSize?: number;
  readonly connectTimeoutMs?: number;
}

export const DEFAULT_LOCK_WAIT_MS = 60_000;
const LOCK_NOT_AVAILABLE = '55P03';

/** The advisory lock key of a conversation: the first 64 bits of a SHA-256, as a signed bigint. */
export function advisoryLockKey(conversationId: string): string {
  const digest = createHash('sha256').update(`parley:conversation:${conversationId}`).digest();
  return digest.readBigInt64BE(0).toString();
}

export class PostgresLockStore implements LockStore {
  readonly target: PostgresTarget;
  private readonly pool: pg.Pool;
  private readonly logger: StoreLogger;
  private readonly waitMs: number;
  private readonly local = new LocalQueue();
  private closed = false;
  /** the conversation each checked-out connection holds the lock of */
  private readonly holding = new Map<pg.PoolClient, string>();
  private readonly listened = new WeakSet<pg.PoolClient>();
  /** the tracker store whose turns run on the lock's connection (same database), if joined */
  private joined: object | undefined;

  constructor(options: PostgresLockStoreOptions) {
    this.target = options.target;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.waitMs = options.waitTimeoutMs ?? DEFAULT_LOCK_WAIT_MS;
    const limits = {
      poolSize: 0,
      busyTimeoutMs: 0,
      silenceTimeoutMs: 0,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
      poolWaitMs: 0,
    };
    this.pool = new pg.Pool({
      ...postgresConnection(options.target.url, options.target.schema, limits),
      max: options.poolSize ?? 20,
      idleTimeoutMillis: 30_000,
    });
    // an idle connection the server closed must not crash the process
    this.pool.on('error', (error) =>
      this.logger.warn(
        { store: this.describe(), error: error.message },
        'lock store connection lost while idle',
      ),
    );
  }

  describe(): string {
    const where = this.target.description.replace(/^postgresql at /, '');
    return `postgresql advisory locks at ${where}${this.joined ? ' (on the tracker store turn connection)' : ''}`;
  }

  /**
   * Runs each turn's statements of `trackerStore` on the connection holding the turn's lock; the
   * caller makes sure the tracker store is PostgreSQL on this store's database and schema, migrated
   * (migrations 6 and 7) before the first lock.
   */
  joinTrackerStore(trackerStore: object): void {
    this.joined = trackerStore;
  }

  async withLock<T>(conversationId: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    const release = await this.local.acquire(conversationId, this.waitMs);
    try {
      return await this.holdSharedLock(conversationId, deadline, work);
    } finally {
      release();
    }
  }

  /** Connects now, to fail fast at startup (STORE_UNAVAILABLE); otherwise the first turn connects. */
  async open(): Promise<void> {
    const client = await this.connect();
    client.release();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async holdSharedLock<T>(
    conversationId: string,
    deadline: number,
    work: () => Promise<T>,
  ): Promise<T> {
    const key = advisoryLockKey(conversationId);
    const client = await this.connect();
    let prefetched: RecentRow[] | undefined;
    try {
      const remaining = Math.ceil(deadline - Date.now());
      if (remaining <= 0) throw lockTimeout(conversationId, this.waitMs, 'earlier turns of this process');
      prefetched = await this.lock(client, key, remaining, conversationId);
    } catch (error) {
      client.release(isConnectionError(error) ? (error as Error) : undefined);
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE)
        throw lockTimeout(conversationId, this.waitMs, 'another turn (possibly in another process)');
      throw storeError(error, `lock store (${this.describe()})`, 'take a conversation lock');
    }
    this.holding.set(client, conversationId);
    const session = this.joined
      ? {
          conversationId,
          owner: this.joined,
          connection: client,
          lockKey: key,
          prefetched,
          open: true,
          released: false,
        }
      : undefined;
    try {
      return session ? await runTurnSession(session, work) : await work();
    } finally {
      this.holding.delete(client);
      // the turn's append freed the lock as it committed
      if (session?.released) client.release();
      else await this.unlock(client, key);
    }
  }

  /**
   * A connection that dies may emit more than one error, some after the statement that met it failed
   * and the connection left the pool: every connection keeps one listener for its whole life, so no
   * error is ever unhandled (which would end the process).
   */
  private listen(client: pg.PoolClient): void {
    if (this.listened.has(client)) return;
    this.listened.add(client);
    client.on('error', (error: Error) => {
      const conversationId = this.holding.get(client);
      if (conversationId === undefined) return;
      this.holding.delete(client);
      this.logger.error(
        { conversationId, error: error.message },
        'lost the connection holding a conversation lock: another turn may now run alongside this one',
      );
    });
  }

  /** Takes the lock, waiting at most `waitMs`; joined, also reads the conversation (its rows). */
  private async lock(
    client: pg.PoolClient,
    key: string,
    waitMs: number,
    conversationId: string,
  ): Promise<RecentRow[] | undefined> {
    if (this.joined) {
      const connection: PostgresConnection = client;
      const result = await connection.query({
        ...LOCK_AND_LOAD_STATEMENT,
        values: [key, waitMs, conversationId],
      });
      return result.rows as RecentRow[];
    }
    // lock_timeout bounds the wait inside the server; the key is a number we computed, safe to inline
    await client.query(`SET lock_timeout = ${waitMs}; SELECT pg_advisory_lock(${key})`);
    return undefined;
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      const client = await this.pool.connect();
      this.listen(client);
      return client;
    } catch (error) {
      throw storeError(error, `lock store (${this.describe()})`, 'connect');
    }
  }

  private async unlock(client: pg.PoolClient, key: string): Promise<void> {
    try {
      await client.query({ ...UNLOCK_STATEMENT, values: [key] });
      client.release();
    } catch (error) {
      // the connection is gone, and its locks with it: drop it from the pool
      client.release(error as Error);
      this.logger.warn({ error: String(error) }, 'could not unlock a conversation (its connection was lost)');
    }
  }
}
