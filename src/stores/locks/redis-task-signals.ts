/**
 * A2A task signals between processes through Redis pub/sub (src/a2a/tasks/task-signals.ts), for
 * processes that share a Redis lock store but not a PostgreSQL database (several workers on one SQLite
 * file). One channel per lock-store database and key prefix (pub/sub itself ignores the database
 * number); a message carries the sender's id, the kind and the task id, and the state is read from the
 * task store. Subscribing takes a connection of its own; ioredis reconnects and subscribes again by
 * itself. Signals sent while Redis is away are dropped (logged): they spare a wait, the store is the truth.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { StoreLogger } from '../store-logger.js';
import { dispatchTaskSignal, encodeTaskSignal } from '../task-signal-payload.js';
import type { TaskSignalKind, TaskSignalListener } from '../task-signal-payload.js';
import type { RedisConnection } from './redis-connection.js';

/** The channel of one lock store's processes. */
export function taskSignalChannel(connection: RedisConnection): string {
  const fromUrl = connection.url ? new URL(connection.url).pathname.slice(1) : '';
  const db = connection.options.db ?? (fromUrl === '' ? 0 : fromUrl);
  return `${connection.keyPrefix}parley:a2a:tasks:${db}`;
}

export class RedisTaskSignals {
  private readonly connection: RedisConnection;
  private readonly logger: StoreLogger;
  private readonly channel: string;
  private readonly self = randomUUID();
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private handlers: TaskSignalListener | undefined;
  private closed = false;

  constructor(options: { connection: RedisConnection; logger: StoreLogger }) {
    this.connection = options.connection;
    this.logger = options.logger;
    this.channel = taskSignalChannel(options.connection);
  }

  settled(taskId: string): void {
    this.publish('settled', taskId);
  }

  cancel(taskId: string): void {
    this.publish('cancel', taskId);
  }

  listen(handlers: TaskSignalListener): void {
    this.handlers = handlers;
    if (this.subscriber || this.closed) return;
    // connected now: the first signal of a turn must not wait for a connection to open
    this.publisher ??= this.client('publisher');
    const subscriber = this.client('subscriber');
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.heard(raw);
    });
    subscriber.subscribe(this.channel).catch((error: unknown) =>
      // ioredis subscribes again once it reconnects
      this.logger.warn({ error: String(error) }, 'a2a task signals not heard yet: Redis unreachable'),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const clients = [this.publisher, this.subscriber];
    this.publisher = undefined;
    this.subscriber = undefined;
    for (const client of clients) client?.disconnect();
  }

  private publish(kind: TaskSignalKind, taskId: string): void {
    if (this.closed) return;
    this.publisher ??= this.client('publisher');
    const payload = encodeTaskSignal(this.self, kind, taskId);
    this.publisher
      .publish(this.channel, payload)
      .catch((error: unknown) =>
        this.logger.warn({ kind, taskId, error: String(error) }, 'a2a task signal not sent'),
      );
  }

  private client(role: 'publisher' | 'subscriber'): Redis {
    const { url, options } = this.connection;
    // not lazy: a lazy subscriber would never connect by itself after its first failure
    const settings = { ...options, lazyConnect: false, connectionName: `parley-a2a-signals-${role}` };
    const client = url ? new Redis(url, settings) : new Redis(settings);
    client.on('error', (error: Error) =>
      this.logger.warn({ role, error: error.message }, 'a2a task signal connection lost: reconnecting'),
    );
    return client;
  }

  private heard(raw: string): void {
    dispatchTaskSignal(raw, this.self, this.handlers);
  }
}
