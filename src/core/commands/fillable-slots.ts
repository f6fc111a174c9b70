import { BUILT_IN_SLOTS, RESERVED_SLOT } from '../domain/built-in-slots.js';
import type { EngineContext } from '../engine-context.js';
import { stepsWithCalls } from '../executor/slot-reset.js';
import type { Stack } from '../stack/frames.js';
import { findPattern, topUserFrame } from '../stack/operations.js';

const COLLECT_PATTERN = 'pattern_collect_information';
const ENGINE_SLOTS = [...BUILT_IN_SLOTS].filter((name) => name !== RESERVED_SLOT);

/**
 * Rasa's "slot was not asked for" rule: a SetSlot is accepted for the slot being asked, for slots the
 * active flow (and the flows it calls) collects without `ask_before_filling`, for slots of flows started
 * in this turn, for slots collected by patterns, and for the engine's own slots.
 */
export function fillableSlots(
  stack: Stack,
  context: EngineContext,
  startedFlows: ReadonlySet<string>,
): Set<string> {
  const slots = new Set<string>(ENGINE_SLOTS);
  const asked = findPattern(stack, COLLECT_PATTERN)?.['collect'];
  if (typeof asked === 'string') slots.add(asked);
  const flowIds = new Set<string>(startedFlows);
  // the active flow's steps include those of the flows it calls, so a called flow on top adds nothing
  const active = topUserFrame(stack);
  if (active) flowIds.add(active.flow_id);
  for (const slot of patternCollectSlots(context)) slots.add(slot);
  for (const flowId of flowIds) {
    const flow = context.flows.get(flowId);
    if (!flow) continue;
    for (const step of stepsWithCalls(context.flows, flow)) {
      if (step.kind === 'collect' && !step.askBeforeFilling) slots.add(step.collect);
    }
  }
  return slots;
}

const patternSlots = new WeakMap<object, readonly string[]>();

/** Slots the patterns collect (fixed per assistant, so computed once per flow list). */
function patternCollectSlots(context: EngineContext): readonly string[] {
  let slots = patternSlots.get(context.flows);
  if (!slots) {
    slots = context.flows.flows
      .filter((flow) => flow.id.startsWith('pattern_'))
      .flatMap((flow) => stepsWithCalls(context.flows, flow))
      .flatMap((step) => (step.kind === 'collect' && !step.askBeforeFilling ? [step.collect] : []));
    patternSlots.set(context.flows, slots);
  }
  return slots;
}
