/**
 * How much of a user's message a conversation keeps. Understanding reads far less (420 characters by
 * default), and the text is stored several times over (the event, its parse data, the A2A history),
 * so a client sending megabytes would otherwise fill the tracker store with one message.
 */
export const MAX_STORED_TEXT_LENGTH = 4_096;

/** the metadata key that records a cut message's length before the cut */
export const ORIGINAL_TEXT_LENGTH_KEY = 'original_text_length';

/**
 * How much metadata (as JSON text) a user event keeps. Channels pass what clients send, and the
 * metadata is stored with every message and kept in the conversation's snapshot.
 */
export const MAX_STORED_METADATA_LENGTH = 16_384;

/** the metadata key that records the size of metadata too large to keep */
export const DROPPED_METADATA_LENGTH_KEY = 'dropped_metadata_length';

export interface StoredText {
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The message as stored: the text cut at the cap (never inside a surrogate pair), its length noted in
 * the metadata; metadata over its cap dropped, its size noted instead.
 */
export function storedUserText(
  text: string,
  given: Readonly<Record<string, unknown>> | undefined,
  limit = MAX_STORED_TEXT_LENGTH,
): StoredText {
  const metadata = storedMetadata(given);
  if (text.length <= limit) return { text, metadata };
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return { text: text.slice(0, end), metadata: { ...metadata, [ORIGINAL_TEXT_LENGTH_KEY]: text.length } };
}

function storedMetadata(
  metadata: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> | undefined {
  if (metadata === undefined) return undefined;
  const length = JSON.stringify(metadata).length;
  return length <= MAX_STORED_METADATA_LENGTH ? metadata : { [DROPPED_METADATA_LENGTH_KEY]: length };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
