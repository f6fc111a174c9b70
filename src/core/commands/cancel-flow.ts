import { cancelFrame } from '../stack/cancel.js';
import { push, topUserFrame } from '../stack/operations.js';
import type { CommandDefinition } from './types.js';

/** Cancels the active flow through pattern_cancel_flow, which winds its frames down. */
export const cancelFlowCommand: CommandDefinition<'cancel flow'> = {
  name: 'cancel flow',
  parse: () => ({ command: 'cancel flow' }),
  apply(_command, scope) {
    const { draft, context, originalStack } = scope;
    const active = topUserFrame(originalStack, { includeCallFrames: true });
    const frame = cancelFrame(originalStack, context.flows, context.newFrameId());
    if (!active || !frame) return;
    draft.emit({ event: 'flow_cancelled', flow_id: active.flow_id, step_id: active.step_id });
    draft.setStack(push(draft.stack, frame));
  },
};
