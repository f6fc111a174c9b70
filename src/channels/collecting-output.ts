import type { Button } from './bot-message.js';
import { OutputChannel } from './output-channel.js';

/** One entry of the REST channel's response array (Rasa's CollectingOutputChannel message). */
export type CollectedMessage = Readonly<Record<string, unknown>> & { readonly recipient_id: string };

/**
 * Collects messages in Rasa's REST shape: text split on blank lines, text with buttons kept whole,
 * custom / image / attachment as their own entries. `onMessage` sees each entry as it is collected.
 */
export class CollectingOutputChannel extends OutputChannel {
  readonly name: string;
  readonly messages: CollectedMessage[] = [];
  private readonly onMessage: ((message: CollectedMessage) => void | Promise<void>) | undefined;

  constructor(
    options: { name?: string; onMessage?: (message: CollectedMessage) => void | Promise<void> } = {},
  ) {
    super();
    this.name = options.name ?? 'collector';
    this.onMessage = options.onMessage;
  }

  async sendText(recipientId: string, text: string): Promise<void> {
    for (const part of text.trim().split('\n\n')) await this.collect(recipientId, { text: part });
  }

  override sendTextWithButtons(recipientId: string, text: string, buttons: readonly Button[]): Promise<void> {
    return this.collect(recipientId, { text: text === '' ? undefined : text, buttons });
  }

  override sendImage(recipientId: string, url: string): Promise<void> {
    return this.collect(recipientId, { image: url });
  }

  override sendAttachment(recipientId: string, attachment: unknown): Promise<void> {
    return this.collect(recipientId, { attachment });
  }

  override sendCustom(recipientId: string, custom: unknown): Promise<void> {
    return this.collect(recipientId, { custom });
  }

  private async collect(recipientId: string, fields: Record<string, unknown>): Promise<void> {
    const message: Record<string, unknown> = { recipient_id: recipientId };
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined && value !== null) message[key] = value;
    const collected = message as CollectedMessage;
    this.messages.push(collected);
    if (this.onMessage) await this.onMessage(collected);
  }
}
