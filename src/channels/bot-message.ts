import type { BotUttered } from '../core/events/types.js';

export interface Button {
  readonly title: string;
  readonly payload: string;
}

/** A bot message as Rasa hands it to an output channel (`send_response`): text plus optional rich parts. */
export interface BotMessage {
  readonly text?: string | null;
  readonly buttons?: readonly Button[] | null;
  readonly quick_replies?: readonly Button[] | null;
  readonly image?: string | null;
  readonly attachment?: unknown;
  readonly custom?: unknown;
  readonly elements?: readonly unknown[] | null;
}

/** The message a `bot` event carries. */
export function botMessageOf(event: BotUttered): BotMessage {
  const data = event.data;
  return {
    text: event.text,
    buttons: data.buttons ?? null,
    quick_replies: Array.isArray(data.quick_replies) ? (data.quick_replies as Button[]) : null,
    image: data.image ?? null,
    attachment: data.attachment ?? null,
    custom: data.custom ?? null,
    elements: Array.isArray(data.elements) ? data.elements : null,
  };
}
