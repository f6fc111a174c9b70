import type { SchemaObject } from 'ajv';
import { described } from './describe.js';
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
function nameOrNamedMap(settings: SchemaObject, example: string, description: string): SchemaObject {
  return {
    type: ['string', 'object'],
    'x-expected': `a name or a one-key map like \`${example}\``,
    if: { type: 'object' },
    then: {
      minProperties: 1,
      maxProperties: 1,
      'x-message': `must be a one-key map like \`${example}\``,
      additionalProperties: { type: ['object', 'null'], ...readPast(), ...settings, description },
    },
  };
}

const slotMapping: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with a type, e.g. `- type: from_llm`',
  required: ['type'],
  ...readPast(),
  properties: {
    type: described(
      { enum: [...SLOT_MAPPING_TYPES] },
      'how the slot is filled: `from_llm` (commands of the LLM or NLU adapter), `controlled` (only by actions, set_slots, buttons), `from_entity`, `from_intent`, `from_trigger_intent`, `from_text`, `custom` (an action)',
    ),
    intent: described(
      textOrTextList,
      'from_entity / from_intent / from_text: only when the message has this intent (or one of them)',
    ),
    not_intent: described(textOrTextList, 'not when the message has this intent'),
    entity: described(text, 'from_entity: the entity whose value fills the slot'),
    role: described(text, 'from_entity: only the entity with this role'),
    group: described(text, 'from_entity: only the entity in this group'),
    value: described({}, 'from_intent / from_trigger_intent: the value the slot gets'),
    action: described(text, 'custom / controlled: the action that fills the slot'),
    allow_nlu_correction: described(flag, 'from_llm: let NLU-filled values be corrected'),
    run_action_every_turn: described(text, 'an action run after every user message to fill the slot'),
    coexistence_system: described(
      { enum: ['NLU', 'CALM', 'SHARED'] },
      'which system of a coexistence assistant fills the slot (docs/coexistence.md)',
    ),
    conditions: {
      type: 'array',
      description: 'fill only in these states (all keys of an item must match; any item may)',
      items: {
        type: 'object',
        'x-expected': 'a map like `- active_flow: transfer_money`',
        ...readPast(),
        properties: {
          active_flow: described({ type: ['string', 'null'] }, 'the flow that must be active'),
          active_loop: described({ type: ['string', 'null'] }, 'the form that must be active (legacy)'),
          requested_slot: described({ type: ['string', 'null'] }, 'the slot that must be being asked for'),
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
    type: described(
      { enum: [...SLOT_TYPES] },
      'the slot type; values are coerced to it (`"50"` becomes 50 in a float slot)',
    ),
    initial_value: described({}, 'the value before anything fills it, and after a reset', null),
    values: described(
      {
        type: 'array',
        'x-expected': 'a list of values',
        items: { type: ['string', 'number', 'boolean', 'null'], 'x-expected': 'a plain value' },
      },
      'categorical: the allowed values (compared case-insensitively)',
    ),
    mappings: described(
      { type: 'array', 'x-expected': 'a list of mappings', items: slotMapping },
      'how the slot gets its values; absent = `from_llm`',
    ),
    influence_conversation: described(
      flag,
      'whether the slot feeds the policies (rules and stories); `false` for `any` slots',
    ),
    min_value: described(
      { type: 'number' },
      'float: the low end of Rasa’s featurisation range; read past by Parley',
    ),
    max_value: described(
      { type: 'number' },
      'float: the high end of Rasa’s featurisation range; read past by Parley',
    ),
    shared_for_coexistence: described(
      flag,
      'coexistence: the slot is kept when the assistant switches between NLU and CALM',
    ),
    value_reset_delay: described({ type: ['integer', 'null'] }, 'deprecated in Rasa; read past'),
    is_builtin: described(flag, 'marks the engine’s own slots (dialogue_stack, requested_slot …)'),
    validation: {
      type: 'object',
      description: 'checked whenever the slot is filled, in any flow',
      ...readPast(),
      properties: {
        rejections: described(
          rejectionsSchema,
          'a value matching an `if` is refused with the response `utter`',
        ),
        refill_utter: described(text, 'the response asking for the slot again after a rejection'),
      },
    },
  },
};

const button: SchemaObject = {
  type: 'object',
  'x-expected': 'a map {title, payload}',
  properties: {
    title: described(text, 'what the button shows'),
    payload: described(
      text,
      'what is sent back when it is chosen: a text, `/intent`, or `/SetSlots(name=value)`',
    ),
  },
};

const responseCondition: SchemaObject = {
  type: ['string', 'array'],
  'x-expected': 'a condition string or a list of {type: slot, name, value}',
  items: {
    type: 'object',
    required: ['type', 'name', 'value'],
    properties: {
      type: described({ const: 'slot' }, 'always `slot`'),
      name: described(text, 'the slot'),
      value: described({}, 'the value the slot must have'),
    },
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
    id: described(text, 'an id of the variation (for an NLG server or a rephraser)'),
    text: described(text, 'the message; `{slot_name}` is replaced by the slot’s value'),
    image: described(text, 'an image URL sent with the message'),
    custom: described({ type: 'object' }, 'a channel-specific payload sent as it is'),
    buttons: described(
      { type: 'array', items: button },
      'buttons: a `title` shown and a `payload` sent back when chosen (e.g. `/SetSlots(account_type=savings)`)',
    ),
    button_type: described(text, 'how a channel lays buttons out (`inline`, `vertical`)'),
    quick_replies: described({ type: 'array', items: button }, 'quick replies, like buttons'),
    attachment: described({ type: ['object', 'string'] }, 'an attachment sent with the message'),
    elements: described({ type: 'array', items: { type: 'object' } }, 'carousel elements, sent as they are'),
    channel: described(text, 'only on this channel (a variation without `channel` is the fallback)'),
    condition: described(
      responseCondition,
      'only when this holds: a condition string (`slots.tier = "gold"`) or a list of `{type: slot, name, value}`',
    ),
    metadata: described(
      { type: ['object', 'null'] },
      'metadata sent with the message (e.g. `rephrase: true`)',
    ),
    allow_interruptions: described(flag, 'voice: the user may interrupt the message'),
    translation: described(
      { type: 'object', 'x-expected': 'a map of language code to variation fields' },
      'the variation in other languages of `additional_languages`',
    ),
  },
};

export const domainSchema: SchemaObject = {
  type: 'object',
  ...readPast(),
  properties: {
    version: described(
      { type: 'string', 'x-hint': 'quote the version, e.g. version: "3.1"' },
      'the Rasa format version, e.g. "3.1"',
    ),
    intents: {
      description: 'the intents of the NLU data (items may carry `use_entities` / `ignore_entities`)',
      type: ['array', 'null'],
      'x-expected': 'a list of intents',
      items: nameOrNamedMap(
        {
          properties: {
            use_entities: described(
              { type: ['boolean', 'array'] },
              'which entities the intent keeps (`true`, `[]`, or a list)',
            ),
            ignore_entities: described(textList, 'entities the intent drops'),
          },
        },
        'greet: {use_entities: []}',
        'an intent with settings',
      ),
    },
    entities: {
      description: 'the entities NLU extracts (items may carry `roles` and `groups`)',
      type: ['array', 'null'],
      'x-expected': 'a list of entities',
      items: nameOrNamedMap(
        {
          properties: {
            roles: described(textList, 'the roles the entity can take (`from`, `to`)'),
            groups: described(textList, 'the groups the entity can belong to'),
            influence_conversation: described(flag, 'whether the entity feeds the policies'),
          },
        },
        'city: {roles: [from, to]}',
        'an entity with settings',
      ),
    },
    slots: {
      description: 'the slots: the memory of a conversation, filled by mappings, collect steps, actions',
      type: ['object', 'null'],
      'x-expected': 'a map of slot name to slot',
      additionalProperties: described(slot, 'a slot, by name'),
    },
    responses: {
      description: 'the responses (`utter_…`), each a list of variations one of which is chosen',
      type: ['object', 'null'],
      'x-expected': 'a map of response name to a list of variations',
      additionalProperties: {
        type: 'array',
        'x-expected': 'a list of variations (start each with `- text:`)',
        description:
          'a response, by name: its variations (one is chosen among those whose condition and channel match)',
        items: variation,
      },
    },
    actions: {
      description: 'the custom actions (`action_…`) the flows use; items may carry `send_domain`',
      type: ['array', 'null'],
      'x-expected': 'a list of action names',
      items: nameOrNamedMap(
        {
          properties: {
            send_domain: described(flag, 'with `enable_selective_domain`: send this action the domain'),
          },
        },
        'action_x: {send_domain: true}',
        'an action with settings',
      ),
    },
    forms: {
      description: 'legacy forms (used by rules and stories in a coexistence assistant)',
      type: ['object', 'null'],
      'x-expected': 'a map of form name to form',
      additionalProperties: {
        type: ['object', 'null'],
        description: 'a form, by name',
        ...readPast(),
        properties: {
          required_slots: described(
            { type: ['array', 'null'], items: text },
            'the slots the form asks for, in order',
          ),
          ignored_intents: described(textOrTextList, 'intents that fill no slot of the form'),
        },
      },
    },
    session_config: {
      description: 'when a conversation starts a new session',
      type: ['object', 'null'],
      ...readPast(),
      properties: {
        session_expiration_time: described(
          { type: 'number', minimum: 0 },
          'minutes of inactivity after which the next message starts a new session (0: never)',
          60,
        ),
        carry_over_slots_to_new_session: described(flag, 'a new session keeps the slots', true),
        start_session_after_expiry: described(
          flag,
          'start the new session by itself after the expiry; an A2A assistant must say `false`',
          true,
        ),
      },
    },
    config: {
      description: 'domain settings',
      type: ['object', 'null'],
      ...readPast(),
      properties: {
        store_entities_as_slots: described(flag, 'fill slots named like an extracted entity', true),
      },
    },
    e2e_actions: described(
      { type: ['array', 'null'], items: text },
      'bot messages written as text in stories; read past',
    ),
  },
};
