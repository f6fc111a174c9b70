import type { SchemaObject } from 'ajv';

/*
 * JSON Schema (draft-07) of Rasa's `stories:` and `rules:` lists (the outer shape only: a name and a
 * list of steps). The steps themselves are read by normalise/stories.ts, which reports each step it
 * cannot read with STORIES_SCHEMA and its position. Other top-level keys pass, as in the other data files.
 */

const steps: SchemaObject = {
  type: 'array',
  'x-expected': 'a list of steps (intent, action, slot_was_set, active_loop, checkpoint, or)',
  items: { type: 'object', 'x-expected': 'a step, e.g. {intent: greet} or {action: utter_greet}' },
};

const story: SchemaObject = {
  type: 'object',
  required: ['story', 'steps'],
  properties: { story: { type: 'string' }, steps, metadata: {} },
};

const rule: SchemaObject = {
  type: 'object',
  required: ['rule', 'steps'],
  properties: {
    rule: { type: 'string' },
    steps,
    condition: steps,
    conversation_start: { type: 'boolean' },
    wait_for_user_input: { type: 'boolean' },
    metadata: {},
  },
};

export const storiesFileSchema: SchemaObject = {
  type: 'object',
  properties: {
    version: { type: ['string', 'number'] },
    stories: { type: ['array', 'null'], items: story },
    rules: { type: ['array', 'null'], items: rule },
  },
};
