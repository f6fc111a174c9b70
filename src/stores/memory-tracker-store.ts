import type { Event } from '../core/events/types.js';
import type { StoredConversation, TrackerSnapshot, TrackerStore } from '../core/ports.js';

/** Conversations in process memory: for tests, the e2e runner and single-process experiments. */
export class MemoryTrackerStore implements TrackerStore {
  private readonly conversations = new Map<string, { events: Event[]; snapshot?: TrackerSnapshot }>();

  async load(conversationId: string): Promise<StoredConversation> {
    const stored = this.conversations.get(conversationId);
    if (!stored) return { events: [] };
    return stored.snapshot ? { events: stored.events, snapshot: stored.snapshot } : { events: stored.events };
  }

  async append(conversationId: string, events: readonly Event[], snapshot?: TrackerSnapshot): Promise<void> {
    const stored = this.conversations.get(conversationId) ?? { events: [] };
    stored.events.push(...events);
    if (snapshot && snapshot.eventCount === stored.events.length) stored.snapshot = snapshot;
    else delete stored.snapshot;
    this.conversations.set(conversationId, stored);
  }

  conversationIds(): string[] {
    return [...this.conversations.keys()];
  }
}
