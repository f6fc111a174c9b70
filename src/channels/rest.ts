import { Router } from 'express';
import type { Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { ChannelContext, ChannelFactory, InputChannel, JsonPostRoute } from './channel.js';
import { CollectingOutputChannel } from './collecting-output.js';
import { rasaErrorAnswer, sendRasaError, turnFailureAnswer } from './http-errors.js';
import type { JsonAnswer } from './json-answer.js';
import { writeJson } from './json-answer.js';
import { isRecord, messageTextOf, metadataOf, senderOf } from './request-fields.js';
import type { UserMessage } from './channel.js';

/**
 * Rasa's REST channel: `POST /webhooks/rest/webhook` with `{sender, message, metadata?, input_channel?}`
 * answers with the bot's messages as a JSON array; `?stream=true` sends them as NDJSON while the turn runs.
 */
export class RestChannel implements InputChannel {
  readonly name: string;

  constructor(options: { name?: string } = {}) {
    this.name = options.name ?? 'rest';
  }

  router(context: ChannelContext): Router {
    const router = Router();
    router.get('/', (_request, response) => {
      response.json({ status: 'ok' });
    });
    router.post('/webhook', (request, response) => {
      void this.receive(request, response, context);
    });
    // Sanic answers other methods with 405; a 404 would suggest a wrong URL
    router.all('/webhook', (request, response) => {
      response.set('Allow', 'POST');
      sendRasaError(response, {
        status: 405,
        reason: 'MethodNotAllowed',
        message: `Method ${request.method} not allowed for URL ${request.baseUrl}/webhook; use POST.`,
      });
    });
    return router;
  }

  jsonPostRoutes(context: ChannelContext): readonly JsonPostRoute[] {
    return [{ path: '/webhook', answer: (body, request) => this.answer(body, request, context) }];
  }

  private async receive(request: Request, response: Response, context: ChannelContext): Promise<void> {
    if (request.query['stream'] === 'true') await this.stream(request, response, context);
    else writeJson(response, await this.answer(request.body, request, context));
  }

  /** The turn's bot messages as one JSON array, or Rasa's error body. */
  private async answer(
    body: unknown,
    request: IncomingMessage,
    context: ChannelContext,
  ): Promise<JsonAnswer> {
    const parsed = parseRestMessage(body, this.name);
    if (!parsed.ok) return rasaErrorAnswer({ status: 400, reason: 'BadRequest', message: parsed.error });
    const output = new CollectingOutputChannel({ name: this.name });
    try {
      await context.handleMessage({ ...parsed.value, output, request });
      return { status: 200, body: output.messages };
    } catch (error) {
      this.logFailure(context, parsed.value.senderId, error);
      return turnFailureAnswer(error);
    }
  }

  /** `?stream=true`: each bot message as an NDJSON line as soon as it is produced. */
  private async stream(request: Request, response: Response, context: ChannelContext): Promise<void> {
    const parsed = parseRestMessage(request.body, this.name);
    if (!parsed.ok) {
      sendRasaError(response, { status: 400, reason: 'BadRequest', message: parsed.error });
      return;
    }
    response.status(200).type('text/event-stream').flushHeaders();
    const output = new CollectingOutputChannel({
      name: this.name,
      onMessage: (message) => void response.write(`${JSON.stringify(message)}\n`),
    });
    try {
      await context.handleMessage({ ...parsed.value, output, request });
    } catch (error) {
      this.logFailure(context, parsed.value.senderId, error);
    }
    response.end();
  }

  private logFailure(context: ChannelContext, conversationId: string, error: unknown): void {
    context.logger.error(
      { channel: this.name, conversationId, error: String(error) },
      'rest.message.received.failure',
    );
  }
}

type ParsedMessage = Omit<UserMessage, 'output'>;

export function parseRestMessage(
  body: unknown,
  channelName: string,
): { ok: true; value: ParsedMessage } | { ok: false; error: string } {
  if (!isRecord(body)) return { ok: false, error: 'The request body must be a JSON object.' };
  const sender = senderOf(body);
  const text = messageTextOf(body);
  const metadata = metadataOf(body);
  const inputChannel = body['input_channel'];
  const errors = [sender, text, metadata].flatMap((field) => (field.ok ? [] : [field.error]));
  if (inputChannel !== undefined && inputChannel !== null && typeof inputChannel !== 'string')
    errors.push("'input_channel' must be a string.");
  if (!sender.ok || !text.ok || !metadata.ok || errors.length > 0)
    return { ok: false, error: errors.join(' ') };
  return {
    ok: true,
    value: {
      senderId: sender.value,
      text: text.value,
      inputChannel: typeof inputChannel === 'string' && inputChannel !== '' ? inputChannel : channelName,
      ...(metadata.value ? { metadata: metadata.value } : {}),
    },
  };
}

export const REST_CHANNEL: ChannelFactory = {
  name: 'rest',
  create: () => new RestChannel(),
};
