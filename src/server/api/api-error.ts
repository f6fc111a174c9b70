import type { Request, RequestHandler, Response } from 'express';
import { errorCodeOf, errorKindOf } from '../../core/error-kinds.js';
import { sendRasaError } from '../../channels/http-errors.js';
import type { Logger } from '../../runtime/logger.js';
import { requestLogger } from '../request-log.js';

/** A failure the HTTP API answers with Rasa's error body: the status, the `reason` clients switch on. */
export class ApiError extends Error {
  readonly status: number;
  readonly reason: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(options: {
    status: number;
    reason: string;
    message: string;
    details?: Readonly<Record<string, unknown>>;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.reason = options.reason;
    this.details = options.details ?? {};
  }
}

/** 400 BadRequest about one parameter (`in`: query or body), as Rasa words it. */
export function badRequest(message: string, parameter: string, where: 'query' | 'body'): ApiError {
  return new ApiError({ status: 400, reason: 'BadRequest', message, details: { parameter, in: where } });
}

/** Rasa's 404 for routes that need an existing conversation (note the space in the reason). */
export function conversationNotFound(): ApiError {
  return new ApiError({ status: 404, reason: 'Not found', message: 'Conversation ID not found.' });
}

/** infrastructure faults a client may retry */

/**
 * Wraps a route: an ApiError becomes its own body; an infrastructure fault 503 ServiceUnavailable; a
 * concurrent write to the conversation (TRACKER_CONFLICT) 409 Conflict; anything else 500 with the
 * route's Rasa reason (ConversationError, ParsingError, ...) and is logged.
 */
export function apiRoute(
  options: { readonly reason: string; readonly logger: Logger },
  handler: (request: Request, response: Response) => Promise<void>,
): RequestHandler {
  return async (request, response) => {
    try {
      await handler(request, response);
    } catch (error) {
      sendApiFailure(
        response,
        error,
        { ...options, logger: requestLogger(request, options.logger) },
        request.path,
      );
    }
  };
}

function sendApiFailure(
  response: Response,
  error: unknown,
  options: { readonly reason: string; readonly logger: Logger },
  path: string,
): void {
  if (error instanceof ApiError) {
    sendRasaError(response, error);
    return;
  }
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const details = code ? { code } : {};
  const kind = errorKindOf(error);
  if (kind === 'bad_input') {
    sendRasaError(response, { status: 400, reason: 'BadRequest', message, details });
  } else if (kind === 'unavailable') {
    options.logger.warn({ path, code }, `HTTP API request not served: ${message}`);
    sendRasaError(response, { status: 503, reason: 'ServiceUnavailable', message, details });
  } else if (kind === 'conflict') {
    options.logger.warn({ path, code }, `HTTP API request conflicted: ${message}`);
    sendRasaError(response, { status: 409, reason: 'Conflict', message, details });
  } else {
    options.logger.error({ path, code, error: message }, 'HTTP API request failed');
    sendRasaError(response, {
      status: 500,
      reason: options.reason,
      message: `An unexpected error occurred. Error: ${message}`,
      details,
    });
  }
}
