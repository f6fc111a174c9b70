import type { SchemaObject } from 'ajv';
import { a2aServerSchema } from './a2a-server.js';
import { described } from './describe.js';

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

const flagOrVar = { type: ['boolean', 'string'] };

/** Rasa's Kafka event broker keys (docs/event-brokers.md) */
const KAFKA_KEYS: Readonly<Record<string, SchemaObject>> = {
  url: described(
    { type: ['string', 'array'], items: text, 'x-expected': 'a host or URL, or (kafka) a list of host:port' },
    'the broker: a RabbitMQ host or amqp:// URL (pika), the Kafka bootstrap servers as host:port, comma-separated or a list (kafka), a database host (sql)',
  ),
  topic: described(text, 'kafka: the topic events are published to', 'rasa_core_events'),
  client_id: described(text, 'kafka: the client id the brokers see', 'parley'),
  partition_by_sender: described(flagOrVar, 'kafka: key each message by its sender id', false),
  security_protocol: described(
    text,
    'kafka: PLAINTEXT, SASL_PLAINTEXT, SSL or SASL_SSL (Rasa’s default needs sasl_username and sasl_password)',
    'SASL_PLAINTEXT',
  ),
  sasl_mechanism: described(text, 'kafka: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512', 'PLAIN'),
  sasl_username: described(text, 'kafka: SASL user'),
  sasl_password: described(text, 'kafka: SASL password'),
  ssl_cafile: described(text, 'kafka: the CA file the brokers’ certificates must chain to'),
  ssl_certfile: described(text, 'kafka: a client certificate (PEM), with ssl_keyfile'),
  ssl_keyfile: described(text, 'kafka: the client certificate’s key (PEM)'),
  ssl_check_hostname: described(
    flagOrVar,
    'kafka: check the certificate’s host name (SASL_SSL only, as Rasa)',
    false,
  ),
  convert_intent_id_to_string: described(flagOrVar, 'kafka: send a user event’s intent id as text', false),
};

/** Keys of Rasa's generic EndpointConfig, shared by every section. */
export const ENDPOINT_KEYS: Readonly<Record<string, SchemaObject>> = {
  url: described(text, 'the service URL (the action server webhook, a database host or URL, a Redis host…)'),
  type: described(
    text,
    'which implementation: e.g. `sql`, `in_memory` (tracker store), `redis`, `postgresql` (lock store), `pika`, `kafka`, `sql` (event broker)',
  ),
  store_type: described(text, "Rasa's older name of `type`"),
  token: described(text, 'a token sent as a query parameter (`token_name`) to an HTTP service'),
  token_name: described(text, 'the query parameter name of `token`', 'token'),
  headers: described(stringMap, 'HTTP headers sent with every request'),
  params: described(stringMap, 'query parameters sent with every request'),
  cafile: described(text, 'a CA bundle to verify an https service with'),
  basic_auth: described(
    {
      type: 'object',
      required: ['username', 'password'],
      properties: {
        username: described(text, 'the user name'),
        password: described(text, 'the password; use `${VAR}`'),
      },
    },
    'HTTP basic authentication: `username` and `password`',
  ),
  host: described(text, 'host of a service given by host and port'),
  port: described(numberOrVar, 'port of a service given by host and port'),
};

function section(extra: Record<string, SchemaObject> = {}): SchemaObject {
  return {
    type: ['object', 'null'],
    'x-expected': 'a map of settings (or empty)',
    // extra keys pass (Rasa hands them to the implementation); a near miss of a known one is a warning
    'x-near-miss': 'ENDPOINTS_KEY_MISSPELT',
    properties: { ...ENDPOINT_KEYS, ...extra },
  };
}

const llmReference: SchemaObject = {
  type: 'object',
  'x-expected': 'a map like `model_group: <id>`',
  properties: { model_group: described(text, 'the id of a group of `model_groups`') },
};

const modelGroup: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with an id and models',
  required: ['id', 'models'],
  properties: {
    id: described(text, 'the group id a component names as `llm: {model_group: <id>}`'),
    models: {
      type: 'array',
      'x-expected': 'a list of models',
      description: 'the models of the group',
      minItems: 1,
      items: {
        type: 'object',
        'x-expected': 'a map with a provider, e.g. `- provider: openai`',
        required: ['provider'],
        properties: {
          provider: described(text, 'the API: `openai` (any OpenAI-compatible server), `azure`, …'),
          model: described(text, 'the model name, e.g. `gpt-4o-mini`'),
          api_base: described(text, 'the base URL of the server, ending in /v1'),
          api_key: described(text, 'the API key; use `${VAR}`'),
          timeout: described(numberOrVar, 'seconds per request'),
        },
      },
    },
    router: described({ type: 'object' }, 'how requests are spread over the models of the group'),
  },
};

const mcpServer: SchemaObject = {
  type: 'object',
  'x-expected': 'a map with a name and a url',
  required: ['name'],
  properties: {
    name: described(text, 'the server name a call step refers to'),
    url: described(text, 'the server URL'),
    type: described(text, '`http` or `https` (MCP Streamable HTTP either way)'),
  },
};

export const endpointsSchema: SchemaObject = {
  type: 'object',
  // Rasa reads the sections it knows and passes over any other key: a misspelt `tracker_stor:` would
  // silently leave the default store in place, so an unknown section is a warning with a did-you-mean
  additionalProperties: false,
  'x-codes': { additionalProperties: 'ENDPOINTS_IGNORED_KEY' },
  'x-ignored': 'it is ignored, as in Rasa, so the section it stands for keeps its default',
  properties: {
    action_endpoint: described(
      section({
        actions_module: described(
          text,
          'Parley: a folder or module of in-process TypeScript/JavaScript actions, e.g. `actions` (docs/custom-actions.md)',
        ),
        enable_selective_domain: described(
          flag,
          'send the domain only to the actions that ask for it (`send_domain`)',
          false,
        ),
      }),
      'where custom actions run: `url` of a Rasa SDK action server, or `actions_module` in process',
    ),
    nlg: described(
      section({
        llm: described(llmReference, 'the model group of the response rephraser'),
        rephrase_all: described(flag, 'rephrase every response (rephraser; not run by Parley)', false),
      }),
      'an NLG server (`url`) that renders responses, or `type: rephrase`',
    ),
    nlu: described(section(), 'an external NLU server; read past by Parley'),
    models: described(
      section({
        wait_time_between_pulls: described(
          { type: ['number', 'string', 'null'] },
          'seconds between pulls; not run by Parley',
        ),
      }),
      'a model server to pull models from; not run by Parley (give `parley run -m` a file)',
    ),
    tracker_store: described(
      section(),
      'where conversations live: absent = the SQLite file .parley/tracker.db; `type: sql` (`dialect: sqlite` or `postgresql`, `url`, `port`, `db`, `username`, `password`) or `type: in_memory` (docs/stores.md)',
    ),
    lock_store: described(
      section(),
      'serialises the turns of a conversation: absent = in memory; `type: redis` or `type: postgresql` to share between processes (docs/stores.md)',
    ),
    event_broker: described(
      section({
        // Rasa's pika keys (its sql keys are the tracker store's: dialect, db, username, password)
        queues: described(
          { type: ['array', 'string'], 'x-expected': 'a list of queue names', items: text },
          'pika: the queues events are published to',
          ['rasa_core_events'],
        ),
        queue: described(text, 'pika: one queue (older key)'),
        exchange_name: described(text, 'pika: the fanout exchange', 'rasa-exchange'),
        raise_on_failure: described(
          { type: ['boolean', 'string'] },
          'pika: fail the start when RabbitMQ is unreachable',
          false,
        ),
        connection_attempts: described(numberOrVar, 'pika: connection attempts', 20),
        retry_delay_in_seconds: described(numberOrVar, 'pika: seconds between connection attempts', 5),
        ...KAFKA_KEYS,
      }),
      'streams each stored turn’s events: `type: pika` (RabbitMQ), `type: kafka` (tested on a mock Kafka cluster only: a warning) or `type: sql` (docs/event-brokers.md)',
    ),
    vector_store: described(
      section(),
      'the knowledge search index of EnterpriseSearchPolicy; replaced by a local BM25 index (docs/knowledge.md)',
    ),
    metrics: described(
      section(),
      "Rasa's metrics exporter; Parley serves Prometheus metrics at /metrics instead",
    ),
    tracing: described(
      {
        type: ['object', 'array', 'null'],
        'x-expected': 'a map of tracing settings or a list of them',
        items: { type: 'object' },
      },
      'tracing exporters (Jaeger, OTLP); not run by Parley',
    ),
    model_groups: described(
      { type: ['array', 'null'], 'x-expected': 'a list of model groups', items: modelGroup },
      'the LLMs an LLM command generator or the rephraser refers to by group id (docs/llm.md)',
    ),
    mcp_servers: described(
      { type: ['array', 'null'], 'x-expected': 'a list of MCP servers', items: mcpServer },
      'MCP servers whose tools flows call (`call` with `mcp_server`); also `api_key`, `header_name`, `header_format`, `token`, `timeout` (docs/orchestration.md)',
    ),
    interaction_handling: described(
      section({
        global_silence_timeout: described(
          numberOrVar,
          'seconds of user silence before pattern_user_silence (voice)',
        ),
      }),
      'voice interaction settings (Parley ships no voice channel)',
    ),
    a2a_server: described(
      a2aServerSchema,
      'the A2A server: present (and not `enabled: false`) = A2A served on the same port (docs/a2a.md)',
    ),
  },
};
