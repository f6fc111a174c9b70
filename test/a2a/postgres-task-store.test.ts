import { expect } from 'chai';
import pg from 'pg';
import { SqlTaskStore } from '../../src/a2a/tasks/sql/sql-task-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { rowsOf } from '../support/sql-databases.js';
import { SqlTaskStoreHarness, sqlTaskStoreBehaviour, withQueriesSeenBy } from './sql-task-store-support.js';
import { taskStoreContract } from './task-store-contract.js';
import { turnEvents } from '../stores/tracker-store-contract.js';
import { T0, claimRequest, contextWith, storedTask } from './task-store-contract-support.js';

describe('SqlTaskStore on PostgreSQL', function () {
  this.timeout(60_000);
  let database: TestDatabase | undefined;
  const harness = new SqlTaskStoreHarness(() => postgresTarget((database as TestDatabase).url));

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  after(async () => {
    await harness.close();
    await database?.drop();
  });

  taskStoreContract('SqlTaskStore (PostgreSQL)', harness.open, {
    clock: harness.clock,
    second: harness.second,
    races: true,
  });
  sqlTaskStoreBehaviour(harness, /^postgresql at /);

  describe('on PostgreSQL', () => {
    /** the store's statements, counted: each is a round trip */
    function counted(announce?: (taskId: string) => { channel: string; payload: string }): {
      store: SqlTaskStore;
      count: () => number;
    } {
      let statements = 0;
      const database = withQueriesSeenBy(harness.tracker.database, (connection, config) => {
        statements += 1;
        return connection.query(config);
      });
      const store = new SqlTaskStore({
        database,
        now: harness.clock.read,
        ...(announce ? { announce } : {}),
      });
      return { store, count: () => statements };
    }

    it('runs each statement of a turn in one round trip, and a new context under the cap too', async () => {
      await harness.open();
      const { store, count } = counted();
      const replay = { scope: 'alice\u0000conv-a', messageId: 'm1' };
      const turn: [string, () => Promise<unknown>][] = [
        ['getReplay', () => store.getReplay(replay, T0)],
        [
          'claimContext (new, under the cap, reading the replay entry)',
          () => store.claimContext(claimRequest('conv-a', { maxContexts: 10, replay })),
        ],
        [
          'saveTask with a replay entry',
          () =>
            store.saveTask(storedTask('t1', { state: 'submitted' }), {
              replay: { ...replay, fingerprint: 'fp', expiresAt: T0 + 60_000 },
            }),
        ],
        ['saveTask answering it', () => store.saveTask(storedTask('t1'), { answers: replay })],
        ['releaseContext', () => store.releaseContext('conv-a', 'process-1')],
        ['trim (nothing beyond the limits)', () => store.trim('conv-a', T0)],
        [
          'claimContext (reopened)',
          () => store.claimContext(claimRequest('conv-a', { now: T0 + 1, maxContexts: 10 })),
        ],
        ['releaseContext', () => store.releaseContext('conv-a', 'process-1')],
        [
          'claimContext starting a task with its replay entry',
          () =>
            store.claimContext(
              claimRequest('conv-a', {
                now: T0 + 1,
                maxContexts: 10,
                start: {
                  task: storedTask('t2', { state: 'submitted' }),
                  replay: { scope: replay.scope, messageId: 'm2', fingerprint: 'fp', expiresAt: T0 + 60_000 },
                },
              }),
            ),
        ],
        ['releaseContext', () => store.releaseContext('conv-a', 'process-1')],
        [
          'claimContext (replayed)',
          () => store.claimContext(claimRequest('conv-a', { now: T0 + 2, maxContexts: 10, replay })),
        ],
        ['getTask', () => store.getTask('t1')],
      ];
      for (const [name, step] of turn) {
        const before = count();
        await step();
        expect(count() - before, name).to.equal(1);
      }
    });

    /** the tally's two rows as they are */
    async function tallyRows(): Promise<unknown[]> {
      const result = await harness.tracker.database.run('read', (db) =>
        db.raw('SELECT kind, total FROM a2a_context_tally ORDER BY kind'),
      );
      return rowsOf(result);
    }

    /** until a statement of another connection waits for a lock `holder` holds */
    async function waitForLockWait(holder: pg.Client): Promise<void> {
      const pid = ((await holder.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;
      for (let attempt = 0; attempt < 500; attempt += 1) {
        const waiting = await holder.query(
          'SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [pid],
        );
        if (waiting.rowCount) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('no statement waited for the lock');
    }

    it('makes room at the cap in the claim’s one statement, passing over an idle context another statement holds', async () => {
      const opened = await harness.open();
      await contextWith(opened, 'held', [storedTask('h1', { key: 'held' })], { now: T0 });
      await contextWith(opened, 'idle', [storedTask('i1', { key: 'idle' })], { now: T0 + 1 });
      await contextWith(opened, 'waiting', [storedTask('w1', { key: 'waiting', state: 'input-required' })], {
        now: T0 + 2,
      });
      const holder = new pg.Client({ connectionString: (database as TestDatabase).url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query("SELECT 1 FROM a2a_contexts WHERE context_key = 'held' FOR UPDATE");
        const { store, count } = counted();
        const tallyBefore = await tallyRows();
        const started = storedTask('n1', { key: 'new', state: 'submitted' });
        const outcome = await store.claimContext(
          claimRequest('new', { now: T0 + 3, maxContexts: 3, start: { task: started } }),
        );
        expect(count(), 'statements').to.equal(1);
        expect(outcome.kind).to.equal('claimed');
        expect(outcome.kind === 'claimed' && outcome.evictions).to.deep.equal([
          { context: { key: 'idle', contextId: 'ctx-idle', owner: 'alice' }, reason: 'idle', openTasks: [] },
        ]);
        expect(await store.getTask('i1')).to.equal(undefined);
        expect(await store.getTask('n1')).to.deep.equal(started);
        expect(await store.getTask('h1')).not.to.equal(undefined);
        expect((await store.stats()).contexts).to.equal(3);
        expect(await tallyRows(), 'the idle row became the new one: the tally is not written').to.deep.equal(
          tallyBefore,
        );
        expect(await store.getContext('idle')).to.equal(undefined);
        expect(await store.getContext('new')).to.include({ contextId: 'ctx-new' });
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
    });

    /** a second connection to the test database, ended after `work` */
    async function withOtherConnection(work: (other: pg.Client) => Promise<void>): Promise<void> {
      const other = new pg.Client({ connectionString: (database as TestDatabase).url });
      await other.connect();
      try {
        await work(other);
      } finally {
        await other.query('ROLLBACK').catch(() => undefined);
        await other.end();
      }
    }

    const LOCK_OPENED = "SELECT total FROM a2a_context_tally WHERE kind = 'opened' FOR UPDATE";

    /** two idle contexts with a task each, v1 the least recently used */
    async function twoIdleContexts(): Promise<Awaited<ReturnType<typeof harness.open>>> {
      const opened = await harness.open();
      await contextWith(opened, 'v1', [storedTask('t1', { key: 'v1' })], { now: T0 });
      await contextWith(opened, 'v2', [storedTask('t2', { key: 'v2' })], { now: T0 + 1 });
      return opened;
    }

    /** what another claim's swap writes: v1's row becomes the context `key`, its tasks gone, idle again */
    const swapOfV1Into = (key: string): string =>
      `WITH gone AS (DELETE FROM a2a_tasks WHERE context_key = 'v1')
       UPDATE a2a_contexts SET context_key = '${key}', context_id = 'ctx-${key}', claim_until = NULL,
         used_seq = nextval('a2a_context_uses') WHERE context_key = 'v1'`;

    it('swaps an idle context for a new one at the cap without waiting for the tally’s lock', async () => {
      await twoIdleContexts();
      await withOtherConnection(async (other) => {
        // a claim under the cap holding the lock (as while its commit flushes the WAL)
        await other.query('BEGIN');
        await other.query(LOCK_OPENED);
        const { store, count } = counted();
        const claims = ['n1', 'n2'].map((key, index) =>
          store.claimContext(claimRequest(key, { now: T0 + 2 + index, maxContexts: 2 })),
        );
        const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000));
        const outcomes = await Promise.race([Promise.all(claims), waited]);
        expect(outcomes, 'both claims ran while the lock was held').not.to.equal('waited');
        expect(count(), 'statements').to.equal(2);
        const evicted = (outcomes as Awaited<(typeof claims)[number]>[]).flatMap((outcome) =>
          outcome.kind === 'claimed' ? outcome.evictions.map((eviction) => eviction.context.key) : [],
        );
        expect(evicted.sort()).to.deep.equal(['v1', 'v2']);
        expect((await store.stats()).contexts).to.equal(2);
      });
    });

    it('decides again under the lock when another process opened the same new context while its claim waited', async () => {
      const opened = await harness.open();
      await contextWith(opened, 'idle', [storedTask('i1', { key: 'idle' })], { now: T0 });
      await withOtherConnection(async (other) => {
        await other.query('BEGIN');
        await other.query(LOCK_OPENED);
        // under the cap: the claim waits for the lock to add a context
        const claim = opened.claimContext(claimRequest('new', { now: T0 + 1, maxContexts: 5 }));
        await waitForLockWait(other);
        // the other process opens 'new' (unclaimed) and lets the waiting claim go on
        await other.query(
          `INSERT INTO a2a_contexts (context_key, context_id, owner, last_used, used_seq)
           VALUES ('new', 'ctx-new', 'alice', $1, nextval('a2a_context_uses'))`,
          [T0],
        );
        await other.query('COMMIT');
        const outcome = await claim;
        expect(outcome.kind).to.equal('claimed');
        expect(outcome.kind === 'claimed' && outcome.context.key).to.equal('new');
        expect((await opened.getContext('new'))?.claim?.holder).to.equal('process-1');
        expect(await opened.getTask('i1'), 'the idle context was left alone').not.to.equal(undefined);
      });
    });

    it('decides again under the lock when another claim at the cap swapped a context into the same new one', async () => {
      const opened = await twoIdleContexts();
      await withOtherConnection(async (other) => {
        // the other claim turns v1 into 'new' and has not committed yet
        await other.query('BEGIN');
        await other.query(swapOfV1Into('new'));
        const claim = opened.claimContext(claimRequest('new', { now: T0 + 2, maxContexts: 2 }));
        // this claim's swap of v2 waits for the other's key, then finds it taken
        await waitForLockWait(other);
        await other.query('COMMIT');
        const outcome = await claim;
        expect(outcome.kind).to.equal('claimed');
        expect(outcome.kind === 'claimed' && outcome.evictions).to.deep.equal([]);
        expect((await opened.getContext('new'))?.claim?.holder).to.equal('process-1');
        expect(await opened.getTask('t2'), 'v2 was left alone').not.to.equal(undefined);
        expect((await opened.stats()).contexts).to.equal(2);
      });
    });

    it('passes over a context another claim turned into its own while this one waited, in one statement', async () => {
      await twoIdleContexts();
      await withOtherConnection(async (other) => {
        await other.query('BEGIN');
        await other.query(LOCK_OPENED);
        const { store, count } = counted();
        // room by the claim's snapshot (2 of 3): it waits for the lock to add a context
        const claim = store.claimContext(claimRequest('b', { now: T0 + 2, maxContexts: 3 }));
        await waitForLockWait(other);
        // another claim took the last place, and another made v1 its context 'a', ran its turn and
        // released it: idle, and newer than v2
        await other.query(
          `INSERT INTO a2a_contexts (context_key, context_id, owner, last_used, used_seq)
           VALUES ('x', 'ctx-x', 'alice', $1, nextval('a2a_context_uses'))`,
          [T0],
        );
        await other.query(swapOfV1Into('a'));
        await other.query('COMMIT');
        const outcome = await claim;
        expect(count(), 'statements').to.equal(1);
        expect(
          outcome.kind === 'claimed' && outcome.evictions.map((eviction) => eviction.context.key),
        ).to.deep.equal(['v2']);
        expect(await store.getContext('a')).to.include({ contextId: 'ctx-a' });
        expect(await store.getContext('b')).to.include({ contextId: 'ctx-b' });
        expect((await store.stats()).contexts).to.equal(3);
      });
    });

    it('answers a turn, ends its claim and sends the settled notification in one statement', async () => {
      await harness.open();
      const channel = 'parley_test_settled';
      const listener = new pg.Client({ connectionString: (database as TestDatabase).url });
      await listener.connect();
      try {
        const heard: string[] = [];
        listener.on('notification', (message) => heard.push(message.payload ?? ''));
        await listener.query(`LISTEN ${channel}`);
        const { store, count } = counted((taskId) => ({ channel, payload: `settled ${taskId}` }));
        expect(store.announcesSettled).to.equal(true);
        await store.claimContext(claimRequest('conv-a', { holder: 'p1' }));
        await store.saveTask(storedTask('t1', { state: 'submitted' }));
        const before = count();
        await store.saveTask(storedTask('t1'), { release: { key: 'conv-a', holder: 'p1' }, announce: true });
        expect(count() - before).to.equal(1);
        expect((await store.getContext('conv-a'))?.claim).to.equal(undefined);
        // a save without `announce` sends nothing
        await store.saveTask(storedTask('t2', { state: 'submitted' }));
        const deadline = Date.now() + 2_000;
        while (heard.length === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
        await new Promise((done) => setTimeout(done, 100));
        expect(heard).to.deep.equal(['settled t1']);
      } finally {
        await listener.end();
      }
    });

    it('tells a claim the conversation’s event count when the context’s previous claim was the same holder’s', async () => {
      const store = await harness.open();
      const claim = async (holder: string, at: number) => {
        const outcome = await store.claimContext(claimRequest('conv-k', { holder, now: T0 + at }));
        // a context keeps its row when released only while it holds a task
        await store.saveTask(storedTask(`t${at}`, { key: 'conv-k' }));
        await store.releaseContext('conv-k', holder);
        return outcome.kind === 'claimed' ? outcome.context.keptAt : outcome.kind;
      };
      expect(await claim('p1', 0), 'a new context, its conversation empty').to.equal(0);
      await harness.tracker.append('conv-k', turnEvents('conv-k', 0), { expectedCount: 0 });
      expect(await claim('p1', 1), 'p1 again').to.equal(5);
      expect(await claim('p2', 2), 'another holder').to.equal(undefined);
      await harness.tracker.append('conv-k', turnEvents('conv-k', 1), { expectedCount: 5 });
      expect(await claim('p2', 3), 'p2 again').to.equal(10);
      expect(await claim('p1', 4), 'p1 after p2').to.equal(undefined);
      // gone (its tasks forgotten) and opened anew: its conversation goes on, whoever wrote it
      await store.removeTasks(['t0', 't1', 't2', 't3', 't4']);
      expect(await store.getContext('conv-k')).to.equal(undefined);
      expect(await claim('p1', 5), 'opened anew on a conversation with events').to.equal(undefined);
    });

    it('keeps the count of contexts its claims read exact, through deletes and a TRUNCATE', async () => {
      const store = await harness.open();
      const tally = async () => {
        const rows = await harness.tracker.database.run('read', (db) =>
          db.raw('SELECT kind, total FROM a2a_context_tally ORDER BY kind'),
        );
        const [closed, opened] = rowsOf<{ total: string }>(rows).map((row) => Number(row.total));
        return (opened ?? 0) - (closed ?? 0);
      };
      for (const key of ['a', 'b', 'c']) await store.claimContext(claimRequest(key));
      await store.saveTask(storedTask('t1', { key: 'a' }));
      await store.releaseContext('b', 'process-1');
      expect(await tally()).to.equal(2);
      await harness.tracker.database.run('truncate', (db) => db.raw('TRUNCATE a2a_contexts'));
      expect(await tally()).to.equal(0);
      expect((await store.stats()).contexts).to.equal(0);
    });
  });
});
