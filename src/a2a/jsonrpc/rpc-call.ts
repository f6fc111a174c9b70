/**
 * One JSON-RPC call of the A2A endpoint, from the body's bytes to the answer, on Node's request and
 * response: the Express route (`rpc-router.ts`) and the server's direct path for plain requests
 * (`directRpc`) both serve calls through here, so they answer alike.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../runtime/logger.js';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../../core/text/json-depth.js';
import { A2aError } from '../a2a-error.js';
import type { A2aErrorReason } from '../a2a-error.js';
import { requestedVersion } from '../protocol-version.js';
import type { RequestedVersion } from '../protocol-version.js';
import type { PushService } from '../push/push-service.js';
import type { SemanticHandler } from '../semantic-handler.js';
import { asA2aError, httpStatusOf, toJsonRpcError } from './errors.js';
import type { WireVersion } from './errors.js';
import { routeOf } from './methods.js';
import type { MethodRoute } from './methods.js';
import { runOperation } from './operations.js';
import { isRecord } from './params.js';
import { withJsonNames } from './proto-json-names.js';
import { DEFAULT_KEEP_ALIVE_MS, SseStream } from './sse.js';

export interface RpcCallOptions {
  readonly handler: SemanticHandler;
  readonly logger: Logger;
  /** the logger of an HTTP request (its lines carry the request's id); `logger` without one */
  readonly requestLogger?: (request: object) => Logger;
  /** SSE keep-alive comment interval */
  readonly keepAliveMs: number;
  /** push notifications, when enabled */
  readonly push?: PushService;
}

export interface RpcCall {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** the whole request body */
  readonly body: Buffer;
  /** the calling agent (caller.ts) */
  readonly caller: string;
}

/** Answers one call; never rejects (a failure in writing the answer is logged and ends the response). */
export async function serveRpcCall(call: RpcCall, options: RpcCallOptions): Promise<void> {
  try {
    await answerCall(call, options);
  } catch (error) {
    loggerOf(call.request, options).error(
      { error: error instanceof Error ? error.message : String(error) },
      'a2a call failed',
    );
    if (!call.response.headersSent) sendRpcError(call.response, null, asA2aError(error), '0.3');
    else if (!call.response.writableEnded) call.response.end();
  }
}

/** A checked call: its id, method route and params, or the error to answer instead. */
type Parsed =
  | {
      readonly kind: 'call';
      readonly id: unknown;
      readonly method: string;
      readonly route: MethodRoute;
      readonly params: unknown;
    }
  | {
      readonly kind: 'refused';
      readonly id: unknown;
      readonly error: A2aError;
      readonly version: WireVersion;
    };

async function answerCall(call: RpcCall, options: RpcCallOptions): Promise<void> {
  const parsed = parseCall(call.body, requestedVersion(call.request));
  if (parsed.kind === 'refused') {
    sendRpcError(call.response, parsed.id, parsed.error, parsed.version);
    return;
  }
  const { id, route } = parsed;
  try {
    const answer = await runOperation(route, {
      request: call.request,
      handler: options.handler,
      caller: call.caller,
      id,
      params: parsed.params,
      response: call.response,
      keepAliveMs: options.keepAliveMs,
      ...(options.push ? { push: options.push } : {}),
    });
    if (answer) writeRpcJson(call.response, 200, { jsonrpc: '2.0', id, result: answer.result });
  } catch (error) {
    failCall(call, options, { id, method: parsed.method, route, error });
  }
}

function parseCall(bytes: Buffer, version: RequestedVersion): Parsed {
  let body: unknown;
  try {
    body = parseJsonBody(bytes);
  } catch {
    const error = new A2aError({ reason: 'PARSE_ERROR', message: 'Invalid JSON payload' });
    return { kind: 'refused', id: null, error, version: '0.3' };
  }
  const id = isRecord(body) && isId(body['id']) ? body['id'] : null;
  const fallback: WireVersion = version.kind === 'supported' ? version.version : '0.3';
  const refuse = (reason: A2aErrorReason, message: string, wire = fallback): Parsed => ({
    kind: 'refused',
    id,
    error: new A2aError({ reason, message }),
    version: wire,
  });
  // walking it (fingerprints, JSON.stringify) would overflow the stack: refused like the HTTP API does
  if (nestedDeeperThan(body, MAX_BODY_DEPTH))
    return refuse('INVALID_REQUEST', `The request nests more than ${MAX_BODY_DEPTH} levels deep.`);
  if (
    !isRecord(body) ||
    body['jsonrpc'] !== '2.0' ||
    typeof body['method'] !== 'string' ||
    !isId(body['id'] ?? null)
  )
    return refuse('INVALID_REQUEST', 'Not a JSON-RPC 2.0 request');
  const method = body['method'];
  const route = routeOf(method);
  if (!route) return refuse('METHOD_NOT_FOUND', `Method not found: ${method}`);
  if (version.kind !== 'absent' && (version.kind === 'unsupported' || version.version !== route.version)) {
    const requested = version.kind === 'unsupported' ? version.requested : version.version;
    const error = new A2aError({
      reason: 'VERSION_NOT_SUPPORTED',
      message: `A2A-Version ${requested} does not serve ${method}; it is a v${route.version} method.`,
      metadata: { requestedVersion: requested, methodVersion: route.version },
    });
    return { kind: 'refused', id, error, version: route.version };
  }
  return { kind: 'call', id, method, route, params: withJsonNames(body['params']) };
}

function failCall(
  call: RpcCall,
  options: RpcCallOptions,
  failed: {
    readonly id: unknown;
    readonly method: string;
    readonly route: MethodRoute;
    readonly error: unknown;
  },
): void {
  const { id, route, error } = failed;
  const failure = asA2aError(error);
  const fields = { method: failed.method, error: error instanceof Error ? error.message : String(error) };
  if (failure.reason === 'INTERNAL') loggerOf(call.request, options).error(fields, 'a2a call failed');
  else if (failure.reason === 'UNAVAILABLE')
    loggerOf(call.request, options).warn(fields, 'a2a call failed: a dependency is unavailable');
  const response = call.response;
  if (!response.headersSent) {
    if (STREAMING.has(route.operation) && acceptsEventStream(call.request))
      sendStreamedError(response, id, failure, route.version);
    else sendRpcError(response, id, failure, route.version);
  } else if (!response.writableEnded) response.end();
}

/**
 * The body as JSON. JSON text is UTF-8 (RFC 8259 §8.1): other bytes are refused, not decoded as
 * U+FFFD, which would change the ids and texts a client sent (and echo an id it never sent).
 */
function parseJsonBody(bytes: Buffer): unknown {
  if (!isUtf8(bytes)) throw new SyntaxError('The request body is not UTF-8.');
  return JSON.parse(bytes.toString('utf8'));
}

function loggerOf(request: object, options: RpcCallOptions): Logger {
  return options.requestLogger?.(request) ?? options.logger;
}

function isId(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

const STREAMING: ReadonlySet<string> = new Set(['stream', 'subscribe']);

/** The client reads server-sent events (an SSE client sends `Accept: text/event-stream`). */
function acceptsEventStream(request: IncomingMessage): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * A streaming call that fails before its stream opens (an unknown task, bad params), answered the way
 * its client reads answers: one server-sent event holding the JSON-RPC error, then the end.
 */
function sendStreamedError(
  response: ServerResponse,
  id: unknown,
  error: A2aError,
  version: WireVersion,
): void {
  const sse = new SseStream({ response, id, keepAliveMs: DEFAULT_KEEP_ALIVE_MS });
  sse.sendError(toJsonRpcError(error, version));
  sse.end();
}

const RETRY_SOON: ReadonlySet<A2aErrorReason> = new Set([
  'CONTEXT_BUSY',
  'MAX_CONTEXTS_REACHED',
  'UNAVAILABLE',
]);

export function sendRpcError(
  response: ServerResponse,
  id: unknown,
  error: A2aError,
  version: WireVersion,
): void {
  writeRpcJson(
    response,
    httpStatusOf(error.reason),
    { jsonrpc: '2.0', id, error: toJsonRpcError(error, version) },
    RETRY_SOON.has(error.reason) ? { 'Retry-After': '1' } : undefined,
  );
}

/**
 * As Express's `res.json` writes it, in one `end`; the headers set before (CORS, the request id) are
 * kept, `writeHead` merges them.
 */
function writeRpcJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...extraHeaders,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}
