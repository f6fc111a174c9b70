import { randomUUID } from 'node:crypto';
import { channelConversationIdProblem } from '../../core/text/identifiers.js';
import { isRecord, metadataOf } from '../request-fields.js';

/**
 * A client-chosen session id: a non-empty string (or a number) that is a usable conversation id (at
 * most 255 characters, no control or bidi characters) outside the A2A server's `a2a:` namespace.
 */
export function sessionIdOf(data: unknown): string | undefined {
  const value = isRecord(data) ? data['session_id'] : undefined;
  const id = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof id !== 'string' || channelConversationIdProblem(id) !== undefined) return undefined;
  return id;
}

/** Rasa's `uuid4().hex`: what `session_confirm` carries when the client asked for no particular id. */
export function newSessionId(): string {
  return randomUUID().replace(/-/g, '');
}

/** What the user message event carried, or why it is ignored. */
export type UserPayload =
  | {
      readonly ok: true;
      readonly text: string;
      readonly sessionId: string | undefined;
      readonly metadata: Record<string, unknown> | undefined;
      /** set when metadata was sent but unusable: the message still goes through, without it */
      readonly metadataProblem?: string;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * `{message, session_id?, <metadata_key>?}`. Metadata is read from the configured key, else from
 * `customData` (older widgets, e.g. rasa-webchat), and may be a JSON string of an object.
 */
export function userPayloadOf(data: unknown, metadataKey: string): UserPayload {
  if (!isRecord(data)) return { ok: false, reason: 'the message event must carry an object' };
  const message = data['message'];
  if (typeof message !== 'string') return { ok: false, reason: "'message' must be a string" };
  const key = data[metadataKey] !== undefined && data[metadataKey] !== null ? metadataKey : 'customData';
  const metadata = metadataOf(data, key);
  return {
    ok: true,
    text: message.trim(),
    sessionId: sessionIdOf(data),
    metadata:
      metadata.ok && metadata.value && Object.keys(metadata.value).length > 0 ? metadata.value : undefined,
    ...(metadata.ok ? {} : { metadataProblem: metadata.error }),
  };
}
