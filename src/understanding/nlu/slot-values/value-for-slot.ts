import { assertNever } from '../../../core/errors.js';
import { coerceSlotValue } from '../../../core/domain/slot-values.js';
import type { Slot } from '../../../core/domain/types.js';
import type { ExtractedEntity } from '../entities/types.js';
import { boolFromText } from './bool-text.js';
import { categoricalFromText } from './categorical-text.js';
import { floatFromText } from './float-text.js';
import { hasOnlyControlledMappings, valueFromEntities } from './from-entity.js';
import type { MappingContext } from './from-entity.js';

export interface SlotValue {
  readonly value: unknown;
  /** where the value came from: a `from_entity` mapping or the message read as the slot's type */
  readonly source: 'entity' | 'text';
}

export type ValueForSlotOptions = MappingContext;

/**
 * The value a message gives the slot a collect step is waiting for: first the slot's `from_entity`
 * mappings (entity name, role and group), the value converted to the slot type where it can be;
 * otherwise the message itself read as the slot type (float, bool, categorical, text, any; never
 * list). Undefined when the message does not clearly give a value. Slots with only `controlled`
 * mappings are never filled from the message.
 */
export function valueForSlot(
  slot: Slot,
  text: string,
  entities: readonly ExtractedEntity[],
  options: ValueForSlotOptions = {},
): SlotValue | undefined {
  const fromEntity = valueFromEntities(slot, entities, options);
  if (fromEntity) return { value: typedEntityValue(slot, fromEntity.value), source: 'entity' };
  if (hasOnlyControlledMappings(slot)) return undefined;
  const value = valueFromText(slot, text);
  return value === undefined ? undefined : { value, source: 'text' };
}

/** The message read as a value of the slot's type, or undefined. */
export function valueFromText(slot: Pick<Slot, 'type' | 'values'>, text: string): unknown {
  switch (slot.type) {
    case 'float':
      return floatFromText(text);
    case 'bool':
      return boolFromText(text);
    case 'categorical':
      return categoricalFromText(slot.values, text);
    case 'text':
      return text.trim() === '' ? undefined : text.trim();
    case 'any':
      return text.trim() === '' ? undefined : text;
    case 'list':
      return undefined;
    default:
      return assertNever(slot.type, 'slot type');
  }
}

/**
 * An entity value converted to the slot type: by Rasa's coercion, else (for strings) as free text
 * ("fifty" for a float, "the savings one" for a categorical); else unchanged, so that the slot's
 * rejection handling reports it.
 */
function typedEntityValue(slot: Slot, value: unknown): unknown {
  if (slot.type === 'list' || slot.type === 'text' || slot.type === 'any') return value;
  const coerced = coerceSlotValue(slot, value);
  if (coerced.ok) return coerced.value;
  const read = typeof value === 'string' ? valueFromText(slot, value) : undefined;
  return read === undefined ? value : read;
}
