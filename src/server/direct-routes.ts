import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { JsonPostRoute } from '../channels/channel.js';
import { rasaErrorAnswer } from '../channels/http-errors.js';
import { writeJson } from '../channels/json-answer.js';
import { bodyProblemAnswer, parseJsonBody, readBody } from './json-body.js';

/** A middleware that needs only Node's request and response (request log, CORS). */
export type NodeMiddleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * What serves a path directly: a channel's JSON route (the body parsed here, a bad one answered with
 * Rasa's error body), or an endpoint taking the body's bytes and answering in its own format (A2A
 * JSON-RPC), with its own body limit.
 */
export type DirectRoute =
  | { readonly kind: 'json'; readonly route: JsonPostRoute }
  | {
      readonly kind: 'raw';
      readonly bodyLimit: number;
      serve(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void>;
    };

export interface DirectRoutesOptions {
  /** keyed by the whole path, e.g. `/webhooks/rest/webhook` */
  readonly routes: ReadonlyMap<string, DirectRoute>;
  /** serves every request the direct path does not take (the Express app) */
  readonly fallback: RequestListener;
  /** bytes, for the JSON routes */
  readonly bodyLimit: number;
  /** run first, as the app runs them (request log, CORS) */
  readonly before: readonly NodeMiddleware[];
}

/**
 * Serves plain JSON POSTs to a channel's webhook without Express: the hot path of a chat turn. Express
 * costs about a fifth of a REST turn (its router walking every mounted layer, the body parser, the
 * request and response prototypes it swaps in, `res.json`). A request is plain when its method, path
 * and headers say the app would treat it as a JSON body it can read at once: POST to the exact path
 * (no query string), a Content-Length within the limit, no Content-Encoding, a JSON (or form, as curl
 * sends) content type in UTF-8. Anything else goes to the app, which answers it as before; the answers
 * of the two paths are the same (`test/server/direct-routes.test.ts` sends each request both ways).
 */
export function withDirectRoutes(options: DirectRoutesOptions): RequestListener {
  return (request, response) => {
    const route = request.method === 'POST' ? options.routes.get(request.url ?? '') : undefined;
    const limit = route?.kind === 'raw' ? route.bodyLimit : options.bodyLimit;
    if (!route || !isPlainJsonPost(request, limit)) {
      options.fallback(request, response);
      return;
    }
    runMiddleware(options.before, request, response, () => {
      serve(route, request, response).catch((error: unknown) => {
        // the route turns its own failures into answers: this is a fault in writing one
        if (!response.headersSent)
          writeJson(
            response,
            rasaErrorAnswer({
              status: 500,
              reason: 'UnexpectedError',
              message: `An unexpected error occurred: ${error instanceof Error ? error.message : String(error)}`,
            }),
          );
        else response.destroy();
      });
    });
  };
}

async function serve(route: DirectRoute, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const bytes = await readBody(request);
  // the client went away before the body was complete: nothing to answer
  if (bytes === undefined) return;
  if (route.kind === 'raw') {
    await route.serve(request, response, bytes);
    return;
  }
  const read = parseJsonBody(bytes);
  if (read.kind === 'problem') {
    writeJson(response, bodyProblemAnswer(read.problem));
    return;
  }
  writeJson(response, await route.route.answer(read.body, request));
}

function runMiddleware(
  chain: readonly NodeMiddleware[],
  request: IncomingMessage,
  response: ServerResponse,
  done: () => void,
  index = 0,
): void {
  const middleware = chain[index];
  if (!middleware) {
    done();
    return;
  }
  middleware(request, response, (error) => {
    if (error === undefined) runMiddleware(chain, request, response, done, index + 1);
    else writeJson(response, bodyProblemAnswer(error));
  });
}

/** What the app's JSON parser would read as UTF-8 JSON in full, from the headers alone. */
export function isPlainJsonPost(request: IncomingMessage, bodyLimit: number): boolean {
  const headers = request.headers;
  if (headers['transfer-encoding'] !== undefined) return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const length = headers['content-length'];
  if (length === undefined || !/^\d{1,12}$/.test(length)) return false;
  const bytes = Number(length);
  if (bytes === 0 || bytes > bodyLimit) return false;
  const type = headers['content-type'] ?? '';
  const jsonLike =
    type === '' || type.includes('json') || type.startsWith('application/x-www-form-urlencoded');
  return jsonLike && isUtf8Charset(type);
}

/** no charset parameter, or UTF-8 spelled as the body parser accepts it */
function isUtf8Charset(contentType: string): boolean {
  const parameters = contentType.split(';').slice(1);
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() !== 'charset') continue;
    const charset = (value ?? '').trim().replace(/^"(.*)"$/, '$1');
    return /^utf-?8$/i.test(charset);
  }
  return true;
}
