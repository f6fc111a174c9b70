/**
 * endpoints.yml's `a2a_server` block, read when the server starts. `parley data validate` reports the
 * same rules at load time through the endpoints schema (src/project/schemas/a2a-server.ts); this reader
 * applies them again because it takes the block as `unknown` (after `${VAR}` interpolation, from any
 * caller) and turns it into typed settings with Rasa's defaults. Every problem is collected and thrown
 * at once as A2A_CONFIG_INVALID.
 */
import {
  A2A_DEFAULTS,
  A2A_TASK_STORE_CHOICES,
  A2A_SERVER_KEYS,
  HOST_PATTERN,
  MAX_TIMEOUT_SECONDS,
  MIN_BYTE_LIMIT,
  PUBLIC_URL_PATTERN,
} from '../core/a2a-server-rules.js';
import type { A2aTaskStoreChoice } from '../core/a2a-server-rules.js';
import { AppError } from '../core/errors.js';
import { readAuthConfig } from './config-auth.js';
import type { A2aAuthConfig } from './config-auth.js';
import { ConfigFields, isRecord } from './config-fields.js';
import type { A2aConfigProblem } from './config-fields.js';

export type { A2aAuthConfig, A2aKeySource } from './config-auth.js';
export type { A2aConfigProblem } from './config-fields.js';

export interface A2aServerConfig {
  /** Parley's switch; Rasa serves A2A whenever the block is present */
  readonly enabled: boolean;
  /** AgentCard name (Parley); default: config.yml's assistant_id */
  readonly name?: string;
  /** AgentCard version (Parley); default: Parley's version */
  readonly version?: string;
  readonly description: string;
  /** public base URL, normalised without a trailing `/`; inferred from the listen address when absent */
  readonly url?: string;
  /** a static AgentCard (JSON), relative to the project; served instead of the generated one */
  readonly agentCardPath?: string;
  readonly includeConversationRepair: boolean;
  /** 0: tasks never time out */
  readonly taskTimeoutSeconds: number;
  /** how long a messageId is remembered for replays; 0: not at all */
  readonly messageCacheTtlSeconds: number;
  /** 0: no cap */
  readonly maxContexts: number;
  readonly pushNotificationsEnabled: boolean;
  /** lower-cased host names; `*.example.com` allows the subdomains of example.com */
  readonly pushNotificationAllowedHosts: readonly string[];
  readonly auth?: A2aAuthConfig;
  /** Rasa's mapping (the contextId is the sender id as it is) instead of `a2a:<caller>:<contextId>` */
  readonly contextIdAsSenderId: boolean;
  readonly limits: A2aByteLimits;
  /** where the A2A state lives: with the conversations (the default) or in this process */
  readonly taskStore: A2aTaskStoreChoice;
}

/** the byte limits of A2A state in memory (docs/security.md) */
export interface A2aByteLimits {
  /** one message as JSON (parts and metadata) */
  readonly maxMessageBytes: number;
  /** a task's history; the oldest messages are dropped beyond it */
  readonly maxTaskHistoryBytes: number;
  /** the tasks of one context; its oldest finished tasks are forgotten beyond it */
  readonly maxContextBytes: number;
  /** every task in memory; the oldest finished tasks are forgotten, then waiting ones of the heaviest caller */
  readonly maxTaskMemoryBytes: number;
}

export type A2aConfigResult =
  | { readonly ok: true; readonly config: A2aServerConfig; readonly unknownKeys: readonly string[] }
  | { readonly ok: false; readonly problems: readonly A2aConfigProblem[] };

const INVALID = 'A2A_CONFIG_INVALID';

/** Reads the block with every default filled in, or lists every problem. */
export function readA2aServerConfig(raw: unknown): A2aConfigResult {
  if (!isRecord(raw))
    return {
      ok: false,
      problems: [
        { code: INVALID, key: 'a2a_server', message: 'must be a map of settings with a description' },
      ],
    };
  const fields = new ConfigFields({ section: 'a2a_server', raw });
  const description = fields.text('description', 'A2A_DESCRIPTION_MISSING');
  if (!fields.has('description')) fields.problem('A2A_DESCRIPTION_MISSING', 'description', 'is required');
  const url = fields.text('url', 'A2A_URL_INVALID', {
    regex: new RegExp(PUBLIC_URL_PATTERN),
    message: 'must be an absolute http(s) URL without query, fragment or credentials',
  });
  const taskTimeoutSeconds =
    fields.wholeNumber('task_timeout_seconds', INVALID, MAX_TIMEOUT_SECONDS) ??
    A2A_DEFAULTS.taskTimeoutSeconds;
  const settings = {
    enabled: fields.flag('enabled', INVALID) ?? true,
    name: fields.text('name', INVALID),
    version: fields.text('version', INVALID),
    agentCardPath: fields.text('agent_card_path', INVALID),
    includeConversationRepair:
      fields.flag('include_conversation_repair', INVALID) ?? A2A_DEFAULTS.includeConversationRepair,
    taskTimeoutSeconds,
    messageCacheTtlSeconds:
      fields.wholeNumber('a2a_message_cache_ttl_seconds', INVALID, MAX_TIMEOUT_SECONDS) ??
      defaultCacheTtl(taskTimeoutSeconds),
    maxContexts: fields.wholeNumber('max_contexts', INVALID) ?? A2A_DEFAULTS.maxContexts,
    pushNotificationsEnabled:
      fields.flag('push_notifications_enabled', INVALID) ?? A2A_DEFAULTS.pushNotificationsEnabled,
    pushNotificationAllowedHosts: fields
      .textList('push_notification_allowed_hosts', 'A2A_PUSH_HOST_INVALID', {
        regex: new RegExp(HOST_PATTERN),
        message: 'must be a host name such as hooks.example.com or *.example.com',
      })
      .map((host) => host.toLowerCase()),
    auth: fields.has('auth') ? readAuthConfig(fields.value('auth'), fields.problems) : undefined,
    contextIdAsSenderId: fields.flag('context_id_as_sender_id', INVALID) ?? A2A_DEFAULTS.contextIdAsSenderId,
    limits: readByteLimits(fields),
    taskStore: readTaskStoreChoice(fields),
  };
  if (fields.problems.length > 0 || description === undefined)
    return { ok: false, problems: fields.problems };
  return {
    ok: true,
    config: withoutUndefined({
      ...settings,
      description,
      url: url === undefined ? undefined : normaliseUrl(url),
    }),
    unknownKeys: fields.unknownKeys(A2A_SERVER_KEYS),
  };
}

function readTaskStoreChoice(fields: ConfigFields): A2aTaskStoreChoice {
  const choices: readonly string[] = A2A_TASK_STORE_CHOICES;
  const chosen = fields.text('task_store', INVALID, {
    regex: new RegExp(`^(${choices.join('|')})$`),
    message: `must be one of ${choices.join(', ')}`,
  });
  return (chosen as A2aTaskStoreChoice | undefined) ?? 'tracker_store';
}

function readByteLimits(fields: ConfigFields): A2aByteLimits {
  const bytes = (key: string, fallback: number) =>
    fields.wholeNumber(key, INVALID, Number.MAX_SAFE_INTEGER, MIN_BYTE_LIMIT) ?? fallback;
  return {
    maxMessageBytes: bytes('max_message_bytes', A2A_DEFAULTS.maxMessageBytes),
    maxTaskHistoryBytes: bytes('max_task_history_bytes', A2A_DEFAULTS.maxTaskHistoryBytes),
    maxContextBytes: bytes('max_context_bytes', A2A_DEFAULTS.maxContextBytes),
    maxTaskMemoryBytes: bytes('max_task_memory_bytes', A2A_DEFAULTS.maxTaskMemoryBytes),
  };
}

/**
 * Rasa: the replay cache lives as long as a task may run. With the task timeout switched off (0) that
 * would switch replay protection off too, silently; it falls back to the default timeout instead.
 */
function defaultCacheTtl(taskTimeoutSeconds: number): number {
  return taskTimeoutSeconds > 0 ? taskTimeoutSeconds : A2A_DEFAULTS.taskTimeoutSeconds;
}

function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.protocol}//${parsed.host}${path}`;
}

function withoutUndefined<T extends object>(value: T): A2aServerConfig {
  return Object.fromEntries(
    Object.entries(value).filter(([, item]) => item !== undefined),
  ) as unknown as A2aServerConfig;
}

/** The `a2a_server` block of endpoints.yml when A2A is on (present and not `enabled: false`), else undefined. */
export function loadA2aServerConfig(
  endpoints: Readonly<Record<string, unknown>>,
): { config: A2aServerConfig; unknownKeys: readonly string[] } | undefined {
  if (!('a2a_server' in endpoints)) return undefined;
  const result = readA2aServerConfig(endpoints['a2a_server']);
  if (!result.ok) {
    const lines = result.problems.map((problem) => `  - ${problem.key} ${problem.message} (${problem.code})`);
    throw new AppError({
      code: 'A2A_CONFIG_INVALID',
      message: `endpoints.yml a2a_server is invalid:\n${lines.join('\n')}`,
      details: { problems: result.problems },
    });
  }
  return result.config.enabled ? { config: result.config, unknownKeys: result.unknownKeys } : undefined;
}

/**
 * Where the JSON-RPC endpoint (and the AgentCard) is mounted on the one port: at the root, and under
 * the path of a configured `url` too, so that it answers whether or not a reverse proxy strips that
 * prefix. The JSON-RPC router mounts `POST /` at each of these paths.
 */
export function a2aMountPaths(config: A2aServerConfig): string[] {
  const prefix = config.url === undefined ? '' : new URL(config.url).pathname.replace(/\/+$/, '');
  return prefix === '' ? ['/'] : ['/', prefix];
}
