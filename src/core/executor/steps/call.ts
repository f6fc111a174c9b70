import { MCP_TOOL_ACTION } from '../../mcp/tool-action.js';
import type { CallStep } from '../../flows/types.js';
import { push, userFrame } from '../../stack/operations.js';
import { CONTINUE, pause } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

/**
 * The called flow runs on top; when it ends, the caller continues after the call step. A tool call asks
 * the runtime to call the MCP tool (the core does no I/O); its slots are set before the flow moves on.
 */
export function runCallStep(step: CallStep, scope: StepScope): StepResult {
  if (step.tool) return pause(MCP_TOOL_ACTION);
  if (!scope.context.flows.has(step.call)) return CONTINUE;
  const frame = userFrame({ frameId: scope.context.newFrameId(), flowId: step.call, frameType: 'call' });
  scope.draft.setStack(push(scope.draft.stack, frame));
  return CONTINUE;
}
