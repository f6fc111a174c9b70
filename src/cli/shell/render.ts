import type { Button } from '../../channels/bot-message.js';
import { botMessageOf } from '../../channels/bot-message.js';
import type { BotUttered } from '../../core/events/types.js';

export interface RenderedMessage {
  /** what to print, one entry per line */
  readonly lines: readonly string[];
  /** the buttons (or quick replies) offered, in the order they are numbered */
  readonly choices: readonly Button[];
}

/**
 * A bot message as terminal lines, in the spirit of Rasa's `print_bot_output`: the text, then each
 * button as `1: Checking (/SetSlots(account=checking))` (a number typed next sends its payload),
 * then image, attachment, elements and custom JSON.
 */
export function renderBotMessage(event: BotUttered): RenderedMessage {
  const message = botMessageOf(event);
  const lines: string[] = [];
  if (message.text) lines.push(...message.text.split('\n'));
  const choices = [...(message.buttons ?? []), ...(message.quick_replies ?? [])];
  choices.forEach((button, index) => lines.push(`${index + 1}: ${button.title} (${button.payload})`));
  if (message.image) lines.push(`Image: ${message.image}`);
  if (message.attachment) lines.push(`Attachment: ${printable(message.attachment)}`);
  if (message.elements && message.elements.length > 0) {
    lines.push('Elements:');
    message.elements.forEach((element, index) => lines.push(`${index + 1}: ${JSON.stringify(element)}`));
  }
  if (message.custom) lines.push('Custom json:', ...JSON.stringify(message.custom, null, 2).split('\n'));
  return { lines, choices };
}

function printable(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
