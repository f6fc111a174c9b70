import { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Event } from '../events/types.js';
import { START_STEP, CONTINUE_STEP_PREFIX, END_STEP } from '../flows/types.js';
import {
  frameContext,
  pop,
  replaceAt,
  topFrame,
  topUserFrameIndex,
  withStepId,
} from '../stack/operations.js';
import { advanceAgentFrame } from './agent-frame.js';
import { endFlow } from './flow-end.js';
import { ACTION_LISTEN_NAME } from './listen.js';
import { pushInternalError } from './internal-error.js';
import { runStep } from './run-step.js';
import { selectNextStep } from './select-next.js';

export const ACTION_LISTEN = ACTION_LISTEN_NAME;

/** The next action to run and the events that advancing the flows produced on the way. */
export interface Prediction {
  readonly action: string;
  readonly events: readonly Event[];
  /** the tracker state with those events applied */
  readonly state: TrackerState;
  /** the flow and step that asked for the action, for the `action` event's metadata */
  readonly activeFlow: string | undefined;
  readonly stepId: string | undefined;
}

/**
 * Rasa's FlowPolicy: advance the top frame step by step until a step asks for an action. An empty stack
 * means listening. A loop that exceeds the step budget ends the active flow and raises
 * pattern_internal_error instead of hanging the conversation.
 */
export function predictNextAction(state: TrackerState, context: EngineContext): Prediction {
  const draft = new TurnDraft({ state, context });
  let action = advance(draft, context);
  if (action === undefined) {
    breakCircuit(draft, context);
    action = advance(draft, context) ?? ACTION_LISTEN;
  }
  const top = topFrame(draft.stack);
  return { action, events: draft.events, state: draft.state, activeFlow: top?.flow_id, stepId: top?.step_id };
}

function advance(draft: TurnDraft, context: EngineContext): string | undefined {
  for (let steps = 0; steps < context.options.maxStepsPerPrediction; steps += 1) {
    const frame = topFrame(draft.stack);
    if (!frame) return ACTION_LISTEN;
    if (frame.type === 'agent') {
      const action = advanceAgentFrame(draft, frame);
      if (action !== undefined) return action;
      continue;
    }
    const flow = context.flows.get(frame.flow_id);
    const next = flow ? selectNextStep(context.flows, flow, frame, draft.slots) : undefined;
    if (!flow || !next) {
      // A frame whose flow or step no longer exists (the assistant changed): drop it rather than crash.
      draft.setStack(pop(draft.stack));
      continue;
    }
    if (next.kind === 'end') {
      endFlow({ draft, context, flow, frame }, frame.step_id);
      continue;
    }
    const moved = withStepId(frame, next.step.id);
    draft.setStack(replaceAt(draft.stack, draft.stack.length - 1, moved));
    if (frame.step_id === START_STEP) {
      draft.emit({ event: 'flow_started', flow_id: flow.id, metadata: frameContext(moved) });
    }
    const result = runStep(next.step, { draft, context, flow, frame: moved });
    if (result.kind === 'pause') return result.action;
  }
  return undefined;
}

/**
 * Winds the active user flow down and reports an internal error (Rasa's FlowCircuitBreaker handling,
 * `end_top_user_flow`): every frame from the top down to the topmost user frame, a called flow's
 * included, continues at END; with no user frame on the stack, every frame does.
 */
function breakCircuit(draft: TurnDraft, context: EngineContext): void {
  const from = Math.max(topUserFrameIndex(draft.stack, { includeCallFrames: true }), 0);
  const atEnd = `${CONTINUE_STEP_PREFIX}${END_STEP}`;
  draft.setStack(draft.stack.map((frame, index) => (index < from ? frame : withStepId(frame, atEnd))));
  pushInternalError({ draft, context }, { cancelFlow: false, errorType: 'rasa_internal_error_default' });
}
