import type { Slot, SlotMapping, SlotType } from '../../../src/core/domain/types.js';
import type { ExtractedEntity } from '../../../src/understanding/nlu/entities/index.js';

export function slot(type: SlotType, options: { values?: string[]; mappings?: SlotMapping[] } = {}): Slot {
  return {
    name: 'answer',
    type,
    initialValue: null,
    values: options.values ?? [],
    mappings: options.mappings ?? [{ type: 'from_llm', allowNluCorrection: false, conditions: [] }],
    influenceConversation: false,
    isDefault: false,
  };
}

export function fromEntity(
  entity: string,
  extra: { role?: string; group?: string; intent?: string[] } = {},
): SlotMapping {
  return {
    type: 'from_entity',
    entity,
    ...(extra.role !== undefined ? { role: extra.role } : {}),
    ...(extra.group !== undefined ? { group: extra.group } : {}),
    intent: extra.intent ?? [],
    notIntent: [],
    conditions: [],
  };
}

export function entity(
  name: string,
  value: unknown,
  extra: { role?: string; group?: string } = {},
): ExtractedEntity {
  return {
    entity: name,
    value,
    start: 0,
    end: 1,
    confidence: 1,
    extractor: 'PerceptronEntityExtractor',
    ...extra,
  };
}
