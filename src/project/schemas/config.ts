import type { SchemaObject } from 'ajv';
import { described } from './describe.js';

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
  properties: {
    name: described(
      { type: 'string' },
      'the component: a Rasa class name (see docs/compatibility.md) or a custom module path',
    ),
  },
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
    version: described({ type: 'string' }, 'the Rasa training data format version; read past'),
    // read by Rasa's TrainingDataImporter and by Parley's own settings
    importers: described({ type: ['array', 'null'] }, "Rasa's training data importers; read past"),
    parley: described({ type: ['object', 'null'] }, "Parley's own settings (see docs/decisions.md)"),
    recipe: described({ type: 'string' }, 'the Rasa recipe; only `default.v1` exists', 'default.v1'),
    language: described(
      { type: 'string' },
      'the language of the assistant (tokenisation, response translations)',
      'en',
    ),
    additional_languages: described(
      { type: ['array', 'null'], items: { type: 'string' } },
      'more languages the responses and flow names are translated into',
    ),
    assistant_id: described(
      { type: ['string', 'number'] },
      'a unique name of the assistant: stored with its model, the default AgentCard name',
    ),
    pipeline: described(
      componentList('CompactLLMCommandGenerator'),
      'the understanding components, in order: NLU (tokenizers, featurizers, classifiers, extractors) and/or an LLM command generator; empty: Parley’s offline NLU',
    ),
    policies: described(componentList('FlowPolicy'), 'the dialogue policies; `FlowPolicy` runs the flows'),
  },
};
