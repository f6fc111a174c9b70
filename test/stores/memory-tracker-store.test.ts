import { expect } from 'chai';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { MAX_BLOCK_BYTES } from '../../src/stores/packed-events.js';
import type { PackedEvents } from '../../src/stores/packed-events.js';
import { snapshotOf, trackerStoreContract, turnEvents } from './tracker-store-contract.js';

trackerStoreContract('MemoryTrackerStore', { durable: false, open: async () => new MemoryTrackerStore() });

// conversations packed a millisecond after their last append: the contract holds on packed events too
trackerStoreContract('MemoryTrackerStore, packing after 1 ms', {
  durable: false,
  open: async () => new MemoryTrackerStore({ packAfterMs: 1 }),
});

/** A store on a hand-driven clock, packing conversations idle for 1,000 ms. */
function packingStore() {
  const clock = { now: 0 };
  const store = new MemoryTrackerStore({ packAfterMs: 1000, now: () => clock.now });
  return { store, clock };
}

describe('MemoryTrackerStore packing idle conversations', () => {
  it('packs a conversation only once it has been idle long enough, and loads the same events after', async () => {
    const { store, clock } = packingStore();
    const first = turnEvents('a', 1);
    const second = turnEvents('a', 2);
    await store.append('a', first, { expectedCount: 0 });
    await store.append('a', second, {
      expectedCount: first.length,
      snapshot: snapshotOf('a', [...first, ...second]),
    });
    clock.now = 999;
    expect(store.packIdleConversations(), 'packed before it is idle').to.equal(0);
    expect(store.pendingPacking).to.equal(1);
    clock.now = 1000;
    expect(store.packIdleConversations()).to.equal(1);
    expect(store.pendingPacking).to.equal(0);
    expect(await store.loadAll('a')).to.deep.equal([...first, ...second]);
    const recent = await store.loadRecent('a');
    expect(recent.eventCount).to.equal(first.length + second.length);
    expect(recent.eventsAfterSnapshot).to.deep.equal([]);
  });

  it('packs the conversations in the order of their last turn: one begun earlier but active since waits', async () => {
    const { store, clock } = packingStore();
    await store.append('early', turnEvents('early', 1), { expectedCount: 0 });
    clock.now = 100;
    await store.append('later', turnEvents('later', 1), { expectedCount: 0 });
    clock.now = 900;
    await store.append('early', turnEvents('early', 2), { expectedCount: 5 });
    clock.now = 1200;
    expect(store.packIdleConversations(), 'only "later" is idle').to.equal(1);
    expect(store.pendingPacking).to.equal(1);
    clock.now = 1900;
    expect(store.packIdleConversations()).to.equal(1);
    expect(store.pendingPacking).to.equal(0);
    expect(await store.loadAll('early')).to.deep.equal([
      ...turnEvents('early', 1),
      ...turnEvents('early', 2),
    ]);
  });

  it('appends after packing and loads packed and recent events in order', async () => {
    const { store, clock } = packingStore();
    const turns = [1, 2, 3, 4].map((turn) => turnEvents('b', turn));
    let count = 0;
    for (const events of turns) {
      await store.append('b', events, { expectedCount: count });
      count += events.length;
      clock.now += 1000;
      store.packIdleConversations();
    }
    const fifth = turnEvents('b', 5);
    await store.append('b', fifth, { expectedCount: count });
    expect(await store.loadAll('b')).to.deep.equal([...turns.flat(), ...fifth]);
    // no snapshot: every event comes back, the packed ones unpacked
    expect((await store.loadRecent('b')).eventsAfterSnapshot).to.deep.equal([...turns.flat(), ...fifth]);
    await expectConflict(store.append('b', fifth, { expectedCount: count }));
  });

  it('reads events after an older snapshot out of the packed ones', async () => {
    const { store, clock } = packingStore();
    const first = turnEvents('c', 1);
    const second = turnEvents('c', 2);
    await store.append('c', first, { expectedCount: 0, snapshot: snapshotOf('c', first) });
    await store.append('c', second, { expectedCount: first.length });
    clock.now = 5000;
    store.packIdleConversations();
    const recent = await store.loadRecent('c');
    expect(recent.snapshot?.eventCount).to.equal(first.length);
    expect(recent.eventsAfterSnapshot).to.deep.equal(second);
  });

  it('forgets a removed conversation, pending or packed', async () => {
    const { store, clock } = packingStore();
    await store.append('d', turnEvents('d', 1), { expectedCount: 0 });
    await store.remove('d');
    expect(store.pendingPacking).to.equal(0);
    clock.now = 5000;
    expect(store.packIdleConversations()).to.equal(0);
    expect(await store.loadAll('d')).to.deep.equal([]);
  });

  it('packs on its own timer, and keeps nothing pending when packing is off', async () => {
    const timed = new MemoryTrackerStore({ packAfterMs: 20 });
    await timed.append('e', turnEvents('e', 1), { expectedCount: 0 });
    expect(timed.pendingPacking).to.equal(1);
    const deadline = Date.now() + 5000;
    while (timed.pendingPacking > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(timed.pendingPacking, 'packed by the sweep').to.equal(0);
    expect(await timed.loadAll('e')).to.deep.equal(turnEvents('e', 1));

    const off = new MemoryTrackerStore({ packAfterMs: 0 });
    await off.append('f', turnEvents('f', 1), { expectedCount: 0 });
    expect(off.pendingPacking).to.equal(0);
  });

  it('packs the events of many conversations into far less than their JSON', async () => {
    const { store, clock } = packingStore();
    let json = 0;
    for (let conversation = 0; conversation < 50; conversation += 1) {
      const id = `many-${conversation}`;
      let count = 0;
      for (let turn = 1; turn <= 10; turn += 1) {
        const events = turnEvents(id, turn);
        json += JSON.stringify(events).length;
        await store.append(id, events, { expectedCount: count });
        count += events.length;
      }
    }
    clock.now = 1000;
    expect(store.packIdleConversations()).to.equal(50);
    const blocks = new Set(packedOf(store).map((packed) => packed.block));
    const bytes = [...blocks].reduce((sum, block) => sum + block.bytes.length, 0);
    expect(bytes).to.be.below(json / 4);
  });

  it('packs the conversations idle together in shared blocks of bounded size, each read back alone', async () => {
    const { store, clock } = packingStore();
    const ids = Array.from({ length: 40 }, (_, index) => `shared-${index}`);
    const wordy = (id: string) =>
      turnEvents(id, 1).map((event) => ({ ...event, metadata: { note: `${id} `.repeat(400) } }));
    let json = 0;
    for (const id of ids) {
      json += Buffer.byteLength(JSON.stringify(wordy(id)));
      await store.append(id, wordy(id), { expectedCount: 0 });
    }
    clock.now = 1000;
    expect(store.packIdleConversations()).to.equal(ids.length);
    const blocks = new Set(packedOf(store).map((packed) => packed.block));
    expect(json, 'the test needs more than one block of JSON').to.be.above(2 * MAX_BLOCK_BYTES);
    // every block but the last is full
    expect(blocks.size).to.be.within(2, Math.ceil(json / MAX_BLOCK_BYTES));
    await store.remove('shared-0');
    for (const id of ids.slice(1)) expect(await store.loadAll(id)).to.deep.equal(wordy(id));
    expect(await store.loadAll('shared-0')).to.deep.equal([]);
  });
});

/** every conversation's packed events (the store's own records) */
function packedOf(store: MemoryTrackerStore): PackedEvents[] {
  const { conversations } = store as unknown as { conversations: Map<string, { packed: PackedEvents[] }> };
  return [...conversations.values()].flatMap((stored) => stored.packed);
}

async function expectConflict(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason as { code?: string },
  );
  expect(error?.code).to.equal('TRACKER_CONFLICT');
}
