/**
 * Harnesses for the SQL TaskStore contract: one tracker store (which owns the database) per suite, a
 * task store on its database per test with the A2A tables emptied first, and second instances on the
 * same data through tracker stores of their own (their own connection pools, as another process has).
 */
import { expect } from 'chai';
import { SqlTaskStore } from '../../src/a2a/tasks/sql/sql-task-store.js';
import { TERMINAL_STATES_SQL } from '../../src/a2a/tasks/sql/task-rows.js';
import { CONTEXT_SQL } from '../../src/a2a/tasks/sql/task-sql.js';
import type { PostgresConnection, TaskDatabase } from '../../src/a2a/tasks/sql/task-database.js';
import type { TaskStore } from '../../src/a2a/tasks/task-store.js';
import { A2A_OPEN_TASKS_INDEX } from '../../src/stores/sql/a2a-task-tables.js';
import type { SqlTarget } from '../../src/stores/sql/sql-target.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { turnEvents } from '../stores/tracker-store-contract.js';
import { rowsOf } from '../support/sql-databases.js';
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

/**
 * The tracker store's database with every PostgreSQL statement going through `query` (handed the
 * connection's own): for tests that count, record or wrap a store's round trips.
 */
export function withQueriesSeenBy(
  shared: TaskDatabase,
  query: (
    connection: PostgresConnection,
    config: Parameters<PostgresConnection['query']>[0],
  ) => ReturnType<PostgresConnection['query']>,
): TaskDatabase {
  return {
    dialect: shared.dialect,
    describe: () => shared.describe(),
    run: (operation, work, options) => shared.run(operation, work, options),
    withSqlite: (work) => shared.withSqlite(work),
    sqliteWrite: (work) => shared.sqliteWrite(work),
    withPostgres: (work) =>
      shared.withPostgres((connection) => work({ query: (config) => query(connection, config) })),
  };
}

/** What the SQL store does beyond the contract, on either dialect. */
export function sqlTaskStoreBehaviour(harness: SqlTaskStoreHarness, description: RegExp): void {
  describe('beyond the contract', () => {
    it('describes itself as the database it shares with the tracker store', async () => {
      const store = await harness.open();
      expect(store.describe()).to.match(description);
      expect(store.describe()).to.equal(harness.tracker.describe());
    });

    it('asks for open tasks as the index of open tasks defines them (same states, same order)', () => {
      expect(A2A_OPEN_TASKS_INDEX.replace(/\s+/g, ' ')).to.include(
        `WHERE member = 1 AND state NOT IN ${TERMINAL_STATES_SQL}`,
      );
      expect(CONTEXT_SQL.idle.replace(/\s+/g, ' ')).to.include(
        `t.member = 1 AND t.state NOT IN ${TERMINAL_STATES_SQL}`,
      );
    });

    it('deletes expired replay entries as new ones are recorded (every write on SQLite, every 64 on PostgreSQL)', async () => {
      const store = await harness.open();
      const count = async () => {
        const result = await harness.tracker.database.run('count', (db) =>
          db.raw('SELECT COUNT(*) AS n FROM a2a_replays'),
        );
        return Number(rowsOf<{ n: number | string }>(result)[0]?.n);
      };
      const record = (id: string, expiresAt: number) =>
        store.saveTask(storedTaskOf(id, { state: 'submitted' }), {
          replay: { scope: 'alice\u0000conv-a', messageId: id, fingerprint: 'fp', expiresAt },
        });
      // expired entries of an earlier process (nothing recorded by this store yet)
      await harness.tracker.database.run('expired entries', (db) =>
        db('a2a_replays').insert(
          Array.from({ length: 150 }, (_, n) => ({
            scope: 'gone',
            message_id: `old-${n}`,
            fingerprint: 'fp',
            task_id: `old-${n}`,
            answer_bytes: 0,
            expires_at: harness.clock.now - 1 - n,
          })),
        ),
      );
      for (let n = 0; n < 64; n += 1) await record(`new-${n}`, harness.clock.now + 60_000);
      expect(await count()).to.equal(64);
      expect(
        (await store.getReplay({ scope: 'alice\u0000conv-a', messageId: 'new-0' }, harness.clock.now))
          ?.taskId,
      ).to.equal('new-0');
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
