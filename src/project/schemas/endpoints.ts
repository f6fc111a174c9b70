import type { SchemaObject } from 'ajv';
import { a2aServerSchema } from './a2a-server.js';

/*
 * JSON Schema (draft-07) of endpoints.yml. Rasa reads each section into an EndpointConfig and hands
 * unknown keys to the implementation as kwargs, so sections accept extra keys; we type the keys Parley
 * reads. A top-level key that names no section is an ENDPOINTS_IGNORED_KEY warning. An empty section (`tracker_store:`) means "absent", as in Rasa. Values may hold `${VAR}`
 * references that are expanded after this check, so numeric settings also accept strings.
 * See flows.ts for the meaning of the `x-` annotations.
 */

const text = { type: 'string' };
const flag = { type: 'boolean' };
const numberOrVar = { type: ['number', 'string'], 'x-expected': 'a number (or a ${VAR} reference)' };
const stringMap = { type: 'object', 'x-expected': 'a map of names to values' };

/** Keys of Rasa's generic EndpointConfig, shared by every section. */
const endpointKeys = {
  url: text,
  type: text,
  store_type: text,
  token: text,
  token_name: text,
  headers: stringMap,
  params: stringMap,
  cafile: text,
  basic_auth: {
    type: 'object',
    required: ['username', 'password'],
    properties: { username: text, password: text },
  },
  host: text,
  port: numberOrVar,
};

function section(extra: Record<string, SchemaObject> = {}): SchemaObject {
  return {
    type: ['object', 'null'],
    'x-expected': 'a map of settings (or empty)',
    // extra keys pass (Rasa hands them to the implementation); a near miss of a known one is a warning
    'x-near-miss': 'ENDPOINTS_KEY_MISSPELT',
    properties: { ...endpointKeys, ...extra },
  };
}

const llmReference: SchemaObject = {
  type: 'object',
  'x-expected': 'a map like `model_group: <id>`',
  properties: { model_group: text },
};

const modelGroup: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with an id and models',
  required: ['id', 'models'],
  properties: {
    id: text,
    models: {
      type: 'array',
      'x-expected': 'a list of models',
      minItems: 1,
      items: {
        type: 'object',
        'x-expected': 'a map with a provider, e.g. `- provider: openai`',
        required: ['provider'],
        properties: { provider: text, model: text, api_base: text, api_key: text, timeout: numberOrVar },
      },
    },
    router: { type: 'object' },
  },
};

const mcpServer: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with a name and a url',
  required: ['name'],
  properties: { name: text, url: text, type: text },
};

export const endpointsSchema: SchemaObject = {
  type: 'object',
  // Rasa reads the sections it knows and passes over any other key: a misspelt `tracker_stor:` would
  // silently leave the default store in place, so an unknown section is a warning with a did-you-mean
  additionalProperties: false,
  'x-codes': { additionalProperties: 'ENDPOINTS_IGNORED_KEY' },
  'x-ignored': 'it is ignored, as in Rasa, so the section it stands for keeps its default',
  properties: {
    action_endpoint: section({ actions_module: text, enable_selective_domain: flag }),
    nlg: section({ llm: llmReference, rephrase_all: flag }),
    nlu: section(),
    models: section({ wait_time_between_pulls: { type: ['number', 'string', 'null'] } }),
    tracker_store: section(),
    lock_store: section(),
    event_broker: section({
      // Rasa's pika keys (its sql keys are the tracker store's: dialect, db, username, password)
      queues: { type: ['array', 'string'], 'x-expected': 'a list of queue names', items: text },
      queue: text,
      exchange_name: text,
      raise_on_failure: { type: ['boolean', 'string'] },
      connection_attempts: numberOrVar,
      retry_delay_in_seconds: numberOrVar,
    }),
    vector_store: section(),
    metrics: section(),
    tracing: {
      type: ['object', 'array', 'null'],
      'x-expected': 'a map of tracing settings or a list of them',
      items: { type: 'object' },
    },
    model_groups: { type: ['array', 'null'], 'x-expected': 'a list of model groups', items: modelGroup },
    mcp_servers: { type: ['array', 'null'], 'x-expected': 'a list of MCP servers', items: mcpServer },
    interaction_handling: section({ global_silence_timeout: numberOrVar }),
    a2a_server: a2aServerSchema,
  },
};
