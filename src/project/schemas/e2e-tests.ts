import type { SchemaObject } from 'ajv';

/*
 * JSON Schema (draft-07) of an end-to-end test file (`rasa test e2e`), after Rasa Pro's
 * `rasa/e2e_test/e2e_test_schema.yml` and `assertions_schema.yml`, which are strict: unknown keys at
 * the top level, in test cases, in steps and in assertions are errors. A step has exactly one of
 * user, bot, utter, slot_was_set, slot_was_not_set; an assertion is a one-key map. We also require
 * `steps` on every test case (a case without steps tests nothing). Fixture and metadata names follow
 * Rasa's identifier pattern. See flows.ts for the meaning of the `x-` annotations.
 */

export const E2E_STEP_KINDS = ['user', 'bot', 'utter', 'slot_was_set', 'slot_was_not_set'] as const;

const NAME = '^[a-zA-Z_]+[a-zA-Z0-9_]*$';
const text = { type: 'string' };
const name = { type: 'string', pattern: NAME, 'x-message': 'must be a name of letters, digits and _' };

const slotList: SchemaObject = {
  type: 'array',
  'x-expected': 'a list of slot names or `slot: value` maps',
  items: {
    type: ['string', 'object'],
    'x-expected': 'a slot name or a `slot: value` map',
    minProperties: 1,
  },
};

const flowIdsSelector = (legacy: string): SchemaObject => ({
  type: [legacy, 'object'],
  'x-expected': `a ${legacy === 'string' ? 'flow id' : 'list of flow ids'} or {operator, flow_ids}`,
  items: { type: 'string' },
  if: { type: 'object' },
  then: {
    required: ['flow_ids'],
    additionalProperties: false,
    properties: {
      operator: { enum: ['all', 'any'] },
      flow_ids: { type: 'array', items: { type: 'string' } },
    },
  },
});

const flowEnd: SchemaObject = {
  type: 'object',
  required: ['flow_id'],
  additionalProperties: false,
  properties: { flow_id: text, flow_step_id: text },
};

const slotAssertion: SchemaObject = {
  type: 'array',
  items: {
    type: 'object',
    'x-expected': 'a map {name, value}',
    required: ['name'],
    additionalProperties: false,
    properties: { name: text, value: {} },
  },
};

const botUttered: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    utter_name: text,
    text_matches: text,
    buttons: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { title: text, payload: text },
      },
    },
  },
};

const generative = (extra: Record<string, SchemaObject>): SchemaObject => ({
  type: 'object',
  required: ['threshold'],
  additionalProperties: false,
  properties: {
    threshold: { type: 'number', minimum: 0, maximum: 1 },
    utter_name: text,
    utter_source: text,
    ...extra,
  },
});

const assertion: SchemaObject = {
  type: 'object',
  'x-expected': 'a one-key map, e.g. `- flow_started: transfer_money`',
  minProperties: 1,
  maxProperties: 1,
  'x-message': 'an assertion is a one-key map, e.g. `- flow_started: transfer_money`',
  'x-hints': { maxProperties: 'put each assertion in its own "- " item' },
  additionalProperties: false,
  properties: {
    flow_started: flowIdsSelector('string'),
    flow_completed: flowEnd,
    flow_cancelled: flowEnd,
    pattern_clarification_contains: flowIdsSelector('array'),
    action_executed: text,
    slot_was_set: slotAssertion,
    slot_was_not_set: slotAssertion,
    bot_uttered: botUttered,
    bot_did_not_utter: botUttered,
    generative_response_is_relevant: generative({}),
    generative_response_is_grounded: generative({ ground_truth: text }),
  },
};

const stepKinds: Record<(typeof E2E_STEP_KINDS)[number], SchemaObject> = {
  user: {
    additionalProperties: false,
    properties: {
      user: text,
      metadata: name,
      assertion_order_enabled: { type: 'boolean' },
      assertions: { type: 'array', 'x-expected': 'a list of assertions', items: assertion },
    },
  },
  bot: { additionalProperties: false, properties: { bot: text } },
  utter: { additionalProperties: false, properties: { utter: text } },
  slot_was_set: { additionalProperties: false, properties: { slot_was_set: slotList } },
  slot_was_not_set: { additionalProperties: false, properties: { slot_was_not_set: slotList } },
};

const testCase: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with test_case and steps',
  required: ['test_case', 'steps'],
  additionalProperties: false,
  properties: {
    test_case: text,
    fixtures: { type: ['array', 'null'], items: name },
    metadata: name,
    steps: {
      type: 'array',
      'x-expected': 'a list of steps',
      minItems: 1,
      items: {
        type: 'object',
        oneOf: E2E_STEP_KINDS.map((kind) => ({ required: [kind] })),
        'x-message': `a test step needs exactly one of ${E2E_STEP_KINDS.join(', ')}`,
        allOf: E2E_STEP_KINDS.map((kind) => ({ if: { required: [kind] }, then: stepKinds[kind] })),
      },
    },
  },
};

export const e2eTestFileSchema: SchemaObject = {
  type: 'object',
  required: ['test_cases'],
  additionalProperties: false,
  properties: {
    test_cases: { type: 'array', 'x-expected': 'a list of test cases', items: testCase },
    fixtures: {
      type: ['array', 'null'],
      'x-expected': 'a list of named fixtures',
      items: {
        type: 'object',
        propertyNames: { pattern: NAME, 'x-message': 'a fixture name is letters, digits and _' },
        additionalProperties: {
          type: 'array',
          'x-expected': 'a list of `slot: value` maps',
          items: { type: 'object', 'x-expected': 'a `slot: value` map' },
        },
      },
    },
    metadata: {
      type: ['array', 'null'],
      'x-expected': 'a list of named metadata maps',
      items: { type: 'object', additionalProperties: { type: 'object' } },
    },
    stub_custom_actions: {
      type: ['object', 'null'],
      'x-expected': 'a map of action name to stubbed result',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          events: { type: 'array', items: { type: 'object' } },
          responses: { type: 'array', items: { type: 'object' } },
        },
      },
    },
  },
};
