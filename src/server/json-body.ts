import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { rasaErrorAnswer } from '../channels/http-errors.js';
import type { JsonAnswer } from '../channels/json-answer.js';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../core/text/json-depth.js';

/** A request body that could not become JSON, typed as Express's body parser types its errors. */
export interface BodyProblem {
  readonly type: 'entity.parse.failed' | 'encoding.invalid' | 'entity.too.deep';
  readonly message: string;
  readonly status: 400;
}

export type BodyRead =
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'problem'; readonly problem: BodyProblem };

/**
 * Reads a request's whole body (its length was checked from the headers); undefined when the client
 * went away before it was complete.
 */
export function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once('error', () => resolve(undefined));
    request.once('close', () => {
      if (!request.complete) resolve(undefined);
    });
  });
}

/**
 * As the app's JSON parser reads a body: UTF-8 only (other bytes would become U+FFFD and merge two
 * senders), a byte-order mark skipped, an object or an array at the top, nesting bounded.
 */
export function parseJsonBody(bytes: Buffer): BodyRead {
  if (!isUtf8(bytes)) return problem('encoding.invalid', 'The request body is not UTF-8.');
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') return problem('entity.parse.failed', 'Not a JSON object or array.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return problem('entity.parse.failed', (error as Error).message);
  }
  if (nestedDeeperThan(body, MAX_BODY_DEPTH))
    return problem('entity.too.deep', `The request body nests more than ${MAX_BODY_DEPTH} levels deep.`);
  return { kind: 'json', body };
}

function problem(type: BodyProblem['type'], message: string): BodyRead {
  return { kind: 'problem', problem: { type, message, status: 400 } };
}

/**
 * Rasa's error body for a request that failed before any route ran: a body that could not be read or
 * parsed (the body parser's errors, or a `BodyProblem`), a URL that does not decode, or anything else
 * thrown (500).
 */
export function bodyProblemAnswer(error: unknown): JsonAnswer {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large')
    return rasaErrorAnswer({
      status: 413,
      reason: 'PayloadTooLarge',
      message: 'The request body is too large.',
    });
  if (type === 'entity.parse.failed' || type === 'encoding.unsupported' || type === 'charset.unsupported')
    return rasaErrorAnswer({
      status: 400,
      reason: 'BadRequest',
      message: 'The request body is not valid JSON.',
    });
  if (error instanceof URIError && isClientError(error))
    // express could not decode a route parameter: the URL is at fault, not a body
    return rasaErrorAnswer({
      status: 400,
      reason: 'BadRequest',
      message: 'The request URL has an invalid percent-encoding.',
    });
  if (type === 'entity.too.deep')
    return rasaErrorAnswer({ status: 400, reason: 'BadRequest', message: messageOf(error) });
  if (type === 'encoding.invalid' || isClientError(error))
    // e.g. a gzip body that does not inflate, a body shorter than its Content-Length
    return rasaErrorAnswer({
      status: 400,
      reason: 'BadRequest',
      message: `The request body could not be read: ${messageOf(error)}`,
    });
  return rasaErrorAnswer({
    status: 500,
    reason: 'UnexpectedError',
    message: `An unexpected error occurred: ${messageOf(error)}`,
  });
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

/** An error marked as the client's fault (http-errors: a 4xx status). */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return error instanceof Error && typeof status === 'number' && status >= 400 && status < 500;
}
