/**
 * The memory store against a list kept by hand, whatever the order of turns, sweeps and removals: the
 * conversations packed together share blocks (packed-events.ts), and none may read another's events,
 * lose one, or keep a removed conversation's.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Event } from '../../src/core/events/types.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { turnEvents } from './tracker-store-contract.js';

type Operation =
  | { readonly kind: 'turn'; readonly conversation: number; readonly wordy: boolean }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'sweep' }
  | { readonly kind: 'remove'; readonly conversation: number }
  | { readonly kind: 'read'; readonly conversation: number };

const conversation = fc.integer({ min: 0, max: 7 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('turn' as const), conversation, wordy: fc.boolean() }),
    weight: 5,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 1500 }) }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'sweep' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), conversation }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('read' as const), conversation }), weight: 2 },
);

/** a turn's events, some of them large enough that a few conversations fill a block (~36 KB a turn) */
function eventsOf(id: string, turn: number, wordy: boolean): Event[] {
  const events = turnEvents(id, turn);
  if (!wordy) return events;
  return events.map((event) => ({ ...event, metadata: { note: `${id}/${turn} `.repeat(600) } }));
}

describe('MemoryTrackerStore packing, against a list kept by hand', () => {
  it('reads back every conversation as written, whatever turns, sweeps and removals came between', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 80 }), async (operations) => {
        const clock = { now: 0 };
        const store = new MemoryTrackerStore({ packAfterMs: 1000, now: () => clock.now });
        const model = new Map<string, Event[]>();
        let turns = 0;
        for (const op of operations) {
          const id = 'conversation' in op ? `c${op.conversation}` : '';
          if (op.kind === 'turn') {
            const known = model.get(id) ?? [];
            turns += 1;
            const events = eventsOf(id, turns, op.wordy);
            await store.append(id, events, { expectedCount: known.length });
            model.set(id, [...known, ...events]);
          } else if (op.kind === 'wait') clock.now += op.ms;
          else if (op.kind === 'sweep') store.packIdleConversations();
          else if (op.kind === 'remove') {
            await store.remove(id);
            model.delete(id);
          } else expect(await store.loadAll(id)).to.deep.equal(model.get(id) ?? []);
        }
        clock.now += 5000;
        store.packIdleConversations();
        expect(store.pendingPacking).to.equal(0);
        for (const [id, events] of model) {
          expect(await store.loadAll(id)).to.deep.equal(events);
          const recent = await store.loadRecent(id);
          expect(recent.eventCount).to.equal(events.length);
          expect(recent.eventsAfterSnapshot).to.deep.equal(events);
        }
      }),
      { numRuns: 60 },
    );
  });
});
