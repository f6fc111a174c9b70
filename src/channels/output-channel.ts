import type { BotMessage, Button } from './bot-message.js';

/**
 * Where a channel sends bot messages. `sendResponse` dispatches like Rasa's `OutputChannel.send_response`
 * (quick replies, else buttons, else text; then custom, image, attachment, elements); a channel overrides
 * the parts it renders natively and inherits Rasa's plain-text renderings of the rest.
 */
export abstract class OutputChannel {
  abstract readonly name: string;

  abstract sendText(recipientId: string, text: string): Promise<void>;

  async sendResponse(recipientId: string, message: BotMessage): Promise<void> {
    const text = message.text ?? '';
    if (message.quick_replies && message.quick_replies.length > 0)
      await this.sendQuickReplies(recipientId, text, message.quick_replies);
    else if (message.buttons && message.buttons.length > 0)
      await this.sendTextWithButtons(recipientId, text, message.buttons);
    else if (text) await this.sendText(recipientId, text);
    if (isPresent(message.custom)) await this.sendCustom(recipientId, message.custom);
    if (message.image) await this.sendImage(recipientId, message.image);
    if (isPresent(message.attachment)) await this.sendAttachment(recipientId, message.attachment);
    if (message.elements && message.elements.length > 0)
      await this.sendElements(recipientId, message.elements);
  }

  async sendTextWithButtons(recipientId: string, text: string, buttons: readonly Button[]): Promise<void> {
    await this.sendText(recipientId, text);
    for (const [index, button] of buttons.entries())
      await this.sendText(recipientId, `${index + 1}: ${button.title} (${button.payload})`);
  }

  sendQuickReplies(recipientId: string, text: string, replies: readonly Button[]): Promise<void> {
    return this.sendTextWithButtons(recipientId, text, replies);
  }

  sendImage(recipientId: string, url: string): Promise<void> {
    return this.sendText(recipientId, `Image: ${url}`);
  }

  sendAttachment(recipientId: string, attachment: unknown): Promise<void> {
    return this.sendText(recipientId, `Attachment: ${String(attachment)}`);
  }

  sendCustom(recipientId: string, custom: unknown): Promise<void> {
    return this.sendText(recipientId, JSON.stringify(custom));
  }

  async sendElements(recipientId: string, elements: readonly unknown[]): Promise<void> {
    for (const element of elements) {
      const fields =
        typeof element === 'object' && element !== null ? (element as Record<string, unknown>) : {};
      const text = `${String(fields['title'] ?? '')} : ${String(fields['subtitle'] ?? '')}`;
      const buttons = Array.isArray(fields['buttons']) ? (fields['buttons'] as Button[]) : [];
      await this.sendTextWithButtons(recipientId, text, buttons);
    }
  }
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}
