import type { EventBroker, TrackerStore } from '../core/ports.js';

/**
 * A TrackerStore that hands the events of every successful `append` to an event broker, after the
 * store has taken them: a turn the store refused (TRACKER_CONFLICT, a database away) publishes nothing,
 * so consumers never see events that are not part of the conversation. Publishing is the broker's
 * business: it returns at once and never throws into the turn. Other calls pass unchanged, and the
 * optional methods stay absent when the wrapped store lacks them.
 */
export function publishingTrackerStore(inner: TrackerStore, broker: EventBroker): TrackerStore {
  const remove = inner.remove?.bind(inner);
  const close = inner.close?.bind(inner);
  const listConversations = inner.listConversations?.bind(inner);
  return {
    loadRecent: (conversationId, hint) => inner.loadRecent(conversationId, hint),
    loadAll: (conversationId) => inner.loadAll(conversationId),
    append: async (conversationId, events, options) => {
      await inner.append(conversationId, events, options);
      if (events.length > 0) broker.publish(conversationId, events);
    },
    ...(remove ? { remove } : {}),
    ...(listConversations ? { listConversations } : {}),
    ...(close ? { close } : {}),
  };
}
