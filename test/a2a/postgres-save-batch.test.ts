import { expect } from 'chai';
import pg from 'pg';
import { AppError } from '../../src/core/errors.js';
import { PostgresSaveBatch, SAVE_BATCH_STATEMENT } from '../../src/a2a/tasks/sql/postgres-save-batch.js';
import type { PendingSave } from '../../src/a2a/tasks/sql/postgres-save-batch.js';
import { SqlTaskStore } from '../../src/a2a/tasks/sql/sql-task-store.js';
import type { PostgresConnection } from '../../src/a2a/tasks/sql/task-database.js';
import type { ReplayKey } from '../../src/a2a/tasks/task-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { rowsOf } from '../support/sql-databases.js';
import { SqlTaskStoreHarness, withQueriesSeenBy } from './sql-task-store-support.js';
import { T0, claimRequest, storedTask } from './task-store-contract-support.js';

const CHANNEL = 'parley_test_save_batch';

describe('PostgreSQL: the task saves of concurrent turns are committed together', function () {
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

  /** a store on the suite's database whose statements are recorded by name, announcing on CHANNEL */
  function recorded(): { store: SqlTaskStore; sent: string[] } {
    const sent: string[] = [];
    const counting = withQueriesSeenBy(harness.tracker.database, (connection, config) => {
      sent.push(config.name ?? config.text);
      return connection.query(config);
    });
    const announce = (taskId: string) => ({ channel: CHANNEL, payload: `settled ${taskId}` });
    return { store: new SqlTaskStore({ database: counting, now: harness.clock.read, announce }), sent };
  }

  async function rows(text: string): Promise<Record<string, unknown>[]> {
    const result = await harness.tracker.database.run('test', (db) => db.raw(text));
    return rowsOf<Record<string, unknown>>(result);
  }

  const replayOf = (key: string): ReplayKey => ({ scope: `alice\u0000${key}`, messageId: `m-${key}` });

  /** contexts claimed by p1, each with a task waiting for its turn and that message's replay entry */
  async function turnsUnderWay(store: SqlTaskStore, keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      await store.claimContext(claimRequest(key, { holder: 'p1' }));
      await store.saveTask(storedTask(`t-${key}`, { key, state: 'working' }), {
        replay: { ...replayOf(key), fingerprint: `fp-${key}`, expiresAt: T0 + 60_000 },
      });
    }
  }

  /** the answer's save of a turn: the task settled, its replay entry answered, the claim ended, announced */
  function answer(store: SqlTaskStore, key: string): Promise<void> {
    const settled = storedTask(`t-${key}`, {
      key,
      state: 'input-required',
      bytes: 321,
      text: `answer ${key}`,
    });
    return store.saveTask(settled, {
      answers: replayOf(key),
      release: { key, holder: 'p1' },
      announce: true,
    });
  }

  async function listening(work: () => Promise<void>): Promise<string[]> {
    const listener = new pg.Client({ connectionString: (database as TestDatabase).url });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query(`LISTEN ${CHANNEL}`);
      await work();
      // a notification is delivered after its commit: wait for the last one, boundedly
      const deadline = Date.now() + 3_000;
      while (heard.length < 12 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
      return heard.sort();
    } finally {
      await listener.end();
    }
  }

  it('saves the first at once and the ones that came meanwhile in one statement, each in full', async () => {
    await harness.open();
    const { store, sent } = recorded();
    const keys = Array.from({ length: 12 }, (_, index) => `batch-${index}`);
    await turnsUnderWay(store, keys);
    sent.length = 0;
    const heard = await listening(() =>
      Promise.all(keys.map((key) => answer(store, key))).then(() => undefined),
    );
    // one alone (nothing was on its way), then the eleven that waited for it in one statement
    expect(sent.filter((name) => name === SAVE_BATCH_STATEMENT.name)).to.have.length(1);
    expect(sent).to.have.length(2);
    expect(heard).to.deep.equal(keys.map((key) => `settled t-${key}`).sort());
    for (const key of keys) {
      const task = await store.getTask(`t-${key}`);
      expect(task?.task.status.state).to.equal('input-required');
      expect(task?.bytes).to.equal(321);
      const replay = await store.getReplay(replayOf(key), T0);
      expect(replay?.answer?.history?.[0]?.parts).to.deep.equal([{ kind: 'text', text: `answer ${key}` }]);
      expect((await store.getContext(key))?.claim).to.equal(undefined);
    }
  });

  it('stores the same rows as the same saves made one at a time', async () => {
    await harness.open();
    const { store } = recorded();
    const alone = ['same-a', 'same-b', 'same-c'];
    const together = ['same-x', 'same-y', 'same-z', 'same-w', 'same-v'];
    await turnsUnderWay(store, [...alone, ...together]);
    for (const key of alone) await answer(store, key);
    await Promise.all(together.map((key) => answer(store, key)));
    const tasks = await rows(
      `SELECT context_key, member, state, status_time, bytes, deadline, due,
              replace(data, context_key, '#') AS data
       FROM a2a_tasks ORDER BY context_key`,
    );
    const replays = await rows(
      `SELECT r.fingerprint = 'fp-' || t.context_key AS own_fingerprint, r.answer_bytes, r.expires_at,
              replace(r.answer, t.context_key, '#') AS answer
       FROM a2a_replays r JOIN a2a_tasks t ON t.task_id = r.task_id ORDER BY t.context_key`,
    );
    const contexts = await rows(
      'SELECT claim_holder, claim_until, last_holder FROM a2a_contexts ORDER BY context_key',
    );
    const withoutKey = ({ context_key: _key, ...rest }: Record<string, unknown>) => rest;
    const first = withoutKey(tasks[0] as Record<string, unknown>);
    expect(tasks).to.have.length(8);
    for (const row of tasks) expect(withoutKey(row)).to.deep.equal(first);
    expect(replays).to.have.length(8);
    for (const row of replays) expect(row).to.deep.equal(replays[0]);
    expect(replays[0]?.['own_fingerprint']).to.equal(true);
    for (const row of contexts)
      expect(row).to.deep.equal({ claim_holder: null, claim_until: null, last_holder: 'p1' });
  });

  it('keeps a statement’s tasks within 4 MB: saves of large tasks go in statements of their own', async () => {
    await harness.open();
    const { store, sent } = recorded();
    const keys = ['large-a', 'large-b', 'large-c', 'small-d', 'small-e'];
    await turnsUnderWay(store, keys);
    sent.length = 0;
    const megabytes = (count: number) => count * 1024 * 1024;
    await Promise.all(
      keys.map((key) =>
        store.saveTask(
          storedTask(`t-${key}`, { key, bytes: key.startsWith('large') ? megabytes(3) : 1_000 }),
        ),
      ),
    );
    // a alone; b and c do not fit together (6 MB); c then takes d and e along (3 MB and 2 KB)
    expect(sent.map((name) => (name === SAVE_BATCH_STATEMENT.name ? 'batch' : 'alone'))).to.deep.equal([
      'alone',
      'alone',
      'batch',
    ]);
    for (const key of keys)
      expect((await store.getTask(`t-${key}`))?.task.status.state).to.equal('completed');
  });

  it('stores a context’s saves in the order they were made', async () => {
    await harness.open();
    const { store } = recorded();
    await turnsUnderWay(store, ['order-a', 'order-b', 'order-c']);
    const saves = ['working', 'input-required', 'completed'].flatMap((state, step) =>
      ['order-a', 'order-b', 'order-c'].map((key) =>
        store.saveTask(storedTask(`t-${key}`, { key, state: state as 'completed', bytes: 100 + step })),
      ),
    );
    await Promise.all(saves);
    const stored = await rows("SELECT state, bytes FROM a2a_tasks WHERE context_key LIKE 'order-%'");
    expect(stored).to.deep.equal([1, 2, 3].map(() => ({ state: 'completed', bytes: 102 })));
  });

  it('finds each save’s context through its index: the generic plan reads no table whole', async () => {
    await harness.open();
    await rows(`INSERT INTO a2a_contexts (context_key, context_id, owner, last_used, used_seq)
      SELECT 'plan-' || n, 'plan-' || n, 'alice', 0, n FROM generate_series(1, 2000) AS n
      ON CONFLICT DO NOTHING`);
    await rows('ANALYZE a2a_contexts');
    const client = new pg.Client({ connectionString: (database as TestDatabase).url });
    await client.connect();
    try {
      // the plan a pooled connection keeps for the statement once it stops planning each call
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE save_batch_plan AS ${SAVE_BATCH_STATEMENT.text}`);
      const parameters = new Set(SAVE_BATCH_STATEMENT.text.match(/\$\d+/g)).size;
      const nulls = Array.from({ length: parameters }, () => 'NULL').join(', ');
      const { rows: plan } = await client.query(`EXPLAIN EXECUTE save_batch_plan(${nulls})`);
      const text = plan.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      expect(text).to.include('a2a_contexts_pkey');
      expect(text).not.to.match(/Seq Scan on a2a_contexts/);
    } finally {
      await client.end();
    }
  });

  describe('when a batch fails', () => {
    const pending = (key: string): PendingSave => ({
      stored: storedTask(`t-${key}`, { key }),
      options: {},
      now: T0,
      notice: undefined,
    });

    /** a batch whose statement fails with `error` and whose saves alone succeed, except `failing` */
    function failingBatch(error: unknown, failing = 'none') {
      const alone: string[] = [];
      let batches = 0;
      const batch = new PostgresSaveBatch({
        alone: async (save) => {
          await new Promise((done) => setTimeout(done, 5));
          if (save.stored.contextKey === failing) throw new Error(`alone failed: ${failing}`);
          alone.push(save.stored.contextKey);
        },
        withConnection: async (work) => {
          batches += 1;
          await work({ query: async () => Promise.reject(error) } as PostgresConnection);
        },
      });
      return { batch, alone, batches: () => batches };
    }

    const storeError = (driverCode: string) =>
      new AppError({ code: 'STORE_UNAVAILABLE', message: 'the statement failed', details: { driverCode } });

    it('runs the saves of a batch a deadlock stopped again one by one, so only a failing one fails', async () => {
      const { batch, alone, batches } = failingBatch(storeError('40P01'), 'k3');
      const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5'];
      const outcomes = await Promise.allSettled(keys.map((key) => batch.save(pending(key))));
      expect(batches()).to.equal(1);
      expect(outcomes.map((outcome) => outcome.status)).to.deep.equal([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect([...alone].sort()).to.deep.equal(['k0', 'k1', 'k2', 'k4', 'k5']);
    });

    it('fails every save of a batch with any other error, none of them run again', async () => {
      const lost = storeError('57P01');
      const { batch, alone } = failingBatch(lost);
      const keys = ['k0', 'k1', 'k2', 'k3', 'k4'];
      const outcomes = await Promise.allSettled(keys.map((key) => batch.save(pending(key))));
      // the first went alone; the four that waited for it went together and failed together
      expect(alone).to.deep.equal(['k0']);
      expect(outcomes[0]).to.deep.equal({ status: 'fulfilled', value: undefined });
      expect(outcomes.slice(1)).to.deep.equal(
        keys.slice(1).map(() => ({ status: 'rejected', reason: lost })),
      );
    });
  });
});
