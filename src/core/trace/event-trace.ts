/**
 * Trace events derived from a stretch of a conversation's events: stack changes, steps visited, actions
 * with their events, slot changes. The runtime calls it on a finished turn when a sink listens, and the
 * inspector on stored conversations (turns it did not run), so both show the same things.
 */
import { applyEvent } from '../events/apply-event.js';
import { applyEvents } from '../events/fold-events.js';
import type { SlotValues, TrackerState } from '../events/tracker-state.js';
import type { Event } from '../events/types.js';
import type { Stack } from '../stack/frames.js';
import type { FlowPosition, TraceEvent } from './trace-events.js';

/** The top frame's flow and step, or undefined on an empty stack. */
export function stackPosition(stack: Stack): FlowPosition | undefined {
  const top = stack.at(-1);
  return top ? { flowId: top.flow_id, stepId: top.step_id } : undefined;
}

/**
 * Folds `events` onto `before` (the state just before the first of them, whose index in the log is
 * `before.eventCount`) and hands `emit` what each changed; returns the state after them. A `rewind` or
 * `undo` is applied from `log` (the conversation's events, these included), which it needs; without
 * it the stretch's trace ends there.
 */
export function traceEvents(
  before: TrackerState,
  events: readonly Event[],
  emit: (event: TraceEvent) => void,
  log?: readonly Event[],
): TrackerState {
  const conversationId = before.senderId;
  let state = before;
  let action: { name: string; index: number; events: Event[] } | undefined;
  const endAction = (): void => {
    if (action)
      emit({
        type: 'action_run',
        conversationId,
        eventIndex: action.index,
        action: action.name,
        events: action.events,
      });
    action = undefined;
  };
  for (const event of events) {
    const eventIndex = state.eventCount;
    const previous = state;
    if (event.event === 'rewind' || event.event === 'undo') {
      if (!log) break;
      state = applyEvents(state, log.slice(0, eventIndex), [event]);
    } else state = applyEvent(state, event);
    if (event.event === 'action' || event.event === 'user') endAction();
    else action?.events.push(event);
    if (event.event === 'action') action = { name: event.name, index: eventIndex, events: [] };
    if (previous.slots !== state.slots)
      traceSlots(previous.slots, state.slots, { conversationId, eventIndex, emit });
    if (previous.stack !== state.stack)
      traceStack(previous.stack, state.stack, { conversationId, eventIndex, emit });
  }
  endAction();
  return state;
}

/** Every slot whose value differs (a `slot` event, and also a reset, restart, session start or undo). */
function traceSlots(
  before: SlotValues,
  after: SlotValues,
  at: { conversationId: string; eventIndex: number; emit: (event: TraceEvent) => void },
): void {
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const previous = before[name] ?? null;
    const value = after[name] ?? null;
    if (previous === value || JSON.stringify(previous) === JSON.stringify(value)) continue;
    at.emit({
      type: 'slot_changed',
      conversationId: at.conversationId,
      eventIndex: at.eventIndex,
      name,
      previous,
      value,
    });
  }
}

function traceStack(
  before: Stack,
  after: Stack,
  at: { conversationId: string; eventIndex: number; emit: (event: TraceEvent) => void },
): void {
  const { conversationId, eventIndex, emit } = at;
  // a session start or restart replaces an empty stack by another: nothing to show
  if (before.length === 0 && after.length === 0) return;
  emit({ type: 'stack_changed', conversationId, eventIndex, before, after });
  const was = stackPosition(before);
  const now = stackPosition(after);
  if (now && (was?.flowId !== now.flowId || was.stepId !== now.stepId))
    emit({ type: 'step_visited', conversationId, eventIndex, flowId: now.flowId, stepId: now.stepId });
}
