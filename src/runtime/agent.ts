import type { Assistant } from '../core/assistant.js';
import type { Command } from '../core/commands/types.js';
import type { EngineContext, EngineOptions } from '../core/engine-context.js';
import { DEFAULT_ENGINE_OPTIONS } from '../core/engine-context.js';
import { applyEvent } from '../core/events/apply-event.js';
import { foldEvents } from '../core/events/fold-events.js';
import { createTrackerState } from '../core/events/tracker-state.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { BotUttered, Event, UnstampedEvent } from '../core/events/types.js';
import { ACTION_LISTEN, predictNextAction } from '../core/executor/advance.js';
import { internalErrorEvents } from '../core/executor/internal-error.js';
import type {
  ActionRunner,
  Clock,
  CommandGenerator,
  IdSource,
  LockStore,
  RecentConversation,
  TrackerStore,
} from '../core/ports.js';
import { receiveUserMessage } from '../core/turn.js';
import type { Logger } from './logger.js';
import { SILENT_LOGGER } from './logger.js';
import { needsNewSession } from './session.js';

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
  /** actions one turn may run before the turn is cut short as an internal error */
  readonly maxActionsPerTurn?: number;
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
}

export interface TurnResult {
  /** the events this turn appended, in order */
  readonly events: readonly Event[];
  /** the bot messages among them */
  readonly messages: readonly BotUttered[];
}

/**
 * One turn: lock the conversation, load it, start a session if needed, understand the message, apply
 * its commands, then predict and run actions until the assistant listens; append what happened.
 */
export class Agent {
  readonly assistant: Assistant;
  private readonly options: AgentOptions;
  private readonly engineOptions: EngineOptions;
  private readonly logger: Logger;
  private readonly initialSlots: Record<string, unknown>;

  constructor(options: AgentOptions) {
    this.options = options;
    this.assistant = options.assistant;
    this.engineOptions = { ...DEFAULT_ENGINE_OPTIONS, ...options.engineOptions };
    this.logger = options.logger ?? SILENT_LOGGER;
    this.initialSlots = Object.fromEntries(
      [...options.assistant.domain.slots.values()].map((slot) => [slot.name, slot.initialValue ?? null]),
    );
  }

  handleMessage(message: IncomingMessage): Promise<TurnResult> {
    return this.options.lockStore.withLock(message.conversationId, () => this.runTurn(message));
  }

  /** Appends events from outside (fixtures, the HTTP API) under the conversation's lock. */
  appendEvents(conversationId: string, events: readonly UnstampedEvent[]): Promise<TurnResult> {
    return this.options.lockStore.withLock(conversationId, async () => {
      const turn = await this.openTurn(conversationId, undefined);
      for (const event of events) turn.add(event);
      return turn.commit();
    });
  }

  /** The conversation's events and derived state. */
  async load(conversationId: string): Promise<{ events: readonly Event[]; state: TrackerState }> {
    const recent = await this.options.trackerStore.loadRecent(conversationId);
    const state = this.stateOf(conversationId, recent);
    return { events: await this.options.trackerStore.loadAll(conversationId), state };
  }

  /** The conversation's derived state only: flat in the conversation's length. */
  async state(conversationId: string): Promise<TrackerState> {
    return this.stateOf(conversationId, await this.options.trackerStore.loadRecent(conversationId));
  }

  private stateOf(conversationId: string, recent: RecentConversation): TrackerState {
    const start = recent.snapshot ? recent.snapshot.state : this.emptyState(conversationId);
    return foldEvents(start, recent.eventsAfterSnapshot);
  }

  private async runTurn(message: IncomingMessage): Promise<TurnResult> {
    const turn = await this.openTurn(message.conversationId, message);
    const engine = this.engine(turn.now);
    const understanding = message.commands
      ? { commands: message.commands, parseData: { intent: { name: null, confidence: 0 }, entities: [] } }
      : await this.options.commandGenerator.understand({ text: message.text, state: turn.state, engine });
    const userMessage = {
      text: message.text,
      parseData: { ...understanding.parseData, text: message.text },
      commands: understanding.commands,
      messageId: this.options.ids.messageId(),
      ...(message.inputChannel ? { inputChannel: message.inputChannel } : {}),
      ...(message.metadata ? { metadata: message.metadata } : {}),
    };
    turn.adopt(receiveUserMessage(turn.state, userMessage, engine));
    await this.predictAndAct(turn, message.inputChannel);
    return turn.commit();
  }

  private async openTurn(conversationId: string, message: IncomingMessage | undefined): Promise<OpenTurn> {
    const recent = await this.options.trackerStore.loadRecent(conversationId);
    const state = this.stateOf(conversationId, recent);
    const turn = new OpenTurn({
      conversationId,
      storedCount: recent.eventCount,
      state,
      now: this.options.clock.now(),
      store: this.options.trackerStore,
      ...(message?.onBotMessage ? { onBotMessage: message.onBotMessage } : {}),
    });
    if (needsNewSession(turn.state, this.assistant.domain.sessionConfig, turn.now)) {
      await this.runAction(turn, 'action_session_start', message?.inputChannel);
    }
    return turn;
  }

  private async predictAndAct(turn: OpenTurn, channel: string | undefined): Promise<void> {
    const limit = this.options.maxActionsPerTurn ?? 50;
    for (let count = 0; count < limit; count += 1) {
      const followup = turn.state.followupAction;
      if (followup && followup !== ACTION_LISTEN) {
        // An action asked for another one to run next (a restart schedules action_session_start).
        await this.runAction(turn, followup, channel);
        continue;
      }
      const prediction = predictNextAction(turn.state, this.engine(turn.now));
      turn.adopt(prediction);
      const metadata = {
        ...(prediction.activeFlow ? { active_flow: prediction.activeFlow } : {}),
        ...(prediction.stepId ? { step_id: prediction.stepId } : {}),
      };
      if (prediction.action === ACTION_LISTEN) {
        turn.add({ event: 'action', name: ACTION_LISTEN, policy: 'FlowPolicy', confidence: 1, metadata });
        return;
      }
      await this.runAction(turn, prediction.action, channel, metadata);
    }
    this.logger.error(
      { conversationId: turn.conversationId, limit },
      'turn stopped: too many actions in one turn',
    );
    for (const event of internalErrorEvents(turn.state, this.engine(turn.now))) turn.add(event);
    turn.add({ event: 'action', name: ACTION_LISTEN, policy: 'FlowPolicy', confidence: 1 });
  }

  private async runAction(
    turn: OpenTurn,
    name: string,
    channel: string | undefined,
    metadata: Record<string, unknown> = {},
  ): Promise<void> {
    turn.add({
      event: 'action',
      name,
      policy: 'FlowPolicy',
      confidence: 1,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    });
    const engine = this.engine(turn.now);
    const outcome = await this.options.actionRunner.run({
      actionName: name,
      conversationId: turn.conversationId,
      state: turn.state,
      allEvents: () => turn.allEvents(),
      engine,
      ...(channel ? { channel } : {}),
    });
    if (outcome.ok) {
      for (const event of outcome.events) turn.add(event);
      return;
    }
    this.logger.error(
      { conversationId: turn.conversationId, action: name, code: outcome.code },
      `action '${name}' failed: ${outcome.message}`,
    );
    for (const event of internalErrorEvents(turn.state, engine)) turn.add(event);
  }

  private engine(now: number): EngineContext {
    return {
      flows: this.assistant.flows,
      domain: this.assistant.domain,
      now,
      newFrameId: () => this.options.ids.frameId(),
      options: this.engineOptions,
    };
  }

  private emptyState(conversationId: string): TrackerState {
    return createTrackerState({ senderId: conversationId, initialSlots: this.initialSlots });
  }
}

/** The events of a turn being built: applied to the state as they come, stored together at the end. */
class OpenTurn {
  readonly conversationId: string;
  readonly now: number;
  state: TrackerState;
  private readonly storedCount: number;
  private readonly added: Event[] = [];
  private readonly store: TrackerStore;
  private readonly onBotMessage: ((message: BotUttered) => void) | undefined;

  constructor(options: {
    conversationId: string;
    storedCount: number;
    state: TrackerState;
    now: number;
    store: TrackerStore;
    onBotMessage?: (message: BotUttered) => void;
  }) {
    this.onBotMessage = options.onBotMessage;
    this.conversationId = options.conversationId;
    this.storedCount = options.storedCount;
    this.state = options.state;
    this.now = options.now;
    this.store = options.store;
  }

  /** the stored history (read once, on demand) followed by this turn's events */
  async allEvents(): Promise<readonly Event[]> {
    const stored = this.storedCount === 0 ? [] : await this.store.loadAll(this.conversationId);
    return [...stored.slice(0, this.storedCount), ...this.added];
  }

  /** Events the core already applied to a state derived from this turn's: take both as they are. */
  adopt(applied: { readonly events: readonly Event[]; readonly state: TrackerState }): void {
    this.added.push(...applied.events);
    this.state = applied.state;
    for (const event of applied.events) this.announce(event);
  }

  add(event: UnstampedEvent | Event): void {
    const stamped = { ...event, timestamp: event.timestamp ?? this.now } as Event;
    this.state = applyEvent(this.state, stamped);
    this.added.push(stamped);
    this.announce(stamped);
  }

  private announce(event: Event): void {
    if (event.event === 'bot' && this.onBotMessage) this.onBotMessage(event);
  }

  async commit(): Promise<TurnResult> {
    const snapshot = { eventCount: this.storedCount + this.added.length, state: this.state };
    await this.store.append(this.conversationId, this.added, { expectedCount: this.storedCount, snapshot });
    return {
      events: this.added,
      messages: this.added.filter((event): event is BotUttered => event.event === 'bot'),
    };
  }
}
