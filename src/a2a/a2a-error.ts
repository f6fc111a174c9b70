/**
 * A2A protocol errors as typed values with stable reasons (the v1.0 ErrorInfo `reason` names, plus two
 * of Parley's own). The semantic handler throws them; jsonrpc/errors.ts maps a reason to the JSON-RPC
 * code, the HTTP status and the body of each wire version, and nowhere else.
 */

export type A2aErrorReason =
  | 'PARSE_ERROR'
  | 'INVALID_REQUEST'
  | 'METHOD_NOT_FOUND'
  | 'INVALID_PARAMS'
  | 'INTERNAL'
  | 'TASK_NOT_FOUND'
  | 'TASK_NOT_CANCELABLE'
  | 'PUSH_NOTIFICATION_NOT_SUPPORTED'
  | 'UNSUPPORTED_OPERATION'
  /** a message for a task in a terminal state: -32004 in v1.0, -32602 in v0.3 (spec/a2a.md §3 #3) */
  | 'TASK_TERMINAL'
  | 'CONTENT_TYPE_NOT_SUPPORTED'
  | 'INVALID_AGENT_RESPONSE'
  | 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'
  | 'EXTENSION_SUPPORT_REQUIRED'
  | 'VERSION_NOT_SUPPORTED'
  | 'REQUEST_TOO_LARGE'
  /** another message of the same context is still being handled (HTTP 409) */
  | 'CONTEXT_BUSY'
  /** `max_contexts` reached and every context is reserved by a task waiting for input (HTTP 503) */
  | 'MAX_CONTEXTS_REACHED'
  /** no valid bearer token with `a2a_server.auth` (HTTP 401) */
  | 'UNAUTHENTICATED'
  /** the keys to verify tokens could not be fetched (HTTP 503) */
  | 'AUTH_UNAVAILABLE'
  /** a graceful shutdown began: running turns finish, new ones are refused (HTTP 503) */
  | 'SHUTTING_DOWN'
  /** a service the server needs (its store, its lock store) is down or busy: retry later (HTTP 503) */
  | 'UNAVAILABLE';

export class A2aError extends Error {
  readonly reason: A2aErrorReason;
  /** string values only: v1.0 puts them into the ErrorInfo's metadata */
  readonly metadata: Readonly<Record<string, string>>;

  constructor(options: {
    reason: A2aErrorReason;
    message: string;
    metadata?: Record<string, string>;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.name = 'A2aError';
    this.reason = options.reason;
    this.metadata = options.metadata ?? {};
  }
}

export function invalidParams(message: string, field?: string): A2aError {
  return new A2aError({ reason: 'INVALID_PARAMS', message, ...(field ? { metadata: { field } } : {}) });
}

export function taskNotFound(id: string): A2aError {
  return new A2aError({
    reason: 'TASK_NOT_FOUND',
    message: `Task not found: ${id}`,
    metadata: { taskId: id },
  });
}
