/**
 * Who calls: with `a2a_server.auth` the calling agent named by the verified token (`sub`, else
 * `azp`); without auth one shared anonymous caller. Tasks, contexts and push configs belong to their
 * caller, and a context's conversation lives at `a2a:<caller>:<contextId>`, a sender id no channel may
 * use (src/core/text/identifiers.ts), so neither another caller nor a webhook client can reach it.
 */
import { createHash } from 'node:crypto';
import { A2A_CONVERSATION_PREFIX, isWellFormedText } from '../core/text/identifiers.js';

/** the one caller when auth is off; a token must name a caller, so no token maps here */
export const ANONYMOUS_CALLER = '';

/** how a context maps to a conversation: Parley's own namespace, or Rasa's raw contextId */
export type ConversationIds = 'namespaced' | 'context_id';

/** the longest caller segment of a conversation id; longer (encoded) callers are hashed */
const MAX_CALLER_SEGMENT = 64;

/** the longest caller name taken from a token */
const MAX_CALLER_LENGTH = 1_024;

/**
 * The calling agent a verified token names, or undefined when it names none usable: a name that is
 * not well-formed text (it could not be encoded, and two such names would hash alike), holds control
 * characters, or is absurdly long.
 */
export function callerFromClaims(claims: Readonly<Record<string, unknown>>): string | undefined {
  for (const claim of ['sub', 'azp'] as const) {
    const value = claims[claim];
    if (typeof value !== 'string' || value.trim() === '') continue;
    if (!isWellFormedText(value) || CONTROL.test(value) || value.length > MAX_CALLER_LENGTH) return undefined;
    // an azp is another kind of name than a sub: a token without sub naming `azp: x` is not `sub: x`
    return claim === 'sub' ? value : `${AZP_MARK}${value}`;
  }
  return undefined;
}

/** marks a caller named by `azp`; no accepted claim holds a control character, so none looks like it */
const AZP_MARK = 'azp\u0000';
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The conversation (sender id) of a caller's context. The caller is percent-encoded, so it holds no
 * `:` and the id reads back unambiguously; a long one is replaced by its SHA-256, which keeps the id
 * within the tracker store's 255 characters (contextIds are at most 128).
 */
export function conversationIdOf(caller: string, contextId: string, mode: ConversationIds): string {
  if (mode === 'context_id') return contextId;
  return `${A2A_CONVERSATION_PREFIX}${callerSegment(caller)}:${contextId}`;
}

function callerSegment(caller: string): string {
  const encoded = encodeURIComponent(caller);
  if (encoded.length <= MAX_CALLER_SEGMENT) return encoded;
  // `%s` is no percent escape, so no encoded caller can look like a hashed one
  return `%sha256.${createHash('sha256').update(caller, 'utf8').digest('base64url')}`;
}
