/**
 * The one A2A JSON-RPC endpoint (`POST /` of each mount path) serving v0.3 and v1.0, routed by method
 * name (spec/a2a.md §1.5). It reads its own body, so it is mounted before the app's JSON parser: a
 * malformed body gets -32700 with `id: null` and a body over the limit a JSON-RPC error (HTTP 413),
 * never another body format.
 */
import { isUtf8 } from 'node:buffer';
import express, { Router } from 'express';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../runtime/logger.js';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../../core/text/json-depth.js';
import { A2aError } from '../a2a-error.js';
import type { A2aErrorReason } from '../a2a-error.js';
import { CALLER_LOCAL } from '../auth/bearer-auth.js';
import { ANONYMOUS_CALLER } from '../caller.js';
import { requestedVersion } from '../protocol-version.js';
import type { PushService } from '../push/push-service.js';
import type { SemanticHandler } from '../semantic-handler.js';
import { asA2aError, httpStatusOf, toJsonRpcError } from './errors.js';
import type { WireVersion } from './errors.js';
import { routeOf } from './methods.js';
import { runOperation } from './operations.js';
import { isRecord } from './params.js';
import { withJsonNames } from './proto-json-names.js';
import { DEFAULT_KEEP_ALIVE_MS, SseStream } from './sse.js';

/** bytes; a message is at most `max_message_bytes` (64 KiB by default), the rest is the JSON-RPC envelope */
export const DEFAULT_RPC_BODY_LIMIT = 1024 * 1024;

export interface RpcRouterOptions {
  readonly handler: SemanticHandler;
  readonly logger: Logger;
  /** the logger of an HTTP request (its lines carry the request's id); `logger` without one */
  readonly requestLogger?: (request: object) => Logger;
  /** bytes */
  readonly bodyLimit?: number;
  /** SSE keep-alive comment interval */
  readonly keepAliveMs?: number;
  /** runs before the body is read (bearer auth): a refused call costs no body parsing */
  readonly authenticate?: RequestHandler;
  /** push notifications, when enabled */
  readonly push?: PushService;
}

export function rpcRouter(options: RpcRouterOptions): Router {
  const router = Router();
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  router.post(
    '/',
    ...(options.authenticate ? [options.authenticate] : []),
    express.raw({ type: () => true, limit: options.bodyLimit ?? DEFAULT_RPC_BODY_LIMIT }),
    (request: Request, response: Response) => {
      handle(request, response, options, keepAliveMs).catch((error: unknown) => {
        // a failure outside the call's own handling (writing the answer) must not become unhandled
        loggerOf(request, options).error(
          { error: error instanceof Error ? error.message : String(error) },
          'a2a call failed',
        );
        if (!response.headersSent) sendError(response, null, asA2aError(error), '0.3');
        else if (!response.writableEnded) response.end();
      });
    },
    bodyErrors,
  );
  return router;
}

async function handle(request: Request, response: Response, options: RpcRouterOptions, keepAliveMs: number) {
  let body: unknown;
  try {
    body = parseJsonBody(request.body);
  } catch {
    sendError(
      response,
      null,
      new A2aError({ reason: 'PARSE_ERROR', message: 'Invalid JSON payload' }),
      '0.3',
    );
    return;
  }
  const id = isRecord(body) && isId(body['id']) ? body['id'] : null;
  const version = requestedVersion(request);
  const fallback: WireVersion = version.kind === 'supported' ? version.version : '0.3';
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
    // walking it (fingerprints, JSON.stringify) would overflow the stack: refused like the HTTP API does
    const message = `The request nests more than ${MAX_BODY_DEPTH} levels deep.`;
    sendError(response, id, new A2aError({ reason: 'INVALID_REQUEST', message }), fallback);
    return;
  }
  if (
    !isRecord(body) ||
    body['jsonrpc'] !== '2.0' ||
    typeof body['method'] !== 'string' ||
    !isId(body['id'] ?? null)
  ) {
    sendError(
      response,
      id,
      new A2aError({ reason: 'INVALID_REQUEST', message: 'Not a JSON-RPC 2.0 request' }),
      fallback,
    );
    return;
  }
  const method = body['method'];
  const route = routeOf(method);
  if (!route) {
    sendError(
      response,
      id,
      new A2aError({ reason: 'METHOD_NOT_FOUND', message: `Method not found: ${method}` }),
      fallback,
    );
    return;
  }
  if (version.kind !== 'absent' && (version.kind === 'unsupported' || version.version !== route.version)) {
    const requested = version.kind === 'unsupported' ? version.requested : version.version;
    const error = new A2aError({
      reason: 'VERSION_NOT_SUPPORTED',
      message: `A2A-Version ${requested} does not serve ${method}; it is a v${route.version} method.`,
      metadata: { requestedVersion: requested, methodVersion: route.version },
    });
    sendError(response, id, error, route.version);
    return;
  }
  try {
    const answer = await runOperation(route, {
      request,
      handler: options.handler,
      caller: callerOfCall(response),
      id,
      params: withJsonNames(body['params']),
      response,
      keepAliveMs,
      ...(options.push ? { push: options.push } : {}),
    });
    if (answer) response.json({ jsonrpc: '2.0', id, result: answer.result });
  } catch (error) {
    const failure = asA2aError(error);
    const fields = { method, error: error instanceof Error ? error.message : String(error) };
    if (failure.reason === 'INTERNAL') loggerOf(request, options).error(fields, 'a2a call failed');
    else if (failure.reason === 'UNAVAILABLE')
      loggerOf(request, options).warn(fields, 'a2a call failed: a dependency is unavailable');
    if (!response.headersSent) {
      if (STREAMING.has(route.operation) && acceptsEventStream(request))
        sendStreamedError(response, id, failure, route.version);
      else sendError(response, id, failure, route.version);
    } else if (!response.writableEnded) response.end();
  }
}

/**
 * The body as JSON. JSON text is UTF-8 (RFC 8259 §8.1): other bytes are refused, not decoded as
 * U+FFFD, which would change the ids and texts a client sent (and echo an id it never sent).
 */
function parseJsonBody(raw: unknown): unknown {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
  if (!isUtf8(bytes)) throw new SyntaxError('The request body is not UTF-8.');
  return JSON.parse(bytes.toString('utf8'));
}

function loggerOf(request: object, options: RpcRouterOptions): Logger {
  return options.requestLogger?.(request) ?? options.logger;
}

/** the caller bearer auth found (with auth on, every call that got here has one), else the anonymous one */
function callerOfCall(response: Response): string {
  const caller: unknown = response.locals[CALLER_LOCAL];
  return typeof caller === 'string' ? caller : ANONYMOUS_CALLER;
}

function isId(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

const STREAMING: ReadonlySet<string> = new Set(['stream', 'subscribe']);

/** The client reads server-sent events (an SSE client sends `Accept: text/event-stream`). */
function acceptsEventStream(request: Request): boolean {
  return (request.get('accept') ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * A streaming call that fails before its stream opens (an unknown task, bad params), answered the way
 * its client reads answers: one server-sent event holding the JSON-RPC error, then the end.
 */
function sendStreamedError(response: Response, id: unknown, error: A2aError, version: WireVersion): void {
  const sse = new SseStream({ response, id, keepAliveMs: DEFAULT_KEEP_ALIVE_MS });
  sse.sendError(toJsonRpcError(error, version));
  sse.end();
}

const RETRY_SOON: ReadonlySet<A2aErrorReason> = new Set([
  'CONTEXT_BUSY',
  'MAX_CONTEXTS_REACHED',
  'UNAVAILABLE',
]);

function sendError(response: Response, id: unknown, error: A2aError, version: WireVersion): void {
  const status = httpStatusOf(error.reason);
  if (RETRY_SOON.has(error.reason)) response.set('Retry-After', '1');
  response.status(status).json({ jsonrpc: '2.0', id, error: toJsonRpcError(error, version) });
}

/** the body reader's failures as JSON-RPC errors */
const bodyErrors: ErrorRequestHandler = (error: unknown, _request, response, next) => {
  if (response.headersSent) {
    next(error);
    return;
  }
  const type = (error as { type?: unknown }).type;
  const failure =
    type === 'entity.too.large'
      ? new A2aError({ reason: 'REQUEST_TOO_LARGE', message: 'The request body is too large.' })
      : new A2aError({ reason: 'PARSE_ERROR', message: 'The request body could not be read.' });
  sendError(response, null, failure, '0.3');
};
