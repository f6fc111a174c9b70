/**
 * POSTs one push notification: the host is resolved and checked by the URL guard at every attempt (not
 * only when the config was set) and the socket connects to that checked address, the TLS name and
 * `Host` staying the URL's. Redirects are not followed (a 3xx is a failed attempt). Each attempt has a
 * timeout; network errors, timeouts, 429 and 5xx are retried with exponential backoff. A failure is
 * logged and reported as `false`, never thrown: a receiver that is down must not fail the task, and
 * nothing a config holds may throw out of a delivery, which runs in the background where a rejection
 * would be unhandled and end the process.
 */
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Logger } from '../../runtime/logger.js';
import type { ResolvedAddress, UrlGuard } from './url-guard.js';

export interface PushSenderOptions {
  readonly guard: UrlGuard;
  readonly logger: Logger;
  /** per attempt */
  readonly timeoutMs?: number;
  /** attempts after the first */
  readonly retries?: number;
  /** the first retry waits this long, each next one twice as long */
  readonly backoffMs?: number;
}

export interface PushDelivery {
  /** aborts the delivery (server shutdown): no attempt is started or finished after it */
  readonly signal?: AbortSignal;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** for the logs */
  readonly taskId: string;
  readonly configId: string;
}

export const DEFAULT_PUSH_TIMEOUT_MS = 10_000;
export const DEFAULT_PUSH_RETRIES = 2;
export const DEFAULT_PUSH_BACKOFF_MS = 500;

type Attempt =
  { readonly ok: true } | { readonly ok: false; readonly retry: boolean; readonly reason: string };

export class PushSender {
  private readonly options: PushSenderOptions;

  constructor(options: PushSenderOptions) {
    this.options = options;
  }

  async deliver(delivery: PushDelivery): Promise<boolean> {
    try {
      return await this.attempts(delivery);
    } catch (error) {
      // a fault of our own (not of the receiver): still only a failed notification
      this.options.logger.error(
        { taskId: delivery.taskId, configId: delivery.configId, reason: reasonOf(error) },
        'a2a push notification failed',
      );
      return false;
    }
  }

  private async attempts(delivery: PushDelivery): Promise<boolean> {
    const retries = this.options.retries ?? DEFAULT_PUSH_RETRIES;
    const backoff = this.options.backoffMs ?? DEFAULT_PUSH_BACKOFF_MS;
    const log = { taskId: delivery.taskId, configId: delivery.configId, host: delivery.url.host };
    for (let attempt = 0; ; attempt += 1) {
      if (delivery.signal?.aborted) return false;
      const result = await this.attempt(delivery);
      if (result.ok) return true;
      if (!result.retry || attempt >= retries || delivery.signal?.aborted) {
        this.options.logger.error(
          { ...log, attempts: attempt + 1, reason: result.reason },
          'a2a push notification failed',
        );
        return false;
      }
      const retryInMs = backoff * 2 ** attempt;
      this.options.logger.warn(
        { ...log, attempt: attempt + 1, retryInMs, reason: result.reason },
        'a2a push retrying',
      );
      await pause(retryInMs, delivery.signal);
    }
  }

  private async attempt(delivery: PushDelivery): Promise<Attempt> {
    let address: ResolvedAddress;
    try {
      address = await this.options.guard.resolve(delivery.url);
    } catch (error) {
      return { ok: false, retry: false, reason: reasonOf(error) };
    }
    return new Promise<Attempt>((resolve) => {
      try {
        this.send(delivery, address, resolve);
      } catch (error) {
        // Node refused the request itself (a header value it will not send, ERR_INVALID_CHAR): the
        // same request would be refused again, so no retry
        resolve({ ok: false, retry: false, reason: reasonOf(error) });
      }
    });
  }

  /**
   * Starts the request; throws when Node refuses it (the caller turns that into a failed attempt).
   * The timeout is a deadline for the whole attempt, not only for silence: a receiver trickling its
   * answer a byte at a time would otherwise hold the socket and the body for ever. The status is all
   * that counts, so the connection is dropped as soon as it arrived.
   */
  private send(delivery: PushDelivery, address: ResolvedAddress, resolve: (result: Attempt) => void): void {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
    const request = (delivery.url.protocol === 'https:' ? httpsRequest : httpRequest)(delivery.url, {
      method: 'POST',
      headers: { ...delivery.headers, 'content-length': Buffer.byteLength(delivery.body) },
      lookup: pinned(address),
      timeout: timeoutMs,
      agent: false,
      ...(delivery.signal ? { signal: delivery.signal } : {}),
    } satisfies RequestOptions);
    const deadline = setTimeout(() => request.destroy(new Error('timed out')), timeoutMs);
    deadline.unref();
    request.on('close', () => clearTimeout(deadline));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      request.destroy();
      if (status >= 200 && status < 300) resolve({ ok: true });
      else resolve({ ok: false, retry: status === 429 || status >= 500, reason: `HTTP ${status}` });
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve({ ok: false, retry: true, reason: error.message }));
    try {
      request.end(delivery.body);
    } catch (error) {
      // no socket left open behind a request that was never sent
      request.destroy();
      throw error;
    }
  }
}

/** waits `ms`, or less when the signal aborts */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** a lookup that answers the checked address whatever DNS says now */
function pinned(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: resolved.address, family: resolved.family }]);
    else callback(null, resolved.address, resolved.family);
  };
}
