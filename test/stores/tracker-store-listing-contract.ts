/** The tracker store contract's part on listing conversations (the inspector's conversation list). */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Event } from '../../src/core/events/types.js';
import { MAX_CONVERSATION_PAGE } from '../../src/core/ports.js';
import type { ConversationPage, TrackerStore } from '../../src/core/ports.js';

function oneEvent(at: number): Event[] {
  return [{ event: 'action', timestamp: at, name: 'action_listen', policy: 'FlowPolicy', confidence: 1 }];
}

/** Pages of the conversations after `after` whose id starts with `prefix` (durable stores hold others too). */
async function ownPage(
  store: TrackerStore,
  prefix: string,
  limit: number,
  after = prefix,
): Promise<ConversationPage> {
  if (!store.listConversations) throw new Error('the store has no listConversations');
  const page = await store.listConversations({ limit, after });
  return {
    ...page,
    conversations: page.conversations.filter((row) => row.conversationId.startsWith(prefix)),
  };
}

export function listingContract(current: () => TrackerStore): void {
  it('lists conversations by id, a bounded page at a time, with their event count and latest time', async () => {
    const store = current();
    const prefix = `list-${randomBytes(4).toString('hex')}`;
    await store.append(`${prefix}-c`, oneEvent(30), { expectedCount: 0 });
    await store.append(`${prefix}-a`, [...oneEvent(10), ...oneEvent(11)], { expectedCount: 0 });
    await store.append(`${prefix}-b`, oneEvent(20), { expectedCount: 0 });
    const first = await ownPage(store, prefix, 2);
    expect(first.conversations).to.deep.equal([
      { conversationId: `${prefix}-a`, eventCount: 2, latestEventTime: 11 },
      { conversationId: `${prefix}-b`, eventCount: 1, latestEventTime: 20 },
    ]);
    expect(first.next).to.equal(`${prefix}-b`);
    const second = await ownPage(store, prefix, 2, first.next);
    expect(second.conversations.map((row) => row.conversationId)).to.deep.equal([`${prefix}-c`]);
  });

  it('lists no removed conversation, and clamps the page size it is given', async () => {
    const store = current();
    const prefix = `list-${randomBytes(4).toString('hex')}`;
    await store.append(`${prefix}-a`, oneEvent(1), { expectedCount: 0 });
    await store.append(`${prefix}-b`, oneEvent(2), { expectedCount: 0 });
    await store.remove?.(`${prefix}-a`);
    const page = await ownPage(store, prefix, 0);
    expect(page.conversations.map((row) => row.conversationId)).to.deep.equal(
      store.remove ? [`${prefix}-b`] : [`${prefix}-a`],
    );
    const listed = await store.listConversations?.({ limit: 1e9 });
    expect(listed?.conversations.length).to.be.at.most(MAX_CONVERSATION_PAGE);
  });
}
