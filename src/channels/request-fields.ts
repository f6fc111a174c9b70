import { channelConversationIdProblem } from '../core/text/identifiers.js';
import { MAX_STORED_METADATA_LENGTH } from '../core/text/stored-text.js';

/** A request body field check: the value, or the reason it is unusable (a 400 for the client). */
export type FieldResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rasa's sender: a string (numbers are accepted as their text), `default` when absent. */
export function senderOf(body: Record<string, unknown>, key = 'sender'): FieldResult<string> {
  const sender = body[key];
  if (sender === undefined || sender === null) return { ok: true, value: 'default' };
  if (typeof sender === 'number' && Number.isFinite(sender)) return { ok: true, value: String(sender) };
  if (typeof sender !== 'string' || sender.trim() === '')
    return { ok: false, error: `'${key}' must be a non-empty string or a number.` };
  const problem = channelConversationIdProblem(sender);
  if (problem) return { ok: false, error: `'${key}' ${problem}.` };
  return { ok: true, value: sender };
}

export function messageTextOf(body: Record<string, unknown>, key = 'message'): FieldResult<string> {
  const text = body[key];
  if (typeof text !== 'string') return { ok: false, error: `'${key}' must be a string.` };
  return { ok: true, value: text.trim() };
}

/** Metadata: an object, or a JSON string of one (older widgets send it that way). */
export function metadataOf(
  body: Record<string, unknown>,
  key = 'metadata',
): FieldResult<Record<string, unknown> | undefined> {
  const metadata = body[key];
  if (metadata === undefined || metadata === null) return { ok: true, value: undefined };
  if (isRecord(metadata)) return withinCap(metadata, key);
  if (typeof metadata === 'string') {
    try {
      const parsed: unknown = JSON.parse(metadata);
      if (isRecord(parsed)) return withinCap(parsed, key);
    } catch {
      // reported below
    }
  }
  return { ok: false, error: `'${key}' must be an object.` };
}

/** metadata is stored with the message: a client is told when it sends more than is kept */
function withinCap(
  metadata: Record<string, unknown>,
  key: string,
): FieldResult<Record<string, unknown> | undefined> {
  if (JSON.stringify(metadata).length <= MAX_STORED_METADATA_LENGTH) return { ok: true, value: metadata };
  return { ok: false, error: `'${key}' must be at most ${MAX_STORED_METADATA_LENGTH} characters as JSON.` };
}
