import type { RecentConversation, TrackerStore } from '../core/ports.js';
import type { IncomingMessage } from './agent-inputs.js';

/** what a store holds of a conversation id made up for its first message (IncomingMessage.unseen) */
const UNSEEN: RecentConversation = { eventCount: 0, eventsAfterSnapshot: [] };

/**
 * What a turn starts from: nothing for a conversation id made up for its message, else the store's
 * conversation, read as the message's LoadHint allows.
 */
export async function loadForTurn(
  store: TrackerStore,
  conversationId: string,
  message: IncomingMessage | undefined,
): Promise<RecentConversation> {
  if (message?.unseen) return UNSEEN;
  const keptAt = message?.keptAt;
  return store.loadRecent(conversationId, keptAt !== undefined ? { keptAt } : undefined);
}
