import type { Slot, SlotMapping } from '../../../core/domain/types.js';
import type { ExtractedEntity } from '../entities/types.js';

type EntityMapping = Extract<SlotMapping, { type: 'from_entity' }>;

export interface MappingContext {
  /** the predicted intent; when given, `intent` / `not_intent` of a mapping are honoured */
  readonly intent?: string | null;
  /** the active flow; when given, `conditions: [{active_flow}]` of a mapping are honoured */
  readonly activeFlow?: string;
}

/**
 * The raw value of the slot's first `from_entity` mapping that an entity fills. As in Rasa, role and
 * group must equal the mapping's (a mapping without a role only takes entities without a role); a list
 * slot takes every matching value, any other slot the last one.
 */
export function valueFromEntities(
  slot: Slot,
  entities: readonly ExtractedEntity[],
  context: MappingContext,
): { value: unknown } | undefined {
  for (const mapping of slot.mappings) {
    if (mapping.type !== 'from_entity' || !applies(mapping, context)) continue;
    const values = entities.filter((entity) => matches(mapping, entity)).map((entity) => entity.value);
    if (values.length === 0) continue;
    return { value: slot.type === 'list' ? values : values[values.length - 1] };
  }
  return undefined;
}

function matches(mapping: EntityMapping, entity: ExtractedEntity): boolean {
  return entity.entity === mapping.entity && entity.role === mapping.role && entity.group === mapping.group;
}

function applies(mapping: EntityMapping, context: MappingContext): boolean {
  const { intent, activeFlow } = context;
  if (intent !== undefined && intent !== null) {
    if (mapping.intent.length > 0 && !mapping.intent.includes(intent)) return false;
    if (mapping.notIntent.includes(intent)) return false;
  }
  if (activeFlow === undefined || mapping.conditions.length === 0) return true;
  return mapping.conditions.some(
    (condition) => condition.activeFlow === undefined || condition.activeFlow === activeFlow,
  );
}

export function hasOnlyControlledMappings(slot: Slot): boolean {
  return slot.mappings.length > 0 && slot.mappings.every((mapping) => mapping.type === 'controlled');
}
