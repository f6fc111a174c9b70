import { expect } from 'chai';
import pg from 'pg';
import type { Event } from '../../src/core/events/types.js';
import { joinTurnStores } from '../../src/stores/factory.js';
import { PostgresLockStore } from '../../src/stores/locks/postgres-lock-store.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { snapshotOf, turnEvents, uniqueId } from './tracker-store-contract.js';

describe('PostgreSQL: the state a store wrote is not read again, unless the log moved on', function () {
  let database: TestDatabase | undefined;
  const stores: { close(): Promise<void> }[] = [];

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  after(async () => {
    for (const store of stores) await store.close();
    await database?.drop();
  });

  async function opened(): Promise<SqlTrackerStore> {
    const store = new SqlTrackerStore({ target: postgresTarget((database as TestDatabase).url) });
    stores.push(store);
    await store.open();
    return store;
  }

  /** two replicas on one database, the first having written a conversation's first turn */
  async function firstTurnByOneOfTwo(prefix: string) {
    const first = await opened();
    const second = await opened();
    const id = uniqueId(prefix);
    const turn1 = turnEvents(id, 1);
    const kept = snapshotOf(id, turn1);
    await first.append(id, turn1, { expectedCount: 0, snapshot: kept });
    return { first, second, id, turn1, kept };
  }

  async function snapshotRowCount(id: string): Promise<number | undefined> {
    const client = new pg.Client({ connectionString: (database as TestDatabase).url });
    await client.connect();
    try {
      const result = await client.query('SELECT event_count FROM tracker_snapshots WHERE sender_id = $1', [
        id,
      ]);
      return (result.rows[0] as { event_count: number } | undefined)?.event_count;
    } finally {
      await client.end();
    }
  }

  it('serves the next turn the state it wrote, without parsing the snapshot row', async () => {
    const store = await opened();
    const id = uniqueId('known');
    const events = turnEvents(id, 1);
    const snapshot = snapshotOf(id, events);
    expect((await store.loadRecent(id)).eventCount).to.equal(0);
    await store.append(id, events, { expectedCount: 0, snapshot });
    const recent = await store.loadRecent(id);
    // the very object written: it was not parsed back from the row
    expect(recent.snapshot).to.equal(snapshot);
    expect(recent).to.include({ eventCount: 5 });
    expect(recent.eventsAfterSnapshot).to.deep.equal([]);
  });

  it('folds what another replica appended since onto the state it kept', async () => {
    const { first, second, id, turn1, kept } = await firstTurnByOneOfTwo('replica');
    expect((await second.loadRecent(id)).eventCount).to.equal(5);
    const turn2 = turnEvents(id, 2);
    await second.append(id, turn2, { expectedCount: 5, snapshot: snapshotOf(id, [...turn1, ...turn2]) });
    const recent = await first.loadRecent(id);
    expect(recent.eventCount).to.equal(10);
    expect(recent.snapshot).to.equal(kept);
    expect(recent.eventsAfterSnapshot).to.deep.equal(turn2);
    // a write from the stale count is refused, not interleaved
    let refused: unknown;
    try {
      await first.append(id, turnEvents(id, 3), { expectedCount: 5 });
    } catch (error) {
      refused = error;
    }
    expect((refused as { code?: string }).code).to.equal('TRACKER_CONFLICT');
    expect((await first.loadRecent(id)).eventCount).to.equal(10);
  });

  it('trusts a claim that the log is at the count of the state it kept, and reads when the count differs', async () => {
    const { first, second, id, turn1, kept } = await firstTurnByOneOfTwo('claimed');
    // another writer the claim did not see: the hint is taken at its word (the append would refuse)
    const turn2 = turnEvents(id, 2);
    await second.append(id, turn2, { expectedCount: 5, snapshot: snapshotOf(id, [...turn1, ...turn2]) });
    const trusted = await first.loadRecent(id, { keptAt: 5 });
    expect(trusted.snapshot).to.equal(kept);
    expect(trusted).to.include({ eventCount: 5 });
    expect(trusted.eventsAfterSnapshot).to.deep.equal([]);
    // a count other than the kept state's: read, and the other writer's events folded on
    const read = await first.loadRecent(id, { keptAt: 10 });
    expect(read.eventCount).to.equal(10);
    expect(read.eventsAfterSnapshot).to.deep.equal(turn2);
    // a store that kept nothing reads whatever the hint says
    const third = await opened();
    expect((await third.loadRecent(id, { keptAt: 10 })).eventCount).to.equal(10);
    // 0: the claim saw no event, so none is read (and the kept state is dropped)
    expect(await first.loadRecent(id, { keptAt: 0 })).to.deep.equal({
      eventCount: 0,
      eventsAfterSnapshot: [],
    });
    expect((await first.loadRecent(id)).eventCount).to.equal(10);
  });

  it('reads everything again when another replica removed the conversation and began it anew', async () => {
    const first = await opened();
    const second = await opened();
    const id = uniqueId('renewed');
    const original = turnEvents(id, 1);
    await first.append(id, original, { expectedCount: 0, snapshot: snapshotOf(id, original) });
    await second.remove(id);
    // as many events as before, other ones
    const renewed = turnEvents(id, 7);
    await second.append(id, renewed, { expectedCount: 0, snapshot: snapshotOf(id, renewed) });
    const recent = await first.loadRecent(id);
    expect(recent.eventCount).to.equal(5);
    expect(recent.snapshot?.state).to.deep.equal(snapshotOf(id, renewed).state);
    await second.remove(id);
    expect((await first.loadRecent(id)).eventCount).to.equal(0);
  });

  it('writes the snapshot row every few turns; another replica reads the row and what follows', async () => {
    const writer = await opened();
    const id = uniqueId('rows');
    const events: Event[] = [];
    for (let turn = 0; turn < 30; turn++) {
      const added = turnEvents(id, turn);
      await writer.append(id, added, {
        expectedCount: events.length,
        snapshot: snapshotOf(id, [...events, ...added]),
      });
      events.push(...added);
      await writer.loadRecent(id);
    }
    // rows at 5, 70 and 135 events: written when 64 or more events were appended since the last one
    expect(await snapshotRowCount(id)).to.equal(135);
    const reader = await opened();
    const recent = await reader.loadRecent(id);
    expect(recent.eventCount).to.equal(150);
    expect(recent.snapshot?.eventCount).to.equal(135);
    expect(recent.eventsAfterSnapshot).to.deep.equal(events.slice(135));
  });

  it('uses the state it kept with the rows a turn read under the PostgreSQL lock', async () => {
    const tracker = await opened();
    const lock = new PostgresLockStore({ target: postgresTarget((database as TestDatabase).url) });
    stores.push(lock);
    await lock.open();
    expect(joinTurnStores(tracker, lock)).to.equal(true);
    const other = await opened();
    const id = uniqueId('locked');
    const turn1 = turnEvents(id, 1);
    const kept = snapshotOf(id, turn1);
    await lock.withLock(id, async () => {
      await tracker.loadRecent(id);
      await tracker.append(id, turn1, { expectedCount: 0, snapshot: kept });
    });
    const turn2 = turnEvents(id, 2);
    await other.append(id, turn2, { expectedCount: 5 });
    const recent = await lock.withLock(id, () => tracker.loadRecent(id));
    expect(recent.snapshot).to.equal(kept);
    expect(recent.eventCount).to.equal(10);
    expect(recent.eventsAfterSnapshot).to.deep.equal(turn2);
  });
});
