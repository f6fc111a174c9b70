/**
 * The one A2A JSON-RPC endpoint (`POST /` of each mount path) serving v0.3 and v1.0, routed by method
 * name (spec/a2a.md §1.5). It reads its own body, so it is mounted before the app's JSON parser: a
 * malformed body gets -32700 with `id: null` and a body over the limit a JSON-RPC error (HTTP 413),
 * never another body format. Plain requests skip Express altogether (`directRpc`); both paths answer
 * through `rpc-call.ts`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { Router } from 'express';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../runtime/logger.js';
import { A2aError } from '../a2a-error.js';
import { CALLER_LOCAL } from '../auth/bearer-auth.js';
import { ANONYMOUS_CALLER } from '../caller.js';
import type { PushService } from '../push/push-service.js';
import type { SemanticHandler } from '../semantic-handler.js';
import { sendRpcError, serveRpcCall } from './rpc-call.js';
import type { RpcCallOptions } from './rpc-call.js';
import { DEFAULT_KEEP_ALIVE_MS } from './sse.js';

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

/** Serves a call whose whole body the server has read, outside Express. */
export type DirectRpc = (request: IncomingMessage, response: ServerResponse, body: Buffer) => Promise<void>;

export function rpcRouter(options: RpcRouterOptions): Router {
  const router = Router();
  const callOptions = rpcCallOptions(options);
  router.post(
    '/',
    ...(options.authenticate ? [options.authenticate] : []),
    express.raw({ type: () => true, limit: options.bodyLimit ?? DEFAULT_RPC_BODY_LIMIT }),
    (request: Request, response: Response) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      void serveRpcCall({ request, response, body, caller: callerOfCall(response) }, callOptions);
    },
    bodyErrors,
  );
  return router;
}

/**
 * The endpoint for plain requests (a JSON POST of known length to the mount path), which the server
 * reads without Express; undefined with bearer auth, whose middleware runs in the router.
 */
export function directRpc(options: RpcRouterOptions): DirectRpc | undefined {
  if (options.authenticate) return undefined;
  const callOptions = rpcCallOptions(options);
  return (request, response, body) =>
    serveRpcCall({ request, response, body, caller: ANONYMOUS_CALLER }, callOptions);
}

function rpcCallOptions(options: RpcRouterOptions): RpcCallOptions {
  return {
    handler: options.handler,
    logger: options.logger,
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    ...(options.requestLogger ? { requestLogger: options.requestLogger } : {}),
    ...(options.push ? { push: options.push } : {}),
  };
}

/** the caller bearer auth found (with auth on, every call that got here has one), else the anonymous one */
function callerOfCall(response: Response): string {
  const caller: unknown = response.locals[CALLER_LOCAL];
  return typeof caller === 'string' ? caller : ANONYMOUS_CALLER;
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
  sendRpcError(response, null, failure, '0.3');
};
