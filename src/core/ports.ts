import type { Command } from './commands/types.js';
import type { EngineContext } from './engine-context.js';
import type { TrackerState } from './events/tracker-state.js';
import type { Event, ParseData, UnstampedEvent } from './events/types.js';
import type { TraceEvent } from './trace/trace-events.js';

/** The state derived from the first `eventCount` events of a conversation: a cache, never the truth. */
export interface TrackerSnapshot {
  readonly eventCount: number;
  readonly state: TrackerState;
}

/**
 * What a turn needs of a stored conversation: the latest snapshot and only the events after it, so
 * that loading costs the same at turn 1,000 as at turn 10.
 */
export interface RecentConversation {
  /** how many events the conversation has in all (0 for an unknown conversation) */
  readonly eventCount: number;
  /** the latest usable snapshot, if any; `snapshot.eventCount <= eventCount` */
  readonly snapshot?: TrackerSnapshot;
  /** the events after the snapshot (all events when there is no snapshot), oldest first */
  readonly eventsAfterSnapshot: readonly Event[];
}

/**
 * Persists conversations as append-only event logs. Implementations: memory, SQLite, PostgreSQL. A
 * snapshot saved with the events lets the next turn skip re-folding (and re-reading) the history.
 */
/** what the caller knows of a conversation it loads */
export interface LoadHint {
  /**
   * Its event count, read when the caller claimed it, no other process having written it since this
   * one's last write (A2A claims on PostgreSQL): a store that kept the state of that write, at that
   * count, may use it without reading; 0, the conversation holds nothing (whoever wrote last). A
   * writer the claim does not see is still refused by the append's count check, as after a read.
   */
  readonly keptAt?: number;
}

export interface TrackerStore {
  loadRecent(conversationId: string, hint?: LoadHint): Promise<RecentConversation>;
  /** every event of the conversation, oldest first; empty for an unknown conversation */
  loadAll(conversationId: string): Promise<readonly Event[]>;
  /**
   * Appends events after the `expectedCount` events already stored (the count the turn loaded). A store
   * that finds a different count refuses with TRACKER_CONFLICT instead of interleaving two writers.
   */
  append(
    conversationId: string,
    events: readonly Event[],
    options: { readonly expectedCount: number; readonly snapshot?: TrackerSnapshot },
  ): Promise<void>;
  /** removes the conversation's events and snapshot (the HTTP API's tracker replace) */
  remove?(conversationId: string): Promise<void>;
  /**
   * One page of the stored conversations, ordered by id: those after `after` (exclusive), at most
   * `limit` (clamped to 1..MAX_CONVERSATION_PAGE: callers validate what they are given).
   */
  listConversations?(page: ConversationPageRequest): Promise<ConversationPage>;
  close?(): Promise<void>;
}

export const MAX_CONVERSATION_PAGE = 500;

/** `limit` as a store applies it: a whole number from 1 to MAX_CONVERSATION_PAGE. */
export function conversationPageLimit(limit: number): number {
  if (!Number.isFinite(limit)) return MAX_CONVERSATION_PAGE;
  return Math.min(MAX_CONVERSATION_PAGE, Math.max(1, Math.floor(limit)));
}

export interface ConversationPageRequest {
  readonly limit: number;
  readonly after?: string;
}

export interface ConversationSummary {
  readonly conversationId: string;
  readonly eventCount: number;
  /** timestamp of its latest event */
  readonly latestEventTime: number | undefined;
}

export interface ConversationPage {
  readonly conversations: readonly ConversationSummary[];
  /** the `after` of the next page; absent on the last page */
  readonly next?: string;
}

/**
 * Streams the events of committed turns to other services (Rasa's event brokers: RabbitMQ, SQL). It
 * is handed each conversation's new events once they are stored, oldest first, and must neither block
 * nor fail the turn: an adapter buffers, retries while the broker is away, and drops (and counts) the
 * oldest when its bound is reached. `close` publishes what is waiting within a bounded time.
 */
export interface EventBroker {
  publish(conversationId: string, events: readonly Event[]): void;
  /** connects now, to log (or, if configured, fail the start) when the broker is not there */
  open?(): Promise<void>;
  close?(): Promise<void>;
}

/** Hears what an event broker does with the events it is given (the server's metrics). */
export interface EventBrokerObserver {
  /** the broker took them (RabbitMQ confirmed them, the SQL insert committed) */
  brokerEventsPublished(count: number): void;
  /** the buffer was full: the oldest waiting events were given up */
  brokerEventsDropped(count: number): void;
  /** a publish attempt failed (it is retried) */
  brokerPublishFailed(): void;
  /** how many events wait to be published now (buffered and in flight) */
  brokerBacklog(count: number): void;
}

/** Serialises the turns of one conversation, also across processes for shared stores. */
export interface LockStore {
  withLock<T>(conversationId: string, work: () => Promise<T>): Promise<T>;
}

/** Wall-clock time, in seconds since the epoch (Rasa's event timestamps). */
export interface Clock {
  now(): number;
}

/** Fresh ids for frames and messages. */
export interface IdSource {
  frameId(): string;
  messageId(): string;
}

/** A request to run one action of a conversation. */
export interface ActionRequest {
  readonly actionName: string;
  readonly conversationId: string;
  readonly state: TrackerState;
  /** the conversation's events so far, for protocols that ship the tracker (read on demand) */
  allEvents(): Promise<readonly Event[]>;
  readonly engine: EngineContext;
  readonly channel?: string;
  /** what the prediction attached to the action (Rasa's action metadata: active_flow, step_id, message, ...) */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Events an action produced (bot messages included), or why it failed. */
export type ActionOutcome =
  | { readonly ok: true; readonly events: readonly UnstampedEvent[] }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** Runs actions: responses, built-ins, in-process custom actions, an action server. */
export interface ActionRunner {
  run(request: ActionRequest): Promise<ActionOutcome>;
}

export interface Understanding {
  readonly commands: readonly Command[];
  readonly parseData: ParseData;
}

/** Turns a user message into commands (direct payloads, NLU, an LLM). */
export interface CommandGenerator {
  understand(input: {
    readonly text: string;
    readonly state: TrackerState;
    readonly engine: EngineContext;
    /** given only when someone listens: the generator records where its commands came from */
    readonly trace?: TraceSink;
  }): Promise<Understanding>;
}

/**
 * Hears the typed trace events of turns (the inspector, tests, tools). The runtime builds none when no
 * sink is given. `record` must not throw nor block: it runs inside the turn.
 */
export interface TraceSink {
  record(event: TraceEvent): void;
}
