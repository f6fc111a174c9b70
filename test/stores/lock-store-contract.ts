/**
 * THE contract every LockStore passes (memory, PostgreSQL advisory locks, Redis): one suite, run by
 * each store's test file with a harness that opens instances of that store.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { LockStore } from '../../src/core/ports.js';

export interface LockStoreHarness {
  open(): Promise<LockStore & { close?(): Promise<void> }>;
  /** instances exclude each other (like two processes): adds the tests of that */
  readonly shared: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A shared counter updated non-atomically (read, pause, write): only mutual exclusion keeps it right. */
export class RacyCounter {
  value = 0;
  inside = 0;
  maxInside = 0;
  readonly order: number[] = [];

  async increment(worker: number): Promise<number> {
    this.inside += 1;
    this.maxInside = Math.max(this.maxInside, this.inside);
    this.order.push(worker);
    const read = this.value;
    await pause(worker % 3);
    this.value = read + 1;
    this.inside -= 1;
    return read;
  }
}

export function lockId(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

export function lockStoreContract(name: string, harness: LockStoreHarness): void {
  describe(`${name}: the lock store contract`, function () {
    this.timeout(60_000);
    const opened: (LockStore & { close?(): Promise<void> })[] = [];
    const open = async () => {
      const store = await harness.open();
      opened.push(store);
      return store;
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close?.()));
    });

    it('runs 100 concurrent turns of one conversation one at a time, in arrival order', async () => {
      const store = await open();
      const id = lockId('hundred');
      const counter = new RacyCounter();
      const reads = await Promise.all(
        Array.from({ length: 100 }, (_, worker) => store.withLock(id, () => counter.increment(worker))),
      );
      expect(counter.value).to.equal(100);
      expect(counter.maxInside).to.equal(1);
      expect(counter.order).to.deep.equal(Array.from({ length: 100 }, (_, worker) => worker));
      expect(reads).to.deep.equal(Array.from({ length: 100 }, (_, worker) => worker));
    });

    it('does not make different conversations wait for each other', async () => {
      const store = await open();
      const [a, b] = [lockId('a'), lockId('b')];
      let enteredB!: () => void;
      const bInside = new Promise<void>((resolve) => (enteredB = resolve));
      // a's turn only ends once b's turn has started: a lock shared by both would never get there
      const turnA = store.withLock(a, async () => {
        await bInside;
        return 'a';
      });
      const turnB = store.withLock(b, async () => {
        enteredB();
        return 'b';
      });
      expect(await Promise.all([turnA, turnB])).to.deep.equal(['a', 'b']);
    });

    it("releases the lock when a turn throws, and hands the turn's error back", async () => {
      const store = await open();
      const id = lockId('throws');
      const failure = new Error('action crashed');
      const failed = store.withLock(id, async () => {
        await pause(5);
        throw failure;
      });
      const next = store.withLock(id, async () => 'next ran');
      const [first, second] = await Promise.allSettled([failed, next]);
      expect(first).to.deep.equal({ status: 'rejected', reason: failure });
      expect(second).to.deep.equal({ status: 'fulfilled', value: 'next ran' });
      expect(await store.withLock(id, async () => 'and again')).to.equal('and again');
    });

    it('serves a conversation again and again (no state left behind)', async () => {
      const store = await open();
      const id = lockId('again');
      for (let round = 0; round < 20; round += 1)
        expect(await store.withLock(id, async () => round)).to.equal(round);
    });

    if (!harness.shared) return;

    it('excludes turns of one conversation across two store instances (two processes)', async () => {
      const [first, second] = [await open(), await open()];
      const id = lockId('two-instances');
      const counter = new RacyCounter();
      await Promise.all(
        Array.from({ length: 60 }, (_, worker) =>
          (worker % 2 === 0 ? first : second).withLock(id, () => counter.increment(worker)),
        ),
      );
      expect(counter.value).to.equal(60);
      expect(counter.maxInside).to.equal(1);
      // each instance keeps its own turns in arrival order
      for (const parity of [0, 1])
        expect(counter.order.filter((worker) => worker % 2 === parity)).to.deep.equal(
          Array.from({ length: 30 }, (_, index) => index * 2 + parity),
        );
    });

    it('lets a second instance in as soon as the first releases', async () => {
      const [first, second] = [await open(), await open()];
      const id = lockId('handover');
      const events: string[] = [];
      let firstIn!: () => void;
      const inside = new Promise<void>((resolve) => (firstIn = resolve));
      const firstTurn = first.withLock(id, async () => {
        events.push('first in');
        firstIn();
        await pause(150);
        events.push('first out');
      });
      await inside;
      await second.withLock(id, async () => events.push('second in'));
      await firstTurn;
      expect(events).to.deep.equal(['first in', 'first out', 'second in']);
    });
  });
}
