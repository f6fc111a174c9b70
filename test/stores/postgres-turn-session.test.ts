import { expect } from 'chai';
import type { EventEmitter } from 'node:events';
import pg from 'pg';
import type { LockStore, TrackerStore } from '../../src/core/ports.js';
import { joinTurnStores } from '../../src/stores/factory.js';
import { PostgresLockStore, advisoryLockKey } from '../../src/stores/locks/postgres-lock-store.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { APPEND_AND_UNLOCK_STATEMENT } from '../../src/stores/sql/postgres-statements.js';
import { turnSessionOf } from '../../src/stores/sql/postgres-turn-session.js';
import type { PostgresTurnSession } from '../../src/stores/sql/postgres-turn-session.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import type { TestDatabase } from '../support/postgres.js';
import { adminQuery, createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { deferred } from '../support/timing.js';
import { lockStoreContract } from './lock-store-contract.js';
import { expectCode, expectWholeTurns, snapshotOf, turnEvents, uniqueId } from './tracker-store-contract.js';

/** How many connections hold the conversation's advisory lock (any database, any level). */
async function lockHolders(conversationId: string): Promise<number> {
  const result = await adminQuery(
    `SELECT count(*)::int AS holders FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
    [advisoryLockKey(conversationId)],
  );
  return (result.rows[0] as { holders: number }).holders;
}

/** A lock store joined with a tracker store on one database, counting the tracker store's pool borrowings. */
interface JoinedPair {
  readonly tracker: SqlTrackerStore;
  readonly lock: PostgresLockStore;
  pooled: number;
}

/** One stored turn as the agent runs it: under the lock, load, then append whole turn events. */
async function storeTurn(pair: JoinedPair, id: string, turn: number): Promise<void> {
  await pair.lock.withLock(id, async () => {
    const loaded = await pair.tracker.loadRecent(id);
    const events = turnEvents(id, turn);
    await pair.tracker.append(id, events, { expectedCount: loaded.eventCount });
  });
}

describe('PostgreSQL turns on the lock connection (lock store joined with the tracker store)', function () {
  this.timeout(60_000);
  let database: TestDatabase | undefined;
  const closers: (() => Promise<void>)[] = [];

  const openPair = async (options: { waitTimeoutMs?: number } = {}): Promise<JoinedPair> => {
    const target = postgresTarget((database as TestDatabase).url);
    const tracker = new SqlTrackerStore({ target });
    const lock = new PostgresLockStore({ target, ...options });
    closers.push(
      () => lock.close(),
      () => tracker.close(),
    );
    await tracker.open();
    await lock.open();
    expect(joinTurnStores(tracker, lock)).to.equal(true);
    const pair: JoinedPair = { tracker, lock, pooled: 0 };
    const borrow = tracker.database.withPostgres.bind(tracker.database);
    tracker.database.withPostgres = (work) => {
      pair.pooled += 1;
      return borrow(work);
    };
    return pair;
  };

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  after(async () => {
    await database?.drop();
  });

  lockStoreContract('PostgresLockStore joined with its tracker store', {
    shared: true,
    open: async () => (await openPair()).lock,
  });

  it('runs the lock, the load and the append of a turn without borrowing a pool connection', async () => {
    const pair = await openPair();
    const id = uniqueId('one-connection');
    for (let turn = 0; turn < 3; turn += 1) await storeTurn(pair, id, turn);
    expect(pair.pooled, 'statements on a pooled connection').to.equal(0);
    const events = await pair.tracker.loadAll(id);
    expect(events).to.have.length(15);
    expectWholeTurns(events);
    expect(pair.lock.describe()).to.match(/on the tracker store turn connection/);
  });

  it('reads with the snapshot the store keeps, through the lock statement', async () => {
    const pair = await openPair();
    const id = uniqueId('snapshot');
    const first = turnEvents(id, 0);
    await pair.lock.withLock(id, async () => {
      await pair.tracker.append(id, first, { expectedCount: 0, snapshot: snapshotOf(id, first) });
    });
    await pair.lock.withLock(id, async () => {
      const loaded = await pair.tracker.loadRecent(id);
      expect(loaded.eventCount).to.equal(5);
      expect(loaded.snapshot?.eventCount).to.equal(5);
      expect(loaded.eventsAfterSnapshot).to.deep.equal([]);
    });
  });

  it('serialises turns of one conversation across processes: every turn loads what the one before stored', async () => {
    // each turn appends at the count it loaded: a load made before the lock was granted would conflict
    const pairs = [await openPair(), await openPair()];
    const id = uniqueId('race');
    await Promise.all(
      Array.from({ length: 24 }, (_, turn) => storeTurn(pairs[turn % 2] as JoinedPair, id, turn)),
    );
    const events = await pairs[0]?.tracker.loadAll(id);
    expect(events).to.have.length(24 * 5);
    expectWholeTurns(events ?? []);
  });

  it('gives up with LOCK_TIMEOUT, and the timeout does not stay on the connection', async () => {
    const holder = await openPair();
    const waiter = await openPair({ waitTimeoutMs: 300 });
    const id = uniqueId('timeout');
    const inside = deferred();
    const done = deferred();
    const held = holder.lock.withLock(id, async () => {
      inside.resolve();
      await done.promise;
    });
    await inside.promise;
    await expectCode(
      waiter.lock.withLock(id, async () => 'never'),
      'LOCK_TIMEOUT',
    );
    done.resolve();
    await held;
    // lock_timeout held for the lock statement only, not for the turn's later statements
    const timeout = await waiter.lock.withLock(id, async () => {
      const session = turnSessionOf(id, waiter.tracker) as PostgresTurnSession;
      const result = await session.connection.query({ text: 'SHOW lock_timeout' });
      return (result.rows[0] as { lock_timeout: string }).lock_timeout;
    });
    expect(timeout).to.equal('0');
  });

  it('reads again after a write in the same turn (what the lock statement read is stale then)', async () => {
    const pair = await openPair();
    const id = uniqueId('write-first');
    await storeTurn(pair, id, 0);
    await pair.lock.withLock(id, async () => {
      await pair.tracker.append(id, turnEvents(id, 1), { expectedCount: 5 });
      expect((await pair.tracker.loadRecent(id)).eventCount).to.equal(10);
    });
  });

  it('frees the lock with the turn’s append: another process enters before the turn returns, and reads it', async () => {
    const pair = await openPair();
    const other = await openPair();
    const id = uniqueId('append-unlocks');
    await storeTurn(pair, id, 0);
    await pair.lock.withLock(id, async () => {
      const loaded = await pair.tracker.loadRecent(id);
      expect(await lockHolders(id), 'held while the turn runs').to.equal(1);
      await pair.tracker.append(id, turnEvents(id, 1), { expectedCount: loaded.eventCount });
      expect(await lockHolders(id), 'freed by the append').to.equal(0);
      await storeTurn(other, id, 2);
    });
    const events = await pair.tracker.loadAll(id);
    expect(events).to.have.length(15);
    expectWholeTurns(events);
    expect(await lockHolders(id)).to.equal(0);
  });

  it('keeps the key locked until the append that frees it has committed', async () => {
    const url = (database as TestDatabase).url;
    const writer = new pg.Client({ connectionString: url });
    const prober = new pg.Client({ connectionString: url });
    await writer.connect();
    await prober.connect();
    const id = uniqueId('barrier');
    const key = advisoryLockKey(id);
    const enters = async (): Promise<boolean> => {
      const result = await prober.query('SELECT pg_try_advisory_lock($1::bigint) AS entered', [key]);
      const entered = (result.rows[0] as { entered: boolean }).entered;
      if (entered) await prober.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      return entered;
    };
    try {
      await writer.query('SELECT pg_advisory_lock($1::bigint)', [key]);
      await writer.query('BEGIN');
      const rows = JSON.stringify([['user', 1, 'greet', null]]);
      const appended = await writer.query({
        ...APPEND_AND_UNLOCK_STATEMENT,
        values: [key, id, 0, rows, null, null, null, '{"event":"user"}'],
      });
      expect(Number((appended.rows[0] as { inserted: string }).inserted)).to.equal(1);
      expect(await enters(), 'entered before the events were visible').to.equal(false);
      await writer.query('COMMIT');
      expect(await enters(), 'entered once committed').to.equal(true);
    } finally {
      await writer.end();
      await prober.end();
    }
  });

  it('keeps the lock for the turn when its append fails, and frees it when the turn ends', async () => {
    const pair = await openPair();
    const id = uniqueId('append-fails');
    await storeTurn(pair, id, 0);
    await pair.lock.withLock(id, async () => {
      await expectCode(pair.tracker.append(id, turnEvents(id, 1), { expectedCount: 0 }), 'TRACKER_CONFLICT');
      expect(await lockHolders(id), 'still held after the failed append').to.equal(1);
    });
    expect(await lockHolders(id)).to.equal(0);
    await storeTurn(pair, id, 1);
    expect(await pair.tracker.loadAll(id)).to.have.length(10);
  });

  it('sends work that outlives its turn to the pool, not to the connection of a later turn', async () => {
    const pair = await openPair();
    const id = uniqueId('outlives');
    await storeTurn(pair, id, 0);
    const later = deferred();
    let lateLoad: Promise<number> | undefined;
    await pair.lock.withLock(id, async () => {
      await pair.tracker.loadRecent(id);
      lateLoad = later.promise.then(async () => (await pair.tracker.loadRecent(id)).eventCount);
    });
    const pooledBefore = pair.pooled;
    await storeTurn(pair, id, 1);
    later.resolve();
    expect(await lateLoad).to.equal(10);
    expect(pair.pooled).to.equal(pooledBefore + 1);
  });

  it('fails a turn whose lock connection dies before its append, stores none of it, and serves the next turn', async () => {
    const pair = await openPair();
    const id = uniqueId('connection-lost');
    await storeTurn(pair, id, 0);
    let connection: EventEmitter | undefined;
    const failed = pair.lock.withLock(id, async () => {
      connection = (turnSessionOf(id, pair.tracker) as PostgresTurnSession).connection as never;
      const loaded = await pair.tracker.loadRecent(id);
      await adminQuery(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
        [advisoryLockKey(id)],
      );
      await pair.tracker.append(id, turnEvents(id, 1), { expectedCount: loaded.eventCount });
    });
    await expectCode(failed, 'STORE_UNAVAILABLE');
    // a dying connection may report again after it left the pool: that must not end the process
    expect(() => connection?.emit('error', new Error('late report of the lost connection'))).not.to.throw();
    expect(await pair.tracker.loadAll(id)).to.have.length(5);
    await storeTurn(pair, id, 1);
    const events = await pair.tracker.loadAll(id);
    expect(events).to.have.length(10);
    expectWholeTurns(events);
  });

  it('joins only a PostgreSQL lock store on the tracker store database and schema', async () => {
    const url = (database as TestDatabase).url;
    const tracker = new SqlTrackerStore({ target: postgresTarget(url) });
    const stores: (TrackerStore | LockStore)[] = [tracker];
    const lockAt = (extra: Record<string, unknown>, at = url) => {
      const lock = new PostgresLockStore({ target: postgresTarget(at, extra) });
      stores.push(lock);
      return lock;
    };
    const sqlite = new SqlTrackerStore({ target: sqliteTarget(':memory:', '.') });
    stores.push(sqlite);
    try {
      expect(joinTurnStores(tracker, new MemoryLockStore())).to.equal(false);
      expect(joinTurnStores(sqlite, lockAt({}))).to.equal(false);
      expect(joinTurnStores(tracker, lockAt({ schema: 'elsewhere' }))).to.equal(false);
      expect(joinTurnStores(tracker, lockAt({}, url.replace(/\/[^/]+$/, '/postgres')))).to.equal(false);
      const same = lockAt({});
      expect(joinTurnStores(tracker, same)).to.equal(true);
      expect(same.describe()).to.match(/on the tracker store turn connection/);
    } finally {
      for (const store of stores) await (store as { close?: () => Promise<void> }).close?.();
    }
  });
});
