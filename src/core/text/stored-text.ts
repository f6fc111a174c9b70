/**
 * How much of a user's message a conversation keeps. Understanding reads far less (420 characters by
 * default), and the text is stored several times over (the event, its parse data, the A2A history),
 * so a client sending megabytes would otherwise fill the tracker store with one message.
 */
export const MAX_STORED_TEXT_LENGTH = 4_096;

/** the metadata key that records a cut message's length before the cut */
export const ORIGINAL_TEXT_LENGTH_KEY = 'original_text_length';

export interface StoredText {
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
}

/** The text as stored: cut at the cap (never inside a surrogate pair), its length noted in the metadata. */
export function storedUserText(
  text: string,
  metadata: Readonly<Record<string, unknown>> | undefined,
  limit = MAX_STORED_TEXT_LENGTH,
): StoredText {
  if (text.length <= limit) return { text, metadata };
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return { text: text.slice(0, end), metadata: { ...metadata, [ORIGINAL_TEXT_LENGTH_KEY]: text.length } };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
