import type { Request } from 'express';
import type { EventVerbosity } from '../../core/events/tracker-json.js';
import { isPlainObject } from '../../core/events/json-value.js';
import { conversationIdProblem } from '../../core/text/identifiers.js';
import { conversationIdParam } from '../auth.js';
import { ApiError, badRequest } from './api-error.js';

/** Rasa's EventVerbosity names, in its order (the error message lists them so). */
const VERBOSITIES: readonly EventVerbosity[] = ['NONE', 'APPLIED', 'AFTER_RESTART', 'ALL'];

/** `include_events`, case-insensitive like Rasa's; `AFTER_RESTART` when absent. */
export function verbosityParam(request: Request, fallback: EventVerbosity = 'AFTER_RESTART'): EventVerbosity {
  const raw = request.query['include_events'];
  if (raw === undefined) return fallback;
  const name = typeof raw === 'string' ? raw.toUpperCase() : '';
  const found = VERBOSITIES.find((verbosity) => verbosity === name);
  if (found) return found;
  throw badRequest(
    `Invalid parameter value for 'include_events'. Should be one of ${VERBOSITIES.join(', ')}`,
    'include_events',
    'query',
  );
}

/** A number query parameter (`until`: seconds since the epoch), undefined when absent. */
export function numberParam(request: Request, name: string): number | undefined {
  const raw = request.query[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (Number.isFinite(value)) return value;
  throw badRequest(`Invalid parameter value for '${name}'. Should be a number.`, name, 'query');
}

/** A boolean query parameter: true/false (or 1/0), any case. */
export function booleanParam(request: Request, name: string, fallback: boolean): boolean {
  const raw = request.query[name];
  if (raw === undefined) return fallback;
  const text = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw badRequest(`Invalid parameter value for '${name}'. Should be true or false.`, name, 'query');
}

/** A string query parameter, undefined when absent; repeated or nested values are refused. */
export function stringParam(request: Request, name: string): string | undefined {
  const raw = request.query[name];
  if (raw === undefined || typeof raw === 'string') return raw;
  throw badRequest(`Invalid parameter value for '${name}'. Should be given once, as text.`, name, 'query');
}

export function conversationIdOf(request: Request): string {
  const id = conversationIdParam(request.params);
  if (id === undefined || id === '')
    throw badRequest('The conversation id is missing.', 'conversation_id', 'query');
  const problem = conversationIdProblem(id);
  if (problem) throw badRequest(`The conversation id ${problem}.`, 'conversation_id', 'query');
  return id;
}

/** The JSON body; a missing one is Rasa's 400 with the route's own message. */
export function requireBody(request: Request, message: string): unknown {
  const body: unknown = request.body;
  // the JSON parser reads an empty body as {}: Rasa's `not request.body` looks at the bytes
  const empty = request.headers['content-length'] === '0';
  if (body === undefined || body === null || empty)
    throw new ApiError({ status: 400, reason: 'BadRequest', message });
  return body;
}

/** The JSON body as an object (messages, trigger_intent, parse). */
export function requireObjectBody(request: Request, message: string): Record<string, unknown> {
  const body = requireBody(request, message);
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.', '', 'body');
  return body;
}
