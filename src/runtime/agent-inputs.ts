/** What an Agent is built with and what it is given: its options and the messages of a turn. */
import type { Assistant } from '../core/assistant.js';
import type { Command } from '../core/commands/types.js';
import type { NluPolicies } from '../core/dialogue/nlu-policies.js';
import type { EngineOptions } from '../core/engine-context.js';
import type { BotUttered, ParseData } from '../core/events/types.js';
import type {
  ActionRunner,
  Clock,
  CommandGenerator,
  IdSource,
  LockStore,
  TraceSink,
  TrackerStore,
} from '../core/ports.js';
import type { Logger } from './logger.js';

export interface AgentOptions {
  readonly assistant: Assistant;
  readonly trackerStore: TrackerStore;
  readonly lockStore: LockStore;
  readonly actionRunner: ActionRunner;
  readonly commandGenerator: CommandGenerator;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly engineOptions?: Partial<EngineOptions>;
  readonly logger?: Logger;
  /** coexistence: the rules and stories policies that answer while a session is routed away from CALM */
  readonly nluPolicies?: NluPolicies;
  /** actions one turn may run before the turn is cut short as an internal error */
  readonly maxActionsPerTurn?: number;
  /** hears the trace of every turn (tests, tools); a message may bring its own instead */
  readonly traceSink?: TraceSink;
}

export interface IncomingMessage {
  readonly conversationId: string;
  readonly text: string;
  readonly inputChannel?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** commands decided elsewhere (tests, oracles, the HTTP API): understanding is skipped */
  readonly commands?: readonly Command[];
  /** called with each bot message as soon as the turn produces it (streaming channels) */
  readonly onBotMessage?: (message: BotUttered) => void;
  /** understanding for this message only, in place of the assistant's (the HTTP API's trigger_intent) */
  readonly commandGenerator?: CommandGenerator;
  /** hears this turn's trace (the inspector's turns), in place of the agent's sink */
  readonly trace?: TraceSink;
  /**
   * The conversation id was made up for this message (A2A's new contextId): nothing is stored under
   * it, so the turn begins a fresh conversation without reading the store; its write still checks
   * that nothing is (TRACKER_CONFLICT otherwise).
   */
  readonly unseen?: boolean;
  /**
   * The conversation's event count, read under a claim that no other process ran a turn on it since
   * this one's last (A2A on PostgreSQL): the store may start from the state it kept of its own last
   * write at that count (LoadHint).
   */
  readonly keptAt?: number;
}

/** A user message recorded without acting on it; understood unless its parse data is given. */
export interface LoggedMessage {
  readonly conversationId: string;
  readonly text: string;
  readonly parseData?: ParseData;
  readonly inputChannel?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * When events from outside open a session first: `if-needed` as for a user message (new or expired
 * conversation); `if-new` is the HTTP API's rule (only a conversation without events, and not when the
 * events begin with their own `session_started`).
 */
export type SessionRule = 'if-needed' | 'if-new';
