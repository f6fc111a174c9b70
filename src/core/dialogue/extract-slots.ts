/**
 * Rasa's action_extract_slots for the NLU-based system in coexistence: after a message routed there,
 * the slots that belong to it (not collected by any flow, or `shared_for_coexistence`) are filled from
 * their NLU mappings: from_entity, from_intent and from_text, with their intent / not_intent filters and
 * active_loop conditions. Slots CALM collects are CALM's (Rasa's should_fill_slot_in_coexistence).
 */
import type { Domain, MappingCondition, Slot, SlotMapping } from '../domain/types.js';
import type { FlowList } from '../flows/flow-list.js';
import type { ParseData, UnstampedEvent } from '../events/types.js';

export function nluSlotEvents(
  parseData: ParseData,
  context: { readonly domain: Domain; readonly flows: FlowList; readonly activeLoop: string | null },
  slots: Readonly<Record<string, unknown>>,
): UnstampedEvent[] {
  const calm = calmSlots(context.flows);
  const events: UnstampedEvent[] = [];
  for (const slot of context.domain.slots.values()) {
    if (calm.has(slot.name) && slot.sharedForCoexistence !== true) continue;
    const value = valueFromMappings(slot, parseData, context.activeLoop);
    if (value === undefined || slots[slot.name] === value.value) continue;
    events.push({ event: 'slot', name: slot.name, value: value.value, metadata: { filled_by: 'NLU' } });
  }
  return events;
}

function calmSlots(flows: FlowList): Set<string> {
  const names = new Set<string>();
  for (const flow of flows.flows)
    for (const step of flow.steps) {
      if (step.kind === 'collect') names.add(step.collect);
      if (step.kind === 'set_slots') for (const set of step.slots) names.add(set.name);
    }
  return names;
}

function valueFromMappings(
  slot: Slot,
  parseData: ParseData,
  activeLoop: string | null,
): { value: unknown } | undefined {
  const intent = parseData.intent.name ?? null;
  for (const mapping of slot.mappings) {
    if (!conditionsHold(mapping.conditions, activeLoop) || !intentAllowed(mapping, intent)) continue;
    if (mapping.type === 'from_entity') {
      const entity = parseData.entities.find(
        (candidate) =>
          candidate.entity === mapping.entity &&
          (mapping.role === undefined || candidate['role'] === mapping.role) &&
          (mapping.group === undefined || candidate['group'] === mapping.group),
      );
      if (entity) return { value: entity.value };
    }
    if (mapping.type === 'from_intent' && intent !== null && mapping.intent.includes(intent))
      return { value: mapping.value };
    if (mapping.type === 'from_text' && typeof parseData.text === 'string') return { value: parseData.text };
  }
  return undefined;
}

function intentAllowed(mapping: SlotMapping, intent: string | null): boolean {
  if (!('notIntent' in mapping) || mapping.type === 'from_intent') return true;
  if (intent !== null && mapping.notIntent.includes(intent)) return false;
  return mapping.intent.length === 0 || (intent !== null && mapping.intent.includes(intent));
}

function conditionsHold(conditions: readonly MappingCondition[], activeLoop: string | null): boolean {
  if (conditions.length === 0) return true;
  return conditions.some(
    (condition) =>
      condition.activeFlow === undefined &&
      (condition.activeLoop === undefined || condition.activeLoop === activeLoop),
  );
}
