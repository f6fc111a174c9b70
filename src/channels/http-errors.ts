import type { Response } from 'express';
import { PARLEY_VERSION } from '../version.js';

/**
 * Rasa's error body (`ErrorResponse`): the HTTP status repeated as `code`, a `reason` clients switch
 * on, and a human message. Channels, the HTTP API and the server's fallbacks all answer with it.
 */
export function sendRasaError(
  response: Response,
  options: {
    status: number;
    reason: string;
    message: string;
    details?: Readonly<Record<string, unknown>>;
    version?: string;
  },
): void {
  if (response.headersSent) return;
  response.status(options.status).json({
    version: options.version ?? PARLEY_VERSION,
    status: 'failure',
    message: options.message,
    reason: options.reason,
    details: options.details ?? {},
    help: null,
    code: options.status,
  });
}

const UNAVAILABLE_CODES = new Set(['STORE_UNAVAILABLE', 'LOCK_TIMEOUT', 'TRACKER_CONFLICT', 'SHUTTING_DOWN']);

/** The HTTP answer to a failed turn: infrastructure faults are 503 (retry later), the rest 500. */
export function sendTurnFailure(response: Response, error: unknown): void {
  const code =
    typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'CONVERSATION_ID_INVALID')
    sendRasaError(response, { status: 400, reason: 'BadRequest', message, details: { code } });
  else if (UNAVAILABLE_CODES.has(code))
    sendRasaError(response, {
      status: 503,
      reason: 'ServiceUnavailable',
      message: `The message could not be processed now: ${message}`,
      details: { code },
    });
  else
    sendRasaError(response, {
      status: 500,
      reason: 'ConversationError',
      message: `The message could not be processed: ${message}`,
      ...(code ? { details: { code } } : {}),
    });
}
