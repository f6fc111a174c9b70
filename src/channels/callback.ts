import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Logger } from '../runtime/logger.js';
import type { ChannelContext, ChannelFactory, InputChannel } from './channel.js';
import { CollectingOutputChannel } from './collecting-output.js';
import type { CollectedMessage } from './collecting-output.js';
import { sendRasaError, sendTurnFailure } from './http-errors.js';
import { parseRestMessage } from './rest.js';
import type { OutputChannel } from './output-channel.js';

/** The callback URL and how to authenticate to it (Rasa's EndpointConfig keys). */
export interface CallbackEndpoint {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/**
 * Rasa's callback channel: the webhook answers `success` once the turn is done, and every bot message
 * is POSTed as JSON to the configured URL as soon as the turn produces it. A failing callback is logged
 * and does not stop the turn.
 */
export class CallbackChannel implements InputChannel {
  readonly name = 'callback';
  private readonly endpoint: CallbackEndpoint;
  private readonly logger: Logger;

  constructor(options: { endpoint: CallbackEndpoint; logger: Logger }) {
    this.endpoint = options.endpoint;
    this.logger = options.logger;
  }

  router(context: ChannelContext): Router {
    const router = Router();
    router.get('/', (_request, response) => {
      response.json({ status: 'ok' });
    });
    router.post('/webhook', (request, response) => {
      void this.receive(request, response, context);
    });
    return router;
  }

  outputChannel(): OutputChannel {
    return new CollectingOutputChannel({ name: this.name, onMessage: (message) => this.post(message) });
  }

  private async receive(request: Request, response: Response, context: ChannelContext): Promise<void> {
    const parsed = parseRestMessage(request.body, this.name);
    if (!parsed.ok) {
      sendRasaError(response, { status: 400, reason: 'BadRequest', message: parsed.error });
      return;
    }
    try {
      await context.handleMessage({ ...parsed.value, output: this.outputChannel(), request });
      response.type('text/plain').send('success');
    } catch (error) {
      sendTurnFailure(response, error);
    }
  }

  private async post(message: CollectedMessage): Promise<void> {
    const url = new URL(this.endpoint.url);
    for (const [key, value] of Object.entries(this.endpoint.params)) url.searchParams.set(key, value);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...this.endpoint.headers },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(this.endpoint.timeoutMs),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
    } catch (error) {
      this.logger.error(
        { channel: this.name, url: this.endpoint.url, error: String(error) },
        'Failed to send output message to callback',
      );
    }
  }
}

/** Reads `callback: {url, headers?, params?, token?, token_name?, basic_auth?}` from credentials.yml. */
export function callbackEndpointOf(credentials: Readonly<Record<string, unknown>>): CallbackEndpoint {
  const url = credentials['url'];
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw new Error("credentials.yml: the callback channel needs 'url' (http:// or https://).");
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(recordOf(credentials['headers']))) headers[key] = String(value);
  const basic = recordOf(credentials['basic_auth']);
  if (typeof basic['username'] === 'string')
    headers['Authorization'] =
      `Basic ${Buffer.from(`${basic['username']}:${String(basic['password'] ?? '')}`).toString('base64')}`;
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(recordOf(credentials['params']))) params[key] = String(value);
  if (typeof credentials['token'] === 'string')
    params[typeof credentials['token_name'] === 'string' ? credentials['token_name'] : 'token'] =
      credentials['token'];
  const timeout = credentials['timeout'];
  return {
    url,
    headers,
    params,
    timeoutMs: typeof timeout === 'number' && timeout > 0 ? timeout * 1000 : 10_000,
  };
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export const CALLBACK_CHANNEL: ChannelFactory = {
  name: 'callback',
  create: (credentials, options) =>
    new CallbackChannel({ endpoint: callbackEndpointOf(credentials), logger: options.logger }),
};
