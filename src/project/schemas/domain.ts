import type { SchemaObject } from 'ajv';
import { rejectionsSchema } from './flows.js';

/*
 * JSON Schema (draft-07) of one domain file (the domain may be split over many files).
 *
 * Modelled on Rasa's `rasa/shared/utils/schemas/domain.yml` and `responses.yml` (pykwalify), which are
 * tolerant: unknown top-level keys, slot, mapping, intent, entity, session_config and config keys pass
 * Rasa's schema and are read past. Here each is a DOMAIN_IGNORED_KEY warning, never an error, so a typo
 * (`respones:`) is seen. Two differ in Rasa, and are warnings here all the same (docs/decisions.md): a slot
 * key its slot classes do not take stops Rasa at load, and a response variation key its responses schema
 * does not list is a schema error there. Sections may be empty (`actions:` with every item commented
 * out), which Rasa reads as absent. What is checked:
 * - slot `type` is one of Rasa's built-in type names, compared case-sensitively as
 *   `Slot.resolve_by_type` does (`Text` is not `text`). Rasa would also accept a Python module path
 *   to a custom slot class; such classes cannot run in Parley, so they are rejected here.
 * - every response variation has `text` or `custom` (Rasa's `require_response_keys`), and a
 *   `condition` is a predicate string or a list of {type: slot, name, value}.
 * See flows.ts for the meaning of the `x-` annotations.
 */

export const SLOT_TYPES = ['text', 'bool', 'float', 'categorical', 'any', 'list'] as const;

export const SLOT_MAPPING_TYPES = [
  'from_llm',
  'controlled',
  'from_entity',
  'from_intent',
  'from_trigger_intent',
  'from_text',
  'custom',
] as const;

/** Unknown keys of the object are DOMAIN_IGNORED_KEY warnings; `fate` says what becomes of them. */
function readPast(fate?: string): SchemaObject {
  return {
    additionalProperties: false,
    'x-codes': { additionalProperties: 'DOMAIN_IGNORED_KEY' },
    ...(fate === undefined ? {} : { 'x-ignored': fate }),
  };
}

const text = { type: 'string' };
const flag = { type: 'boolean' };
const textList = { type: 'array', items: text };
const textOrTextList = { type: ['string', 'array'], 'x-expected': 'a name or a list of names', items: text };

/** A list item that is either a plain name or a one-key map `{name: {...settings}}`. */
function nameOrNamedMap(settings: SchemaObject, example: string): SchemaObject {
  return {
    type: ['string', 'object'],
    'x-expected': `a name or a one-key map like \`${example}\``,
    if: { type: 'object' },
    then: {
      minProperties: 1,
      maxProperties: 1,
      'x-message': `must be a one-key map like \`${example}\``,
      additionalProperties: { type: ['object', 'null'], ...readPast(), ...settings },
    },
  };
}

const slotMapping: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with a type, e.g. `- type: from_llm`',
  required: ['type'],
  ...readPast(),
  properties: {
    type: { enum: [...SLOT_MAPPING_TYPES] },
    intent: textOrTextList,
    not_intent: textOrTextList,
    entity: text,
    role: text,
    group: text,
    value: {},
    action: text,
    allow_nlu_correction: flag,
    run_action_every_turn: text,
    coexistence_system: { enum: ['NLU', 'CALM', 'SHARED'] },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        'x-expected': 'a map like `- active_flow: transfer_money`',
        ...readPast(),
        properties: {
          active_flow: { type: ['string', 'null'] },
          active_loop: { type: ['string', 'null'] },
          requested_slot: { type: ['string', 'null'] },
        },
      },
    },
  },
};

const slot: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with at least a type, e.g. `type: text`',
  required: ['type'],
  ...readPast("Parley ignores it (Rasa's slot classes refuse a setting they do not take)"),
  properties: {
    type: { enum: [...SLOT_TYPES] },
    initial_value: {},
    values: {
      type: 'array',
      'x-expected': 'a list of values',
      items: { type: ['string', 'number', 'boolean', 'null'], 'x-expected': 'a plain value' },
    },
    mappings: { type: 'array', 'x-expected': 'a list of mappings', items: slotMapping },
    influence_conversation: flag,
    min_value: { type: 'number' },
    max_value: { type: 'number' },
    shared_for_coexistence: flag,
    value_reset_delay: { type: ['integer', 'null'] },
    is_builtin: flag,
    validation: {
      type: 'object',
      ...readPast(),
      properties: { rejections: rejectionsSchema, refill_utter: text },
    },
  },
};

const button: SchemaObject = {
  type: 'object',
  'x-expected': 'a map {title, payload}',
  properties: { title: text, payload: text },
};

const responseCondition: SchemaObject = {
  type: ['string', 'array'],
  'x-expected': 'a condition string or a list of {type: slot, name, value}',
  items: {
    type: 'object',
    required: ['type', 'name', 'value'],
    properties: { type: { const: 'slot' }, name: text, value: {} },
  },
};

const variation: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with text (or custom), e.g. `- text: "Hello"`',
  anyOf: [{ required: ['text'] }, { required: ['custom'] }],
  'x-message': "a response variation needs 'text' or 'custom'",
  'x-hint': 'add `text: "..."`, or `custom: {...}` for a channel-specific payload',
  ...readPast("Parley does not send it (Rasa's responses schema refuses a key it does not list)"),
  'x-hints': { additionalProperties: 'remove it, or check its spelling and indentation' },
  properties: {
    id: text,
    text,
    image: text,
    custom: { type: 'object' },
    buttons: { type: 'array', items: button },
    button_type: text,
    quick_replies: { type: 'array', items: button },
    attachment: { type: ['object', 'string'] },
    elements: { type: 'array', items: { type: 'object' } },
    channel: text,
    condition: responseCondition,
    metadata: { type: ['object', 'null'] },
    allow_interruptions: flag,
    translation: { type: 'object', 'x-expected': 'a map of language code to variation fields' },
  },
};

export const domainSchema: SchemaObject = {
  type: 'object',
  ...readPast(),
  properties: {
    version: { type: 'string', 'x-hint': 'quote the version, e.g. version: "3.1"' },
    intents: {
      type: ['array', 'null'],
      'x-expected': 'a list of intents',
      items: nameOrNamedMap(
        { properties: { use_entities: { type: ['boolean', 'array'] }, ignore_entities: textList } },
        'greet: {use_entities: []}',
      ),
    },
    entities: {
      type: ['array', 'null'],
      'x-expected': 'a list of entities',
      items: nameOrNamedMap(
        { properties: { roles: textList, groups: textList, influence_conversation: flag } },
        'city: {roles: [from, to]}',
      ),
    },
    slots: {
      type: ['object', 'null'],
      'x-expected': 'a map of slot name to slot',
      additionalProperties: slot,
    },
    responses: {
      type: ['object', 'null'],
      'x-expected': 'a map of response name to a list of variations',
      additionalProperties: {
        type: 'array',
        'x-expected': 'a list of variations (start each with `- text:`)',
        items: variation,
      },
    },
    actions: {
      type: ['array', 'null'],
      'x-expected': 'a list of action names',
      items: nameOrNamedMap({ properties: { send_domain: flag } }, 'action_x: {send_domain: true}'),
    },
    forms: {
      type: ['object', 'null'],
      'x-expected': 'a map of form name to form',
      additionalProperties: {
        type: ['object', 'null'],
        ...readPast(),
        properties: {
          required_slots: { type: ['array', 'null'], items: text },
          ignored_intents: textOrTextList,
        },
      },
    },
    session_config: {
      type: ['object', 'null'],
      ...readPast(),
      properties: {
        session_expiration_time: { type: 'number', minimum: 0 },
        carry_over_slots_to_new_session: flag,
        start_session_after_expiry: flag,
      },
    },
    config: { type: ['object', 'null'], ...readPast(), properties: { store_entities_as_slots: flag } },
    e2e_actions: { type: ['array', 'null'], items: text },
  },
};
