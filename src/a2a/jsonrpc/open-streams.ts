/**
 * The SSE answers of the JSON-RPC endpoint still open, so that a graceful shutdown ends them cleanly
 * (a last comment, then the chunked body's proper end) instead of the server cutting the connection:
 * a client sees the stream finish and may resubscribe elsewhere. A stream of a running turn ends by
 * itself before, with the turn's final event, because shutdown waits for the turns first.
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

  /** Ends every open event stream; other answers (still being written) are left alone. */
  endAll(): void {
    for (const response of this.responses) {
      if (!isOpenStream(response)) continue;
      response.write(': server shutting down\n\n');
      response.end();
    }
  }
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
  options.admission?.onDrained(() => {
    streams.endAll();
    options.handler.close();
  });
  const router = Router();
  router.use(streams.track, options.rpc);
  return router;
}
