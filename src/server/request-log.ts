import { randomUUID } from 'node:crypto';
import type { Logger } from '../runtime/logger.js';
import { withFields } from '../runtime/logger.js';
import type { NodeMiddleware } from './direct-routes.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An id from the client (or a proxy) is kept only if it is short and printable: it is logged as is. */
const ACCEPTED_ID = /^[\w.:@/+=-]{1,128}$/;

/** Paths polled by machines, logged at debug so that they do not drown the traffic. */
const ROUTINE_PATHS = new Set(['/', '/status', '/metrics']);

/** where a request carries its scope (set by the middleware) */
const SCOPE = Symbol('parley.requestScope');

/** What a request in flight carries for its log lines. */
class RequestScope {
  /** fields others add to the request's line (the turn it ran) */
  readonly extra: Record<string, unknown> = {};
  written = false;
  private bound: Logger | undefined;

  constructor(
    private readonly base: Logger,
    readonly requestId: string,
  ) {}

  /** made on the first line: most requests log one line only */
  get logger(): Logger {
    this.bound ??= withFields(this.base, { requestId: this.requestId });
    return this.bound;
  }
}

/** A turn an HTTP request runs: its fields can go on the request's line. */
export interface RequestTurn {
  /** false when the request's line is written already: log the turn yourself */
  annotate(fields: Readonly<Record<string, unknown>>): boolean;
  /** the turn is over: lines about its conversation no longer belong to the request */
  end(): void;
}

/** Links a turn to the HTTP request that carried it (the turn gate and the A2A turns use it). */
export interface RequestTurns {
  /** undefined when `request` is not a request this log has seen (a socket.io message) */
  begin(request: object | undefined, conversationId: string): RequestTurn | undefined;
}

/**
 * The logger of the request (its lines carry `requestId`), or `fallback` for a request the log has not
 * seen (routers used without the server's middleware, in tests).
 */
export function requestLogger(request: object, fallback: Logger): Logger {
  return scopeOf(request)?.logger ?? fallback;
}

function scopeOf(request: object | undefined): RequestScope | undefined {
  return (request as { [SCOPE]?: RequestScope } | undefined)?.[SCOPE];
}

/**
 * Request logging for one server: every request gets an id (the client's `X-Request-Id` when it is
 * acceptable, else a fresh UUID), echoed in the response header, and one log line when the response
 * is done (method, path without the query string, which may carry a token, status, duration, and the
 * conversation, channel, duration and outcome of the turn it ran, if any: one line per turn).
 *
 * Lines logged while a request's turn runs carry the request's id: `logger` finds the request by the
 * line's `conversationId` (every line about a turn has one), and code holding the request itself logs
 * through `requestLogger`. Not AsyncLocalStorage: on Node 20 it installs promise hooks that every
 * promise of the process pays for, about a fifth of a REST turn's CPU under load.
 */
export class RequestLog implements RequestTurns {
  /** the logger to give to everything that runs inside requests (gate, channels, agent) */
  readonly logger: Logger;
  private readonly base: Logger;
  private readonly newId: () => string;
  /** the request running each conversation's turn now */
  private readonly turns = new Map<string, RequestScope>();

  constructor(options: { logger: Logger; newId?: () => string }) {
    this.base = options.logger;
    this.newId = options.newId ?? randomUUID;
    this.logger = contextual(this.base, (fields) => this.scopeOfLine(fields)?.logger);
  }

  begin(request: object | undefined, conversationId: string): RequestTurn | undefined {
    const scope = scopeOf(request);
    if (!scope) return undefined;
    this.turns.set(conversationId, scope);
    return {
      annotate: (fields) => {
        if (scope.written) return false;
        Object.assign(scope.extra, fields);
        return true;
      },
      end: () => {
        if (this.turns.get(conversationId) === scope) this.turns.delete(conversationId);
      },
    };
  }

  middleware(): NodeMiddleware {
    return (request, response, next) => {
      const given = request.headers['x-request-id'];
      const requestId = typeof given === 'string' && ACCEPTED_ID.test(given) ? given : this.newId();
      response.setHeader(REQUEST_ID_HEADER, requestId);
      const scope = new RequestScope(this.base, requestId);
      (request as { [SCOPE]?: RequestScope })[SCOPE] = scope;
      // originalUrl: mounted routers rewrite `path` while they handle the request
      const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
      const path = url.split('?')[0] ?? '/';
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
      next();
    };
  }

  private scopeOfLine(fields: Readonly<Record<string, unknown>>): RequestScope | undefined {
    const conversationId = fields['conversationId'];
    return typeof conversationId === 'string' ? this.turns.get(conversationId) : undefined;
  }
}

type Fields = Record<string, unknown>;

/** A logger that writes through the logger of the request running the line's conversation, else `base`. */
function contextual(base: Logger, current: (fields: Fields) => Logger | undefined): Logger {
  const pick = (fields: Fields) => current(fields) ?? base;
  return {
    info: (fields, message) => pick(fields).info(fields, message),
    warn: (fields, message) => pick(fields).warn(fields, message),
    error: (fields, message) => pick(fields).error(fields, message),
    debug: (fields, message) => pick(fields).debug?.(fields, message),
    // bound per call, so a child made at start-up still carries the id of each request it logs in
    child: (bindings) =>
      contextual(withFields(base, bindings), (fields) => {
        const logger = current({ ...bindings, ...fields });
        return logger ? withFields(logger, bindings) : undefined;
      }),
  };
}
