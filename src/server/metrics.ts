import { Router } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventBrokerObserver } from '../core/ports.js';
import type { ActionKind, ActionObserver, CallOutcome } from '../runtime/instrumented-action-runner.js';
import type { StoreKind, StoreObserver, StoreOperation } from '../runtime/instrumented-stores.js';
import { ActiveConversations } from './active-conversations.js';
import { BoundCounter, BoundHistogram } from './bound-metrics.js';
import { LabelledChildren } from './labelled.js';
import type { TurnObserver } from './turn-gate.js';

export interface ServerMetricsOptions {
  /** a conversation counts as active for this long after its last turn (default 5 minutes) */
  readonly activeWindowSeconds?: number;
  /** the most conversation ids remembered for the active gauge (default 100,000) */
  readonly maxActiveTracked?: number;
  /** Node.js process metrics (CPU, memory, event loop lag, GC); default true */
  readonly processMetrics?: boolean;
  /** the clock of the active window, in ms (tests) */
  readonly now?: () => number;
}

/** what the A2A task store holds (the server does not import a2a/: any source of these counts) */
export interface A2aStoreStats {
  readonly contexts: number;
  readonly tasks: number;
  readonly taskBytes: number;
  /** the answers kept for messageId replays */
  readonly replayBytes: number;
  readonly pushConfigs: number;
}

export const DEFAULT_ACTIVE_WINDOW_SECONDS = 300;
export const DEFAULT_MAX_ACTIVE_TRACKED = 100_000;
/** distinct `channel` label values kept; clients may name the input channel, so it must be bounded */
const MAX_CHANNEL_LABELS = 32;

const TURN_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The server's Prometheus metrics, in a registry of its own (never prom-client's global one, so that
 * several servers in one process, as in tests, do not share counts). It is the observer the turn
 * gate, the instrumented action runner, the instrumented stores and the event broker report to.
 */
export class ServerMetrics implements TurnObserver, ActionObserver, StoreObserver, EventBrokerObserver {
  readonly registry = new Registry();
  private readonly turns: BoundCounter;
  private readonly turnDuration: BoundHistogram;
  private readonly inFlight: Gauge;
  private readonly actionCalls: BoundCounter;
  private readonly actionDuration: BoundHistogram;
  private readonly storeDuration: BoundHistogram;
  private readonly storeErrors: Counter<'store' | 'operation'>;
  private readonly active: ActiveConversations;
  private readonly broker: {
    readonly backlog: Gauge;
    readonly published: Counter;
    readonly dropped: Counter;
    readonly failures: Counter;
  };
  private readonly channelLabels = new Set<string>();
  private readonly turnCount = new LabelledChildren((channel, outcome) =>
    this.turns.bind(`${channel}\n${outcome}`, { channel, outcome }),
  );
  private readonly turnTime = new LabelledChildren((channel) => this.turnDuration.bind(channel, { channel }));
  private readonly actionCount = new LabelledChildren((kind, outcome) =>
    this.actionCalls.bind(`${kind}\n${outcome}`, { action_kind: kind, outcome }),
  );
  private readonly actionTime = new LabelledChildren((kind) =>
    this.actionDuration.bind(kind, { action_kind: kind }),
  );
  private readonly storeTime = new LabelledChildren((store, operation) =>
    this.storeDuration.bind(`${store}\n${operation}`, { store, operation }),
  );

  constructor(options: ServerMetricsOptions = {}) {
    const registers = [this.registry];
    const active = new ActiveConversations({
      windowSeconds: options.activeWindowSeconds ?? DEFAULT_ACTIVE_WINDOW_SECONDS,
      maxTracked: options.maxActiveTracked ?? DEFAULT_MAX_ACTIVE_TRACKED,
      ...(options.now ? { now: options.now } : {}),
    });
    this.active = active;
    const registry = this.registry;
    this.turns = new BoundCounter({
      name: 'parley_turns_total',
      help: 'User turns handled, by input channel and outcome (ok, or error: the turn failed)',
      registry,
    });
    this.turnDuration = new BoundHistogram(
      {
        name: 'parley_turn_duration_seconds',
        help: 'Time from receiving a user message to the last bot message of its turn',
        registry,
      },
      TURN_BUCKETS,
    );
    this.inFlight = new Gauge({ name: 'parley_turns_in_flight', help: 'Turns running now', registers });
    this.actionCalls = new BoundCounter({
      name: 'parley_action_calls_total',
      help: 'Actions run, by kind (response, builtin, custom, unknown) and outcome (ok, error)',
      registry,
    });
    this.actionDuration = new BoundHistogram(
      {
        name: 'parley_action_duration_seconds',
        help: 'Time to run an action (custom actions include the action server call)',
        registry,
      },
      TURN_BUCKETS,
    );
    this.storeDuration = new BoundHistogram(
      {
        name: 'parley_store_operation_duration_seconds',
        help: 'Tracker store calls (loadRecent, loadAll, append, remove, listConversations) and lock waits (lock/acquire)',
        registry,
      },
      STORE_BUCKETS,
    );
    this.storeErrors = new Counter({
      name: 'parley_store_errors_total',
      help: 'Store calls that failed (including lock waits that timed out)',
      labelNames: ['store', 'operation'],
      registers,
    });
    new Gauge({
      name: 'parley_active_conversations',
      help: `Conversations with a turn in the last ${options.activeWindowSeconds ?? DEFAULT_ACTIVE_WINDOW_SECONDS} seconds`,
      registers,
      collect() {
        this.set(active.count());
      },
    });
    this.broker = brokerMetrics(registers);
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  brokerEventsPublished(count: number): void {
    this.broker.published.inc(count);
  }

  brokerEventsDropped(count: number): void {
    this.broker.dropped.inc(count);
  }

  brokerPublishFailed(): void {
    this.broker.failures.inc();
  }

  brokerBacklog(count: number): void {
    this.broker.backlog.set(count);
  }

  turnStarted(_channel: string, conversationId: string): void {
    this.inFlight.inc();
    this.active.touch(conversationId);
  }

  turnFinished(channel: string, seconds: number, outcome: CallOutcome): void {
    const label = this.channelLabel(channel);
    this.inFlight.dec();
    this.turnCount.get(label, outcome).inc();
    this.turnTime.get(label).observe(seconds);
  }

  actionFinished(kind: ActionKind, seconds: number, outcome: CallOutcome): void {
    this.actionCount.get(kind, outcome).inc();
    this.actionTime.get(kind).observe(seconds);
  }

  storeOperationFinished(
    store: StoreKind,
    operation: StoreOperation,
    seconds: number,
    outcome: CallOutcome,
  ): void {
    this.storeTime.get(store, operation).observe(seconds);
    if (outcome === 'error') this.storeErrors.inc({ store, operation });
  }

  /**
   * Gauges of the A2A server's memory (contexts, tasks, their bytes, push configs), read at each
   * scrape: an operator sees how close the limits are, and the limit tests read them from outside.
   */
  watchA2a(source: () => Promise<A2aStoreStats>): void {
    // one read of the store per scrape: the five gauges collect at once and share the read under way
    let reading: Promise<A2aStoreStats> | undefined;
    const read = (): Promise<A2aStoreStats> => {
      if (reading) return reading;
      const current = source();
      reading = current;
      const done = () => {
        if (reading === current) reading = undefined;
      };
      current.then(done, done);
      return current;
    };
    const gauge = (name: string, help: string, pick: (stats: A2aStoreStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          // a store that cannot answer leaves the last values; the scrape itself still succeeds
          const stats = await read().catch(() => undefined);
          if (stats) this.set(pick(stats));
        },
      });
    gauge('parley_a2a_contexts', 'A2A contexts held in the task store', (stats) => stats.contexts);
    gauge('parley_a2a_tasks', 'A2A tasks held in the task store', (stats) => stats.tasks);
    gauge(
      'parley_a2a_task_bytes',
      'Bytes (as JSON) of the A2A tasks held in the task store',
      (stats) => stats.taskBytes,
    );
    gauge(
      'parley_a2a_replay_bytes',
      'Bytes (as JSON) of the answers kept for messageId replays',
      (stats) => stats.replayBytes,
    );
    gauge('parley_a2a_push_configs', 'A2A push notification configs held', (stats) => stats.pushConfigs);
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  private channelLabel(channel: string): string {
    if (this.channelLabels.has(channel)) return channel;
    if (this.channelLabels.size >= MAX_CHANNEL_LABELS || channel.length > 64) return 'other';
    this.channelLabels.add(channel);
    return channel;
  }
}

/** The event broker's metrics (they stay at zero without an event_broker). */
function brokerMetrics(registers: Registry[]) {
  return {
    backlog: new Gauge({
      name: 'parley_event_broker_backlog_events',
      help: 'Events waiting to be published to the event broker (buffered and in flight)',
      registers,
    }),
    published: new Counter({
      name: 'parley_event_broker_published_events_total',
      help: 'Events the event broker took (RabbitMQ confirmed them, the SQL insert committed)',
      registers,
    }),
    dropped: new Counter({
      name: 'parley_event_broker_dropped_events_total',
      help: 'Events given up unpublished: the oldest when the buffer was full, or those left at shutdown',
      registers,
    }),
    failures: new Counter({
      name: 'parley_event_broker_publish_failures_total',
      help: 'Publish attempts that failed (the events are retried)',
      registers,
    }),
  };
}

/** `GET /metrics`: the Prometheus text format (no auth: block it at the proxy if the port is public). */
/**
 * `GET /metrics`. With `guard` (the HTTP API's auth when it has a token or JWT) a scrape needs the
 * same credentials as the API's admin routes: metrics name channels, error rates and load, which an
 * operator shows to its monitoring, not to every caller.
 */
export function metricsRouter(metrics: ServerMetrics, guard?: RequestHandler): Router {
  const router = Router();
  router.get('/', ...(guard ? [guard] : []), (_request: Request, response: Response, next: NextFunction) => {
    metrics.text().then((text) => {
      response.type(metrics.registry.contentType).send(text);
    }, next);
  });
  return router;
}
