/**
 * What the inspector page shows of a conversation, as JSON: the state now, each turn's trace (as the
 * page ran it, or reconstructed from the stored events) and, for replay, the state after each event.
 */
import { applyEvent } from '../../core/events/apply-event.js';
import { applyEvents } from '../../core/events/fold-events.js';
import { revertsEvents } from '../../runtime/open-turn.js';
import type { SlotValues, TrackerState } from '../../core/events/tracker-state.js';
import type { Event } from '../../core/events/types.js';
import type { Stack } from '../../core/stack/frames.js';
import { stackPosition, traceEvents } from '../../core/trace/event-trace.js';
import type { FlowPosition, TraceEvent } from '../../core/trace/trace-events.js';
import { commandsOf } from '../../runtime/turn-trace.js';

/** the most turns a conversation view carries (the latest ones) */
export const MAX_TURNS_SHOWN = 50;

export interface TurnView {
  /** index of the turn's user event; undefined for events before the first message (a session start) */
  readonly userEventIndex: number | undefined;
  readonly text: string | null;
  /** `live`: traced as the page ran it (every source detail); `stored`: rebuilt from the events */
  readonly traced: 'live' | 'stored';
  readonly trace: readonly TraceEvent[];
}

export interface ConversationView {
  readonly conversationId: string;
  readonly eventCount: number;
  readonly position: FlowPosition | undefined;
  readonly stack: Stack;
  readonly slots: SlotValues;
  /** turns before these were left out (MAX_TURNS_SHOWN) */
  readonly turnsOmitted: number;
  readonly turns: readonly TurnView[];
}

export interface ReplayStep {
  readonly index: number;
  readonly event: Event;
  readonly position: FlowPosition | undefined;
  readonly stack: Stack;
  readonly slots: SlotValues;
}

/** Live traces by user event index, for the turns the page ran. */
export type LiveTurns = ReadonlyMap<number, readonly TraceEvent[]>;

export function conversationView(input: {
  readonly empty: TrackerState;
  readonly events: readonly Event[];
  readonly state: TrackerState;
  readonly live: LiveTurns;
}): ConversationView {
  const { empty, events, state, live } = input;
  const turns: TurnView[] = [];
  let current = empty;
  for (const slice of turnSlices(events)) {
    const trace: TraceEvent[] = [];
    const start = current;
    current = traceEvents(start, events.slice(slice.from, slice.to), (event) => trace.push(event), events);
    const user = slice.userIndex === undefined ? undefined : events[slice.userIndex];
    const text = user?.event === 'user' ? user.text : null;
    const traced = slice.userIndex === undefined ? undefined : liveTraceOf(live.get(slice.userIndex), user);
    turns.push(
      traced
        ? { userEventIndex: slice.userIndex, text, traced: 'live', trace: traced }
        : {
            userEventIndex: slice.userIndex,
            text,
            traced: 'stored',
            trace: storedTrace(start, user, trace, current),
          },
    );
  }
  const omitted = Math.max(0, turns.length - MAX_TURNS_SHOWN);
  return {
    conversationId: state.senderId,
    eventCount: events.length,
    position: stackPosition(state.stack),
    stack: state.stack,
    slots: state.slots,
    turnsOmitted: omitted,
    turns: turns.slice(omitted),
  };
}

/** [from, to) of each turn: from a user message to the next; the events before the first are one too. */
function turnSlices(events: readonly Event[]): { from: number; to: number; userIndex: number | undefined }[] {
  const starts: number[] = [];
  events.forEach((event, index) => {
    if (event.event === 'user') starts.push(index);
  });
  const slices: { from: number; to: number; userIndex: number | undefined }[] = [];
  const first = starts[0] ?? events.length;
  if (first > 0) slices.push({ from: 0, to: first, userIndex: undefined });
  starts.forEach((from, k) => slices.push({ from, to: starts[k + 1] ?? events.length, userIndex: from }));
  return slices;
}

/**
 * The page's trace of a turn, if it is still the stored one: the conversation's events may have been
 * replaced since (the HTTP API's PUT tracker), and then the user event at that index is another's.
 */
function liveTraceOf(
  trace: readonly TraceEvent[] | undefined,
  user: Event | undefined,
): readonly TraceEvent[] | undefined {
  if (!trace || user?.event !== 'user') return undefined;
  const received = trace.find((event) => event.type === 'commands_received');
  const same =
    received?.type === 'commands_received' &&
    JSON.stringify(received.commands) === JSON.stringify(commandsOf(user));
  return same ? trace : undefined;
}

/** A stored turn's trace: what the user event kept of understanding, then what its events changed. */
function storedTrace(
  start: TrackerState,
  user: Event | undefined,
  derived: readonly TraceEvent[],
  end: TrackerState,
): TraceEvent[] {
  const conversationId = start.senderId;
  const head: TraceEvent[] = [];
  if (user?.event === 'user') {
    const commands = commandsOf(user);
    const { intent, entities } = user.parse_data;
    head.push(
      { type: 'turn_started', conversationId, text: user.text ?? '', eventCount: start.eventCount },
      {
        type: 'commands_understood',
        conversationId,
        source: { kind: 'stored', intent: intent.name, confidence: intent.confidence, entities },
        commands,
      },
    );
  }
  return [
    ...head,
    ...derived,
    {
      type: 'turn_ended',
      conversationId,
      eventCount: end.eventCount,
      position: stackPosition(end.stack),
      stack: end.stack,
      slots: end.slots,
    },
  ];
}

/** The state after each of the events [offset, offset + limit), folded from the conversation's start. */
export function replaySteps(
  empty: TrackerState,
  events: readonly Event[],
  window: { readonly offset: number; readonly limit: number },
): ReplayStep[] {
  const steps: ReplayStep[] = [];
  let state = empty;
  const end = Math.min(events.length, window.offset + window.limit);
  for (let index = 0; index < end; index += 1) {
    const event = events[index] as Event;
    // only a rewind or undo needs the events before it
    state = revertsEvents(event)
      ? applyEvents(state, events.slice(0, index), [event])
      : applyEvent(state, event);
    if (index >= window.offset)
      steps.push({
        index,
        event,
        position: stackPosition(state.stack),
        stack: state.stack,
        slots: state.slots,
      });
  }
  return steps;
}
