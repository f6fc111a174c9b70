import type { DiagnosticCode } from './diagnostic-codes.js';

/** Where a diagnostic or a model element comes from: 1-based line and column. */
export interface SourceRef {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** `info` is a note: it never fails a command and is not counted as a warning. */
export type Severity = 'error' | 'warning' | 'info';

/** One problem found while loading or validating an assistant. Validation returns all of them at once. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly flowId?: string;
  readonly stepId?: string;
  readonly message: string;
  readonly hint: string;
  /** the text of the offending line, when it helps to see it (a YAML syntax error) */
  readonly source?: string;
}

/** Stable error codes of runtime failures; mapped to HTTP, JSON-RPC and exit codes only at the edges. */
export type ErrorCode =
  | 'PROJECT_INVALID'
  | 'PROJECT_NOT_FOUND'
  | 'CONDITION_SYNTAX'
  | 'JSON_PATCH_INVALID'
  | 'EVENT_NEEDS_HISTORY'
  | 'INTERNAL'
  | 'ACTION_ENDPOINT_INVALID'
  | 'ACTION_SERVER_UNREACHABLE'
  | 'ACTION_SERVER_TIMEOUT'
  | 'ACTION_SERVER_REJECTED'
  | 'ACTION_NOT_FOUND'
  | 'ACTION_SERVER_FAILED'
  | 'ACTION_SERVER_BAD_RESPONSE'
  | 'DOMAIN_NOT_FOUND'
  | 'LLM_UNREACHABLE'
  | 'LLM_TIMEOUT'
  | 'LLM_BAD_RESPONSE'
  | 'LLM_NOT_CONFIGURED'
  | 'TRACKER_CONFLICT'
  | 'CONVERSATION_ID_INVALID'
  | 'STORE_UNAVAILABLE'
  | 'STORE_UNSUPPORTED'
  | 'STORE_CONFIG_INVALID'
  | 'STORE_CORRUPT'
  | 'LOCK_TIMEOUT'
  | 'MODEL_INVALID'
  | 'MODEL_NOT_FOUND'
  | 'SHUTTING_DOWN'
  | 'AUTH_CONFIG_INVALID'
  | 'NLG_UNREACHABLE'
  | 'NLG_FAILED'
  | 'NLG_BAD_RESPONSE'
  | 'A2A_CONFIG_INVALID'
  | 'A2A_SETUP_INCOMPATIBLE'
  | 'MCP_SERVER_UNKNOWN'
  | 'MCP_SERVER_UNREACHABLE'
  | 'MCP_TIMEOUT'
  | 'MCP_TOOL_NOT_FOUND'
  | 'MCP_TOOL_FAILED'
  | 'MCP_MAPPING_FAILED'
  | 'AGENT_CONFIG_INVALID'
  | 'AGENT_UNREACHABLE'
  | 'AGENT_TIMEOUT'
  | 'AGENT_BAD_RESPONSE'
  | 'PORT_IN_USE';

/** An infrastructure or usage failure that cannot become part of a conversation. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(options: { code: ErrorCode; message: string; details?: unknown; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'AppError';
    this.code = options.code;
    this.details = options.details;
  }
}

export function assertNever(value: never, what = 'value'): never {
  throw new AppError({ code: 'INTERNAL', message: `Unexpected ${what}: ${JSON.stringify(value)}` });
}
