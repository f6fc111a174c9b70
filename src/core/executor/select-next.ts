import type { FlowList } from '../flows/flow-list.js';
import type { Flow, Step } from '../flows/types.js';
import { CONTINUE_STEP_PREFIX, END_STEP, START_STEP } from '../flows/types.js';
import type { Frame } from '../stack/frames.js';
import { frameContext } from '../stack/operations.js';
import { conditionHolds } from './conditions.js';

/** The step a frame moves to: a real step, or the end of its flow. */
export type NextStep = { readonly kind: 'step'; readonly step: Step } | { readonly kind: 'end' };

/** Rasa's select_next_step: static link, then the first `if` that holds, then `else`. */
export function selectNextStep(
  flows: FlowList,
  flow: Flow,
  frame: Frame,
  slots: Readonly<Record<string, unknown>>,
): NextStep | undefined {
  const stepOrEnd = (target: string): NextStep | undefined => resolveTarget(flows, flow, target);
  const current = frame.step_id;
  if (current === START_STEP) return stepOrEnd(flow.firstStepId ?? END_STEP);
  if (current.startsWith(CONTINUE_STEP_PREFIX)) return stepOrEnd(current.slice(CONTINUE_STEP_PREFIX.length));
  if (current === END_STEP) return { kind: 'end' };
  const step = flows.step(flow.id, current);
  if (!step) return undefined;
  const next = step.next;
  switch (next.kind) {
    case 'end':
    case 'none':
      return { kind: 'end' };
    case 'step':
      return stepOrEnd(next.target);
    case 'branches': {
      const scope = { slots, context: frameContext(frame) };
      const branch = next.branches.find(
        (candidate) => !candidate.condition || conditionHolds(candidate.condition, scope),
      );
      return branch ? stepOrEnd(branch.target) : { kind: 'end' };
    }
  }
}

function resolveTarget(flows: FlowList, flow: Flow, target: string): NextStep | undefined {
  if (target === END_STEP) return { kind: 'end' };
  if (target === START_STEP)
    return flow.firstStepId ? resolveTarget(flows, flow, flow.firstStepId) : { kind: 'end' };
  const step = flows.step(flow.id, target);
  return step ? { kind: 'step', step } : undefined;
}
