import { AGENT_CALL_ACTION } from '../agents/sub-agent.js';
import type { TurnDraft } from '../draft.js';
import { CONTINUE_STEP_PREFIX } from '../flows/types.js';
import type { AgentFrame } from '../stack/frames.js';
import { pop } from '../stack/operations.js';
import { ACTION_LISTEN_NAME } from './listen.js';

/**
 * A sub-agent holds the conversation while its frame is on top (Rasa's AgentStackFrame): each user
 * message goes to the agent once, then the assistant listens. The runtime's agent action updates the
 * frame with the agent's answer, or pops it when the agent's task ended. A frame that a cancellation
 * wound down (its step moved to NEXT:END) ends here without another call.
 */
export function advanceAgentFrame(draft: TurnDraft, frame: AgentFrame): string | undefined {
  if (frame.step_id.startsWith(CONTINUE_STEP_PREFIX)) {
    draft.setStack(pop(draft.stack));
    return undefined;
  }
  return hasAnsweredLatestMessage(frame, draft) ? ACTION_LISTEN_NAME : AGENT_CALL_ACTION;
}

export function hasAnsweredLatestMessage(frame: AgentFrame, draft: Pick<TurnDraft, 'state'>): boolean {
  const answered = frame.metadata.answered_message_id;
  return answered !== undefined && answered === latestMessageId(draft.state.latestMessage);
}

export function latestMessageId(message: { readonly message_id?: string | null } | undefined): string {
  return message?.message_id ?? '';
}
