import { expect } from 'chai';
import pg from 'pg';
import { PostgresLoadBatch } from '../../src/stores/sql/postgres-load-batch.js';
import { loadAfterRows } from '../../src/stores/sql/postgres-statements.js';
import type { PostgresConnection } from '../../src/stores/sql/postgres-statements.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { snapshotOf, turnEvents, uniqueId } from './tracker-store-contract.js';

describe('PostgreSQL: the short reads of concurrent turns go in one statement', function () {
  let database: TestDatabase | undefined;
  let store: SqlTrackerStore | undefined;
  let pool: pg.Pool | undefined;
  let sent: string[] = [];

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
    store = new SqlTrackerStore({ target: postgresTarget(database.url) });
    await store.open();
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
  });

  after(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  function loader(): PostgresLoadBatch {
    sent = [];
    return new PostgresLoadBatch(async (work) => {
      const client = await (pool as pg.Pool).connect();
      const counting: PostgresConnection = {
        query: (config) => {
          sent.push(config.name ?? config.text);
          return client.query(config as pg.QueryConfig) as never;
        },
      };
      try {
        return await work(counting);
      } finally {
        client.release();
      }
    });
  }

  it('answers each read with its own conversation’s events from its seq on, in order', async () => {
    const tracker = store as SqlTrackerStore;
    const ids = Array.from({ length: 8 }, () => uniqueId('load'));
    for (const id of ids) {
      await tracker.append(id, turnEvents(id, 1), { expectedCount: 0 });
      await tracker.append(id, turnEvents(id, 2), { expectedCount: turnEvents(id, 1).length });
    }
    const batch = loader();
    const perTurn = turnEvents('x', 1).length;
    // each read from another seq; one of a conversation nobody wrote
    const reads = [...ids.map((id, index) => ({ id, from: index })), { id: uniqueId('none'), from: 0 }];
    const answers = await Promise.all(reads.map((read) => batch.loadAfter(read.id, read.from)));
    expect(sent).to.include('parley_load_after_batch_v1');
    // and what each read alone would have read
    const alone = await Promise.all(
      reads.map(async (read) => {
        const client = await (pool as pg.Pool).connect();
        try {
          return await loadAfterRows(client as unknown as PostgresConnection, read.id, read.from);
        } finally {
          client.release();
        }
      }),
    );
    expect(
      answers.map((rows) => rows.map((row) => [Number(row.seq), row.data, Number(row.timestamp)])),
    ).to.deep.equal(
      alone.map((rows) => rows.map((row) => [Number(row.seq), row.data, Number(row.timestamp)])),
    );
    reads.forEach((read, index) => {
      const rows = answers[index] ?? [];
      const expected = read.id.startsWith('none') ? 0 : 2 * perTurn - read.from;
      expect(rows.map((row) => Number(row.seq))).to.deep.equal(
        Array.from({ length: expected }, (_, k) => read.from + k),
      );
      const user = rows.find((row) => row.data?.includes('"event":"user"'));
      if (user) expect(user.data).to.include(read.id);
    });
  });

  it('through the store: turns that start from the kept state read what another store appended', async () => {
    const tracker = store as SqlTrackerStore;
    const other = new SqlTrackerStore({ target: postgresTarget((database as TestDatabase).url) });
    try {
      const ids = Array.from({ length: 12 }, () => uniqueId('kept'));
      const perTurn = turnEvents('x', 1).length;
      await Promise.all(
        ids.map((id) =>
          tracker.append(id, turnEvents(id, 1), {
            expectedCount: 0,
            snapshot: snapshotOf(id, turnEvents(id, 1)),
          }),
        ),
      );
      // another process writes a second turn of every other conversation
      for (const id of ids.filter((_, index) => index % 2 === 0))
        await other.append(id, turnEvents(id, 2), { expectedCount: perTurn });
      const loaded = await Promise.all(ids.map((id) => tracker.loadRecent(id)));
      loaded.forEach((conversation, index) =>
        expect(conversation.eventCount).to.equal(index % 2 === 0 ? 2 * perTurn : perTurn),
      );
    } finally {
      await other.close();
    }
  });
});
