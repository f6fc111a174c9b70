import { isUtf8 } from 'node:buffer';
import express from 'express';
import type { ErrorRequestHandler, Express, Router } from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { InputChannel } from '../channels/channel.js';
import { sendRasaError } from '../channels/http-errors.js';
import { writeJson } from '../channels/json-answer.js';
import { PARLEY_VERSION } from '../version.js';
import { bodyDepthGuard } from './body-depth.js';
import { corsMiddleware } from './cors.js';
import { withDirectRoutes } from './direct-routes.js';
import type { DirectRoute, NodeMiddleware } from './direct-routes.js';
import { healthHandler } from './health.js';
import { bodyProblemAnswer } from './json-body.js';
import type { RequestLog } from './request-log.js';
import type { TurnGate } from './turn-gate.js';

/** A router mounted at a path of the one port (the HTTP API, A2A, metrics). */
export interface MountedRouter {
  readonly path: string;
  readonly router: Router;
}

/**
 * A router at a path of the one port that reads its own request bodies (A2A JSON-RPC), and its
 * endpoint for plain POSTs to that path, served without Express once the server has read the body.
 */
export interface BodyReadingRouter extends MountedRouter {
  readonly direct?: (request: IncomingMessage, response: ServerResponse, body: Buffer) => Promise<void>;
  /** the largest body `direct` takes, in bytes */
  readonly bodyLimit?: number;
}

export interface AppOptions {
  readonly gate: TurnGate;
  readonly channels: readonly InputChannel[];
  /** routers mounted before the channels, e.g. the HTTP API and A2A */
  readonly routers?: readonly MountedRouter[];
  /** routers that read their own request bodies (A2A JSON-RPC), mounted before the JSON parser */
  readonly bodyReadingRouters?: readonly BodyReadingRouter[];
  /** Rasa's `--cors` origins; none → no CORS headers */
  readonly cors?: readonly string[];
  /** the largest JSON body accepted, in bytes */
  readonly bodyLimit?: number;
  /** gives each request an id and logs it; installed before everything else */
  readonly requestLog?: RequestLog;
  /**
   * serve a public `GET /status` health answer. It is mounted after `routers`, so an HTTP API router
   * that serves its own (authenticated) `/status` takes precedence; meant for when the API is off.
   */
  readonly publicStatus?: boolean;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The server's request listener: the app, with the channels' JSON webhooks and the A2A JSON-RPC
 * endpoint served in front of it without Express when a request is plain (`direct-routes.ts`).
 */
export function createRequestListener(options: AppOptions): RequestListener {
  const app = createApp(options);
  const routes = directRoutesOf(options);
  if (routes.size === 0) return app;
  const before: NodeMiddleware[] = [];
  if (options.requestLog) before.push(options.requestLog.middleware());
  if (options.cors && options.cors.length > 0) before.push(corsMiddleware(options.cors));
  return withDirectRoutes({
    routes,
    fallback: app,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    before,
  });
}

function directRoutesOf(options: AppOptions): Map<string, DirectRoute> {
  const routes = new Map<string, DirectRoute>();
  for (const mounted of options.bodyReadingRouters ?? [])
    if (mounted.direct)
      routes.set(mounted.path, {
        kind: 'raw',
        serve: mounted.direct,
        bodyLimit: mounted.bodyLimit ?? options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      });
  for (const channel of options.channels)
    for (const route of channel.jsonPostRoutes?.(options.gate) ?? [])
      routes.set(`${channelMountPath(channel)}${route.path}`, { kind: 'json', route });
  return routes;
}

function channelMountPath(channel: InputChannel): string {
  return `/webhooks/${channel.urlPrefix ?? channel.name}`;
}

/**
 * One Express app for the whole port: `GET /`, every channel under `/webhooks/<prefix>/`, the routers
 * given (HTTP API, A2A, metrics) and optionally a public `GET /status`. Bad bodies and unknown routes
 * get Rasa's JSON error body, never a stack trace.
 */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // no hash of every response body: webhook and JSON-RPC answers are never cached or revalidated (the
  // agent card sets its own ETag)
  app.disable('etag');
  app.set('trust proxy', false);
  if (options.requestLog) app.use(options.requestLog.middleware());
  if (options.cors && options.cors.length > 0) app.use(corsMiddleware(options.cors));
  for (const mounted of options.bodyReadingRouters ?? []) app.use(mounted.path, mounted.router);
  app.use(
    express.json({ limit: options.bodyLimit ?? DEFAULT_BODY_LIMIT, type: jsonTypes, verify: requireUtf8 }),
  );
  app.use(bodyDepthGuard());
  app.get('/', (_request, response) => {
    response.type('text/plain').send(`Hello from Parley: ${PARLEY_VERSION}`);
  });
  for (const mounted of options.routers ?? []) app.use(mounted.path, mounted.router);
  if (options.publicStatus) app.get('/status', healthHandler({ gate: options.gate }));
  for (const channel of options.channels) app.use(channelMountPath(channel), channel.router(options.gate));
  app.use((request, response) => {
    sendRasaError(response, {
      status: 404,
      reason: 'NotFound',
      message: `Requested URL ${request.path} not found`,
    });
  });
  app.use(errorHandler);
  return app;
}

/** JSON bodies, also when a client forgets the content type (curl -d sends form encoding). */
function jsonTypes(request: { headers: Record<string, unknown> }): boolean {
  const type = String(request.headers['content-type'] ?? '');
  return type === '' || type.includes('json') || type.startsWith('application/x-www-form-urlencoded');
}

/**
 * JSON text is UTF-8 (RFC 8259 §8.1). Other bytes would be read as U+FFFD, so two different senders
 * would become one conversation and texts would change unseen: the body is refused (a 400 through
 * the error handler) unless the client declared another charset the parser reads.
 */
function requireUtf8(_request: unknown, _response: unknown, body: Buffer, encoding: string): void {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(body))
    throw Object.assign(new Error('The request body is not UTF-8.'), {
      status: 400,
      type: 'encoding.invalid',
    });
}

const errorHandler: ErrorRequestHandler = (error: unknown, _request, response, next) => {
  if (response.headersSent) {
    next(error);
    return;
  }
  writeJson(response, bodyProblemAnswer(error));
};
