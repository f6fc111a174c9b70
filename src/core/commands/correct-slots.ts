import type { EngineContext } from '../engine-context.js';
import { coerceSlotValue } from '../domain/slot-values.js';
import { ownedStepsWithCalls } from '../executor/slot-reset.js';
import type { CollectStep } from '../flows/types.js';
import type { Stack, UserFlowFrame } from '../stack/frames.js';
import { isUserFrame } from '../stack/frames.js';
import { topUserFrame } from '../stack/operations.js';
import { isRecord } from './parse-helpers.js';
import { pushPattern } from './push-pattern.js';
import type { CommandDefinition, CorrectedSlot } from './types.js';

/**
 * The user changes a value given earlier. pattern_correction's action_correct_flow_slot later rewinds the
 * flow to the earliest collect step that asked for one of the slots, so the steps after it run again.
 */
export const correctSlotsCommand: CommandDefinition<'correct slot'> = {
  name: 'correct slot',
  parse(raw) {
    const items = Array.isArray(raw['corrected_slots']) ? raw['corrected_slots'] : [];
    const corrected_slots = items.filter(isRecord).flatMap(correctedSlot);
    return { command: 'correct slot', corrected_slots };
  },
  apply(command, scope) {
    const { draft, context } = scope;
    const collects = collectStepsOnStack(draft.stack, context);
    if (!command.corrected_slots.every((slot) => collects.some((owned) => owned.step.collect === slot.name)))
      return;
    const changed = command.corrected_slots
      .map((slot) => ({ ...slot, value: coerced(context, slot) }))
      .filter((slot) => draft.slots[slot.name] !== slot.value);
    if (changed.length === 0) return;
    const names = new Set(changed.map((slot) => slot.name));
    const isResetOnly = areAllResetOnly(context, names);
    const target = resetTarget(draft.stack, context, names);
    pushPattern(scope, 'pattern_correction', {
      is_reset_only: isResetOnly,
      // Rasa's frame shape: each slot's value with who filled it, which action_correct_flow_slot keeps
      corrected_slots: Object.fromEntries(
        changed.map((slot) => [slot.name, { value: slot.value, filled_by: slot.filled_by ?? null }]),
      ),
      reset_flow_id: target?.flowId ?? null,
      reset_step_id: target?.stepId ?? null,
      new_slot_values: changed.map((slot) => slot.value),
    });
  },
};

function correctedSlot(item: Readonly<Record<string, unknown>>): CorrectedSlot[] {
  const { name, value, filled_by } = item;
  if (typeof name !== 'string') return [];
  return [{ name, value: value ?? null, ...(typeof filled_by === 'string' ? { filled_by } : {}) }];
}

function coerced(context: EngineContext, slot: CorrectedSlot): unknown {
  const definition = context.domain.slots.get(slot.name);
  if (!definition) return slot.value;
  const result = coerceSlotValue(definition, slot.value);
  return result.ok ? result.value : slot.value;
}

/**
 * Rasa's are_all_slots_reset_only: the correction only sends the user back to the question when every
 * collect step of ANY flow of the assistant (not only the flows on the stack) that fills a corrected
 * slot asks before filling; one collect without ask_before_filling makes it a real correction.
 */
function areAllResetOnly(context: EngineContext, names: ReadonlySet<string>): boolean {
  return context.flows.flows.every((flow) =>
    flow.steps.every((step) => step.kind !== 'collect' || !names.has(step.collect) || step.askBeforeFilling),
  );
}

type OwnedCollect = { flowId: string; step: CollectStep };

function collectStepsOnStack(stack: Stack, context: EngineContext): OwnedCollect[] {
  return stack.filter(isUserFrame).flatMap((frame) => collectsOf(frame, context));
}

function collectsOf(frame: UserFlowFrame, context: EngineContext): OwnedCollect[] {
  const flow = context.flows.get(frame.flow_id);
  if (!flow) return [];
  return ownedStepsWithCalls(context.flows, flow).flatMap((owned) =>
    owned.step.kind === 'collect' ? [{ flowId: owned.flowId, step: owned.step }] : [],
  );
}

/** The earliest collect step of the active flow, up to the current one, that asked for a corrected slot. */
function resetTarget(
  stack: Stack,
  context: EngineContext,
  names: ReadonlySet<string>,
): { flowId: string; stepId: string } | undefined {
  const active = topUserFrame(stack);
  const flow = active ? context.flows.get(active.flow_id) : undefined;
  if (!active || !flow) return undefined;
  const owned = ownedStepsWithCalls(context.flows, flow);
  const current = topUserFrame(stack, { includeCallFrames: true });
  const currentIndex = owned.findIndex(
    (entry) => entry.step.id === current?.step_id && entry.flowId === current?.flow_id,
  );
  const asked = currentIndex === -1 ? owned : owned.slice(0, currentIndex + 1);
  const earliest = asked.find((entry) => entry.step.kind === 'collect' && names.has(entry.step.collect));
  return earliest ? { flowId: earliest.flowId, stepId: earliest.step.id } : undefined;
}
