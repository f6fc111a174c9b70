/**
 * The task state a turn leaves, read from the dialogue (rasa-a2a.md §4.2; docs/a2a.md "Tasks and
 * states"), and the structured data part that describes it. Evaluated top-down:
 *
 * 1. pattern_internal_error started in the turn → failed
 * 2. a collect step waits for its slot → input-required (awaiting that slot)
 * 3. pattern_human_handoff started → completed with `handoff: true` (the orchestrator takes over)
 * 4. a user flow was cancelled in the turn and nothing waits → canceled
 * 5. cannot-handle → input-required (the bot asked to rephrase), `reason: cannot_handle`
 * 6. anything else left on the stack (a repair pattern listening) → input-required
 * 7. nothing left: repair on → input-required (the assistant offers more help), off → completed
 */
import { ENGINE_SLOTS } from '../core/domain/built-in-slots.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { BotUttered, Event } from '../core/events/types.js';
import type { Frame } from '../core/stack/frames.js';
import type { TaskState } from './tasks/model.js';

export interface DialogueOutcome {
  readonly state: TaskState;
  /** the data part's content: snake_case keys, as Rasa's */
  readonly data: Readonly<Record<string, unknown>>;
}

export interface OutcomeInput {
  readonly tracker: TrackerState;
  readonly events: readonly Event[];
  readonly messages: readonly BotUttered[];
  readonly includeConversationRepair: boolean;
  readonly warnings?: readonly string[];
  /** a user flow that finished in the turn, with the slot values it had (a finished flow resets them) */
  readonly completedFlow?: { readonly flow_id: string; readonly slots: Readonly<Record<string, unknown>> };
}

export function dialogueOutcome(input: OutcomeInput): DialogueOutcome {
  const { tracker, events } = input;
  const started = new Set(events.flatMap((event) => (event.event === 'flow_started' ? [event.flow_id] : [])));
  const cancelled = events.flatMap((event) =>
    event.event === 'flow_cancelled' && !event.flow_id.startsWith('pattern_') ? [event.flow_id] : [],
  );
  const collect = [...tracker.stack].reverse().find((frame) => frame.type === 'pattern_collect_information');
  const activeFlow = [...tracker.stack].reverse().find((frame) => frame.type === 'flow')?.flow_id ?? null;
  let state: TaskState;
  const extra: Record<string, unknown> = {};
  if (started.has('pattern_internal_error')) {
    state = 'failed';
    extra['error'] = { code: 'internal_error', message: 'The assistant hit an internal error in this turn.' };
  } else if (collect) state = 'input-required';
  else if (started.has('pattern_human_handoff')) {
    state = 'completed';
    extra['handoff'] = true;
  } else if (cancelled.length > 0) {
    state = 'canceled';
    extra['cancel'] = { by: 'user', flow_id: cancelled[cancelled.length - 1] };
  } else if (started.has('pattern_cannot_handle')) {
    state = 'input-required';
    extra['reason'] = 'cannot_handle';
  } else if (tracker.stack.length > 0 || input.includeConversationRepair) state = 'input-required';
  else state = 'completed';
  return {
    state,
    data: {
      state,
      active_flow: activeFlow,
      awaiting: collect ? awaiting(collect, tracker.stack) : null,
      slots: publicSlots(tracker.slots),
      choices: choices(input.messages),
      ...extra,
      ...(input.completedFlow ? { completed_flow: input.completedFlow } : {}),
      ...(input.warnings && input.warnings.length > 0 ? { warnings: input.warnings } : {}),
    },
  };
}

function awaiting(collect: Frame, stack: readonly Frame[]): Record<string, unknown> {
  const below = stack.slice(0, stack.indexOf(collect)).reverse();
  return { slot: collect['collect' as keyof Frame] ?? null, flow_id: below[0]?.flow_id ?? null };
}

export function publicSlots(slots: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(slots).filter(([name]) => !ENGINE_SLOTS.has(name)));
}

/**
 * The user flow that finished in the turn and the values its slots had when it did (they may be reset
 * right after), from the state the turn ended with: no read of the event log.
 */
export function completedFlowOf(
  turnEvents: readonly Event[],
  state: TrackerState,
): { flow_id: string; slots: Record<string, unknown> } | undefined {
  const completed = state.flowSlots.lastCompleted;
  if (!completed) return undefined;
  const inThisTurn = turnEvents.some(
    (event) => event.event === 'flow_completed' && event.flow_id === completed.flowId,
  );
  return inThisTurn ? { flow_id: completed.flowId, slots: publicSlots(completed.slots) } : undefined;
}

/** the buttons of the turn's messages: what the user may answer with */
function choices(messages: readonly BotUttered[]): { title: string; payload: string }[] {
  return messages.flatMap((message) =>
    (message.data.buttons ?? []).map((button) => ({ title: button.title, payload: button.payload })),
  );
}

const COMPLETED_PATTERN = 'pattern_completed';

/**
 * The bot messages a task's final status shows: without conversation repair, a task that ends does not
 * end on pattern_completed's open question ("What else can I help you with?"): the orchestrator, not
 * the user, decides what comes next. Messages are told apart by the events around them, whatever the
 * pattern's responses are called.
 */
export function closingMessages(
  events: readonly Event[],
  state: TaskState,
  includeConversationRepair: boolean,
): BotUttered[] {
  const ends = state === 'completed' || state === 'canceled';
  let inCompletedPattern = false;
  const kept: BotUttered[] = [];
  for (const event of events) {
    if (event.event === 'flow_started') inCompletedPattern = event.flow_id === COMPLETED_PATTERN;
    else if (event.event === 'flow_completed' && event.flow_id === COMPLETED_PATTERN)
      inCompletedPattern = false;
    else if (event.event === 'bot' && !(ends && !includeConversationRepair && inCompletedPattern))
      kept.push(event);
  }
  return kept;
}
