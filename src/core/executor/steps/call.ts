import { MCP_TOOL_ACTION } from '../../mcp/tool-action.js';
import type { CallStep } from '../../flows/types.js';
import type { AgentFrame } from '../../stack/frames.js';
import { push, userFrame } from '../../stack/operations.js';
import { CONTINUE, pause } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

function agentFrame(step: CallStep, scope: StepScope): AgentFrame {
  return {
    type: 'agent',
    frame_id: scope.context.newFrameId(),
    flow_id: scope.frame.flow_id,
    step_id: step.id,
    agent_id: step.call,
    state: 'waiting_for_input',
    metadata: {},
  };
}

/**
 * The called flow runs on top; when it ends, the caller continues after the call step. A tool call asks
 * the runtime to call the MCP tool (the core does no I/O); its slots are set before the flow moves on.
 * A sub-agent gets an agent frame on top, which holds the conversation until the agent's task ends.
 */
export function runCallStep(step: CallStep, scope: StepScope): StepResult {
  if (step.tool) return pause(MCP_TOOL_ACTION);
  if (step.callee === 'agent') {
    // the agent frame on top makes the next prediction relay the user's message to the agent
    scope.draft.setStack(push(scope.draft.stack, agentFrame(step, scope)));
    return CONTINUE;
  }
  if (!scope.context.flows.has(step.call)) return CONTINUE;
  const frame = userFrame({ frameId: scope.context.newFrameId(), flowId: step.call, frameType: 'call' });
  scope.draft.setStack(push(scope.draft.stack, frame));
  return CONTINUE;
}
