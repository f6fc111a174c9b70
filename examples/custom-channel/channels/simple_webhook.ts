// An example custom channel. POST /webhooks/simple/webhook with {"user": "...", "text": "..."} answers
// {"replies": ["..."]}: plain strings, buttons rendered as numbered lines by the OutputChannel defaults.
// In your own project import these types from 'parley' instead of the relative path.
import { Router } from 'express';
import type { ChannelContext, ChannelFactory, InputChannel } from '../../../src/index.js';
import { OutputChannel } from '../../../src/index.js';

/** Keeps every line the bot sends; buttons, images and custom payloads arrive as text lines. */
class PlainTextOutput extends OutputChannel {
  readonly name = 'simple';
  readonly lines: string[] = [];

  constructor(private readonly prefix: string) {
    super();
  }

  async sendText(_recipientId: string, text: string): Promise<void> {
    this.lines.push(`${this.prefix}${text}`);
  }
}

class SimpleWebhookChannel implements InputChannel {
  readonly name = 'simple';

  constructor(private readonly prefix: string) {}

  router(context: ChannelContext): Router {
    const router = Router();
    router.post('/webhook', async (request, response) => {
      const { user, text } = (request.body ?? {}) as { user?: unknown; text?: unknown };
      if (typeof user !== 'string' || typeof text !== 'string') {
        response.status(400).json({ error: "'user' and 'text' must be strings" });
        return;
      }
      const output = new PlainTextOutput(this.prefix);
      try {
        await context.handleMessage({ senderId: user, text, inputChannel: this.name, output });
        response.json({ replies: output.lines });
      } catch (error) {
        context.logger.error({ channel: this.name, error: String(error) }, 'simple channel turn failed');
        response.status(503).json({ error: 'try again later' });
      }
    });
    return router;
  }
}

export const SimpleWebhook: ChannelFactory = {
  name: 'simple',
  create: (credentials) =>
    new SimpleWebhookChannel(
      typeof credentials['reply_prefix'] === 'string' ? credentials['reply_prefix'] : '',
    ),
};
