/**
 * The PostgreSQL claim's search for an idle context to evict at `max_contexts`: through the index of
 * open tasks and the index of contexts without a waiting task (migrations 8 and 11), in the plans a
 * pooled connection keeps, and the `waiting` flag the saves keep.
 */
import { expect } from 'chai';
import knex from 'knex';
import pg from 'pg';
import { CLAIM } from '../../src/a2a/tasks/sql/postgres-task-statements.js';
import { CONTEXT_SQL } from '../../src/a2a/tasks/sql/task-sql.js';
import { A2A_WAITING_COLUMN } from '../../src/stores/sql/a2a-task-tables.js';
import { migrate } from '../../src/stores/sql/migrations.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { rowsOf } from '../support/sql-databases.js';
import { SqlTaskStoreHarness } from './sql-task-store-support.js';
import { claimRequest, storedTask } from './task-store-contract-support.js';

describe('SqlTaskStore on PostgreSQL: the search for an idle context', function () {
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

  /** 400 idle contexts of 4 finished tasks each, the oldest 20 with a task waiting for input */
  async function withWaitingFront(): Promise<(text: string) => Promise<unknown>> {
    await harness.open();
    const sql = (text: string) => harness.tracker.database.run('test', (db) => db.raw(text));
    await sql(`INSERT INTO a2a_contexts (context_key, context_id, owner, last_used, used_seq)
      SELECT 'k' || n, 'c' || n, 'alice', n, n FROM generate_series(1, 400) AS n`);
    await sql(`INSERT INTO a2a_tasks (task_id, context_key, member, owner, context_id, state, status_time, bytes, data)
      SELECT 't' || n || '-' || m, 'k' || n, 1, 'alice', 'c' || n,
        CASE WHEN m = 1 AND n <= 20 THEN 'input-required' ELSE 'completed' END, n, 600, repeat('x', 600)
      FROM generate_series(1, 400) AS n, generate_series(1, 4) AS m`);
    return sql;
  }

  it('looks for an idle context through the index of open tasks, not by reading every task', async () => {
    const sql = await withWaitingFront();
    await sql('ANALYZE a2a_contexts, a2a_tasks');
    const idle = CONTEXT_SQL.idle.replace('?', '0');
    const [plan] = rowsOf<{ 'QUERY PLAN': unknown }>(await sql(`EXPLAIN (FORMAT JSON) ${idle}`));
    const scans = planNodes(plan?.['QUERY PLAN']).filter((node) => node['Relation Name'] === 'a2a_tasks');
    expect(scans.map((node) => `${node['Node Type']} on ${node['Index Name']}`)).to.satisfy(
      (names: string[]) =>
        names.length > 0 && names.every((name) => /^Index (Only )?Scan on ix_a2a_tasks_open$/.test(name)),
    );
    const [found] = rowsOf<{ context_key: string }>(await sql(idle));
    expect(found?.context_key).to.equal('k21');
  });

  it('passes no context waiting for input when it looks for one to evict at the cap', async () => {
    const sql = await withWaitingFront();
    // the flag as migration 11 fills it in a database that has contexts already
    await sql(A2A_WAITING_COLUMN[1] as string);
    await sql('ANALYZE a2a_contexts, a2a_tasks');
    const client = new pg.Client({ connectionString: (database as TestDatabase).url });
    await client.connect();
    try {
      await client.query('BEGIN');
      // the cap is the count the tally holds (earlier tests of this database moved both its rows)
      const { rows: tally } = await client.query(
        "SELECT SUM(CASE kind WHEN 'opened' THEN total ELSE -total END) AS open FROM a2a_context_tally",
      );
      const cap = Number((tally[0] as { open: string }).open);
      expect(cap).to.be.at.least(400);
      const request = claimRequest('new', { maxContexts: cap, now: 1_000 });
      const values = [
        ...[request.key, request.contextId, 'alice', request.now, request.holder, request.now + 60_000, cap],
        ...new Array<null>(16).fill(null),
      ];
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM}`, values);
      const nodes = planNodes((rows[0] as { 'QUERY PLAN': unknown })['QUERY PLAN']);
      const searched = nodes.filter(
        (node) => node['Relation Name'] === 'a2a_contexts' && node['Alias'] === 'c',
      );
      expect(searched.map((node) => [node['Index Name'], node['Actual Rows']])).to.deep.equal([
        ['ix_a2a_contexts_evictable', 1],
      ]);
      const evicted = await client.query("SELECT 1 FROM a2a_contexts WHERE context_key = 'k21'");
      expect(evicted.rowCount, 'k21, the oldest idle context, became the new one').to.equal(0);
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  });

  it('walks the contexts without a waiting task in order, in the generic plan of a new database', async () => {
    // a pooled connection plans the claim once, often while the tables are new and never analysed
    const fresh = await createTestDatabase();
    const owner = knex({ client: 'pg', connection: fresh.url });
    const client = new pg.Client({ connectionString: fresh.url });
    try {
      await migrate(owner, 'postgresql', { now: () => 0 });
      await client.connect();
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE claim_plan AS ${CLAIM}`);
      const nulls = Array.from({ length: 23 }, () => 'NULL').join(', ');
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE claim_plan(${nulls})`);
      const nodes = planNodes((rows[0] as { 'QUERY PLAN': unknown })['QUERY PLAN']);
      const searched = nodes.filter(
        (node) => node['Relation Name'] === 'a2a_contexts' && node['Alias'] === 'c',
      );
      expect(searched.map((node) => `${node['Node Type']} on ${node['Index Name']}`)).to.deep.equal([
        'Index Scan on ix_a2a_contexts_evictable',
      ]);
    } finally {
      await client.end().catch(() => undefined);
      await owner.destroy();
      await fresh.drop();
    }
  });

  it('keeps each context’s waiting flag as its tasks wait, end, and are saved one by one or in a batch', async () => {
    const store = await harness.open();
    const waiting = async () => {
      const result = await harness.tracker.database.run('read', (db) =>
        db.raw('SELECT context_key, waiting FROM a2a_contexts ORDER BY context_key'),
      );
      return Object.fromEntries(
        rowsOf<{ context_key: string; waiting: number }>(result).map((row) => [row.context_key, row.waiting]),
      );
    };
    const keys = ['a', 'b', 'c', 'd'];
    const turn = async (key: string, task: string, state: 'input-required' | 'completed' | 'failed') => {
      const started = storedTask(task, { key, state: 'submitted' });
      const outcome = await store.claimContext(claimRequest(key, { start: { task: started } }));
      expect(outcome.kind, `claim of ${key}`).to.equal('claimed');
      await store.saveTask(storedTask(task, { key, state }), { release: { key, holder: 'process-1' } });
    };
    // concurrent saves: the first goes alone (one statement), the others together (the batch's)
    await Promise.all(keys.map((key) => turn(key, `${key}1`, 'input-required')));
    expect(await waiting()).to.deep.equal({ a: 1, b: 1, c: 1, d: 1 });
    // their tasks time out: saved without ending any claim
    await Promise.all(keys.map((key) => store.saveTask(storedTask(`${key}1`, { key, state: 'failed' }))));
    expect(await waiting()).to.deep.equal({ a: 0, b: 0, c: 0, d: 0 });
    // a second task waits while the first (superseded) is cancelled after it started
    await turn('a', 'a2', 'input-required');
    await store.saveTask(storedTask('a1', { key: 'a', state: 'canceled' }));
    expect((await waiting())['a'], 'a2 still waits').to.equal(1);
    await turn('b', 'b2', 'completed');
    expect((await waiting())['b']).to.equal(0);
    await store.claimContext(claimRequest('a'));
    await store.releaseContext('a', 'process-1');
    expect((await waiting())['a'], 'a bare release reads the tasks').to.equal(1);
  });
});

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** every node of an EXPLAIN (FORMAT JSON) plan */
function planNodes(explained: unknown): PlanNode[] {
  const walk = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(walk)];
  return (explained as { Plan: PlanNode }[]).flatMap((entry) => walk(entry.Plan));
}
