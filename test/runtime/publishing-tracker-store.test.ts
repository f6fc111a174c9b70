import { expect } from 'chai';
import type { AppError } from '../../src/core/errors.js';
import type { Event } from '../../src/core/events/types.js';
import type { EventBroker } from '../../src/core/ports.js';
import { publishingTrackerStore } from '../../src/runtime/publishing-tracker-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';

const bot = (text: string): Event => ({ event: 'bot', timestamp: 1, text }) as Event;

function recordingBroker(): EventBroker & { calls: [string, string[]][] } {
  const calls: [string, string[]][] = [];
  return {
    calls,
    publish: (conversationId, events) =>
      calls.push([conversationId, events.map((event) => (event as { text: string }).text)]),
  };
}

describe('publishingTrackerStore', () => {
  it('hands the events of a stored append to the broker, after the store took them', async () => {
    const inner = new MemoryTrackerStore();
    const broker = recordingBroker();
    const store = publishingTrackerStore(inner, broker);
    await store.append('ada', [bot('a'), bot('b')], { expectedCount: 0 });
    await store.append('ada', [bot('c')], { expectedCount: 2 });
    expect(broker.calls).to.deep.equal([
      ['ada', ['a', 'b']],
      ['ada', ['c']],
    ]);
    expect((await inner.loadAll('ada')).length).to.equal(3);
  });

  it('publishes nothing when the store refuses the turn (TRACKER_CONFLICT)', async () => {
    const inner = new MemoryTrackerStore();
    const broker = recordingBroker();
    const store = publishingTrackerStore(inner, broker);
    await store.append('ada', [bot('a')], { expectedCount: 0 });
    const error = await store.append('ada', [bot('late')], { expectedCount: 0 }).then(
      () => undefined,
      (caught: unknown) => caught as AppError,
    );
    expect(error?.code).to.equal('TRACKER_CONFLICT');
    expect(broker.calls).to.deep.equal([['ada', ['a']]]);
  });

  it('keeps the optional methods of the store it wraps, and only those', () => {
    const store = publishingTrackerStore(new MemoryTrackerStore(), recordingBroker());
    const bare = publishingTrackerStore(
      {
        loadRecent: async () => ({ eventCount: 0, eventsAfterSnapshot: [] }),
        loadAll: async () => [],
        append: async () => undefined,
      },
      recordingBroker(),
    );
    expect(typeof store.remove).to.equal('function');
    expect(bare.remove).to.equal(undefined);
    expect(bare.close).to.equal(undefined);
  });
});
