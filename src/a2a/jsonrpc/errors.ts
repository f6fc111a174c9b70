/**
 * A2aError → JSON-RPC error object and HTTP status, per wire version (spec/a2a.md §2.9): v1.0 carries
 * a google.rpc.ErrorInfo in `data`, v0.3 a free-form object. JSON-RPC errors travel with HTTP 200,
 * except what the transport must signal: a busy context (409), no room for a context or a server
 * shutting down or a dependency down (503), a body too large (413), and internal failures (500). -32010 (busy) and
 * -32012 (shutting down) are Parley's own codes in the implementation-defined range.
 */
import { ERROR_KINDS, errorCodeOf } from '../../core/error-kinds.js';
import { A2aError } from '../a2a-error.js';
import type { A2aErrorReason } from '../a2a-error.js';

export type WireVersion = '0.3' | '1.0';

const CODES: Record<A2aErrorReason, number> = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  TASK_TERMINAL: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  INVALID_AGENT_RESPONSE: -32006,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: -32007,
  EXTENSION_SUPPORT_REQUIRED: -32008,
  VERSION_NOT_SUPPORTED: -32009,
  REQUEST_TOO_LARGE: -32600,
  CONTEXT_BUSY: -32010,
  MAX_CONTEXTS_REACHED: -32603,
  UNAUTHENTICATED: -32011,
  AUTH_UNAVAILABLE: -32603,
  SHUTTING_DOWN: -32012,
  UNAVAILABLE: -32603,
};

const HTTP_STATUS: Partial<Record<A2aErrorReason, number>> = {
  CONTEXT_BUSY: 409,
  MAX_CONTEXTS_REACHED: 503,
  SHUTTING_DOWN: 503,
  REQUEST_TOO_LARGE: 413,
  INTERNAL: 500,
  UNAUTHENTICATED: 401,
  AUTH_UNAVAILABLE: 503,
  UNAVAILABLE: 503,
};

export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export function errorCode(reason: A2aErrorReason, version: WireVersion): number {
  // v0.3's reference answers a message to a terminal task with invalid params (spec/a2a.md §3 #3)
  if (reason === 'TASK_TERMINAL' && version === '0.3') return -32602;
  return CODES[reason];
}

export function httpStatusOf(reason: A2aErrorReason): number {
  return HTTP_STATUS[reason] ?? 200;
}

export function toJsonRpcError(error: A2aError, version: WireVersion): JsonRpcError {
  const code = errorCode(error.reason, version);
  const reason = error.reason === 'TASK_TERMINAL' ? 'UNSUPPORTED_OPERATION' : error.reason;
  if (version === '1.0')
    return {
      code,
      message: error.message,
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason,
          domain: 'a2a-protocol.org',
          metadata: error.metadata,
        },
      ],
    };
  return { code, message: error.message, data: { reason, ...error.metadata } };
}

/**
 * Any failure as an A2aError: a dependency that is down or busy (a store outage) becomes UNAVAILABLE
 * with its code, anything else unexpected INTERNAL (their messages are not shown).
 */
export function asA2aError(error: unknown): A2aError {
  if (error instanceof A2aError) return error;
  const code = errorCodeOf(error);
  if (code && ERROR_KINDS[code] === 'unavailable')
    return new A2aError({
      reason: 'UNAVAILABLE',
      message: 'A service the assistant needs is unavailable; try again later.',
      metadata: { code },
      cause: error,
    });
  return new A2aError({ reason: 'INTERNAL', message: 'Internal error', cause: error });
}
