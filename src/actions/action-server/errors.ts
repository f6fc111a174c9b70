import { AppError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';

/** The failures of a call to a Rasa SDK action server, one code per way it can go wrong. */
export type ActionServerErrorCode = Extract<
  ErrorCode,
  | 'ACTION_ENDPOINT_INVALID'
  | 'ACTION_SERVER_UNREACHABLE'
  | 'ACTION_SERVER_TIMEOUT'
  | 'ACTION_SERVER_REJECTED'
  | 'ACTION_NOT_FOUND'
  | 'ACTION_SERVER_FAILED'
  | 'ACTION_SERVER_BAD_RESPONSE'
  | 'DOMAIN_NOT_FOUND'
>;

export interface ActionServerErrorOptions {
  readonly code: ActionServerErrorCode;
  readonly message: string;
  /** the action that was run; absent for endpoint configuration errors */
  readonly actionName?: string;
  /** the HTTP status the server answered with, when it answered */
  readonly status?: number;
  /** the configured endpoint URL, without the token query parameter */
  readonly url?: string;
  /** the decoded response body (or its text) when the server sent one */
  readonly body?: unknown;
  readonly cause?: unknown;
}

/**
 * A custom action could not be run on the action server. `ACTION_SERVER_REJECTED` is Rasa's
 * `ActionExecutionRejection` (the action raised it; other policies may act instead); every other code
 * means the action failed and its events are lost.
 */
export class ActionServerError extends AppError {
  declare readonly code: ActionServerErrorCode;
  readonly actionName: string | undefined;
  readonly status: number | undefined;
  readonly url: string | undefined;
  readonly body: unknown;

  constructor(options: ActionServerErrorOptions) {
    super({
      code: options.code,
      message: options.message,
      details: { actionName: options.actionName, status: options.status, url: options.url },
      cause: options.cause,
    });
    this.name = 'ActionServerError';
    this.actionName = options.actionName;
    this.status = options.status;
    this.url = options.url;
    this.body = options.body;
  }
}

export function isActionServerError(error: unknown): error is ActionServerError {
  return error instanceof ActionServerError;
}
