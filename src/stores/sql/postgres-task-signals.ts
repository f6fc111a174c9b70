/**
 * A2A task signals between processes on one PostgreSQL (src/a2a/tasks/task-signals.ts): NOTIFY on one
 * channel, LISTEN on a connection of its own. A notification carries the sender's id, the kind and the
 * task id (far below PostgreSQL's 8,000-byte payload limit); the state itself is read from the store.
 * A lost connection is reopened with backoff; signals sent while it is down are dropped (logged):
 * they are hints that spare a wait, the store stays the truth.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { StoreLogger } from '../store-logger.js';
import { dispatchTaskSignal, encodeTaskSignal } from '../task-signal-payload.js';
import type { TaskSignalKind, TaskSignalListener } from '../task-signal-payload.js';
import { DEFAULT_LIMITS, postgresConnection } from './sql-connection.js';
import type { PostgresTarget } from './postgres-target.js';

/**
 * Prepared once per connection. The signals given while the previous statement ran go together in
 * one statement (one round trip under load instead of one a signal), in the order they were given:
 * PostgreSQL delivers a transaction's notifications in the order they were sent.
 */
const NOTIFY_STATEMENT = {
  name: 'parley_task_signals_v2',
  text: 'SELECT pg_notify($1, payload) FROM unnest($2::text[]) WITH ORDINALITY AS sent(payload, at) ORDER BY at',
} as const;

interface PendingSignal {
  readonly kind: TaskSignalKind;
  readonly taskId: string;
  readonly payload: string;
}

export const TASK_SIGNAL_CHANNEL = 'parley_a2a_tasks';
const MAX_BACKOFF_MS = 10_000;

export class PostgresTaskSignals {
  readonly target: PostgresTarget;
  private readonly logger: StoreLogger;
  private readonly self = randomUUID();
  private handlers: TaskSignalListener | undefined;
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private closed = false;
  private backoffMs = 100;
  private retrying: NodeJS.Timeout | undefined;
  /** signals given while a statement runs: the next statement sends them (one query at a time) */
  private pending: PendingSignal[] = [];
  private sending = false;

  constructor(options: { target: PostgresTarget; logger: StoreLogger }) {
    this.target = options.target;
    this.logger = options.logger;
  }

  settled(taskId: string): void {
    this.notify('settled', taskId);
  }

  cancel(taskId: string): void {
    this.notify('cancel', taskId);
  }

  /**
   * The notification `settled` would send, for a write on this database to send itself when it
   * commits (the task store's save): one statement instead of two.
   */
  settledNotice(taskId: string): { readonly channel: string; readonly payload: string } {
    return { channel: TASK_SIGNAL_CHANNEL, payload: encodeTaskSignal(this.self, 'settled', taskId) };
  }

  listen(handlers: TaskSignalListener): void {
    this.handlers = handlers;
    void this.connection().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retrying);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private notify(kind: TaskSignalKind, taskId: string): void {
    this.pending.push({ kind, taskId, payload: encodeTaskSignal(this.self, kind, taskId) });
    if (!this.sending) void this.sendPending();
  }

  /** sends what is pending, one statement at a time, until nothing is */
  private async sendPending(): Promise<void> {
    this.sending = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const client = await this.connection();
        const payloads = batch.map((signal) => signal.payload);
        await client.query({ ...NOTIFY_STATEMENT, values: [TASK_SIGNAL_CHANNEL, payloads] });
      } catch (error) {
        const [first] = batch;
        this.logger.warn(
          { kind: first?.kind, taskId: first?.taskId, signals: batch.length, error: String(error) },
          'a2a task signal not sent',
        );
      }
    }
    this.sending = false;
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.closed) return Promise.reject(new Error('the task signals are closed'));
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client(postgresConnection(this.target.url, this.target.schema, DEFAULT_LIMITS));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (message) => this.heard(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${TASK_SIGNAL_CHANNEL}`);
      // closed while connecting (a SIGTERM right after start): an open connection would keep the process alive
      if (this.closed) throw new Error('the task signals are closed');
    } catch (error) {
      await client.end().catch(() => undefined);
      this.retryLater();
      throw error;
    }
    this.backoffMs = 100;
    this.client = client;
    return client;
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.closed) return;
    this.logger.warn({ error: error.message }, 'a2a task signal connection lost: reconnecting');
    this.retryLater();
  }

  /** one reconnection pending at a time, with a growing delay, while there is someone to listen */
  private retryLater(): void {
    if (this.closed || !this.handlers || this.retrying) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.retrying = setTimeout(() => {
      this.retrying = undefined;
      void this.connection().catch(() => undefined);
    }, delay);
    this.retrying.unref();
  }

  private heard(raw: string | undefined): void {
    dispatchTaskSignal(raw, this.self, this.handlers);
  }
}
