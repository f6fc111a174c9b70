import type { SchemaObject } from 'ajv';

/*
 * JSON Schema (draft-07) of config.yml. Rasa only requires a map here (its own schema is
 * `type: map`) and checks components when it builds the graph; we check the shape the loader relies
 * on: `pipeline` and `policies` are lists of components, each a map with a `name`. Component settings
 * pass. An unknown top-level key, which Rasa reads past, is a CONFIG_IGNORED_KEY warning. An empty
 * `pipeline:` or `policies:` is allowed (Rasa fills in defaults). See flows.ts for the meaning of the
 * `x-` annotations.
 */

const component: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with a name, e.g. `- name: FlowPolicy`',
  required: ['name'],
  properties: { name: { type: 'string' } },
};

const componentList = (example: string): SchemaObject => ({
  type: ['array', 'null'],
  'x-expected': 'a list of components',
  'x-hint': `start each component with "- name:", e.g. \`- name: ${example}\``,
  items: component,
});

export const configSchema: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  'x-codes': { additionalProperties: 'CONFIG_IGNORED_KEY' },
  properties: {
    version: { type: 'string' },
    // read by Rasa's TrainingDataImporter and by Parley's own settings
    importers: { type: ['array', 'null'] },
    parley: { type: ['object', 'null'] },
    recipe: { type: 'string' },
    language: { type: 'string' },
    additional_languages: { type: ['array', 'null'], items: { type: 'string' } },
    assistant_id: { type: ['string', 'number'] },
    pipeline: componentList('CompactLLMCommandGenerator'),
    policies: componentList('FlowPolicy'),
  },
};
