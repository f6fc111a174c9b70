/**
 * The rules of endpoints.yml's `a2a_server` block, in one place: the load-time schema
 * (src/project/schemas/a2a-server.ts) and the start-time reader (src/a2a/config.ts) both use them.
 */

export const A2A_SERVER_KEYS = [
  'enabled',
  'name',
  'version',
  'description',
  'url',
  'agent_card_path',
  'include_conversation_repair',
  'task_timeout_seconds',
  'a2a_message_cache_ttl_seconds',
  'max_contexts',
  'push_notifications_enabled',
  'push_notification_allowed_hosts',
  'auth',
  'context_id_as_sender_id',
  'max_message_bytes',
  'max_task_history_bytes',
  'max_context_bytes',
  'max_task_memory_bytes',
  'task_store',
] as const;

/**
 * Where the A2A state lives: `tracker_store` (the default) keeps it with the conversations (in the SQL
 * database of a SQL tracker store, in memory with an in-memory one); `in_memory` keeps it in the process.
 */
export const A2A_TASK_STORE_CHOICES = ['tracker_store', 'in_memory'] as const;
export type A2aTaskStoreChoice = (typeof A2A_TASK_STORE_CHOICES)[number];

export const A2A_AUTH_KEYS = ['jwks_url', 'secret', 'issuer', 'audience', 'algorithms', 'leeway'] as const;

export const A2A_DEFAULTS = {
  includeConversationRepair: true,
  taskTimeoutSeconds: 600,
  maxContexts: 1000,
  pushNotificationsEnabled: false,
  leewaySeconds: 30,
  contextIdAsSenderId: false,
  maxMessageBytes: 64 * 1024,
  maxTaskHistoryBytes: 256 * 1024,
  maxContextBytes: 1024 * 1024,
  maxTaskMemoryBytes: 64 * 1024 * 1024,
} as const;

/** the byte limits may be raised or lowered, never switched off; below this they refuse every message */
export const MIN_BYTE_LIMIT = 1000;
/** a whole number of at least MIN_BYTE_LIMIT, as text (a `${VAR}` value) */
export const BYTE_LIMIT_PATTERN = '^\\s*[1-9]\\d{3,}\\s*$';

/** the largest timer Node.js can set is 2^31-1 ms; a longer timeout would fire at once */
export const MAX_TIMEOUT_SECONDS = 2_147_483;
export const MAX_LEEWAY_SECONDS = 300;
/** HMAC keys shorter than the hash output (RFC 7518 §3.2) can be brute-forced */
export const MIN_SECRET_LENGTH = 32;

export const SECRET_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
/** JWKS keys are public keys: verifying an HS* token with one would be algorithm confusion */
export const JWKS_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

// Regular expressions as text, because JSON Schema `pattern`s are text too.
export const WHOLE_NUMBER_PATTERN = '^\\s*\\d+\\s*$';
/** no query, fragment or user info: the JSON-RPC endpoint is this URL itself */
export const PUBLIC_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+(/[^\\s?#]*)?$';
/** https, or plain http to this machine (a local identity provider in development and tests) */
export const JWKS_URL_PATTERN =
  '^([Hh][Tt][Tt][Pp][Ss]://[^\\s]+|[Hh][Tt][Tt][Pp]://(localhost|127\\.0\\.0\\.1|\\[::1\\])(:\\d+)?(/[^\\s]*)?)$';
/** a host name, or `*.` and a domain for its subdomains */
export const HOST_PATTERN =
  '^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$';
