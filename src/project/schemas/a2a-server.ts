import type { SchemaObject } from 'ajv';
import {
  A2A_AUTH_KEYS,
  A2A_DEFAULTS,
  A2A_TASK_STORE_CHOICES,
  BYTE_LIMIT_PATTERN,
  HOST_PATTERN,
  JWKS_ALGORITHMS,
  JWKS_URL_PATTERN,
  MAX_LEEWAY_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_BYTE_LIMIT,
  MIN_SECRET_LENGTH,
  PUBLIC_URL_PATTERN,
  SECRET_ALGORITHMS,
  WHOLE_NUMBER_PATTERN,
} from '../../core/a2a-server-rules.js';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import { described } from './describe.js';

/*
 * JSON Schema of endpoints.yml's `a2a_server` block (Rasa 3.17's keys plus Parley's `enabled`, `name`
 * and `version`). Every problem carries an A2A_* code (`x-codes`, see flows.ts), so `parley data
 * validate` lists them all at load time. src/a2a/config.ts reads the same block when the server
 * starts and applies the same rules (test/a2a/config.test.ts checks that both agree).
 * Values may come from `${VAR}` references, expanded before this check, so numbers and booleans
 * also accept their text.
 */

/** ajv keywords whose problems a coded schema reports under its code */
const KEYWORDS = [
  'type',
  'minimum',
  'maximum',
  'pattern',
  'minLength',
  'minItems',
  'enum',
  'not',
  'required',
  'additionalProperties',
];

function coded(code: DiagnosticCode, schema: SchemaObject): SchemaObject {
  return { ...schema, 'x-codes': Object.fromEntries(KEYWORDS.map((keyword) => [keyword, code])) };
}

function wholeNumber(code: DiagnosticCode, hint: string, maximum?: number): SchemaObject {
  const range = maximum === undefined ? '(0 or more)' : `from 0 to ${maximum}`;
  return coded(code, {
    type: ['integer', 'string'],
    minimum: 0,
    ...(maximum === undefined ? {} : { maximum }),
    pattern: WHOLE_NUMBER_PATTERN,
    'x-expected': `a whole number ${range}`,
    'x-message': `must be a whole number ${range}`,
    'x-hint': hint,
  });
}

function byteLimit(hint: string): SchemaObject {
  return coded('A2A_CONFIG_INVALID', {
    type: ['integer', 'string'],
    minimum: MIN_BYTE_LIMIT,
    pattern: BYTE_LIMIT_PATTERN,
    'x-expected': `a number of bytes, at least ${MIN_BYTE_LIMIT}`,
    'x-message': `must be a whole number of bytes, at least ${MIN_BYTE_LIMIT}`,
    'x-hint': hint,
  });
}

const flag = coded('A2A_CONFIG_INVALID', {
  type: ['boolean', 'string'],
  pattern: '^(true|false)$',
  'x-expected': 'true or false',
  'x-message': 'must be true or false',
  'x-hint': 'write true or false',
});

const text = (code: DiagnosticCode, hint = 'write some text, or remove the key'): SchemaObject =>
  coded(code, { type: 'string', pattern: '\\S', 'x-message': 'must not be empty', 'x-hint': hint });

const SECONDS_HINT = 'seconds; 0 switches it off';

const AUTH = 'A2A_AUTH_INVALID';

/** `then` of a condition that always fails, so the message says what is wrong with the whole block */
function refuse(message: string, hint: string): SchemaObject {
  return coded(AUTH, { not: {}, 'x-message': message, 'x-hint': hint });
}

function algorithmsFor(keySource: string, allowed: readonly string[], hint: string): SchemaObject {
  return {
    if: { required: [keySource] },
    then: {
      properties: { algorithms: { items: coded(AUTH, { enum: [...allowed], 'x-hint': hint }) } },
    },
  };
}

const auth: SchemaObject = coded(AUTH, {
  type: 'object',
  'x-expected': 'a map with jwks_url or secret',
  additionalProperties: false,
  'x-hints': { additionalProperties: `auth keys: ${A2A_AUTH_KEYS.join(', ')}` },
  properties: {
    jwks_url: described(
      coded(AUTH, {
        type: 'string',
        pattern: JWKS_URL_PATTERN,
        'x-message': 'must be an https URL (http only for localhost)',
        'x-hint': "the URL of your identity provider's JSON Web Key Set",
      }),
      'the JSON Web Key Set of your identity provider (RS*, PS*, ES*, EdDSA tokens); https, or http to localhost',
    ),
    secret: described(
      coded(AUTH, {
        type: 'string',
        minLength: MIN_SECRET_LENGTH,
        'x-message': `must be at least ${MIN_SECRET_LENGTH} characters long`,
        'x-hint': 'use a long random secret from an environment variable: secret: ${A2A_JWT_SECRET}',
      }),
      'a shared HS256/384/512 secret, at least 32 characters; use `${VAR}`. Exactly one of jwks_url and secret',
    ),
    issuer: described(
      text(AUTH, 'the `iss` your identity provider puts in its tokens'),
      'the `iss` tokens must carry; required with jwks_url',
    ),
    audience: described(
      coded(AUTH, {
        type: ['string', 'array'],
        'x-expected': 'a string or a list of strings',
        pattern: '\\S',
        minItems: 1,
        items: text(AUTH),
        'x-message': 'must not be empty',
        'x-hint': 'the `aud` callers request tokens for, e.g. the agent’s public URL',
      }),
      'the `aud` (or list) a token must carry one of; required with jwks_url',
    ),
    algorithms: described(
      coded(AUTH, {
        type: 'array',
        'x-expected': 'a list of JWS algorithms, e.g. [RS256]',
        minItems: 1,
        items: coded(AUTH, { type: 'string' }),
        'x-message': 'must list at least one algorithm',
        'x-hint': 'e.g. algorithms: [RS256]',
      }),
      'accepted algorithms: default `[RS256]` with a JWKS, `[HS256]` with a secret; never `none`',
    ),
    leeway: described(
      wholeNumber(AUTH, 'seconds of clock skew allowed on exp and nbf', MAX_LEEWAY_SECONDS),
      'seconds of clock skew allowed on `exp` and `nbf`',
      A2A_DEFAULTS.leewaySeconds,
    ),
  },
  allOf: [
    {
      if: { required: ['jwks_url', 'secret'] },
      then: refuse('sets both jwks_url and secret', 'keep one key source: jwks_url or secret'),
    },
    {
      if: { not: { anyOf: [{ required: ['jwks_url'] }, { required: ['secret'] }] } },
      then: refuse(
        'has no key to verify tokens with',
        'add jwks_url (your identity provider’s keys) or secret (a shared HS256 secret)',
      ),
    },
    {
      if: { required: ['jwks_url'] },
      then: coded(AUTH, {
        required: ['issuer', 'audience'],
        'x-hints': { required: 'with a JWKS, tokens must be checked for their issuer and audience' },
      }),
    },
    algorithmsFor('secret', SECRET_ALGORITHMS, 'a shared secret signs with HS256, HS384 or HS512'),
    algorithmsFor('jwks_url', JWKS_ALGORITHMS, 'JWKS keys are asymmetric: RS*, PS*, ES* or EdDSA'),
  ],
});

export const a2aServerSchema: SchemaObject = {
  type: 'object',
  'x-expected': 'a map of A2A server settings with a description',
  required: ['description'],
  // unknown keys are warnings (A2A_UNKNOWN_KEY), as Rasa ignores them; they still get a did-you-mean
  additionalProperties: false,
  'x-codes': {
    type: 'A2A_CONFIG_INVALID',
    required: 'A2A_DESCRIPTION_MISSING',
    additionalProperties: 'A2A_UNKNOWN_KEY',
  },
  properties: {
    enabled: described(flag, 'Parley: `false` keeps the block but switches A2A off', true),
    name: described(
      text('A2A_CONFIG_INVALID', 'the AgentCard name; quote it: name: "My Agent"'),
      'Parley: the AgentCard name; default: config.yml’s assistant_id, else `Parley Assistant`',
    ),
    version: described(
      text('A2A_CONFIG_INVALID', 'the AgentCard version; quote it: version: "1.0.0"'),
      'Parley: the AgentCard version (quote it); default: Parley’s version',
    ),
    description: described(
      text('A2A_DESCRIPTION_MISSING', 'describe what the assistant does for a calling agent'),
      'required: the AgentCard description, what the assistant does for a calling agent',
    ),
    url: described(
      coded('A2A_URL_INVALID', {
        type: 'string',
        pattern: PUBLIC_URL_PATTERN,
        'x-message': 'must be an absolute http(s) URL without query, fragment or credentials',
        'x-hint': 'the public base URL callers use, e.g. https://bot.example.com/agents/bank',
      }),
      'the public base URL of the JSON-RPC endpoint, named in the card (behind a proxy); default: inferred from --interface, the bound port and --ssl-certificate',
    ),
    agent_card_path: described(
      text('A2A_CONFIG_INVALID', 'the path of a JSON AgentCard, relative to the project'),
      'a hand-written AgentCard (JSON, relative to the project) served instead of the generated one',
    ),
    include_conversation_repair: described(
      flag,
      '`true`: repair patterns are skills and a finished flow leaves the task input-required; `false`: a finished flow completes the task',
      A2A_DEFAULTS.includeConversationRepair,
    ),
    task_timeout_seconds: described(
      wholeNumber('A2A_CONFIG_INVALID', SECONDS_HINT, MAX_TIMEOUT_SECONDS),
      'a task not finished in time fails (`task_timeout`); 0 switches it off',
      A2A_DEFAULTS.taskTimeoutSeconds,
    ),
    a2a_message_cache_ttl_seconds: described(
      wholeNumber('A2A_CONFIG_INVALID', SECONDS_HINT, MAX_TIMEOUT_SECONDS),
      'how long a messageId is remembered so that a retry gets the first answer; default: task_timeout_seconds',
    ),
    max_contexts: described(
      wholeNumber('A2A_CONFIG_INVALID', 'how many A2A contexts at most; 0 switches the cap off'),
      'the most A2A contexts held, shared fairly between callers; 0 switches the cap off',
      A2A_DEFAULTS.maxContexts,
    ),
    push_notifications_enabled: described(
      flag,
      'serve the push notification methods',
      A2A_DEFAULTS.pushNotificationsEnabled,
    ),
    push_notification_allowed_hosts: described(
      coded('A2A_PUSH_HOST_INVALID', {
        type: 'array',
        'x-expected': 'a list of host names',
        items: coded('A2A_PUSH_HOST_INVALID', {
          type: 'string',
          pattern: HOST_PATTERN,
          'x-message': 'must be a host name such as hooks.example.com or *.example.com',
          'x-hint': 'no scheme, port or path: `*.example.com` allows the subdomains of example.com',
        }),
      }),
      'push callback hosts allowed (`*.example.com`: its subdomains); absent: any host at a public address',
    ),
    auth: described(auth, 'JWT bearer authentication of calling agents; absent: none'),
    context_id_as_sender_id: described(
      flag,
      'Parley: `true` uses the contextId as the conversation id as it is (Rasa’s mapping) instead of `a2a:<caller>:<contextId>`',
      A2A_DEFAULTS.contextIdAsSenderId,
    ),
    max_message_bytes: described(
      byteLimit('the largest message a caller may send, in bytes of JSON'),
      'Parley: the largest message (parts and metadata as JSON)',
      A2A_DEFAULTS.maxMessageBytes,
    ),
    max_task_history_bytes: described(
      byteLimit("how much of a task's history is kept; older messages are dropped"),
      'Parley: a task’s history; beyond it the oldest messages are dropped',
      A2A_DEFAULTS.maxTaskHistoryBytes,
    ),
    max_context_bytes: described(
      byteLimit("a context's tasks in memory; its oldest finished tasks are forgotten"),
      'Parley: the tasks of one context; beyond it its oldest finished tasks are forgotten',
      A2A_DEFAULTS.maxContextBytes,
    ),
    max_task_memory_bytes: described(
      byteLimit('all A2A tasks in memory; the oldest finished tasks are forgotten'),
      'Parley: all A2A tasks in memory (memory task store)',
      A2A_DEFAULTS.maxTaskMemoryBytes,
    ),
    task_store: described(
      coded('A2A_CONFIG_INVALID', {
        type: 'string',
        enum: [...A2A_TASK_STORE_CHOICES],
        'x-expected': 'tracker_store or in_memory',
        'x-hint':
          'tracker_store keeps A2A tasks with the conversations (shared by every process of a SQL store)',
      }),
      'Parley: where A2A tasks live: with the conversations (a SQL tracker store’s database) or in this process',
      'tracker_store',
    ),
  },
};
