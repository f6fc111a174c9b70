import { createHash } from 'node:crypto';
import type {
  Domain,
  IntentDeclaration,
  MappingCondition,
  ResponseCondition,
  ResponseVariation,
  Slot,
  SlotMapping,
} from '../../core/domain/types.js';
import { assertNever } from '../../core/errors.js';

/** The domain file format version Rasa writes into `Domain.as_dict()`. */
export const DOMAIN_FORMAT_VERSION = '3.1';

export type JsonObject = { [key: string]: unknown };

/**
 * The domain as Rasa serialises it for the action server (`Domain.as_dict()`): the domain file's shape
 * with defaults filled in. rasa-sdk reads `responses`, `slots` (with their `mappings`) and `forms`.
 */
export interface DomainJson {
  readonly version: string;
  readonly config: { readonly store_entities_as_slots: boolean };
  readonly session_config: {
    readonly session_expiration_time: number;
    readonly carry_over_slots_to_new_session: boolean;
  };
  readonly intents: readonly (string | JsonObject)[];
  readonly entities: readonly string[];
  readonly slots: Readonly<Record<string, JsonObject>>;
  readonly responses: Readonly<Record<string, readonly JsonObject[]>>;
  readonly actions: readonly (string | JsonObject)[];
  readonly forms: Readonly<Record<string, unknown>>;
}

export function domainToJson(domain: Domain): DomainJson {
  return {
    version: DOMAIN_FORMAT_VERSION,
    config: { store_entities_as_slots: true },
    session_config: {
      session_expiration_time: domain.sessionConfig.sessionExpirationTime,
      carry_over_slots_to_new_session: domain.sessionConfig.carryOverSlotsToNewSession,
    },
    intents: [...domain.intents.values()].sort((a, b) => compare(a.name, b.name)).map(intentJson),
    entities: [...domain.entities],
    slots: Object.fromEntries([...domain.slots.values()].map((slot) => [slot.name, slotJson(slot)])),
    responses: Object.fromEntries(
      [...domain.responses.values()].map((template) => [
        template.name,
        template.variations.map(variationJson),
      ]),
    ),
    actions: [...domain.actions.values()].map((action) =>
      action.sendDomain ? { [action.name]: { send_domain: true } } : action.name,
    ),
    forms: domain.forms,
  };
}

/**
 * A stable fingerprint of the domain JSON (sha256 of its canonical form: keys sorted). rasa-sdk only
 * compares it with the digest of the domain it cached, so any stable string works.
 */
export function domainDigest(domainJson: DomainJson): string {
  return createHash('sha256').update(canonicalJson(domainJson)).digest('hex');
}

/** JSON with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return Object.fromEntries(
    entries.sort(([a], [b]) => compare(a, b)).map(([key, item]) => [key, sortKeys(item)]),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function intentJson(intent: IntentDeclaration): string | JsonObject {
  const useEntities = intent.useEntities;
  if (useEntities === true && intent.ignoreEntities.length === 0) return intent.name;
  const properties: JsonObject = {};
  if (useEntities !== true) properties['use_entities'] = useEntities === false ? [] : [...useEntities];
  if (intent.ignoreEntities.length > 0) properties['ignore_entities'] = [...intent.ignoreEntities];
  return { [intent.name]: properties };
}

function slotJson(slot: Slot): JsonObject {
  return {
    type: slot.type,
    initial_value: slot.initialValue ?? null,
    influence_conversation: slot.influenceConversation,
    mappings: slot.mappings.map(mappingJson),
    ...(slot.type === 'categorical' ? { values: [...slot.values] } : {}),
    ...(slot.validation
      ? {
          validation: {
            rejections: slot.validation.rejections.map((r) => ({ if: r.condition.text, utter: r.utter })),
            ...(slot.validation.refillUtter ? { refill_utter: slot.validation.refillUtter } : {}),
          },
        }
      : {}),
  };
}

function mappingJson(mapping: SlotMapping): JsonObject {
  const conditions =
    mapping.conditions.length > 0 ? { conditions: mapping.conditions.map(conditionJson) } : {};
  switch (mapping.type) {
    case 'from_llm':
      return {
        type: mapping.type,
        ...(mapping.allowNluCorrection ? { allow_nlu_correction: true } : {}),
        ...conditions,
      };
    case 'controlled':
      return {
        type: mapping.type,
        ...(mapping.runActionEveryTurn ? { run_action_every_turn: mapping.runActionEveryTurn } : {}),
        ...conditions,
      };
    case 'from_entity':
      return {
        type: mapping.type,
        entity: mapping.entity,
        ...(mapping.role ? { role: mapping.role } : {}),
        ...(mapping.group ? { group: mapping.group } : {}),
        ...intentFilters(mapping.intent, mapping.notIntent),
        ...conditions,
      };
    case 'from_intent':
      return {
        type: mapping.type,
        value: mapping.value,
        ...intentFilters(mapping.intent, mapping.notIntent),
        ...conditions,
      };
    case 'from_trigger_intent':
      return {
        type: mapping.type,
        value: mapping.value,
        ...intentFilters(mapping.intent, []),
        ...conditions,
      };
    case 'from_text':
      return { type: mapping.type, ...intentFilters(mapping.intent, mapping.notIntent), ...conditions };
    default:
      return assertNever(mapping, 'slot mapping');
  }
}

function intentFilters(intent: readonly string[], notIntent: readonly string[]): JsonObject {
  return {
    ...(intent.length > 0 ? { intent: [...intent] } : {}),
    ...(notIntent.length > 0 ? { not_intent: [...notIntent] } : {}),
  };
}

function conditionJson(condition: MappingCondition): JsonObject {
  return {
    ...(condition.activeFlow !== undefined ? { active_flow: condition.activeFlow } : {}),
    ...(condition.activeLoop !== undefined ? { active_loop: condition.activeLoop } : {}),
    ...(condition.requestedSlot !== undefined ? { requested_slot: condition.requestedSlot } : {}),
  };
}

/** A response variation with the keys the domain file uses, leaving out the ones it did not set. */
function variationJson(variation: ResponseVariation): JsonObject {
  const json: JsonObject = {};
  if (variation.text !== undefined) json['text'] = variation.text;
  if (variation.buttons.length > 0) {
    json['buttons'] = variation.buttons.map((button) => ({
      title: button.title,
      payload: button.payload,
      ...(button.extra as JsonObject | undefined),
    }));
  }
  if (variation.image !== undefined) json['image'] = variation.image;
  if (variation.custom !== undefined) json['custom'] = variation.custom;
  if (variation.attachment !== undefined) json['attachment'] = variation.attachment;
  if (variation.elements !== undefined) json['elements'] = variation.elements;
  if (variation.quickReplies !== undefined) json['quick_replies'] = variation.quickReplies;
  if (variation.channel !== undefined) json['channel'] = variation.channel;
  if (variation.condition !== undefined) json['condition'] = responseConditionJson(variation.condition);
  if (variation.id !== undefined) json['id'] = variation.id;
  if (Object.keys(variation.metadata).length > 0) json['metadata'] = variation.metadata;
  return json;
}

function responseConditionJson(condition: ResponseCondition): unknown {
  switch (condition.kind) {
    case 'predicate':
      return condition.condition.text;
    case 'slots':
      return condition.slots.map((slot) => ({ type: 'slot', name: slot.name, value: slot.value }));
    default:
      return assertNever(condition, 'response condition');
  }
}
