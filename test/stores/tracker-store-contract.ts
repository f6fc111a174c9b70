/**
 * THE contract every TrackerStore passes (memory, SQLite, PostgreSQL): one suite, run by each store's
 * test file with a harness that opens instances of that store.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../src/core/errors.js';
import { foldEvents } from '../../src/core/events/fold-events.js';
import { createTrackerState } from '../../src/core/events/tracker-state.js';
import type { TrackerState } from '../../src/core/events/tracker-state.js';
import type { Event } from '../../src/core/events/types.js';
import type { TrackerSnapshot, TrackerStore } from '../../src/core/ports.js';
import { listingContract } from './tracker-store-listing-contract.js';

export interface TrackerStoreHarness {
  /** a store instance; a durable store's instances all see the same data (like two processes) */
  open(): Promise<TrackerStore>;
  /** the data outlives `close()` and is shared by instances (SQL): adds the tests of that */
  readonly durable: boolean;
}

/** Events of one turn, marked with the conversation and turn so that a misplaced event shows. */
export function turnEvents(conversationId: string, turn: number, at = 1_700_000_000 + turn): Event[] {
  const text = `${conversationId}/${turn}`;
  return [
    {
      event: 'user',
      timestamp: at,
      text,
      parse_data: { text, intent: { name: 'greet', confidence: 0.9 }, entities: [] },
      input_channel: 'rest',
      message_id: `m-${turn}`,
    },
    { event: 'slot', timestamp: at, name: 'turn', value: turn },
    { event: 'action', timestamp: at, name: 'utter_greet', policy: 'FlowPolicy', confidence: 1 },
    {
      event: 'bot',
      timestamp: at,
      text: `reply ${text}`,
      data: {},
      metadata: { utter_action: 'utter_greet' },
    },
    { event: 'action', timestamp: at, name: 'action_listen', policy: 'FlowPolicy', confidence: 1 },
  ];
}

/** The events are whole turns of turnEvents, in order: no turn was written in part. */
export function expectWholeTurns(events: readonly Event[]): void {
  expect(events.length % 5, 'whole turns only').to.equal(0);
  for (let start = 0; start < events.length; start += 5)
    expect(events.slice(start, start + 5).map((event) => event.event)).to.deep.equal([
      'user',
      'slot',
      'action',
      'bot',
      'action',
    ]);
}

export function snapshotOf(conversationId: string, events: readonly Event[]): TrackerSnapshot {
  const state: TrackerState = foldEvents(
    createTrackerState({ senderId: conversationId, initialSlots: {} }),
    events,
  );
  return { eventCount: events.length, state };
}

export function uniqueId(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

export async function expectCode(promise: Promise<unknown>, code: string): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(AppError);
    expect((error as AppError).code, (error as Error).message).to.equal(code);
    return error as AppError;
  }
  throw new Error(`expected ${code}, but it succeeded`);
}

export function trackerStoreContract(name: string, harness: TrackerStoreHarness): void {
  describe(`${name}: the tracker store contract`, function () {
    this.timeout(60_000);
    let store: TrackerStore;
    const opened: TrackerStore[] = [];
    const open = async (): Promise<TrackerStore> => {
      const instance = await harness.open();
      opened.push(instance);
      return instance;
    };

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((instance) => instance.close?.()));
    });

    listingContract(() => store);

    it('loads an unknown conversation as empty', async () => {
      const id = uniqueId('unknown');
      expect(await store.loadRecent(id)).to.deep.equal({ eventCount: 0, eventsAfterSnapshot: [] });
      expect(await store.loadAll(id)).to.deep.equal([]);
    });

    it('returns appended events in order, across appends', async () => {
      const id = uniqueId('order');
      const first = turnEvents(id, 1);
      const second = turnEvents(id, 2);
      await store.append(id, first, { expectedCount: 0 });
      await store.append(id, second, { expectedCount: first.length });
      expect(await store.loadAll(id)).to.deep.equal([...first, ...second]);
      const recent = await store.loadRecent(id);
      expect(recent.eventCount).to.equal(first.length + second.length);
      expect(recent.snapshot).to.equal(undefined);
      expect(recent.eventsAfterSnapshot).to.deep.equal([...first, ...second]);
    });

    it('loads flat: the latest snapshot and only the events after it', async () => {
      const id = uniqueId('flat');
      const first = turnEvents(id, 1);
      const second = turnEvents(id, 2);
      const third = turnEvents(id, 3);
      await store.append(id, first, { expectedCount: 0, snapshot: snapshotOf(id, first) });
      await store.append(id, second, { expectedCount: first.length });
      const afterTwo = await store.loadRecent(id);
      expect(afterTwo.eventCount).to.equal(10);
      expect(afterTwo.snapshot).to.deep.equal(snapshotOf(id, first));
      expect(afterTwo.eventsAfterSnapshot).to.deep.equal(second);

      const all = [...first, ...second, ...third];
      await store.append(id, third, { expectedCount: 10, snapshot: snapshotOf(id, all) });
      const afterThree = await store.loadRecent(id);
      expect(afterThree).to.deep.equal({
        eventCount: 15,
        snapshot: snapshotOf(id, all),
        eventsAfterSnapshot: [],
      });
      expect(await store.loadAll(id)).to.deep.equal(all);
    });

    it('keeps no snapshot that does not describe the stored events', async () => {
      const id = uniqueId('stale-snapshot');
      const first = turnEvents(id, 1);
      await store.append(id, first, { expectedCount: 0, snapshot: snapshotOf(id, first.slice(0, 2)) });
      const recent = await store.loadRecent(id);
      expect(recent.snapshot).to.equal(undefined);
      expect(recent.eventsAfterSnapshot).to.deep.equal(first);
    });

    it('refuses an append whose expected count is stale or ahead, and writes nothing of it', async () => {
      const id = uniqueId('conflict');
      const first = turnEvents(id, 1);
      await store.append(id, first, { expectedCount: 0, snapshot: snapshotOf(id, first) });
      const late = turnEvents(id, 2);
      await expectCode(
        store.append(id, late, { expectedCount: 0, snapshot: snapshotOf(id, late) }),
        'TRACKER_CONFLICT',
      );
      await expectCode(store.append(id, late, { expectedCount: 2 }), 'TRACKER_CONFLICT');
      // ahead of the log, with a snapshot that would describe it: neither the events nor the snapshot
      const ahead = { ...snapshotOf(id, late), eventCount: 99 + late.length };
      await expectCode(store.append(id, late, { expectedCount: 99, snapshot: ahead }), 'TRACKER_CONFLICT');
      await expectCode(store.append(uniqueId('new'), late, { expectedCount: 3 }), 'TRACKER_CONFLICT');
      expect(await store.loadAll(id)).to.deep.equal(first);
      expect((await store.loadRecent(id)).snapshot).to.deep.equal(snapshotOf(id, first));
    });

    it('lets exactly one of concurrent appends with the same expected count win', async () => {
      const id = uniqueId('race');
      for (const expectedCount of [0, 5]) {
        const attempts = Array.from({ length: 20 }, (_, writer) =>
          turnEvents(`${id}:${writer}`, expectedCount),
        );
        const outcomes = await Promise.allSettled(
          attempts.map((events) => store.append(id, events, { expectedCount })),
        );
        const won = outcomes.flatMap((outcome, writer) => (outcome.status === 'fulfilled' ? [writer] : []));
        expect(won, 'writers that won').to.have.length(1);
        for (const outcome of outcomes)
          if (outcome.status === 'rejected')
            expect((outcome.reason as AppError).code).to.equal('TRACKER_CONFLICT');
        const stored = await store.loadAll(id);
        expect(stored.slice(expectedCount)).to.deep.equal(attempts[won[0] as number]);
      }
      expect((await store.loadAll(id)).length).to.equal(10);
    });

    it('stores 1,000 conversations written in parallel without losing or duplicating an event', async () => {
      const run = uniqueId('parallel');
      const ids = Array.from({ length: 1000 }, (_, index) => `${run}-${index}`);
      await Promise.all(
        ids.map(async (id) => {
          for (let turn = 0; turn < 3; turn += 1) {
            const before = [0, 1, 2].slice(0, turn).flatMap((earlier) => turnEvents(id, earlier));
            const events = turnEvents(id, turn);
            const snapshot = snapshotOf(id, [...before, ...events]);
            await store.append(id, events, { expectedCount: before.length, snapshot });
          }
        }),
      );
      const loaded = await Promise.all(ids.map((id) => store.loadAll(id)));
      ids.forEach((id, index) => {
        const expected = [0, 1, 2].flatMap((turn) => turnEvents(id, turn));
        expect(loaded[index], id).to.deep.equal(expected);
      });
    });

    it('keeps unicode and large payloads intact', async () => {
      const id = uniqueId('unicode-ünï-🙂-שלום');
      const text = 'Zoë 🙂 שלום 日本語 e\u0301 \u0000 nul, "quotes" \\ back\nslash \ud800 lone surrogate';
      const large = 'x'.repeat(1_000_000);
      const events: Event[] = [
        {
          event: 'user',
          timestamp: 1.5,
          text,
          parse_data: { text, intent: { name: null, confidence: 0 }, entities: [] },
        },
        {
          event: 'slot',
          timestamp: 1.5,
          name: 'blob',
          value: { large, nested: [text, { deep: [1, 2.5, null, true] }] },
        },
        { event: 'bot', timestamp: 1.75, text, data: { custom: { emoji: '🙂', text } } },
      ];
      await store.append(id, events, { expectedCount: 0, snapshot: snapshotOf(id, events) });
      expect(await store.loadAll(id)).to.deep.equal(events);
      const recent = await store.loadRecent(id);
      expect(recent.snapshot?.state.slots['blob']).to.deep.equal(
        events[1] && (events[1] as { value: unknown }).value,
      );
      expect(recent.snapshot?.state.latestMessage?.text).to.equal(text);
    });

    it('removes a conversation: events and snapshot, after which it starts afresh', async () => {
      const id = uniqueId('remove');
      const kept = uniqueId('kept');
      const first = turnEvents(id, 1);
      await store.append(id, first, { expectedCount: 0, snapshot: snapshotOf(id, first) });
      await store.append(kept, turnEvents(kept, 1), { expectedCount: 0 });
      await store.remove?.(id);
      expect(await store.loadRecent(id)).to.deep.equal({ eventCount: 0, eventsAfterSnapshot: [] });
      expect(await store.loadAll(id)).to.deep.equal([]);
      expect(await store.loadAll(kept)).to.deep.equal(turnEvents(kept, 1));
      const again = turnEvents(id, 7);
      await store.append(id, again, { expectedCount: 0 });
      expect(await store.loadAll(id)).to.deep.equal(again);
    });

    it('closes, twice without harm', async () => {
      await store.append(uniqueId('close'), turnEvents('close', 1), { expectedCount: 0 });
      await store.close?.();
      await store.close?.();
    });

    if (!harness.durable) return;

    it('keeps the data of a closed store for the next instance (a restart)', async () => {
      const id = uniqueId('restart');
      const first = turnEvents(id, 1);
      await store.append(id, first, { expectedCount: 0, snapshot: snapshotOf(id, first) });
      await store.close?.();
      const reopened = await open();
      expect(await reopened.loadRecent(id)).to.deep.equal({
        eventCount: first.length,
        snapshot: snapshotOf(id, first),
        eventsAfterSnapshot: [],
      });
    });

    it('has instances (two processes) that see and exclude each other', async () => {
      const other = await open();
      const id = uniqueId('two-instances');
      await store.append(id, turnEvents(id, 1), { expectedCount: 0 });
      expect(await other.loadAll(id)).to.deep.equal(turnEvents(id, 1));
      await expectCode(other.append(id, turnEvents(id, 2), { expectedCount: 0 }), 'TRACKER_CONFLICT');
      await other.append(id, turnEvents(id, 2), { expectedCount: 5 });
      expect(await store.loadAll(id)).to.deep.equal([...turnEvents(id, 1), ...turnEvents(id, 2)]);
    });
  });
}
