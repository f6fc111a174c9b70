import type { Slot, SlotMapping, SlotType, MappingCondition } from '../../core/domain/types.js';
import type { Rejection } from '../../core/flows/types.js';
import type { PathSegment } from '../load/yaml-file.js';
import { buildCondition } from './conditions.js';
import { asBoolean, asString, asStringList, isRecord, pythonString, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

const SLOT_TYPES: readonly SlotType[] = ['text', 'bool', 'float', 'categorical', 'any', 'list'];

export function buildSlot(
  name: string,
  raw: Record<string, unknown>,
  context: SourceContext,
  path: PathSegment[],
): Slot {
  const type = SLOT_TYPES.find((candidate) => candidate === raw['type']) ?? 'any';
  const source = sourceAt(context, path);
  const validation = buildValidation(raw['validation'], context, [...path, 'validation']);
  return {
    name,
    type,
    initialValue: raw['initial_value'] ?? null,
    values: type === 'categorical' ? categoricalValues(raw['values']) : [],
    mappings: 'mappings' in raw ? buildMappings(raw['mappings']) : [defaultMapping()],
    ...(validation ? { validation } : {}),
    influenceConversation: asBoolean(raw['influence_conversation'], type !== 'any'),
    sharedForCoexistence: asBoolean(raw['shared_for_coexistence'], false),
    isDefault: context.isDefault,
    ...(source ? { source } : {}),
  };
}

function categoricalValues(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((value) => value !== null && value !== undefined).map(pythonString);
}

function defaultMapping(): SlotMapping {
  return { type: 'from_llm', allowNluCorrection: false, conditions: [] };
}

function buildMappings(raw: unknown): SlotMapping[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((mapping) => {
    const built = buildMapping(mapping);
    return built ? [built] : [];
  });
}

function buildMapping(raw: Record<string, unknown>): SlotMapping | undefined {
  const conditions = mappingConditions(raw['conditions']);
  const intent = asStringList(raw['intent']);
  const notIntent = asStringList(raw['not_intent']);
  switch (raw['type']) {
    case 'from_llm':
      return {
        type: 'from_llm',
        allowNluCorrection: asBoolean(raw['allow_nlu_correction'], false),
        conditions,
      };
    case 'controlled':
    case 'custom': {
      const action = asString(raw['run_action_every_turn']) ?? asString(raw['action']);
      return { type: 'controlled', conditions, ...(action ? { runActionEveryTurn: action } : {}) };
    }
    case 'from_entity': {
      const role = asString(raw['role']);
      const group = asString(raw['group']);
      // no entity named: '' matches no extracted entity (validate reports the mapping)
      const entity = raw['entity'] === undefined || raw['entity'] === null ? '' : String(raw['entity']);
      return {
        type: 'from_entity',
        entity,
        intent,
        notIntent,
        conditions,
        ...(role ? { role } : {}),
        ...(group ? { group } : {}),
      };
    }
    case 'from_intent':
      return { type: 'from_intent', value: raw['value'], intent, notIntent, conditions };
    case 'from_trigger_intent':
      return { type: 'from_trigger_intent', value: raw['value'], intent, conditions };
    case 'from_text':
      return { type: 'from_text', intent, notIntent, conditions };
    default:
      return undefined;
  }
}

function mappingConditions(raw: unknown): MappingCondition[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).map((condition) => {
    const activeFlow = asString(condition['active_flow']);
    const requestedSlot = asString(condition['requested_slot']);
    return {
      ...(activeFlow ? { activeFlow } : {}),
      ...('active_loop' in condition ? { activeLoop: asString(condition['active_loop']) ?? null } : {}),
      ...(requestedSlot ? { requestedSlot } : {}),
    };
  });
}

function buildValidation(raw: unknown, context: SourceContext, path: PathSegment[]): Slot['validation'] {
  if (!isRecord(raw)) return undefined;
  const rawRejections = Array.isArray(raw['rejections']) ? raw['rejections'] : [];
  const rejections: Rejection[] = rawRejections.filter(isRecord).map((rejection, index) => ({
    condition: buildCondition(rejection['if'], context, [...path, 'rejections', index, 'if']),
    utter: String(rejection['utter']),
  }));
  const refillUtter = asString(raw['refill_utter']);
  return { rejections, ...(refillUtter ? { refillUtter } : {}) };
}
