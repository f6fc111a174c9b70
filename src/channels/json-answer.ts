import type { ServerResponse } from 'node:http';

/** What a JSON endpoint answers: a status and a body, written by whichever HTTP layer serves it. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Writes a JSON answer as Express's `res.json` does (same content type, no ETag), in one `end`: the
 * headers and the body leave in one write.
 */
export function writeJson(response: ServerResponse, answer: JsonAnswer): void {
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}
