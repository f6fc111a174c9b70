/**
 * Conversation locks shared by every process using one Redis: a first-come, first-served ticket queue
 * with leases (see redis-lock-scripts.ts). Unlike Rasa's ticket lock, whose tickets expire after a
 * fixed lifetime even while their turn still runs, a ticket's lease is renewed every third of its
 * length while the turn waits or works, so a long turn never lets a second one in; the lease only
 * runs out when the process holding it stops (crash, freeze, lost connection).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LockStore } from '../../core/ports.js';
import { AppError } from '../../core/errors.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import { LocalQueue, lockTimeout } from './local-queue.js';
import type { RedisConnection } from './redis-connection.js';
import type { LockScripts } from './redis-lock-scripts.js';
import { SCRIPTS } from './redis-lock-scripts.js';

export interface RedisLockStoreOptions {
  readonly connection: RedisConnection;
  readonly logger?: StoreLogger;
  /** how long a ticket lives without renewal: how long a crashed process blocks a conversation (10 s) */
  readonly leaseMs?: number;
  /** how long a turn waits for its conversation before LOCK_TIMEOUT (60 s) */
  readonly waitTimeoutMs?: number;
}

export const DEFAULT_LEASE_MS = 10_000;
const DEFAULT_WAIT_MS = 60_000;
const MAX_POLL_MS = 50;

interface Ticket {
  readonly queue: string;
  readonly id: string;
  readonly leasePrefix: string;
}

export class RedisLockStore implements LockStore {
  readonly connection: RedisConnection;
  private readonly client: Redis & LockScripts;
  private readonly logger: StoreLogger;
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly local = new LocalQueue();
  private healthy = true;
  private closed = false;

  constructor(options: RedisLockStoreOptions) {
    this.connection = options.connection;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.leaseMs = Math.max(30, Math.round(options.leaseMs ?? DEFAULT_LEASE_MS));
    this.waitMs = options.waitTimeoutMs ?? DEFAULT_WAIT_MS;
    const { url, options: redisOptions } = options.connection;
    const client = url ? new Redis(url, redisOptions) : new Redis(redisOptions);
    for (const [name, lua] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: 1, lua });
    this.client = client as Redis & LockScripts;
    // ioredis reconnects by itself; say so once per outage instead of once per attempt
    client.on('error', (error: Error) => {
      if (!this.healthy) return;
      this.healthy = false;
      this.logger.warn({ store: this.describe(), error: error.message }, 'lock store connection lost');
    });
    client.on('ready', () => {
      if (this.healthy) return;
      this.healthy = true;
      this.logger.info({ store: this.describe() }, 'lock store reconnected');
    });
  }

  describe(): string {
    return this.connection.description;
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
    await this.call('connect', () => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // a client that never connected (lazyConnect) has nothing to say goodbye to
    if (this.client.status === 'wait') this.client.disconnect();
    else await this.client.quit().catch(() => this.client.disconnect());
  }

  private async holdSharedLock<T>(
    conversationId: string,
    deadline: number,
    work: () => Promise<T>,
  ): Promise<T> {
    const queue = `${this.connection.keyPrefix}parley-lock:${conversationId}`;
    const ticket: Ticket = { queue, id: randomBytes(16).toString('hex'), leasePrefix: `${queue}:` };
    let holding = false;
    const renewal = setInterval(() => void this.renew(ticket, conversationId, holding), this.leaseMs / 3);
    // a turn that never ends must not keep the process alive by its renewals alone
    renewal.unref();
    try {
      let state = await this.call('take a conversation lock', () => this.script('parleyLockEnqueue', ticket));
      for (let delay = 2; state !== 1; delay = Math.min(delay * 2, MAX_POLL_MS)) {
        if (Date.now() >= deadline)
          throw lockTimeout(conversationId, this.waitMs, 'another turn (possibly in another process)');
        await sleep(Math.min(delay, deadline - Date.now()));
        state = await this.call('take a conversation lock', () => this.script('parleyLockCheck', ticket));
        if (state === -1) {
          // this process stalled longer than a lease and lost its place: queue again
          this.logger.warn(
            { conversationId },
            'conversation lock ticket expired while waiting: queueing again',
          );
          state = await this.call('take a conversation lock', () => this.script('parleyLockEnqueue', ticket));
        }
      }
      holding = true;
      return await work();
    } finally {
      clearInterval(renewal);
      await this.script('parleyLockRelease', ticket).catch((error: unknown) =>
        this.logger.warn(
          { conversationId, error: String(error) },
          'could not release a conversation lock; its lease will expire',
        ),
      );
    }
  }

  private async renew(ticket: Ticket, conversationId: string, holding: boolean): Promise<void> {
    try {
      const renewed = await this.script('parleyLockRenew', ticket);
      if (renewed === 0 && holding)
        this.logger.error(
          { conversationId },
          'conversation lock lease expired while the turn ran: another turn may now run alongside it',
        );
    } catch (error) {
      this.logger.warn({ conversationId, error: String(error) }, 'could not renew a conversation lock lease');
    }
  }

  private script(name: keyof LockScripts, ticket: Ticket): Promise<number> {
    return this.client[name](ticket.queue, ticket.id, this.leaseMs, ticket.leasePrefix);
  }

  private async call<T>(operation: string, command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new AppError({
        code: 'STORE_UNAVAILABLE',
        message: `The lock store (${this.describe()}) failed to ${operation}: ${(error as Error).message}`,
        cause: error,
      });
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
