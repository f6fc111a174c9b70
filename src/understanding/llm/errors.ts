import { AppError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';

/** The ways talking to an LLM can fail, one code each. */
export type LlmErrorCode = Extract<
  ErrorCode,
  'LLM_UNREACHABLE' | 'LLM_TIMEOUT' | 'LLM_BAD_RESPONSE' | 'LLM_NOT_CONFIGURED'
>;

export interface LlmErrorOptions {
  readonly code: LlmErrorCode;
  readonly message: string;
  /** the chat-completions URL that was called, when there was one */
  readonly url?: string;
  /** the HTTP status of the last answer, when the server answered */
  readonly status?: number;
  /** how many requests were sent before giving up */
  readonly attempts?: number;
  readonly cause?: unknown;
}

/**
 * The LLM could not be configured or asked. The command generator turns it into an `error` command
 * (pattern_internal_error), so the conversation goes on; only configuration errors stop a start-up.
 */
export class LlmError extends AppError {
  declare readonly code: LlmErrorCode;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly attempts: number | undefined;

  constructor(options: LlmErrorOptions) {
    super({
      code: options.code,
      message: options.message,
      details: { url: options.url, status: options.status, attempts: options.attempts },
      cause: options.cause,
    });
    this.name = 'LlmError';
    this.url = options.url;
    this.status = options.status;
    this.attempts = options.attempts;
  }
}
