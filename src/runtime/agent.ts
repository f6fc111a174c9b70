import type { Assistant } from '../core/assistant.js';
import type { EngineContext, EngineOptions } from '../core/engine-context.js';
import { DEFAULT_ENGINE_OPTIONS } from '../core/engine-context.js';
import { foldEvents } from '../core/events/fold-events.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { Event, ParseData, UnstampedEvent } from '../core/events/types.js';
import { AppError } from '../core/errors.js';
import { sanitizedUserText } from '../core/domain/direct-payload.js';
import { numberedChoice } from '../core/text/numbered-choice.js';
import { ACTION_LISTEN, predictNextAction } from '../core/executor/advance.js';
import { internalErrorEvents } from '../core/executor/internal-error.js';
import type {
  ActionRequest,
  ConversationPage,
  ConversationPageRequest,
  RecentConversation,
  TraceSink,
  Understanding,
} from '../core/ports.js';
import { receiveUserMessage } from '../core/turn.js';
import type { Logger } from './logger.js';
import { SILENT_LOGGER } from './logger.js';
import { NluDialogue } from './nlu-dialogue.js';
import { FreshState } from './fresh-state.js';
import { asStored, parseDataWithCommands } from './message-parts.js';
import { OpenTurn, revertsEvents } from './open-turn.js';
import { actionEvent, hasKeys, predictionMetadata } from './action-events.js';
import type { PredictedBy } from './action-events.js';
import type { TurnResult } from './open-turn.js';
import { needsNewSession } from './session.js';
import { warnIfSilent } from './silent-turn.js';
import { recordGiven, recordStart, recordTurn, shieldedSink } from './turn-trace.js';
import { loadForTurn } from './turn-load.js';
import type { AgentOptions, IncomingMessage, LoggedMessage, SessionRule } from './agent-inputs.js';

const ACTION_SESSION_START = 'action_session_start';
const FLOW_POLICY: PredictedBy = { policy: 'FlowPolicy', confidence: 1 };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type { AgentOptions, IncomingMessage, LoggedMessage, SessionRule } from './agent-inputs.js';
export type { TurnResult } from './open-turn.js';

/**
 * One turn: lock the conversation, load it, start a session if needed, understand the message, apply
 * its commands, then predict and run actions until the assistant listens; append what happened.
 */
export class Agent {
  readonly assistant: Assistant;
  private readonly options: AgentOptions;
  private readonly engineOptions: EngineOptions;
  private readonly logger: Logger;
  private readonly fresh: FreshState;
  private readonly nlu: NluDialogue;

  constructor(options: AgentOptions) {
    this.options = options;
    this.assistant = options.assistant;
    this.engineOptions = { ...DEFAULT_ENGINE_OPTIONS, ...options.engineOptions };
    this.logger = options.logger ?? SILENT_LOGGER;
    this.fresh = new FreshState(options.assistant.domain);
    this.nlu = new NluDialogue(options.assistant, options.nluPolicies);
  }

  handleMessage(message: IncomingMessage): Promise<TurnResult> {
    const kept = asStored(message);
    return this.options.lockStore.withLock(message.conversationId, () => this.runTurn(kept));
  }

  /** Appends events from outside (fixtures, the HTTP API) under the conversation's lock. */
  appendEvents(
    conversationId: string,
    events: readonly UnstampedEvent[],
    options: { readonly session?: SessionRule } = {},
  ): Promise<TurnResult> {
    const session =
      options.session === 'if-new' && events[0]?.event === 'session_started' ? 'never' : options.session;
    return this.options.lockStore.withLock(conversationId, async () => {
      const turn = await this.openTurn(conversationId, undefined, session);
      for (const event of events) await turn.addExternal(event);
      return turn.commit();
    });
  }

  /** Records a user message without predicting (the HTTP API's `messages`): its commands are kept, not applied. */
  logMessage(logged: LoggedMessage): Promise<TurnResult> {
    const message = asStored(logged);
    return this.options.lockStore.withLock(message.conversationId, async () => {
      const turn = await this.openTurn(message.conversationId, undefined);
      const text = message.parseData ? message.text : this.sanitized(message.text);
      const parseData = message.parseData
        ? { ...message.parseData, text: message.parseData.text ?? text }
        : parseDataWithCommands(text, await this.understand(text, turn.state, turn.now));
      turn.add({
        event: 'user',
        text,
        parse_data: parseData,
        input_channel: message.inputChannel ?? null,
        message_id: this.options.ids.messageId(),
        ...(message.metadata ? { metadata: message.metadata } : {}),
      });
      return turn.commit();
    });
  }

  /** What the assistant's understanding makes of a text outside any conversation (`/model/parse`). */
  async parse(text: string): Promise<ParseData> {
    const now = this.options.clock.now();
    const sanitized = this.sanitized(text);
    return parseDataWithCommands(
      sanitized,
      await this.understand(sanitized, this.emptyState('default'), now),
    );
  }

  /** The action the assistant would run next, without running it or storing anything. */
  async predict(conversationId: string): Promise<{ action: string; policy: string; confidence: number }> {
    const state = await this.state(conversationId);
    const followup = state.followupAction;
    if (followup && followup !== ACTION_LISTEN)
      return { action: followup, policy: 'FollowupAction', confidence: 1 };
    if (this.nlu.answers(state)) {
      const events = await this.options.trackerStore.loadAll(conversationId);
      const { action, policy, confidence } = this.nlu.predict(events, state);
      return { action, policy, confidence };
    }
    const prediction = predictNextAction(state, this.engine(this.options.clock.now()));
    return { action: prediction.action, policy: 'FlowPolicy', confidence: 1 };
  }

  /** Replaces the conversation's events (the HTTP API's PUT; none: deletes it) without starting a session. */
  replaceEvents(
    conversationId: string,
    events: readonly UnstampedEvent[],
  ): Promise<{ events: readonly Event[]; state: TrackerState }> {
    return this.options.lockStore.withLock(conversationId, async () => {
      const store = this.options.trackerStore;
      if (!store.remove)
        throw new AppError({
          code: 'STORE_UNSUPPORTED',
          message: 'The tracker store cannot remove conversations.',
        });
      const now = this.options.clock.now();
      const stamped = events.map((event) => ({ ...event, timestamp: event.timestamp ?? now }) as Event);
      const state = this.replay(conversationId, stamped);
      await store.remove(conversationId);
      if (stamped.length > 0)
        await store.append(conversationId, stamped, {
          expectedCount: 0,
          snapshot: { eventCount: stamped.length, state },
        });
      return { events: stamped, state };
    });
  }

  /** The state after `events`, folded from a fresh conversation (`until` of the HTTP API). */
  replay(conversationId: string, events: readonly Event[]): TrackerState {
    return foldEvents(this.emptyState(conversationId), events);
  }

  /**
   * The conversation as the HTTP API shows it: an unknown one with the session start a first message
   * would open it with, not stored (Rasa's `fetch_tracker_with_initial_session`).
   */
  async loadWithSession(conversationId: string): Promise<{ events: readonly Event[]; state: TrackerState }> {
    const loaded = await this.load(conversationId);
    if (loaded.events.length > 0) return loaded;
    const turn = await this.openTurn(conversationId, undefined, 'if-new');
    return { events: await turn.allEvents(), state: turn.state };
  }

  /** One page of the stored conversations, by id (the inspector's list); STORE_UNSUPPORTED if the store cannot list. */
  listConversations(page: ConversationPageRequest): Promise<ConversationPage> {
    const store = this.options.trackerStore;
    if (!store.listConversations)
      return Promise.reject(
        new AppError({ code: 'STORE_UNSUPPORTED', message: 'The tracker store cannot list conversations.' }),
      );
    return store.listConversations(page);
  }

  /** The conversation's events and derived state. */
  async load(conversationId: string): Promise<{ events: readonly Event[]; state: TrackerState }> {
    const recent = await this.options.trackerStore.loadRecent(conversationId);
    const state = await this.stateOf(conversationId, recent);
    return { events: await this.options.trackerStore.loadAll(conversationId), state };
  }

  /**
   * The conversation as a turn left it, for answers that show every event (the HTTP API): the state the
   * turn ended with and the events read once, up to that turn's (not loaded and folded again).
   */
  async trackerAfter(
    conversationId: string,
    result: TurnResult,
  ): Promise<{ events: readonly Event[]; state: TrackerState }> {
    const events = await this.options.trackerStore.loadAll(conversationId);
    return { events: events.slice(0, result.eventCount), state: result.state };
  }

  /** The conversation's derived state only: flat in the conversation's length. */
  async state(conversationId: string): Promise<TrackerState> {
    return await this.stateOf(conversationId, await this.options.trackerStore.loadRecent(conversationId));
  }

  private async stateOf(conversationId: string, recent: RecentConversation): Promise<TrackerState> {
    const snapshot = recent.snapshot;
    if (!snapshot) return foldEvents(this.emptyState(conversationId), recent.eventsAfterSnapshot);
    if (this.fresh.fits(snapshot.state)) return foldEvents(snapshot.state, recent.eventsAfterSnapshot);
    // the domain's slots changed since the snapshot was taken: derive the state from the events again
    const events = await this.options.trackerStore.loadAll(conversationId);
    return foldEvents(this.emptyState(conversationId), events.slice(0, recent.eventCount));
  }

  private async runTurn(message: IncomingMessage): Promise<TurnResult> {
    const turn = await this.openTurn(message.conversationId, message);
    const engine = this.engine(turn.now);
    const generator = message.commandGenerator ?? this.options.commandGenerator;
    // the one check a turn makes for tracing: nothing of the trace is built without a sink
    const listener = message.trace ?? this.options.traceSink;
    const sink = listener ? shieldedSink(listener, this.logger, turn.conversationId) : undefined;
    if (sink) recordStart(sink, turn.opened, message.text);
    // commands decided elsewhere come with the text as sent, as Rasa keeps a message's given parse data;
    // a number answering buttons is that button's payload, as if it had been clicked
    const text = message.commands
      ? message.text
      : (numberedChoice(message.text, turn.state) ?? this.sanitized(message.text));
    const understanding = message.commands
      ? { commands: message.commands, parseData: { intent: { name: null, confidence: 0 }, entities: [] } }
      : await generator.understand(
          sink ? { text, state: turn.state, engine, trace: sink } : { text, state: turn.state, engine },
        );
    if (sink && message.commands) recordGiven(sink, turn.opened, message.commands);
    const userMessage = {
      text,
      parseData: { ...understanding.parseData, text },
      commands: understanding.commands,
      messageId: this.options.ids.messageId(),
      ...(message.inputChannel ? { inputChannel: message.inputChannel } : {}),
      ...(message.metadata ? { metadata: message.metadata } : {}),
    };
    turn.adopt(receiveUserMessage(turn.state, userMessage, engine));
    for (const event of this.nlu.slotEvents(userMessage.parseData, turn.state)) turn.add(event);
    await this.predictAndAct(turn, message.inputChannel);
    const result = await turn.commit();
    warnIfSilent(this.logger, turn.conversationId, result.events);
    if (sink) await this.recordTurn(sink, turn, { result, given: message.commands !== undefined, engine });
    return result;
  }

  private async recordTurn(
    sink: TraceSink,
    turn: OpenTurn,
    finished: { result: TurnResult; given: boolean; engine: EngineContext },
  ): Promise<void> {
    // a rewind or undo is traced from the history it reverts (read already when the turn applied it)
    const log = finished.result.events.some(revertsEvents) ? await turn.allEvents() : undefined;
    recordTurn(sink, { opened: turn.opened, ...finished, ...(log ? { log } : {}) });
  }

  /** Rasa strips the slashes off slash text that is no payload before understanding and storing it. */
  private sanitized(text: string): string {
    return sanitizedUserText(text, this.assistant.domain.slots);
  }

  private understand(text: string, state: TrackerState, now: number): Promise<Understanding> {
    return this.options.commandGenerator.understand({ text, state, engine: this.engine(now) });
  }

  private async openTurn(
    conversationId: string,
    message: IncomingMessage | undefined,
    session: SessionRule | 'never' = 'if-needed',
  ): Promise<OpenTurn> {
    const recent = await loadForTurn(this.options.trackerStore, conversationId, message);
    const state = await this.stateOf(conversationId, recent);
    const turn = new OpenTurn({
      conversationId,
      storedCount: recent.eventCount,
      state,
      now: this.options.clock.now(),
      store: this.options.trackerStore,
      ...(message?.onBotMessage ? { onBotMessage: message.onBotMessage } : {}),
    });
    const newSession =
      session === 'if-needed'
        ? needsNewSession(turn.state, this.assistant.domain.sessionConfig, turn.now)
        : session === 'if-new' && turn.state.eventCount === 0;
    if (newSession) {
      await this.runAction(turn, ACTION_SESSION_START, message?.inputChannel);
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
        if (endsPrediction(followup)) return;
        continue;
      }
      if (this.nlu.answers(turn.state)) {
        if (await this.nluPolicyStep(turn, channel)) return;
        continue;
      }
      const prediction = predictNextAction(turn.state, this.engine(turn.now));
      turn.adopt(prediction);
      const metadata = predictionMetadata(prediction);
      if (prediction.action === ACTION_LISTEN) {
        turn.add({ event: 'action', name: ACTION_LISTEN, policy: 'FlowPolicy', confidence: 1, metadata });
        return;
      }
      await this.runAction(turn, prediction.action, channel, metadata);
      if (endsPrediction(prediction.action)) return;
    }
    this.logger.error(
      { conversationId: turn.conversationId, limit },
      'turn stopped: too many actions in one turn',
    );
    for (const event of internalErrorEvents(turn.state, this.engine(turn.now))) turn.add(event);
    turn.add({ event: 'action', name: ACTION_LISTEN, policy: 'FlowPolicy', confidence: 1 });
  }

  /** One prediction of the NLU-based policies; true when it is to listen (the turn is over). */
  private async nluPolicyStep(turn: OpenTurn, channel: string | undefined): Promise<boolean> {
    const events = await turn.allEvents();
    const { action, policy, confidence, hideRuleTurn } = this.nlu.predict(events, turn.state);
    const hidden = hideRuleTurn ? { hide_rule_turn: true } : {};
    if (action === ACTION_LISTEN) {
      // a session start already ended with a listen (Rasa predicts nothing after action_session_start)
      const last = events.at(-1);
      if (last?.event !== 'action' || last.name !== ACTION_LISTEN)
        turn.add({ event: 'action', name: ACTION_LISTEN, policy, confidence, ...hidden });
      return true;
    }
    await this.runAction(turn, action, channel, {}, { policy, confidence, ...hidden });
    return false;
  }

  private async runAction(
    turn: OpenTurn,
    name: string,
    channel: string | undefined,
    metadata: Record<string, unknown> = {},
    predicted: PredictedBy = FLOW_POLICY,
  ): Promise<void> {
    turn.add(actionEvent(name, predicted, metadata));
    const engine = this.engine(turn.now);
    const request: Mutable<ActionRequest> = {
      actionName: name,
      conversationId: turn.conversationId,
      state: turn.state,
      allEvents: () => turn.allEvents(),
      engine,
    };
    if (channel) request.channel = channel;
    if (hasKeys(metadata)) request.metadata = metadata;
    const outcome = await this.options.actionRunner.run(request);
    if (outcome.ok) {
      // only an event that reverts others needs the history (and so an await)
      for (const event of outcome.events) {
        if (revertsEvents(event)) await turn.addExternal(event);
        else turn.add(event);
      }
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
    return this.fresh.create(conversationId);
  }
}

/**
 * Rasa's `should_predict_another_action`: nothing is predicted after action_session_start in the same
 * turn (its events end with the session's `action_listen`, and the new session's stack is empty).
 */
function endsPrediction(action: string): boolean {
  return action === ACTION_SESSION_START;
}
