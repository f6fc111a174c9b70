import type { Response } from 'express';
import { errorCodeOf, errorKindOf } from '../core/error-kinds.js';
import type { ErrorKind } from '../core/error-kinds.js';
import type { JsonAnswer } from './json-answer.js';
import { PARLEY_VERSION } from '../version.js';

export interface RasaErrorOptions {
  readonly status: number;
  readonly reason: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly version?: string;
}

/**
 * Rasa's error body (`ErrorResponse`): the HTTP status repeated as `code`, a `reason` clients switch
 * on, and a human message. Channels, the HTTP API and the server's fallbacks all answer with it.
 */
export function rasaErrorAnswer(options: RasaErrorOptions): JsonAnswer {
  return {
    status: options.status,
    body: {
      version: options.version ?? PARLEY_VERSION,
      status: 'failure',
      message: options.message,
      reason: options.reason,
      details: options.details ?? {},
      help: null,
      code: options.status,
    },
  };
}

export function sendRasaError(response: Response, options: RasaErrorOptions): void {
  if (response.headersSent) return;
  const answer = rasaErrorAnswer(options);
  response.status(answer.status).json(answer.body);
}

/** How a failed turn is answered on the REST and callback channels, by the kind of its error. */
const TURN_FAILURES: Readonly<Record<ErrorKind, { status: number; reason: string; prefix: string }>> = {
  bad_input: { status: 400, reason: 'BadRequest', prefix: '' },
  // a chat client can only send the message again: a conflict is "retry later" to it
  conflict: { status: 503, reason: 'ServiceUnavailable', prefix: 'The message could not be processed now: ' },
  unavailable: {
    status: 503,
    reason: 'ServiceUnavailable',
    prefix: 'The message could not be processed now: ',
  },
  failure: { status: 500, reason: 'ConversationError', prefix: 'The message could not be processed: ' },
};

/** The answer to a failed turn: infrastructure faults are 503 (retry later), the rest 500. */
export function turnFailureAnswer(error: unknown): JsonAnswer {
  const code = errorCodeOf(error);
  const answer = TURN_FAILURES[errorKindOf(error)];
  const message = error instanceof Error ? error.message : String(error);
  return rasaErrorAnswer({
    status: answer.status,
    reason: answer.reason,
    message: `${answer.prefix}${message}`,
    ...(code ? { details: { code } } : {}),
  });
}

export function sendTurnFailure(response: Response, error: unknown): void {
  if (response.headersSent) return;
  const answer = turnFailureAnswer(error);
  response.status(answer.status).json(answer.body);
}
