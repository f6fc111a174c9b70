/**
 * The part every event broker shares: a bounded in-process buffer in front of a transport (RabbitMQ,
 * SQL). `publish` only enqueues, so a turn never waits for the broker nor fails because of it. One
 * pump sends the buffer in order, in batches, and removes a batch only once the transport says the
 * broker took it (publisher confirms, a committed insert); a failed batch goes back to the front and
 * is retried with exponential backoff, so delivery is at least once and in order per conversation
 * (the whole buffer is one queue). When more than `maxBuffered` events wait, the oldest are dropped,
 * counted and logged. `close` keeps trying for up to `closeTimeoutMs`, then disconnects.
 */
import type { Event } from '../../core/events/types.js';
import { AppError } from '../../core/errors.js';
import type { EventBroker, EventBrokerObserver } from '../../core/ports.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';

/** One event as a broker receives it: Rasa's event JSON with `sender_id` added. */
export interface BrokerMessage {
  readonly senderId: string;
  /** the JSON text */
  readonly body: string;
}

/** How a broker is reached: connects on demand, and `send` resolves once the broker has every message. */
export interface BrokerTransport {
  /** "RabbitMQ at host:5672 (exchange rasa-exchange)": for logs, without credentials */
  describe(): string;
  connect(): Promise<void>;
  send(batch: readonly BrokerMessage[]): Promise<void>;
  disconnect(): Promise<void>;
  /**
   * the largest message body (UTF-8 bytes) the broker takes: a larger event is dropped when published,
   * never buffered, since the broker would refuse it at every retry and hold up every event behind it
   */
  readonly maxMessageBytes?: number;
}

export interface BufferedBrokerOptions {
  readonly transport: BrokerTransport;
  readonly logger?: StoreLogger;
  readonly observer?: EventBrokerObserver;
  /** the most events kept waiting; beyond it the oldest are dropped (default 10,000) */
  readonly maxBuffered?: number;
  /** events per send (default 200) */
  readonly batchSize?: number;
  /** the first retry delay (default 100 ms), doubled per failure up to `maxRetryDelayMs` */
  readonly initialRetryDelayMs?: number;
  /** the longest wait between two attempts (default 5 s: Rasa's retry_delay_in_seconds) */
  readonly maxRetryDelayMs?: number;
  /** how long `close` keeps publishing what waits (default 5 s) */
  readonly closeTimeoutMs?: number;
  /** `open` fails the start when the broker cannot be reached (Rasa's raise_on_failure) */
  readonly raiseOnFailure?: boolean;
  /** connection attempts of `open` when `raiseOnFailure` (Rasa's connection_attempts, default 20) */
  readonly connectionAttempts?: number;
}

export const DEFAULT_MAX_BUFFERED = 10_000;
const DEFAULT_BATCH = 200;
/** errors about dropped events: at most one line per this many ms (the count covers them all) */
const DROP_LOG_INTERVAL_MS = 5000;

const NO_OBSERVER: EventBrokerObserver = {
  brokerEventsPublished: () => undefined,
  brokerEventsDropped: () => undefined,
  brokerPublishFailed: () => undefined,
  brokerBacklog: () => undefined,
};

export class BufferedEventBroker implements EventBroker {
  private readonly transport: BrokerTransport;
  private readonly logger: StoreLogger;
  private readonly observer: EventBrokerObserver;
  private readonly maxBuffered: number;
  private readonly batchSize: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly closeTimeoutMs: number;
  private readonly raiseOnFailure: boolean;
  private readonly connectionAttempts: number;
  private waiting: BrokerMessage[] = [];
  private sending = 0;
  private pumping: Promise<void> | undefined;
  private failures = 0;
  private closing = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly idle: (() => void)[] = [];
  private droppedTotal = 0;
  private publishedTotal = 0;
  private unloggedDrops = 0;
  private lastDropLog = -Infinity;

  constructor(options: BufferedBrokerOptions) {
    this.transport = options.transport;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.observer = options.observer ?? NO_OBSERVER;
    this.maxBuffered = Math.max(1, options.maxBuffered ?? DEFAULT_MAX_BUFFERED);
    this.batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
    this.initialDelayMs = options.initialRetryDelayMs ?? 100;
    this.maxDelayMs = Math.max(this.initialDelayMs, options.maxRetryDelayMs ?? 5000);
    this.closeTimeoutMs = options.closeTimeoutMs ?? 5000;
    this.raiseOnFailure = options.raiseOnFailure ?? false;
    this.connectionAttempts = Math.max(1, options.connectionAttempts ?? 20);
  }

  describe(): string {
    return this.transport.describe();
  }

  /** events waiting to be published, in flight included */
  get backlog(): number {
    return this.waiting.length + this.sending;
  }

  get published(): number {
    return this.publishedTotal;
  }

  get dropped(): number {
    return this.droppedTotal;
  }

  publish(conversationId: string, events: readonly Event[]): void {
    if (this.stopped) {
      this.drop(events.length, 'the event broker is closed');
      return;
    }
    const limit = this.transport.maxMessageBytes;
    let oversized = 0;
    for (const event of events) {
      const body = JSON.stringify({ sender_id: conversationId, ...event });
      // a character is at most 3 UTF-8 bytes: the exact count only for bodies that may be over
      if (limit !== undefined && body.length * 3 > limit && Buffer.byteLength(body, 'utf8') > limit)
        oversized += 1;
      else this.waiting.push({ senderId: conversationId, body });
    }
    if (oversized > 0) this.drop(oversized, `larger than the broker takes (${String(limit)} bytes)`);
    this.trim();
    this.observer.brokerBacklog(this.backlog);
    this.pumping ??= this.pump();
  }

  /**
   * Connects once to say at start-up whether the broker is there. Unreachable: with raiseOnFailure,
   * `connectionAttempts` tries `maxRetryDelayMs` apart, then STORE_UNAVAILABLE; otherwise a warning, and
   * events wait in the buffer until it is back.
   */
  async open(): Promise<void> {
    const attempts = this.raiseOnFailure ? this.connectionAttempts : 1;
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        await this.transport.connect();
        this.logger.info({ broker: this.describe() }, 'event broker connected');
        return;
      } catch (error) {
        // a broker that is there but set up wrongly will not get better by waiting
        if (error instanceof AppError && error.code === 'STORE_CONFIG_INVALID') throw error;
        last = error;
        if (attempt < attempts) await this.sleep(this.maxDelayMs);
      }
    }
    if (this.raiseOnFailure)
      throw new AppError({
        code: 'STORE_UNAVAILABLE',
        message: `The event broker (${this.describe()}) cannot be reached after ${attempts} attempt(s): ${errorText(last)}`,
      });
    this.logger.warn(
      { broker: this.describe(), error: errorText(last) },
      'event broker unreachable at start-up: events are buffered and published once it answers',
    );
  }

  /** Publishes what waits for up to closeTimeoutMs, then disconnects; what is left is logged as lost. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.closing = true;
    this.wake?.();
    if (this.backlog > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.closeTimeoutMs);
      });
      await Promise.race([this.whenIdle(), timeout]);
      clearTimeout(timer);
    }
    this.stopped = true;
    this.wake?.();
    // a send still under way fails with the connection (its events count as not published)
    await this.transport.disconnect().catch(() => undefined);
    await this.pumping;
    const left = this.waiting.length;
    if (left > 0) {
      this.drop(left, 'shutdown');
      this.waiting = [];
      this.logger.error(
        { broker: this.describe(), events: left, timeoutMs: this.closeTimeoutMs },
        'event broker closed with events not published (the broker did not take them in time)',
      );
    }
    this.observer.brokerBacklog(this.backlog);
  }

  private async pump(): Promise<void> {
    try {
      while (this.waiting.length > 0 && !this.stopped) {
        const batch = this.waiting.splice(0, this.batchSize);
        this.sending = batch.length;
        try {
          await this.transport.send(batch);
          this.sending = 0;
          this.sent(batch.length);
        } catch (error) {
          this.sending = 0;
          this.waiting.unshift(...batch);
          this.trim();
          this.failed(error);
          if (!this.stopped) await this.sleep(this.retryDelay());
        }
        this.observer.brokerBacklog(this.backlog);
      }
    } finally {
      this.pumping = undefined;
      if (this.backlog === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  private sent(count: number): void {
    this.publishedTotal += count;
    this.observer.brokerEventsPublished(count);
    if (this.failures > 0)
      this.logger.info(
        { broker: this.describe(), failedAttempts: this.failures, waiting: this.waiting.length },
        'event broker reachable again: publishing the buffered events',
      );
    this.failures = 0;
  }

  private failed(error: unknown): void {
    this.failures += 1;
    this.observer.brokerPublishFailed();
    // the first failure of an outage, then every 10th: one line per attempt would flood the log
    if (this.failures === 1 || this.failures % 10 === 0)
      this.logger.warn(
        { broker: this.describe(), error: errorText(error), attempt: this.failures, waiting: this.backlog },
        'event broker publish failed: retrying',
      );
  }

  /** Drops the oldest waiting events beyond the bound. */
  private trim(): void {
    const over = this.waiting.length - this.maxBuffered;
    if (over <= 0) return;
    this.waiting.splice(0, over);
    this.drop(over, 'buffer full');
  }

  private drop(count: number, reason: string): void {
    if (count <= 0) return;
    this.droppedTotal += count;
    this.observer.brokerEventsDropped(count);
    this.unloggedDrops += count;
    const now = performance.now();
    if (now - this.lastDropLog < DROP_LOG_INTERVAL_MS && reason === 'buffer full') return;
    this.lastDropLog = now;
    this.logger.error(
      {
        broker: this.describe(),
        dropped: this.unloggedDrops,
        droppedTotal: this.droppedTotal,
        maxBuffered: this.maxBuffered,
        reason,
      },
      'event broker: events dropped without being published',
    );
    this.unloggedDrops = 0;
  }

  private retryDelay(): number {
    if (this.closing) return Math.min(this.initialDelayMs, 200);
    const base = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.min(this.failures - 1, 30));
    // ±20 % jitter, so that many processes do not hammer a broker that comes back in step
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      // waiting to retry must not keep a process alive by itself (the server's sockets do that)
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  private whenIdle(): Promise<void> {
    if (this.backlog === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
