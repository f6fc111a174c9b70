/**
 * The SQL tracker store's checks and errors: an append that does not follow on from the stored events
 * is a TRACKER_CONFLICT, a conversation id that does not fit Rasa's sender_id column is refused.
 */
import { AppError } from '../../core/errors.js';
import type { LastSeqRow } from './sqlite-statements.js';

/** Rasa's sender_id column is VARCHAR(255) */
export const MAX_CONVERSATION_ID_LENGTH = 255;

/** Rejects an append whose events do not follow on from the stored ones (see the file's comment). */
export function checkCount(
  row: LastSeqRow | undefined,
  conversationId: string,
  expected: number,
  total: number,
): void {
  const last = row?.last === null || row?.last === undefined ? -1 : Number(row.last);
  const reachesExpected = expected === 0 || Number(row?.predecessor) === 1;
  if (last !== total - 1 || !reachesExpected) throw conflict(conversationId, expected);
}

export function rowsOf<T>(result: unknown): T[] {
  // pg answers {rows}, better-sqlite3 the rows themselves
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export function conflict(conversationId: string, expectedCount: number): AppError {
  return new AppError({
    code: 'TRACKER_CONFLICT',
    message: `Conversation '${conversationId}' no longer has the ${expectedCount} events this turn loaded: another turn stored events first.`,
    details: { conversationId, expectedCount },
  });
}

export function checkConversationId(conversationId: string): void {
  // VARCHAR(255) counts characters (code points), not UTF-16 units
  const length = [...conversationId].length;
  if (length > 0 && length <= MAX_CONVERSATION_ID_LENGTH) return;
  throw new AppError({
    code: 'CONVERSATION_ID_INVALID',
    message: `A conversation id must have 1 to ${MAX_CONVERSATION_ID_LENGTH} characters (Rasa's sender_id column), not ${length}.`,
    details: { length },
  });
}
