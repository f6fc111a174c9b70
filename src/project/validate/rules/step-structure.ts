import type { Flow, Step } from '../../../core/flows/types.js';
import { CONTINUE_STEP_PREFIX, END_STEP, START_STEP } from '../../../core/flows/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/** Step ids are unique and not reserved; every `next` resolves; every step is reachable. */
export const stepStructureRule: ValidationRule = {
  name: 'step-structure',
  check(context) {
    for (const flow of context.projectFlows) {
      checkIds(context, flow);
      checkTargets(context, flow);
      checkReachability(context, flow);
    }
  },
};

function checkIds(context: RuleContext, flow: Flow): void {
  const seen = new Set<string>();
  for (const step of flow.steps) {
    if (step.id === START_STEP || step.id === END_STEP || step.id.startsWith(CONTINUE_STEP_PREFIX)) {
      context.reportStep(
        'STEP_RESERVED_ID',
        flow,
        step,
        `Step id '${step.id}' in flow '${flow.id}' is reserved.`,
      );
    }
    if (seen.has(step.id)) {
      context.reportStep(
        'STEP_DUPLICATE_ID',
        flow,
        step,
        `Flow '${flow.id}' has more than one step with id '${step.id}'.`,
      );
    }
    seen.add(step.id);
  }
}

export function targetsOf(step: Step): { target: string; source: Step['source'] }[] {
  switch (step.next.kind) {
    case 'step':
      return [{ target: step.next.target, source: step.source }];
    case 'branches':
      return step.next.branches.map((branch) => ({
        target: branch.target,
        source: branch.source ?? step.source,
      }));
    case 'end':
    case 'none':
      return [];
  }
}

function checkTargets(context: RuleContext, flow: Flow): void {
  const ids = new Set(flow.steps.map((step) => step.id));
  for (const step of flow.steps) {
    for (const { target, source } of targetsOf(step)) {
      if (target === END_STEP || target === START_STEP || ids.has(target)) continue;
      context.reportStep(
        'STEP_UNKNOWN_NEXT',
        flow,
        step,
        `Step '${step.id}' of flow '${flow.id}' goes next to '${target}', which is no step of the flow.`,
        source,
      );
    }
  }
}

function checkReachability(context: RuleContext, flow: Flow): void {
  const byId = new Map(flow.steps.map((step) => [step.id, step]));
  const reached = new Set<string>();
  const pending = flow.firstStepId ? [flow.firstStepId] : [];
  while (pending.length > 0) {
    const id = pending.pop() as string;
    if (reached.has(id)) continue;
    reached.add(id);
    const step = byId.get(id);
    if (step)
      for (const { target } of targetsOf(step))
        pending.push(target === START_STEP && flow.firstStepId ? flow.firstStepId : target);
  }
  for (const step of flow.steps) {
    if (!reached.has(step.id)) {
      context.reportStep(
        'STEP_UNREACHABLE',
        flow,
        step,
        `Step '${step.id}' of flow '${flow.id}' can never be reached.`,
      );
    }
  }
}
