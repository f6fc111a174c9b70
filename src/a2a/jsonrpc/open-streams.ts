/**
 * The SSE answers of the JSON-RPC endpoint still open, so that a graceful shutdown ends them cleanly
 * (a last comment, then the chunked body's proper end) instead of the server cutting the connection:
 * a client sees the stream finish and may resubscribe elsewhere. A stream of a running turn ends by
 * itself before, with the turn's final event, because shutdown waits for the turns first, and then
 * for the final events still waiting for their task to be stored.
 */
import { Router } from 'express';
import type { RequestHandler, Response } from 'express';
import type { TurnAdmission } from '../turn-admission.js';

export class OpenStreams {
  private readonly responses = new Set<Response>();

  /** middleware: remembers each response of the endpoint until it is over */
  readonly track: RequestHandler = (_request, response, next) => {
    this.responses.add(response);
    response.on('close', () => this.responses.delete(response));
    next();
  };

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
const FINAL_EVENT = 'parleyFinalEvent';

/** Marks a stream as waiting to send its final event (sse.ts): a shutdown lets it go out first. */
export function holdForFinalEvent(response: Response, sent: Promise<unknown>): void {
  response.locals[FINAL_EVENT] = sent;
}

function finalEventOf(response: Response): Promise<unknown> {
  return (response.locals[FINAL_EVENT] as Promise<unknown> | undefined) ?? Promise.resolve();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function isOpenStream(response: Response): boolean {
  return (
    response.headersSent &&
    !response.writableEnded &&
    String(response.getHeader('content-type') ?? '').startsWith('text/event-stream')
  );
}

/**
 * The JSON-RPC router with its open streams tracked, and the shutdown hook: once the server's running
 * turns are done, the open streams end and the task timers stop.
 */
export function withGracefulShutdown(options: {
  readonly rpc: Router;
  readonly handler: { close(): void };
  readonly admission: TurnAdmission | undefined;
}): Router {
  const streams = new OpenStreams();
  options.admission?.onDrained(async () => {
    await streams.endAll();
    options.handler.close();
  });
  const router = Router();
  router.use(streams.track, options.rpc);
  return router;
}
