/**
 * The SSE answers of the JSON-RPC endpoint still open, so that a graceful shutdown ends them cleanly
 * (a last comment, then the chunked body's proper end) instead of the server cutting the connection:
 * a client sees the stream finish and may resubscribe elsewhere. A stream of a running turn ends by
 * itself before, with the turn's final event, because shutdown waits for the turns first, and then
 * for the final events still waiting for their task to be stored.
 */
import type { ServerResponse } from 'node:http';
import { Router } from 'express';
import type { DirectRpc } from './rpc-router.js';
import type { TurnAdmission } from '../turn-admission.js';

export class OpenStreams {
  private readonly responses = new Set<ServerResponse>();

  /** remembers a response of the endpoint until it is over */
  track(response: ServerResponse): void {
    this.responses.add(response);
    response.on('close', () => this.responses.delete(response));
  }

  /**
   * Ends every open event stream once the final event it waits for is out (bounded); other answers
   * (still being written) are left alone.
   */
  async endAll(): Promise<void> {
    const finals = [...this.responses].map((response) => finalEventOf(response));
    await Promise.race([Promise.allSettled(finals), delay(FINAL_EVENT_WAIT_MS)]);
    for (const response of this.responses) {
      if (!isOpenStream(response)) continue;
      response.write(': server shutting down\n\n');
      response.end();
    }
  }
}

/** how long a shutdown waits for streams' final events still waiting for their task to be stored */
const FINAL_EVENT_WAIT_MS = 5_000;
const finalEvents = new WeakMap<ServerResponse, Promise<unknown>>();

/** Marks a stream as waiting to send its final event (sse.ts): a shutdown lets it go out first. */
export function holdForFinalEvent(response: ServerResponse, sent: Promise<unknown>): void {
  finalEvents.set(response, sent);
}

function finalEventOf(response: ServerResponse): Promise<unknown> {
  return finalEvents.get(response) ?? Promise.resolve();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function isOpenStream(response: ServerResponse): boolean {
  return (
    response.headersSent &&
    !response.writableEnded &&
    String(response.getHeader('content-type') ?? '').startsWith('text/event-stream')
  );
}

/**
 * The JSON-RPC endpoint (its router, and its direct path when it has one) with its open streams
 * tracked, and the shutdown hook: once the server's running turns are done, the open streams end and
 * the task timers stop.
 */
export function withGracefulShutdown(options: {
  readonly rpc: Router;
  readonly direct: DirectRpc | undefined;
  readonly handler: { close(): void };
  readonly admission: TurnAdmission | undefined;
}): { readonly router: Router; readonly direct: DirectRpc | undefined } {
  const streams = new OpenStreams();
  options.admission?.onDrained(async () => {
    await streams.endAll();
    options.handler.close();
  });
  const router = Router();
  router.use((_request, response, next) => {
    streams.track(response);
    next();
  }, options.rpc);
  const direct = options.direct;
  return {
    router,
    direct: direct
      ? (request, response, body) => {
          streams.track(response);
          return direct(request, response, body);
        }
      : undefined,
  };
}
