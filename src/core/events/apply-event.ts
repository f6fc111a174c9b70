/**
 * THE reducer: `applyEvent(state, event)` derives the next tracker state from one event, in O(1) with
 * respect to the history (it only touches the fields the event changes).
 *
 * `rewind` (UserUtteranceReverted) and `undo` (ActionReverted) cannot be applied from the state alone:
 * they revert earlier events, so `applyEvent` throws an `AppError` with code `EVENT_NEEDS_HISTORY` for
 * them. Use `applyEvents(state, priorEvents, newEvents)` or `foldEvents` (fold-events.ts), which re-fold
 * the applied events only when such an event appears.
 */
import { AppError, assertNever } from '../errors.js';
import { isPatternId } from '../flows/types.js';
import type { Stack } from '../stack/frames.js';
import { hasOwn, jsonEqual, withKey } from './json-value.js';
import { applyStackUpdate } from './stack-update.js';
import type { TrackerState } from './tracker-state.js';
import { NO_FLOW_SLOTS, RECENT_MESSAGES_KEPT, copyTrackerState, stackHistoryKey } from './tracker-state.js';
import type { FlowSlotRecord, MutableTrackerState, RecentMessage } from './tracker-state.js';
import type { ActionExecuted, BotUttered, EntitiesAdded, Event, SlotSet, UserUttered } from './types.js';

type StateChanges = Partial<TrackerState>;

const ACTION_LISTEN = 'action_listen';
const ACTION_SESSION_START = 'action_session_start';

export function applyEvent(state: TrackerState, event: Event): TrackerState {
  const next = copyTrackerState(state);
  const changes = changesFor(state, event);
  for (const key in changes) assign(next, changes, key as keyof StateChanges);
  next.eventCount = state.eventCount + 1;
  next.latestEventTime = event.timestamp;
  return next;
}

function assign<K extends keyof TrackerState>(
  next: MutableTrackerState,
  changes: StateChanges,
  key: K,
): void {
  next[key] = changes[key] as TrackerState[K];
}

function changesFor(state: TrackerState, event: Event): StateChanges {
  switch (event.event) {
    case 'user':
      return userUttered(state, event);
    case 'bot':
      return { lastBotTurn: [...state.lastBotTurn, event], recentMessages: remember(state, event) };
    case 'action':
      return actionExecuted(state, event);
    case 'slot':
      return slotSet(state, event);
    case 'stack':
      return stackUpdated(state, event.update);
    case 'restart':
      return restarted(state);
    case 'session_started':
      // Rasa's SessionStarted applies the tracker's _reset(), which empties the dialogue stack too:
      // a new session never resumes the flows of the previous one
      return { ...conversationReset(state), stack: [], stackHistory: new Map() };
    case 'routing_session_ended':
      return routingSessionEnded(state);
    case 'reset_slots':
      return { slots: state.initialSlots, slotFilledBy: {} };
    case 'rewind':
    case 'undo':
      throw new AppError({
        code: 'EVENT_NEEDS_HISTORY',
        message: `a '${event.event}' event reverts earlier events: apply it with applyEvents(state, priorEvents, newEvents)`,
        details: { event: event.event, eventIndex: state.eventCount },
      });
    case 'pause':
      return { paused: true };
    case 'resume':
      return { paused: false };
    case 'followup':
      return { followupAction: event.name };
    case 'active_loop':
      return { activeLoop: event.name };
    case 'entities':
      return entitiesAdded(state, event);
    case 'flow_started':
    case 'flow_completed':
    case 'flow_cancelled':
      return { flowSlots: flowSlotsAfter(state, event) };
    case 'flow_interrupted':
    case 'flow_resumed':
    case 'session_ended':
    case 'action_execution_rejected':
    case 'reminder':
    case 'cancel_reminder':
    case 'loop_interrupted':
    case 'export':
      return {};
    default:
      return assertNever(event, 'event');
  }
}

function userUttered(state: TrackerState, event: UserUttered): StateChanges {
  return {
    latestMessage: event,
    latestInputChannel: event.input_channel ?? null,
    followupAction: null,
    previousBotTurn: state.lastBotTurn,
    lastBotTurn: [],
    recentMessages: remember(state, event),
    flowSlots:
      state.flowSlots.sinceUserMessage.length === 0
        ? state.flowSlots
        : { ...state.flowSlots, sinceUserMessage: [] },
  };
}

function remember(state: TrackerState, event: UserUttered | BotUttered): TrackerState['recentMessages'] {
  const kept = state.recentMessages;
  const message: RecentMessage =
    event.event === 'user'
      ? { event: 'user', text: event.text }
      : { event: 'bot', text: event.text, buttons: event.data.buttons ?? [] };
  return kept.length < RECENT_MESSAGES_KEPT
    ? [...kept, message]
    : [...kept.slice(kept.length - RECENT_MESSAGES_KEPT + 1), message];
}

function actionExecuted(state: TrackerState, event: ActionExecuted): StateChanges {
  const changes: StateChanges = {
    latestAction: event.name ? { action_name: event.name } : { action_text: event.action_text ?? '' },
    latestActionName: event.name || event.action_text || undefined,
    followupAction: null,
  };
  return event.name === ACTION_SESSION_START ? { ...changes, sessionStartIndex: state.eventCount } : changes;
}

function slotSet(state: TrackerState, event: SlotSet): StateChanges {
  const filledBy = event.metadata?.filled_by;
  return {
    slots: withKey(state.slots, event.name, event.value),
    slotFilledBy: filledByAfter(state.slotFilledBy, event.name, filledBy),
    flowSlots: withSlotName(state.flowSlots, event.name),
  };
}

/** The slot's entry moves to the end (or goes, when the event names no filler). */
function filledByAfter(
  record: TrackerState['slotFilledBy'],
  name: string,
  filledBy: unknown,
): TrackerState['slotFilledBy'] {
  const others = hasOwn(record, name) ? withoutEntry(record, name) : record;
  return typeof filledBy === 'string' ? (withKey(others, name, filledBy) as typeof record) : others;
}

function withoutEntry<V>(record: Readonly<Record<string, V>>, name: string): Readonly<Record<string, V>> {
  const { [name]: _removed, ...others } = record;
  return others;
}

function withSlotName(record: FlowSlotRecord, name: string): FlowSlotRecord {
  const add = (names: readonly string[]) => (names.includes(name) ? names : [...names, name]);
  if (
    record.sinceUserMessage.includes(name) &&
    Object.values(record.running).every((names) => names.includes(name))
  )
    return record;
  // fromEntries defines each key, a flow id such as `__proto__` included
  const running = Object.fromEntries(
    Object.entries(record.running).map(([flowId, names]) => [flowId, add(names)]),
  );
  return { ...record, sinceUserMessage: add(record.sinceUserMessage), running };
}

function flowSlotsAfter(
  state: TrackerState,
  event: { readonly event: 'flow_started' | 'flow_completed' | 'flow_cancelled'; readonly flow_id: string },
): FlowSlotRecord {
  const record = state.flowSlots;
  // patterns are the engine's own flows: their slots belong to the user flow they serve
  if (isPatternId(event.flow_id)) return record;
  const { [event.flow_id]: owned, ...others } = record.running;
  if (event.event === 'flow_started')
    return { ...record, running: { ...others, [event.flow_id]: record.sinceUserMessage } };
  if (event.event === 'flow_cancelled' || owned === undefined) return { ...record, running: others };
  const slots: Record<string, unknown> = {};
  for (const name of owned) {
    const value = state.slots[name];
    if (value !== null && value !== undefined) slots[name] = value;
  }
  return { ...record, running: others, lastCompleted: { flowId: event.flow_id, slots } };
}

function stackUpdated(state: TrackerState, update: string): StateChanges {
  const result = applyStackUpdate(state.stack, update);
  if (!result.ok) {
    const failure = { eventIndex: state.eventCount, error: result.error };
    return { stackUpdateFailures: [...state.stackUpdateFailures, failure] };
  }
  return { stack: result.stack, stackHistory: recordStack(state.stackHistory, result.stack) };
}

/**
 * Records the stack under the topmost user flow's flow and step, cut just above that flow's frame:
 * corrections rewind to such a stack (a user flow at a collect step, with whatever it had called).
 */
function recordStack(history: ReadonlyMap<string, Stack>, stack: Stack): ReadonlyMap<string, Stack> {
  let index = stack.length - 1;
  while (index >= 0 && stack[index]?.type !== 'flow') index -= 1;
  const top = stack[index];
  if (top === undefined) return history;
  const key = stackHistoryKey(top.flow_id, top.step_id);
  const known = history.get(key);
  // Patterns moving above the same user frame leave the recorded part unchanged: nothing to copy.
  if (known && known.length === index + 1 && sameFrames(known, stack)) return history;
  const recorded = index === stack.length - 1 ? stack : stack.slice(0, index + 1);
  const next = new Map(history);
  next.set(key, recorded);
  return next;
}

/** Whether `stack` starts with exactly the frame objects of `recorded`. */
function sameFrames(recorded: Stack, stack: Stack): boolean {
  for (let position = 0; position < recorded.length; position += 1) {
    if (recorded[position] !== stack[position]) return false;
  }
  return true;
}

/** What Rasa's tracker `_reset()` clears besides the stack (used by `session_started` and `restart`). */
function conversationReset(state: TrackerState): StateChanges {
  return {
    slots: state.initialSlots,
    slotFilledBy: {},
    paused: false,
    latestAction: undefined,
    latestActionName: undefined,
    latestMessage: undefined,
    followupAction: null,
    activeLoop: null,
    lastBotTurn: [],
    previousBotTurn: [],
    recentMessages: [],
    flowSlots: NO_FLOW_SLOTS,
  };
}

/** Rasa's Restarted: reset, empty the stack, and schedule `action_session_start` next. */
function restarted(state: TrackerState): StateChanges {
  return {
    ...conversationReset(state),
    stack: [],
    stackHistory: new Map(),
    followupAction: ACTION_SESSION_START,
    afterRestartIndex: state.eventCount + 1,
  };
}

/**
 * Rasa's RoutingSessionEnded: the reset of a restart, keeping the `shared_for_coexistence` slots and
 * without scheduling a session start.
 */
function routingSessionEnded(state: TrackerState): StateChanges {
  const kept = Object.fromEntries(
    state.sharedSlots.filter((name) => name in state.slots).map((name) => [name, state.slots[name]]),
  );
  const keptFilledBy = Object.fromEntries(
    Object.entries(state.slotFilledBy).filter(([name]) => state.sharedSlots.includes(name)),
  );
  return {
    ...conversationReset(state),
    // what the LLM prompt shows of the conversation is not part of the routing session
    recentMessages: state.recentMessages,
    slots: { ...state.initialSlots, ...kept },
    slotFilledBy: keptFilledBy,
    stack: [],
    stackHistory: new Map(),
  };
}

/** Entities belong to the latest user message, so Rasa only adds them while the last action is a listen. */
function entitiesAdded(state: TrackerState, event: EntitiesAdded): StateChanges {
  const message = state.latestMessage;
  if (message === undefined || state.latestActionName !== ACTION_LISTEN) return {};
  const known = message.parse_data.entities;
  const added = event.entities.filter((entity) => !known.some((existing) => jsonEqual(existing, entity)));
  if (added.length === 0) return {};
  const entities = [...known, ...added];
  return { latestMessage: { ...message, parse_data: { ...message.parse_data, entities } } };
}
