/**
 * Server-sent events for streamed JSON-RPC answers (spec/a2a.md §2.10): each event is one complete
 * JSON-RPC response on a `data:` line; a `: keep-alive` comment goes out every interval (15 s by
 * default) so proxies do not cut a quiet stream; the stream ends at a final event.
 */
import type { ServerResponse } from 'node:http';
import { holdForFinalEvent } from './open-streams.js';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;

export class SseStream {
  private readonly response: ServerResponse;
  private readonly id: unknown;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private readonly onClose: (() => void)[] = [];

  constructor(options: { response: ServerResponse; id: unknown; keepAliveMs: number }) {
    this.response = options.response;
    this.id = options.id;
    // set one by one, not through writeHead: a shutdown finds open streams by their content type
    this.response.statusCode = 200;
    this.response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    this.response.setHeader('Cache-Control', 'no-cache');
    this.response.setHeader('Connection', 'keep-alive');
    this.response.setHeader('X-Accel-Buffering', 'no');
    this.response.flushHeaders();
    this.timer = setInterval(() => {
      if (!this.isClosed) this.response.write(': keep-alive\n\n');
    }, options.keepAliveMs);
    this.response.on('close', () => this.end());
  }

  /** true once ended here or elsewhere (a shutdown ends open streams before 'close' is emitted) */
  get isClosed(): boolean {
    return this.closed || this.response.writableEnded;
  }

  /** runs when the stream ends, whoever ends it */
  whenClosed(callback: () => void): void {
    if (this.closed) callback();
    else this.onClose.push(callback);
  }

  /** a shutdown lets this stream's final event (waiting for its task to be stored) go out first */
  holdForFinalEvent(sent: Promise<unknown>): void {
    holdForFinalEvent(this.response, sent);
  }

  send(result: unknown): void {
    if (this.isClosed) return;
    this.response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: this.id, result })}\n\n`);
  }

  sendError(error: unknown): void {
    if (this.isClosed) return;
    this.response.write(`event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: this.id, error })}\n\n`);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const callback of this.onClose.splice(0)) callback();
    if (!this.response.writableEnded) this.response.end();
  }
}
