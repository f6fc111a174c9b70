/**
 * What each runtime error code means to a caller, the one place every edge reads it from: the REST
 * and callback channels, the HTTP API and the A2A server map a kind to their own status and body. A
 * code added to ErrorCode does not compile until it has a kind here.
 */
import type { ErrorCode } from './errors.js';

export type ErrorKind =
  /** the caller's input is wrong: fix it, do not retry it as it is */
  | 'bad_input'
  /** another turn of the same conversation changed it first: retry the whole request */
  | 'conflict'
  /** a dependency is down or busy, or the server is stopping: retry later */
  | 'unavailable'
  /** a dependency answered wrongly or the server is misconfigured or broken: retrying will not help */
  | 'failure';

export const ERROR_KINDS: Readonly<Record<ErrorCode, ErrorKind>> = {
  PROJECT_INVALID: 'failure',
  PROJECT_NOT_FOUND: 'failure',
  CONDITION_SYNTAX: 'failure',
  JSON_PATCH_INVALID: 'failure',
  EVENT_NEEDS_HISTORY: 'failure',
  INTERNAL: 'failure',
  ACTION_ENDPOINT_INVALID: 'failure',
  ACTION_SERVER_UNREACHABLE: 'unavailable',
  ACTION_SERVER_TIMEOUT: 'unavailable',
  ACTION_SERVER_REJECTED: 'failure',
  ACTION_NOT_FOUND: 'failure',
  ACTION_SERVER_FAILED: 'failure',
  ACTION_SERVER_BAD_RESPONSE: 'failure',
  DOMAIN_NOT_FOUND: 'failure',
  LLM_UNREACHABLE: 'unavailable',
  LLM_TIMEOUT: 'unavailable',
  LLM_BAD_RESPONSE: 'failure',
  LLM_NOT_CONFIGURED: 'failure',
  TRACKER_CONFLICT: 'conflict',
  CONVERSATION_ID_INVALID: 'bad_input',
  STORE_UNAVAILABLE: 'unavailable',
  STORE_UNSUPPORTED: 'failure',
  STORE_CONFIG_INVALID: 'failure',
  STORE_CORRUPT: 'failure',
  LOCK_TIMEOUT: 'unavailable',
  MODEL_INVALID: 'failure',
  MODEL_NOT_FOUND: 'failure',
  SHUTTING_DOWN: 'unavailable',
  AUTH_CONFIG_INVALID: 'failure',
  NLG_UNREACHABLE: 'unavailable',
  NLG_FAILED: 'failure',
  NLG_BAD_RESPONSE: 'failure',
  A2A_CONFIG_INVALID: 'failure',
  A2A_SETUP_INCOMPATIBLE: 'failure',
  MCP_SERVER_UNKNOWN: 'failure',
  MCP_SERVER_UNREACHABLE: 'unavailable',
  MCP_TIMEOUT: 'unavailable',
  MCP_TOOL_NOT_FOUND: 'failure',
  MCP_TOOL_FAILED: 'failure',
  MCP_MAPPING_FAILED: 'failure',
  AGENT_CONFIG_INVALID: 'failure',
  AGENT_UNREACHABLE: 'unavailable',
  AGENT_TIMEOUT: 'unavailable',
  AGENT_BAD_RESPONSE: 'failure',
  PORT_IN_USE: 'unavailable',
};

/** The stable code an error carries (an AppError's), or undefined for any other failure. */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && Object.hasOwn(ERROR_KINDS, code) ? (code as ErrorCode) : undefined;
}

/** The kind of any failure: one without a known code is a failure. */
export function errorKindOf(error: unknown): ErrorKind {
  const code = errorCodeOf(error);
  return code ? ERROR_KINDS[code] : 'failure';
}
