import { expect } from 'chai';
import {
  DEFAULT_LOCK_WAIT_MS,
  PostgresLockStore,
  advisoryLockKey,
} from '../../src/stores/locks/postgres-lock-store.js';
import type { TestDatabase } from '../support/postgres.js';
import {
  adminQuery,
  createTestDatabase,
  postgresTarget,
  requirePostgres,
  terminateConnections,
} from '../support/postgres.js';
import { deferred } from '../support/timing.js';
import { expectCode } from './tracker-store-contract.js';
import { lockId, lockStoreContract } from './lock-store-contract.js';

/** Takes the conversation's lock and returns once the holder's turn is running inside it. */
async function holdInside(
  store: PostgresLockStore,
  id: string,
): Promise<{ held: Promise<void>; release: () => void }> {
  const inside = deferred();
  const done = deferred();
  const held = store.withLock(id, () => {
    inside.resolve();
    return done.promise;
  });
  await inside.promise;
  return { held, release: () => done.resolve() };
}

describe('PostgresLockStore', function () {
  this.timeout(60_000);
  let database: TestDatabase | undefined;
  const stores: PostgresLockStore[] = [];
  const open = (options: { waitTimeoutMs?: number; url?: string } = {}): PostgresLockStore => {
    const store = new PostgresLockStore({
      target: postgresTarget(options.url ?? (database as TestDatabase).url),
      ...(options.waitTimeoutMs ? { waitTimeoutMs: options.waitTimeoutMs } : {}),
    });
    stores.push(store);
    return store;
  };

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  after(async () => {
    await database?.drop();
  });

  lockStoreContract('PostgresLockStore', { shared: true, open: async () => open() });

  it('hashes conversation ids to distinct 64-bit keys', () => {
    const keys = new Set(Array.from({ length: 10_000 }, (_, index) => advisoryLockKey(`user-${index}`)));
    expect(keys.size).to.equal(10_000);
    expect(advisoryLockKey('same')).to.equal(advisoryLockKey('same'));
    for (const key of [...keys].slice(0, 100))
      expect(BigInt(key) >= -(2n ** 63n) && BigInt(key) < 2n ** 63n).to.equal(true);
  });

  it('gives up with LOCK_TIMEOUT when another process holds the conversation too long', async () => {
    const [holder, waiter] = [open(), open({ waitTimeoutMs: 300 })];
    const id = lockId('timeout');
    const { held, release } = await holdInside(holder, id);
    const started = performance.now();
    await expectCode(
      waiter.withLock(id, async () => 'never'),
      'LOCK_TIMEOUT',
    );
    // a timer never fires early; a waiter that ignored its 300 ms would wait the default 60 s
    expect(performance.now() - started).to.be.within(250, DEFAULT_LOCK_WAIT_MS / 6);
    release();
    await held;
    expect(await waiter.withLock(id, async () => 'now')).to.equal('now');
  });

  it('frees the conversation when the holding connection dies (a crashed process)', async () => {
    const [holder, other] = [open(), open({ waitTimeoutMs: 5000 })];
    const id = lockId('crash');
    const { held, release } = await holdInside(holder, id);
    const key = advisoryLockKey(id);
    const holders = await adminQuery(
      `SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
         AND ((l.classid::bigint << 32) | l.objid::bigint) = ($1::bigint)`,
      [key],
    );
    expect(holders.rowCount).to.equal(1);
    await adminQuery('SELECT pg_terminate_backend($1)', [holders.rows[0].pid]);
    expect(await other.withLock(id, async () => 'entered')).to.equal('entered');
    release();
    await held;
  });

  it('reports STORE_UNAVAILABLE when PostgreSQL cannot be reached, and works again afterwards', async () => {
    const nowhere = open({ url: 'postgresql://postgres@127.0.0.1:1/none' });
    await expectCode(
      nowhere.withLock(lockId('x'), async () => 'never'),
      'STORE_UNAVAILABLE',
    );
    const store = open();
    await store.withLock(lockId('warm'), async () => undefined);
    await terminateConnections((database as TestDatabase).name);
    expect(await store.withLock(lockId('after'), async () => 'ok')).to.equal('ok');
  });
});
