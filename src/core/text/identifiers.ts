/**
 * What an id chosen by a caller may hold (conversation ids, A2A context, message and task ids). An id
 * ends up in the tracker store, in logs and on operators' screens, so it must be text that shows as
 * what it is: no control characters (a NUL cannot be stored in PostgreSQL text, a newline forges log
 * lines), no bidirectional overrides or isolates (they make `abc` display as `cba`, so two ids look
 * alike), no invisible characters that make two ids look alike (every format and default-ignorable
 * character but the zero-width joiner and the emoji presentation selectors, which emoji need), and no
 * unpaired surrogates (stored as U+FFFD, which would merge two conversations).
 */

/** Rasa's sender_id column is VARCHAR(255) */
export const MAX_CONVERSATION_ID_LENGTH = 255;

/**
 * Conversation ids under this prefix belong to the A2A server (`a2a:<caller>:<contextId>`): channels
 * may not address them, so a webhook client cannot reach an A2A caller's conversation.
 */
export const A2A_CONVERSATION_PREFIX = 'a2a:';

// Controls (C0, DEL, C1), format characters (bidi embeddings, overrides, isolates and marks, the
// zero-width space and non-joiner, word joiner, BOM, soft hyphen, tags), line and paragraph separators,
// and every default-ignorable code point (variation selectors, Hangul fillers, …): the characters a
// screen does not show. The zero-width joiner and the emoji presentation selectors stay: emoji need them.
const FORBIDDEN = /(?!\u200d|\ufe0e|\ufe0f)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `id` is not a usable id (a sentence for a 400 answer), or undefined when it is. */
export function identifierProblem(id: string, maxLength: number): string | undefined {
  if (id.trim() === '') return 'must be a non-empty string';
  if (id.length > maxLength) return `must be at most ${maxLength} characters`;
  if (LONE_SURROGATE.test(id)) return 'must be well-formed Unicode text';
  if (FORBIDDEN.test(id))
    return 'must not contain control characters, or bidirectional or invisible formatting characters';
  return undefined;
}

/** true when `text` has no unpaired UTF-16 surrogate (String.prototype.isWellFormed is ES2024) */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** A conversation id's problem, for any edge (channels, HTTP API). */
export function conversationIdProblem(id: string): string | undefined {
  return identifierProblem(id, MAX_CONVERSATION_ID_LENGTH);
}

export function isA2aConversationId(id: string): boolean {
  return id.startsWith(A2A_CONVERSATION_PREFIX);
}

/**
 * A conversation id a channel may use (a REST sender, a socket.io session, a custom channel's sender):
 * a usable id outside the A2A server's namespace. The problem as a sentence, or undefined.
 */
export function channelConversationIdProblem(id: string): string | undefined {
  if (isA2aConversationId(id))
    return `must not start with '${A2A_CONVERSATION_PREFIX}': those conversations belong to the A2A server`;
  return conversationIdProblem(id);
}
