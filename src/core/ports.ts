import type { Command } from './commands/types.js';
import type { EngineContext } from './engine-context.js';
import type { TrackerState } from './events/tracker-state.js';
import type { Event, ParseData, UnstampedEvent } from './events/types.js';

/** The state derived from the first `eventCount` events of a conversation: a cache, never the truth. */
export interface TrackerSnapshot {
  readonly eventCount: number;
  readonly state: TrackerState;
}

export interface StoredConversation {
  /** the events, oldest first; empty for an unknown conversation */
  readonly events: readonly Event[];
  readonly snapshot?: TrackerSnapshot;
}

/**
 * Persists conversations as append-only event logs. Implementations: memory, SQLite, PostgreSQL. A
 * snapshot saved with the events lets the next turn skip re-folding the whole history.
 */
export interface TrackerStore {
  load(conversationId: string): Promise<StoredConversation>;
  append(conversationId: string, events: readonly Event[], snapshot?: TrackerSnapshot): Promise<void>;
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
  /** the conversation's events so far, for protocols that ship the tracker (built on demand) */
  allEvents(): readonly Event[];
  readonly engine: EngineContext;
  readonly channel?: string;
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
  }): Promise<Understanding>;
}
