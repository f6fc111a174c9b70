/**
 * What a sub-agent's answer does to the conversation (Rasa's agent executor), as events:
 * - input required: the agent frame keeps the conversation, remembers the agent's context and task and
 *   which user message it answered, and the agent's text goes to the user; the turn then listens;
 * - completed: the frame is popped, the result slots are set, the agent's text (if any) goes to the user,
 *   and the flow continues after the call step in the same turn;
 * - failed (the task failed, was canceled or rejected, the agent is unreachable or too slow): the frame
 *   is popped, the calling flow is cancelled and pattern_internal_error runs, with what failed in its
 *   context (`info.error_source: agent`), as newer Rasa does.
 */
import { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Event } from '../events/types.js';
import { pushInternalError } from '../executor/internal-error.js';
import { latestMessageId } from '../executor/agent-frame.js';
import type { AgentFrame } from '../stack/frames.js';
import { isAgentFrame } from '../stack/frames.js';
import { pop, replaceAt, topFrame } from '../stack/operations.js';

export type AgentOutcome =
  | {
      readonly kind: 'input_required';
      readonly text: string;
      readonly contextId?: string;
      readonly taskId?: string;
    }
  | {
      readonly kind: 'completed';
      readonly text: string;
      readonly slots: readonly { readonly name: string; readonly value: unknown }[];
    }
  | { readonly kind: 'failed'; readonly reason: string };

export function agentOutcomeEvents(
  state: TrackerState,
  context: EngineContext,
  outcome: AgentOutcome,
): readonly Event[] {
  const frame = topFrame(state.stack);
  if (!isAgentFrame(frame)) return [];
  const draft = new TurnDraft({ state, context });
  switch (outcome.kind) {
    case 'input_required':
      draft.setStack(replaceAt(draft.stack, draft.stack.length - 1, answered(frame, outcome, state)));
      say(draft, outcome.text, frame);
      break;
    case 'completed':
      draft.setStack(pop(draft.stack));
      for (const slot of outcome.slots) draft.setSlot(slot.name, slot.value, { filled_by: 'agent' });
      if (outcome.text !== '') say(draft, outcome.text, frame);
      break;
    case 'failed':
      draft.setStack(pop(draft.stack));
      pushInternalError(
        { draft, context },
        {
          cancelFlow: true,
          errorType: 'rasa_internal_error_default',
          info: {
            error_source: 'agent',
            agent_name: frame.agent_id,
            agent_type: 'a2a',
            flow_id: frame.flow_id,
            step_id: frame.step_id,
            error_message: outcome.reason,
          },
        },
      );
      break;
  }
  return draft.events;
}

function answered(
  frame: AgentFrame,
  outcome: Extract<AgentOutcome, { kind: 'input_required' }>,
  state: TrackerState,
): AgentFrame {
  const metadata: Record<string, string> = { ...frame.metadata, agent_response: outcome.text };
  metadata['answered_message_id'] = latestMessageId(state.latestMessage);
  if (outcome.contextId) metadata['context_id'] = outcome.contextId;
  if (outcome.taskId) metadata['task_id'] = outcome.taskId;
  return { ...frame, state: 'waiting_for_input', metadata };
}

function say(draft: TurnDraft, text: string, frame: AgentFrame): void {
  draft.emit({ event: 'bot', text, data: {}, metadata: { agent_id: frame.agent_id } });
}
