import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '../../src/core/events/types.js';
import { SnapshotCache } from '../../src/stores/sql/snapshot-cache.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { SqliteStatements } from '../../src/stores/sql/sqlite-statements.js';
import { snapshotOf, turnEvents, uniqueId } from './tracker-store-contract.js';

/** whether the statements' connection is inside a transaction (better-sqlite3's `inTransaction`) */
function inTransaction(statements: SqliteStatements): boolean {
  return (statements as unknown as { connection: { inTransaction: boolean } }).connection.inTransaction;
}

describe('SQLite: the snapshots a store wrote are not read again', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-sqlite-cache-'));
  const file = join(folder, 'tracker.db');
  const open = () => new SqlTrackerStore({ target: sqliteTarget(file, folder) });
  const stores: SqlTrackerStore[] = [];
  after(async () => {
    for (const store of stores) await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function opened(): Promise<SqlTrackerStore> {
    const store = open();
    stores.push(store);
    await store.open();
    return store;
  }

  it('serves the next turn the snapshot it wrote, without reading the database', async () => {
    const store = await opened();
    const id = uniqueId('cached');
    const events = turnEvents(id, 1);
    const snapshot = snapshotOf(id, events);
    // as a turn does: load, then append
    expect((await store.loadRecent(id)).eventCount).to.equal(0);
    await store.append(id, events, { expectedCount: 0, snapshot });
    const recent = await store.loadRecent(id);
    // the very object written: it was not parsed back from the row
    expect(recent.snapshot).to.equal(snapshot);
    expect(recent).to.include({ eventCount: 5 });
    expect(recent.eventsAfterSnapshot).to.deep.equal([]);
  });

  it('reads the database again once another connection wrote to it', async () => {
    const first = await opened();
    const second = await opened();
    const id = uniqueId('shared');
    const turn1 = turnEvents(id, 1);
    await first.append(id, turn1, { expectedCount: 0, snapshot: snapshotOf(id, turn1) });
    // the other writer (another process, in production) continues the conversation
    const seen = await second.loadRecent(id);
    expect(seen.eventCount).to.equal(5);
    const turn2 = turnEvents(id, 2);
    await second.append(id, turn2, { expectedCount: 5, snapshot: snapshotOf(id, [...turn1, ...turn2]) });
    const recent = await first.loadRecent(id);
    expect(recent.eventCount).to.equal(10);
    expect(recent.snapshot?.eventCount).to.equal(10);
    // and a write from the stale count is refused, not interleaved
    const stale = turnEvents(id, 3);
    let refused: unknown;
    try {
      await first.append(id, stale, { expectedCount: 5 });
    } catch (error) {
      refused = error;
    }
    expect((refused as { code?: string }).code).to.equal('TRACKER_CONFLICT');
  });

  it('forgets a removed conversation and a turn written without a snapshot', async () => {
    const store = await opened();
    const id = uniqueId('removed');
    const events = turnEvents(id, 1);
    await store.append(id, events, { expectedCount: 0, snapshot: snapshotOf(id, events) });
    await store.remove(id);
    expect((await store.loadRecent(id)).eventCount).to.equal(0);
    await store.append(id, events, { expectedCount: 0, snapshot: snapshotOf(id, events) });
    const more = turnEvents(id, 2);
    await store.append(id, more, { expectedCount: 5 });
    const recent = await store.loadRecent(id);
    expect(recent.eventCount).to.equal(10);
    expect(recent.snapshot?.eventCount).to.equal(5);
    expect(recent.eventsAfterSnapshot.map((event: Event) => event.event)).to.deep.equal(
      more.map((event) => event.event),
    );
  });

  it('writes the snapshot row every few turns; a store that did not write them reads the row and what follows', async () => {
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
    }
    const reader = await opened();
    const recent = await reader.loadRecent(id);
    expect(recent.eventCount).to.equal(150);
    const storedAt = recent.snapshot?.eventCount ?? 0;
    // rows at 5, 70 and 135 events: written when 64 or more events were appended since the last one
    expect(storedAt).to.equal(135);
    expect(recent.eventsAfterSnapshot).to.deep.equal(events.slice(storedAt));
    expect(recent.snapshot?.state).to.deep.equal(snapshotOf(id, events.slice(0, storedAt)).state);
  });

  it('writes the turns that end together in one transaction, each append failing alone', async () => {
    const store = await opened();
    const ids = Array.from({ length: 6 }, (_, index) => uniqueId(`group-${index}`));
    for (const id of ids) await store.loadRecent(id);
    const appended: string[] = [];
    const original = SqliteStatements.prototype.append;
    SqliteStatements.prototype.append = function (this: SqliteStatements, append) {
      // every append of the batch runs inside the one transaction the batch opened
      appended.push(`${append.conversationId} in transaction: ${String(inTransaction(this))}`);
      return original.call(this, append);
    };
    try {
      const outcomes = await Promise.allSettled(
        ids.map((id, index) => {
          const events = turnEvents(id, 1);
          // the last one claims a count the conversation does not have
          const expectedCount = index === ids.length - 1 ? 3 : 0;
          return store.append(id, events, { expectedCount, snapshot: snapshotOf(id, events) });
        }),
      );
      expect(appended).to.deep.equal(ids.map((id) => `${id} in transaction: true`));
      expect(outcomes.slice(0, 5).map((outcome) => outcome.status)).to.deep.equal(Array(5).fill('fulfilled'));
      const last = outcomes[5];
      expect(last?.status).to.equal('rejected');
      expect(((last as PromiseRejectedResult).reason as { code?: string }).code).to.equal('TRACKER_CONFLICT');
    } finally {
      SqliteStatements.prototype.append = original;
    }
    const reader = await opened();
    for (const id of ids.slice(0, 5)) expect((await reader.loadRecent(id)).eventCount).to.equal(5);
    expect((await reader.loadRecent(ids[5]!)).eventCount).to.equal(0);
  });

  it('writes a turn of more events than one INSERT takes, in order', async () => {
    const store = await opened();
    const id = uniqueId('long');
    const events = Array.from({ length: 30 }, (_, turn) => turnEvents(id, turn)).flat();
    await store.append(id, events, { expectedCount: 0, snapshot: snapshotOf(id, events) });
    const all = await store.loadAll(id);
    expect(all).to.have.length(150);
    expect(
      all.map((event) => (event.event === 'user' ? event.text : undefined)).filter(Boolean),
    ).to.deep.equal(Array.from({ length: 30 }, (_, turn) => `${id}/${turn}`));
  });
});

describe('SnapshotCache', () => {
  const snapshot = (eventCount: number) => ({ eventCount }) as never;

  it('keeps the most recently used conversations up to its limit', () => {
    const cache = new SnapshotCache(2);
    expect(cache.get('a', 1)).to.equal(undefined);
    cache.set('a', snapshot(1), 0);
    cache.set('b', snapshot(2), 0);
    expect(cache.get('a', 1)).to.deep.equal({ eventCount: 1 });
    cache.set('c', snapshot(3), 0);
    expect(cache.get('b', 1)).to.equal(undefined);
    expect(cache.get('a', 1)).to.deep.equal({ eventCount: 1 });
    expect(cache.get('c', 1)).to.deep.equal({ eventCount: 3 });
  });

  it('drops everything when the database version moves', () => {
    const cache = new SnapshotCache();
    expect(cache.get('a', 7)).to.equal(undefined);
    cache.set('a', snapshot(1), 0);
    cache.set('b', snapshot(2), 0);
    expect(cache.get('a', 7)).to.deep.equal({ eventCount: 1 });
    expect(cache.get('a', 8)).to.equal(undefined);
    expect(cache.get('b', 8)).to.equal(undefined);
  });

  it('says when a snapshot row is due', () => {
    const cache = new SnapshotCache();
    expect(cache.shouldStore('a', 10)).to.equal(true);
    cache.set('a', snapshot(10), 10);
    expect(cache.shouldStore('a', 73)).to.equal(false);
    expect(cache.shouldStore('a', 74)).to.equal(true);
  });
});
