import type { SchemaObject } from 'ajv';

/*
 * JSON Schema (draft-07) of an NLU training data file (`nlu:` list), after Rasa's
 * `rasa/shared/nlu/training_data/schemas/nlu.yml`. Each item is an intent, a synonym, a regex or a
 * lookup table; item keys are strict, as in Rasa. Other top-level keys pass (Rasa lets one file hold
 * nlu, responses, stories and flows together; each part is checked by its own schema).
 * Intent examples are a `|` block of `- example` lines or a list of {text, metadata}; synonym, regex
 * and lookup examples are always a block. See flows.ts for the meaning of the `x-` annotations.
 */

export const NLU_ITEM_KINDS = ['intent', 'synonym', 'regex', 'lookup'] as const;

const text = { type: 'string' };

const exampleBlock: SchemaObject = {
  type: 'string',
  'x-expected': "a block of examples ('|' then one '- example' per line)",
  'x-hint': 'write `examples: |` and put each example on its own line starting with "- "',
};

const intentExamples: SchemaObject = {
  type: ['string', 'array'],
  'x-expected': "a block of examples ('|' then one '- example' per line) or a list of {text}",
  if: { type: 'array' },
  then: {
    items: {
      type: 'object',
      'x-expected': 'a map {text: <example>}',
      'x-hint': 'write `examples: |` and put each example on its own line starting with "- "',
      required: ['text'],
      additionalProperties: false,
      properties: { text, metadata: {} },
    },
  },
};

const itemKinds: Record<(typeof NLU_ITEM_KINDS)[number], SchemaObject> = {
  intent: {
    additionalProperties: false,
    properties: { intent: text, examples: intentExamples, metadata: {} },
  },
  synonym: { additionalProperties: false, properties: { synonym: text, examples: exampleBlock } },
  regex: { additionalProperties: false, properties: { regex: text, examples: exampleBlock } },
  lookup: { additionalProperties: false, properties: { lookup: text, examples: exampleBlock } },
};

export const nluFileSchema: SchemaObject = {
  type: 'object',
  required: ['nlu'],
  properties: {
    version: { type: 'string', 'x-hint': 'quote the version, e.g. version: "3.1"' },
    nlu: {
      type: 'array',
      'x-expected': 'a list of intents, synonyms, regexes and lookup tables',
      items: {
        type: 'object',
        oneOf: NLU_ITEM_KINDS.map((kind) => ({ required: [kind] })),
        'x-message': `an nlu item needs exactly one of ${NLU_ITEM_KINDS.join(', ')}`,
        allOf: NLU_ITEM_KINDS.map((kind) => ({ if: { required: [kind] }, then: itemKinds[kind] })),
      },
    },
  },
};
