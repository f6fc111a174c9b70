import type { ParseData } from '../core/events/types.js';
import type { Understanding } from '../core/ports.js';
import { storedUserText } from '../core/text/stored-text.js';

interface MessageText {
  readonly text: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The message as it is stored: its text and metadata cut to the stored limits (the same object when
 * nothing had to be cut, so the common case allocates nothing).
 */
export function asStored<M extends MessageText>(message: M): M {
  const stored = storedUserText(message.text, message.metadata);
  if (stored.text === message.text && stored.metadata === message.metadata) return message;
  // metadata is undefined in both or cut in the stored one, so spreading it over the message is enough
  return { ...message, text: stored.text, ...(stored.metadata ? { metadata: stored.metadata } : {}) };
}

/** Parse data as Rasa stores it on a `user` event: the text, and the commands understanding produced. */
export function parseDataWithCommands(text: string, understanding: Understanding): ParseData {
  return {
    ...understanding.parseData,
    text,
    commands: understanding.commands.map((command) => ({ ...command })),
  };
}
