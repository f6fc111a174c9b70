import type { FlowList } from '../flows/flow-list.js';
import type { Flow, Step } from '../flows/types.js';
import type { StepScope } from './step-result.js';

/** The steps of a flow and, transitively, of the flows it calls (called flows share the caller's slots). */
export function stepsWithCalls(flows: FlowList, flow: Flow): Step[] {
  return ownedStepsWithCalls(flows, flow).map((owned) => owned.step);
}

// Flows never change once loaded, so the resolved step lists are memoised per flow list and flow.
const resolved = new WeakMap<FlowList, Map<string, readonly { flowId: string; step: Step }[]>>();

/** Like stepsWithCalls, with the id of the flow each step belongs to. */
export function ownedStepsWithCalls(flows: FlowList, flow: Flow): readonly { flowId: string; step: Step }[] {
  let perFlow = resolved.get(flows);
  if (!perFlow) resolved.set(flows, (perFlow = new Map()));
  let steps = perFlow.get(flow.id);
  if (!steps) perFlow.set(flow.id, (steps = resolveCalls(flows, flow, new Set())));
  return steps;
}

function resolveCalls(flows: FlowList, flow: Flow, seen: Set<string>): { flowId: string; step: Step }[] {
  if (seen.has(flow.id)) return [];
  seen.add(flow.id);
  return flow.steps.flatMap((step) => {
    const own = { flowId: flow.id, step };
    if (step.kind !== 'call') return [own];
    const called = flows.get(step.call);
    return called ? [own, ...resolveCalls(flows, called, seen)] : [own];
  });
}

/**
 * Rasa's reset_scoped_slots: when a flow ends, the slots it collected or set go back to their initial
 * values, unless persisted (`persisted_slots`, or `reset_after_flow_ends: false` on the collect step).
 * Slots set only by custom actions are left alone.
 */
export function resetScopedSlots(scope: Pick<StepScope, 'draft' | 'context' | 'flow'>): void {
  const { draft, context, flow } = scope;
  const steps = stepsWithCalls(context.flows, flow);
  const kept = new Set(flow.persistedSlots);
  for (const step of steps) if (step.kind === 'collect' && !step.resetAfterFlowEnds) kept.add(step.collect);
  const scoped = new Set<string>();
  for (const step of steps) {
    if (step.kind === 'collect') scoped.add(step.collect);
    if (step.kind === 'set_slots') step.slots.forEach((slot) => scoped.add(slot.name));
  }
  for (const name of scoped) {
    if (kept.has(name)) continue;
    const initial = context.domain.slots.get(name)?.initialValue ?? null;
    if (!sameValue(draft.slots[name] ?? null, initial)) draft.setSlot(name, initial, { reset: true });
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
