/**
 * Reads a response body as text up to a size: a misbehaving action server answering megabytes must
 * not hold them all in the memory of a turn. Past the bound the stream is cancelled.
 */

/** 8 MiB: far above any real answer (events and responses), low enough to keep a turn's memory bounded */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class ResponseTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLarge(maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
