/**
 * Harnesses for the SQL TaskStore contract: one tracker store (which owns the database) per suite, a
 * task store on its database per test with the A2A tables emptied first, and second instances on the
 * same data through tracker stores of their own (their own connection pools, as another process has).
 */
import { expect } from 'chai';
import { SqlTaskStore } from '../../src/a2a/tasks/sql/sql-task-store.js';
import type { TaskStore } from '../../src/a2a/tasks/task-store.js';
import type { SqlTarget } from '../../src/stores/sql/sql-target.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { turnEvents } from '../stores/tracker-store-contract.js';
import { CONTRACT_LIMITS, ManualClock } from './task-store-contract.js';
import { storedTask as storedTaskOf } from './task-store-contract-support.js';

const A2A_TABLES = ['a2a_push_configs', 'a2a_replays', 'a2a_tasks', 'a2a_contexts'];

export class SqlTaskStoreHarness {
  readonly clock = new ManualClock();
  private readonly target: () => SqlTarget;
  private readonly trackers: SqlTrackerStore[] = [];

  /** `target` is read when the first store opens (a PostgreSQL test database is made in `before`) */
  constructor(target: () => SqlTarget) {
    this.target = target;
  }

  /** the tracker store owning the database the suite's task stores use */
  get tracker(): SqlTrackerStore {
    if (!this.trackers[0]) this.trackers.push(new SqlTrackerStore({ target: this.target() }));
    return this.trackers[0] as SqlTrackerStore;
  }

  /** an empty task store on the suite's database */
  readonly open = async (): Promise<TaskStore> => {
    await this.tracker.database.run('empty the a2a tables', async (db) => {
      for (const table of A2A_TABLES) await db(table).delete();
    });
    return this.taskStore(this.tracker);
  };

  /** another instance on the same data, through its own connection pool */
  readonly second = async (): Promise<TaskStore> => {
    const tracker = new SqlTrackerStore({ target: this.target() });
    this.trackers.push(tracker);
    return this.taskStore(tracker);
  };

  taskStore(tracker: SqlTrackerStore): SqlTaskStore {
    return new SqlTaskStore({ database: tracker.database, limits: CONTRACT_LIMITS, now: this.clock.read });
  }

  async close(): Promise<void> {
    await Promise.all(this.trackers.splice(0).map((tracker) => tracker.close()));
  }
}

/** What the SQL store does beyond the contract, on either dialect. */
export function sqlTaskStoreBehaviour(harness: SqlTaskStoreHarness, description: RegExp): void {
  describe('beyond the contract', () => {
    it('describes itself as the database it shares with the tracker store', async () => {
      const store = await harness.open();
      expect(store.describe()).to.match(description);
      expect(store.describe()).to.equal(harness.tracker.describe());
    });

    it('leaves the shared database open when it closes', async () => {
      const store = await harness.open();
      await store.close();
      await harness.tracker.append('after-close', turnEvents('after-close', 0), { expectedCount: 0 });
      expect((await harness.tracker.loadRecent('after-close')).eventCount).to.equal(5);
      expect(await harness.taskStore(harness.tracker).getTask('none')).to.equal(undefined);
    });

    it('trusts a size within its limits that a turn tells it, without reading the context', async () => {
      const store = await harness.open();
      await store.claimContext({
        key: 'told',
        contextId: 'ctx-told',
        owner: 'alice',
        holder: 'p1',
        now: harness.clock.now,
        leaseMs: 30_000,
        maxContexts: 0,
      });
      for (const id of ['t1', 't2', 't3', 't4', 't5'])
        await store.saveTask({ ...storedTaskOf(id), contextKey: 'told' });
      // the turn says one task of 100 bytes: the store does not look (five are there, over the three kept)
      expect(await store.trim('told', harness.clock.now, { tasks: 1, bytes: 100 })).to.deep.equal({
        removed: [],
        evictions: [],
      });
      expect((await store.trim('told', harness.clock.now)).removed).to.deep.equal(['t1', 't2']);
    });

    it('reports an operation on a closed database as STORE_UNAVAILABLE, naming the A2A task store', async () => {
      const tracker = new SqlTrackerStore({ target: harness.tracker.target });
      const store = harness.taskStore(tracker);
      await tracker.close();
      const error = await store.getTask('t1').then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).to.have.property('code', 'STORE_UNAVAILABLE');
      expect((error as Error).message).to.match(
        /^The A2A task store \((sqlite|postgresql) at .*\) is closed\.$/,
      );
    });
  });
}
