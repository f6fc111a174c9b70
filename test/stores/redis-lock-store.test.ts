import { expect } from 'chai';
import { Redis } from 'ioredis';
import { ConfigReader } from '../../src/stores/config-reader.js';
import { readRedisConnection } from '../../src/stores/locks/redis-connection.js';
import type { RedisLockStoreOptions } from '../../src/stores/locks/redis-lock-store.js';
import { DEFAULT_LEASE_MS, RedisLockStore } from '../../src/stores/locks/redis-lock-store.js';
import { REDIS_URL, requireRedis } from '../support/redis.js';
import { expectCode } from './tracker-store-contract.js';
import { lockId, lockStoreContract, RacyCounter } from './lock-store-contract.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connection(raw: Record<string, unknown> = {}) {
  const reader = new ConfigReader({
    section: 'lock_store',
    raw: { url: REDIS_URL, key_prefix: 'parleytest', ...raw },
  });
  const result = readRedisConnection(reader, { projectRoot: process.cwd(), defaultDb: 0 });
  reader.throwIfInvalid();
  return result as NonNullable<typeof result>;
}

describe('RedisLockStore', function () {
  this.timeout(60_000);
  const stores: RedisLockStore[] = [];
  const open = (options: Partial<RedisLockStoreOptions> = {}): RedisLockStore => {
    const store = new RedisLockStore({ connection: connection(), ...options });
    stores.push(store);
    return store;
  };

  before(async function () {
    await requireRedis(this);
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  lockStoreContract('RedisLockStore', { shared: true, open: async () => open() });

  it('keeps a turn longer than the lease exclusive (the lease is renewed while it runs)', async () => {
    const [first, second] = [open({ leaseMs: 400 }), open({ leaseMs: 400 })];
    const id = lockId('long-turn');
    const events: string[] = [];
    let firstIn!: () => void;
    const inside = new Promise<void>((resolve) => (firstIn = resolve));
    const long = first.withLock(id, async () => {
      events.push('long in');
      firstIn();
      await pause(1_600); // four leases
      events.push('long out');
    });
    await inside;
    await second.withLock(id, async () => events.push('second in'));
    await long;
    expect(events).to.deep.equal(['long in', 'long out', 'second in']);
  });

  it('lets the next turn in one lease after the holding process dies', async () => {
    const leaseMs = 1_000;
    const crashed = open({ leaseMs });
    const survivor = open({ leaseMs });
    const id = lockId('crash');
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    void crashed
      .withLock(id, async () => {
        entered();
        await new Promise(() => undefined); // never ends: the process is gone
      })
      .catch(() => undefined);
    await inside;
    // the process dies: its connection drops and nobody renews its lease any more
    (crashed as unknown as { client: Redis }).client.disconnect();
    const started = performance.now();
    expect(await survivor.withLock(id, async () => 'entered')).to.equal('entered');
    // the lease was set moments ago, so it cannot have run out yet; a lease that never ran out, or one
    // of the default 10 s, would keep the survivor out far longer
    expect(performance.now() - started).to.be.within(leaseMs * 0.3, DEFAULT_LEASE_MS / 2);
  });

  it('gives up with LOCK_TIMEOUT after its wait, and leaves no ticket behind', async () => {
    const holder = open();
    const waiter = open({ waitTimeoutMs: 250 });
    const id = lockId('timeout');
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const held = holder.withLock(id, () => {
      entered();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await inside;
    await expectCode(
      waiter.withLock(id, async () => 'never'),
      'LOCK_TIMEOUT',
    );
    release();
    await held;
    const raw = new Redis(REDIS_URL);
    try {
      expect(await raw.exists(`parleytest:parley-lock:${id}`)).to.equal(0);
    } finally {
      raw.disconnect();
    }
  });

  it("never removes another owner's ticket when releasing (compare-and-delete)", async () => {
    const store = open();
    const id = lockId('owner');
    const queue = `parleytest:parley-lock:${id}`;
    const raw = new Redis(REDIS_URL);
    try {
      await store.withLock(id, async () => {
        const [holder] = await raw.lrange(queue, 0, 0);
        const client = (
          store as unknown as { client: { parleyLockRelease: (...args: unknown[]) => Promise<number> } }
        ).client;
        // a stale owner releasing with its own (other) ticket removes nothing
        expect(await client.parleyLockRelease(queue, 'not-the-holder', 1000, `${queue}:`)).to.equal(0);
        expect(await raw.lrange(queue, 0, -1)).to.deep.equal([holder]);
        expect(await raw.exists(`${queue}:${holder}`)).to.equal(1);
      });
    } finally {
      raw.disconnect();
    }
  });

  it('reports STORE_UNAVAILABLE quickly when Redis cannot be reached', async () => {
    const store = new RedisLockStore({ connection: connection({ url: 'redis://127.0.0.1:1' }) });
    stores.push(store);
    const started = performance.now();
    await expectCode(
      store.withLock(lockId('x'), async () => 'never'),
      'STORE_UNAVAILABLE',
    );
    // one reconnection attempt, not ioredis's default of 20 (20 s) nor a socket timeout (10 s)
    expect(performance.now() - started).to.be.below(5_000);
  });

  it('reconnects by itself after its connection is killed', async () => {
    const store = open();
    await store.open();
    const client = (store as unknown as { client: Redis }).client;
    const id = await client.client('ID');
    const admin = new Redis(REDIS_URL);
    try {
      await admin.client('KILL', 'ID', String(id));
    } finally {
      admin.disconnect();
    }
    expect(await store.withLock(lockId('after-kill'), async () => 'ok')).to.equal('ok');
  });

  it('keeps counting right with 3 instances and 90 turns racing on one conversation', async () => {
    const instances = [open(), open(), open()];
    const id = lockId('three');
    const counter = new RacyCounter();
    await Promise.all(
      Array.from({ length: 90 }, (_, worker) =>
        (instances[worker % 3] as RedisLockStore).withLock(id, () => counter.increment(worker)),
      ),
    );
    expect(counter.value).to.equal(90);
    expect(counter.maxInside).to.equal(1);
  });
});
