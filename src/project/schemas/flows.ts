import type { SchemaObject } from 'ajv';
import { described } from './describe.js';

/*
 * JSON Schema (draft-07) of a flows file: any YAML file with a top-level `flows:` key.
 *
 * Modelled on Rasa Pro's `flows_yaml_schema.json` and the step readers in `rasa/shared/core/flows`:
 * strict where Rasa is strict (unknown flow and step keys are errors, a step has exactly one kind,
 * `noop` is `true` and needs a `next`). Differences, on purpose:
 * - `description` is not required here: the loader reports a missing one as its own diagnostic.
 * - `id`, `description` and `metadata` are accepted on every step kind (FlowStep reads them for all).
 * - a `link` step may not carry `next`: Rasa rejects it at load time; the loader reports it as LINK_NOT_LAST.
 * - flow ids follow Rasa's load-time regex (`-` allowed), not the stricter key regex of the old schema.
 *
 * Keys starting with `x-` are Parley annotations read by problems.ts (ajv ignores them):
 * `x-expected` names the expected value in type errors, `x-message` replaces ajv's message for a
 * failed oneOf/anyOf/not/pattern/min-max keyword of that schema, and `x-hint` is the hint for problems
 *  * raised by that schema (`x-hints` gives one per ajv keyword). `x-codes` names, per ajv keyword, the
 * catalogue code a problem is reported under instead of FLOWS_SCHEMA (a bad flow id is FLOW_INVALID_ID,
 * an empty step list FLOW_EMPTY or STEP_EMPTY_SEQUENCE); the schema is then the only place reporting it.
 * Unions are written as `type: [...]` plus `if/then`, and oneOf/anyOf branches never use `$ref`, so
 * that problems.ts can fold each union into one problem.
 */

export const STEP_KINDS = ['action', 'collect', 'set_slots', 'link', 'call', 'noop'] as const;

const text = { type: 'string' };
const flag = { type: 'boolean' };

// Rasa's schema leaves branch items, nlu_trigger items and rejections open: their other keys are
// ignored there, so they are warnings here (FLOWS_IGNORED_KEY), not errors
const IGNORED = { additionalProperties: 'FLOWS_IGNORED_KEY' } as const;

/**
 * A key Rasa's schema allows but no step reader uses: any value is reported as FLOWS_IGNORED_KEY (a
 * warning), with what to do instead.
 */
function readPast(key: string, instead: string): SchemaObject {
  return {
    not: {},
    'x-message': `'${key}' has no effect here; it is ignored, as in Rasa`,
    'x-hint': instead,
    'x-codes': { not: 'FLOWS_IGNORED_KEY' },
  };
}

/** A pypred condition. YAML `if: False` is a boolean, which Rasa stores as the string "False". */
export const predicateSchema: SchemaObject = {
  type: ['string', 'boolean'],
  'x-expected': 'a condition (a string, or true/false)',
};

/** `{if: <condition>, utter: <response>}`, used by collect steps and by slot validation in the domain. */
export const rejectionsSchema: SchemaObject = {
  type: 'array',
  'x-expected': 'a list of {if, utter} rejections',
  items: {
    type: 'object',
    'x-expected': 'a map {if: <condition>, utter: <response name>}',
    required: ['if', 'utter'],
    additionalProperties: false,
    'x-codes': IGNORED,
    properties: {
      if: described(predicateSchema, 'a condition on the new value, e.g. `slots.amount > 1000`'),
      utter: described(text, 'the response sent when the value is refused'),
    },
  },
};

const stepIdOrSteps: SchemaObject = {
  type: ['string', 'array'],
  'x-expected': 'a step id or a list of steps',
  if: { type: 'array' },
  then: { $ref: '#/definitions/branchSteps' },
};

const nextSchema: SchemaObject = {
  type: ['string', 'array'],
  'x-expected': 'a step id (or END) or a list of {if, then} / {else} branches',
  if: { type: 'array' },
  then: { minItems: 1, items: { $ref: '#/definitions/branch' } },
};

const common = {
  id: described(
    text,
    'the step id (for `next`); default: `<flow>_<index>_<kind>_<name>`, as Rasa numbers them',
  ),
  description: described(text, 'what the step is for (read by the LLM for collect steps)'),
  metadata: described({}, 'anything; kept with the step'),
};
const withNext = {
  ...common,
  next: described(
    nextSchema,
    'what comes after: a step id, `END`, or branches `- if: <condition>` / `then:` and `- else:`; default: the next step of the list',
  ),
};

const silenceTimeout: SchemaObject = {
  type: ['number', 'object'],
  'x-expected': 'a number of seconds or a map of channel name to seconds',
  minimum: 0,
  if: { type: 'object' },
  then: { additionalProperties: { type: 'number', minimum: 0, description: 'seconds on that channel' } },
};

const dtmf: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    length: described({ type: 'integer', minimum: 1 }, 'the number of keys to read'),
    finish_on_key: described(text, 'the key that ends the input'),
    allow_audio_input: described(flag, 'accept speech as well'),
  },
  not: { required: ['length', 'finish_on_key'] },
  'x-message': "dtmf takes either 'length' or 'finish_on_key', not both",
};

const mcpMapping: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    input: {
      description: 'tool parameters from slots',
      type: 'array',
      items: {
        type: 'object',
        required: ['param', 'slot'],
        properties: { param: described(text, 'the tool parameter'), slot: described(text, 'the slot') },
      },
    },
    output: {
      description: 'slots from the tool result',
      type: 'array',
      items: {
        type: 'object',
        required: ['slot', 'value'],
        properties: {
          slot: described(text, 'the slot'),
          value: described(text, 'an expression over `result`, the tool’s answer'),
        },
      },
    },
  },
};

/** The keys each step kind allows; `then` schemas of the step's `allOf`. */
const stepKinds: Record<(typeof STEP_KINDS)[number], SchemaObject> = {
  action: {
    additionalProperties: false,
    properties: {
      action: described(text, 'action step: run this action (custom, built-in, or a response `utter_…`)'),
      ...withNext,
    },
  },
  collect: {
    additionalProperties: false,
    properties: {
      collect: described(text, 'collect step: the slot to fill; the flow waits here until it has a value'),
      utter: described(text, 'collect step: the response that asks for it', 'utter_ask_<slot>'),
      ask_before_filling: described(flag, 'collect step: ask even when the slot already has a value', false),
      reset_after_flow_ends: described(flag, 'collect step: empty the slot when the flow ends', true),
      rejections: described(
        rejectionsSchema,
        'collect step: values refused, each with the response that says why',
      ),
      force_slot_filling: described(
        flag,
        'collect step: the next message only fills this slot (no other command)',
        false,
      ),
      silence_timeout: described(
        silenceTimeout,
        'collect step, voice: seconds of silence before pattern_user_silence',
      ),
      dtmf: described(dtmf, 'collect step, voice: keypad input'),
      ...withNext,
    },
  },
  set_slots: {
    additionalProperties: false,
    properties: {
      reset_after_flow_ends: readPast(
        'reset_after_flow_ends',
        'set_slots slots are reset when the flow ends unless listed in the flow’s persisted_slots',
      ),
      set_slots: {
        description: 'set_slots step: slots to set, e.g. `- amount: null`',
        type: 'array',
        'x-expected': 'a list of one-key maps, e.g. `- amount: null`',
        minItems: 1,
        items: { type: 'object', minProperties: 1, 'x-expected': 'a map of slot name to value' },
      },
      ...withNext,
    },
  },
  link: {
    additionalProperties: false,
    // `next` is accepted here so the loader can report it with its own code (LINK_NOT_LAST).
    properties: {
      link: described(text, 'link step: end this flow and start that one (the last step of its branch)'),
      ...withNext,
    },
  },
  call: {
    additionalProperties: false,
    properties: {
      call: described(
        text,
        'call step: the flow to run as part of this one (then continue here), a sub-agent of sub_agents/, or with mcp_server the MCP tool to call',
      ),
      exit_if: described(
        { type: 'array', minItems: 1, items: text },
        'conditions that make Rasa run its ReAct task agent for the call; refused: Parley calls A2A sub-agents until their task ends (docs/orchestration.md)',
      ),
      mcp_server: described(
        text,
        'call step of an MCP tool: the server (of `mcp_servers` in endpoints.yml) whose tool `call` names (docs/orchestration.md)',
      ),
      mapping: described(
        mcpMapping,
        'call step of an MCP tool: slots as the tool’s arguments, and the result into slots',
      ),
      ...withNext,
    },
  },
  noop: {
    additionalProperties: false,
    required: ['next'],
    properties: {
      noop: described({ const: true }, 'noop step: does nothing but branch with `next`'),
      ...withNext,
    },
    'x-hint': "a noop step only branches: give it 'next' (a step id or a list of branches)",
  },
};

const step: SchemaObject = {
  type: 'object',
  oneOf: STEP_KINDS.map((kind) => ({ required: [kind] })),
  'x-message': `a step needs exactly one of ${STEP_KINDS.join(', ')}`,
  allOf: STEP_KINDS.map((kind) => ({ if: { required: [kind] }, then: stepKinds[kind] })),
};

const branch: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  'x-codes': IGNORED,
  properties: {
    if: described(predicateSchema, 'a condition (`slots.amount > 100 and slots.verified`)'),
    then: described(stepIdOrSteps, 'where to go when it holds: a step id, `END`, or a list of steps'),
    else: described(stepIdOrSteps, 'the last branch: where to go otherwise'),
  },
  oneOf: [{ required: ['if', 'then'] }, { required: ['else'] }],
  'x-message': 'a branch is either {if: <condition>, then: <step id or steps>} or {else: <step id or steps>}',
  'x-hint': "write '- if: slots.x', 'then: ...' for a condition, and end the list with '- else: ...'",
};

const nluTrigger: SchemaObject = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['intent'],
    additionalProperties: false,
    'x-codes': IGNORED,
    properties: {
      intent: {
        type: ['string', 'object'],
        'x-expected': 'an intent name or {name, confidence_threshold}',
        description: 'an intent name, or `{name, confidence_threshold}`',
        if: { type: 'object' },
        then: {
          required: ['name'],
          additionalProperties: false,
          'x-codes': IGNORED,
          properties: {
            name: described(text, 'the intent'),
            confidence_threshold: described(
              { type: 'number', minimum: 0, maximum: 1 },
              'the least confidence at which the intent starts the flow',
              0,
            ),
          },
        },
      },
    },
  },
};

const flow: SchemaObject = {
  type: 'object',
  required: ['steps'],
  'x-codes': { required: 'FLOW_EMPTY' },
  additionalProperties: false,
  properties: {
    name: described(text, 'a human name (AgentCard skill name); default: the flow id'),
    description: described(
      text,
      'what the flow does: read by the LLM to start it, and the AgentCard skill description',
    ),
    if: described(
      predicateSchema,
      'a guard: the flow may start only when it holds; `False` = only through `call` or `link`',
    ),
    always_include_in_prompt: described(
      flag,
      'LLM: list the flow in every prompt, whatever flow retrieval finds',
      false,
    ),
    nlu_trigger: described(nluTrigger, 'intents that start the flow when NLU predicts them'),
    persisted_slots: described(
      { type: 'array', items: text },
      'slots of set_slots/collect steps kept when the flow ends',
    ),
    run_pattern_completed: described(
      flag,
      'run pattern_completed ("anything else?") when the flow ends',
      true,
    ),
    steps: { $ref: '#/definitions/steps', description: 'the steps, run in order (see below)' },
    translation: {
      description: 'the flow name in other languages',
      type: 'object',
      'x-expected': 'a map of language code to {name}',
      additionalProperties: {
        type: 'object',
        description: 'a language code, e.g. `de`',
        properties: { name: described(text, 'the flow name in that language') },
      },
    },
    metadata: described({}, 'anything; kept with the flow'),
    file_path: described(text, 'set by Rasa’s exporter; read past'),
  },
};

/** The steps of a flow, or of a `then`/`else` branch; each has its own code for an empty list. */
function stepList(codeWhenEmpty: 'FLOW_EMPTY' | 'STEP_EMPTY_SEQUENCE'): SchemaObject {
  return {
    type: 'array',
    'x-expected': 'a list of steps',
    minItems: 1,
    items: { $ref: '#/definitions/step' },
    'x-message':
      codeWhenEmpty === 'FLOW_EMPTY' ? 'a flow needs at least one step' : 'a branch needs at least one step',
    'x-hint': 'a step sequence needs at least one step',
    'x-codes': { minItems: codeWhenEmpty },
  };
}

export const flowsFileSchema: SchemaObject = {
  type: 'object',
  required: ['flows'],
  properties: {
    version: described(
      { type: 'string', 'x-hint': 'quote the version, e.g. version: "3.1"' },
      'the Rasa format version, e.g. "3.1"',
    ),
    flows: {
      description:
        'the flows, by id (letters, digits, `_`, `-`); an id starting `pattern_` replaces that default pattern',
      type: 'object',
      'x-expected': 'a map of flow id to flow',
      propertyNames: {
        pattern: '^[a-zA-Z0-9_][a-zA-Z0-9_-]*$',
        'x-message': "a flow id may contain only letters, digits, '_' and '-', and may not start with '-'",
        'x-hint': "rename the flow, e.g. 'transfer_money' instead of 'transfer money'",
        'x-codes': { pattern: 'FLOW_INVALID_ID' },
      },
      additionalProperties: { $ref: '#/definitions/flow', description: 'a flow, by id' },
    },
  },
  definitions: {
    flow,
    steps: stepList('FLOW_EMPTY'),
    branchSteps: stepList('STEP_EMPTY_SEQUENCE'),
    step,
    branch,
  },
};
