import { AppError } from '../core/errors.js';
import type { Event } from '../core/events/types.js';
import type { RecentConversation, TrackerSnapshot, TrackerStore } from '../core/ports.js';

/** Conversations in process memory: for tests, the e2e runner and single-process experiments. */
export class MemoryTrackerStore implements TrackerStore {
  private readonly conversations = new Map<string, { events: Event[]; snapshot?: TrackerSnapshot }>();

  describe(): string {
    return 'in memory (conversations are lost on restart)';
  }

  async loadRecent(conversationId: string): Promise<RecentConversation> {
    const stored = this.conversations.get(conversationId);
    if (!stored) return { eventCount: 0, eventsAfterSnapshot: [] };
    const snapshot = stored.snapshot;
    if (!snapshot) return { eventCount: stored.events.length, eventsAfterSnapshot: stored.events.slice() };
    return {
      eventCount: stored.events.length,
      snapshot,
      eventsAfterSnapshot: stored.events.slice(snapshot.eventCount),
    };
  }

  async loadAll(conversationId: string): Promise<readonly Event[]> {
    return this.conversations.get(conversationId)?.events.slice() ?? [];
  }

  async append(
    conversationId: string,
    events: readonly Event[],
    options: { readonly expectedCount: number; readonly snapshot?: TrackerSnapshot },
  ): Promise<void> {
    const stored = this.conversations.get(conversationId) ?? { events: [] };
    if (stored.events.length !== options.expectedCount)
      throw new AppError({
        code: 'TRACKER_CONFLICT',
        message: `Conversation '${conversationId}' has ${stored.events.length} events, not the ${options.expectedCount} this turn loaded.`,
      });
    stored.events.push(...events);
    const snapshot = options.snapshot;
    if (snapshot && snapshot.eventCount === stored.events.length) stored.snapshot = snapshot;
    this.conversations.set(conversationId, stored);
  }

  async remove(conversationId: string): Promise<void> {
    this.conversations.delete(conversationId);
  }

  conversationIds(): string[] {
    return [...this.conversations.keys()];
  }
}
