import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../runtime/logger.js';
import { withFields } from '../runtime/logger.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An id from the client (or a proxy) is kept only if it is short and printable: it is logged as is. */
const ACCEPTED_ID = /^[\w.:@/+=-]{1,128}$/;

/** Paths polled by machines, logged at debug so that they do not drown the traffic. */
const ROUTINE_PATHS = new Set(['/', '/status', '/metrics']);

/**
 * Request logging for one server: every request gets an id (the client's `X-Request-Id` when it is
 * acceptable, else a fresh UUID), echoed in the response header, and one log line when the response
 * is done (method, path without the query string, which may carry a token, status, duration, and the
 * conversation, channel, duration and outcome of the turn it ran, if any: one line per turn).
 * While a request is handled, `logger` writes through a child logger bound to its id, so the turn
 * logs of channels and of the agent carry `requestId` next to their `conversationId`.
 */
/** What a request in flight carries for its log line. */
interface RequestScope {
  readonly logger: Logger;
  /** fields others add to the request's line (the turn it ran) */
  readonly extra: Record<string, unknown>;
  written: boolean;
}

export class RequestLog {
  /** the logger to give to everything that runs inside requests (gate, channels, agent) */
  readonly logger: Logger;
  private readonly base: Logger;
  private readonly newId: () => string;
  private readonly current = new AsyncLocalStorage<RequestScope>();

  constructor(options: { logger: Logger; newId?: () => string }) {
    this.base = options.logger;
    this.newId = options.newId ?? randomUUID;
    this.logger = contextual(this.base, () => this.current.getStore()?.logger);
  }

  /**
   * Adds fields to the line of the request running now, so that a turn and the request that carried
   * it make one log line; false when there is none (or its line is written already): log them yourself.
   */
  annotate(fields: Readonly<Record<string, unknown>>): boolean {
    const scope = this.current.getStore();
    if (!scope || scope.written) return false;
    Object.assign(scope.extra, fields);
    return true;
  }

  middleware(): RequestHandler {
    return (request, response, next) => {
      const given = request.get(REQUEST_ID_HEADER);
      const requestId = given !== undefined && ACCEPTED_ID.test(given) ? given : this.newId();
      response.setHeader(REQUEST_ID_HEADER, requestId);
      const scope: RequestScope = { logger: withFields(this.base, { requestId }), extra: {}, written: false };
      // originalUrl: mounted routers rewrite `path` while they handle the request
      const path = request.originalUrl.split('?')[0] ?? '/';
      const started = performance.now();
      const done = (aborted: boolean) => {
        scope.written = true;
        const fields = {
          method: request.method,
          path,
          status: response.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...scope.extra,
          ...(aborted ? { aborted: true } : {}),
        };
        const { logger } = scope;
        if (response.statusCode >= 500) logger.error(fields, 'http.request');
        else if (ROUTINE_PATHS.has(path) && !aborted) logger.debug?.(fields, 'http.request');
        else logger.info(fields, 'http.request');
      };
      response.once('finish', () => done(false));
      // 'close' without 'finish': the client went away before the response was complete
      response.once('close', () => {
        if (!response.writableFinished) done(true);
      });
      this.current.run(scope, next);
    };
  }
}

/** A logger that writes through the current request's logger when there is one, else through `base`. */
function contextual(base: Logger, current: () => Logger | undefined): Logger {
  const pick = () => current() ?? base;
  return {
    info: (fields, message) => pick().info(fields, message),
    warn: (fields, message) => pick().warn(fields, message),
    error: (fields, message) => pick().error(fields, message),
    debug: (fields, message) => pick().debug?.(fields, message),
    // bound per call, so a child made at start-up still carries the id of each request it logs in
    child: (bindings) =>
      contextual(withFields(base, bindings), () => {
        const logger = current();
        return logger ? withFields(logger, bindings) : undefined;
      }),
  };
}
