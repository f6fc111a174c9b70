/**
 * SqlTrackerStore when the database is not there, goes away or comes back: fast STORE_UNAVAILABLE
 * errors, no half-written turn, and recovery without a restart. PostgreSQL is never stopped: its
 * connections are terminated and test databases dropped and recreated instead.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex from 'knex';
import { DEFAULT_LIMITS } from '../../src/stores/sql/sql-connection.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import {
  adminQuery,
  createTestDatabase,
  databaseUrl,
  postgresTarget,
  requirePostgres,
  terminateConnections,
  testDatabaseName,
} from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { expectCode, turnEvents } from './tracker-store-contract.js';

/**
 * A connection that cannot be made fails the statement at once; a pool that kept retrying it would
 * fail it only when the statement's wait for a connection (30 s) ran out.
 */
const NOT_WAITING_FOR_THE_POOL_MS = DEFAULT_LIMITS.poolWaitMs / 3;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

describe('SqlTrackerStore failures', function () {
  this.timeout(60_000);
  const stores: SqlTrackerStore[] = [];
  const track = (store: SqlTrackerStore): SqlTrackerStore => (stores.push(store), store);
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  describe('on SQLite', () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-sqlite-failures-'));
    after(() => rmSync(folder, { recursive: true, force: true }));

    it('creates the folder of the database file on first use', async () => {
      const store = track(
        new SqlTrackerStore({ target: sqliteTarget('deep/er/.parley/tracker.db', folder) }),
      );
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      expect(await store.loadAll('a')).to.have.length(5);
    });

    it('reports STORE_UNAVAILABLE when the file cannot be created', async () => {
      writeFileSync(join(folder, 'a-file'), 'not a folder');
      const store = track(new SqlTrackerStore({ target: sqliteTarget('a-file/tracker.db', folder) }));
      const error = await expectCode(store.loadRecent('a'), 'STORE_UNAVAILABLE');
      expect(error.message).to.contain(`sqlite at ${join(folder, 'a-file', 'tracker.db')}`);
    });

    it('reports STORE_CORRUPT for a file that is not a database', async () => {
      writeFileSync(join(folder, 'garbage.db'), 'x'.repeat(4096));
      const store = track(new SqlTrackerStore({ target: sqliteTarget('garbage.db', folder) }));
      await expectCode(store.loadRecent('a'), 'STORE_CORRUPT');
    });

    it('leaves the file in WAL mode (readers never wait for the writer)', async () => {
      const store = track(new SqlTrackerStore({ target: sqliteTarget('wal.db', folder) }));
      await store.open();
      // a plain connection that sets nothing: WAL is a property of the file
      const plain = knex({
        client: 'better-sqlite3',
        connection: { filename: join(folder, 'wal.db') },
        useNullAsDefault: true,
      });
      const [row] = (await plain.raw('PRAGMA journal_mode')) as { journal_mode: string }[];
      await plain.destroy();
      expect(row?.journal_mode).to.equal('wal');
    });

    it('refuses to work once closed', async () => {
      const store = new SqlTrackerStore({ target: sqliteTarget('closed.db', folder) });
      await store.open();
      await store.close();
      await expectCode(store.loadAll('a'), 'STORE_UNAVAILABLE');
    });
  });

  describe('on PostgreSQL', () => {
    let database: TestDatabase;

    before(async function () {
      await requirePostgres(this);
    });

    beforeEach(async () => {
      database = await createTestDatabase();
    });

    afterEach(async () => {
      await Promise.all(stores.splice(0).map((store) => store.close()));
      await database.drop();
    });

    it('fails fast with STORE_UNAVAILABLE when nothing listens, naming the server', async () => {
      const target = postgresTarget('postgresql://postgres@127.0.0.1:1/nothing');
      const store = track(new SqlTrackerStore({ target }));
      const { ms, result } = await timed(() =>
        expectCode(store.append('a', turnEvents('a', 0), { expectedCount: 0 }), 'STORE_UNAVAILABLE'),
      );
      expect(ms).to.be.below(NOT_WAITING_FOR_THE_POOL_MS);
      expect(result.message).to.contain('postgresql at 127.0.0.1:1/nothing');
      expect(result.message).to.match(/ECONNREFUSED|connect/);
    });

    it('fails with STORE_UNAVAILABLE for a database that does not exist (no login_db)', async () => {
      const store = track(new SqlTrackerStore({ target: postgresTarget(databaseUrl(testDatabaseName())) }));
      const error = await expectCode(store.loadRecent('a'), 'STORE_UNAVAILABLE');
      expect(error.message).to.match(/does not exist/);
    });

    it('creates the database through login_db, as Rasa does', async () => {
      const name = testDatabaseName();
      const target = postgresTarget(databaseUrl(name), { login_db: 'postgres' });
      try {
        const store = track(new SqlTrackerStore({ target }));
        await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
        const found = await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        expect(found.rowCount).to.equal(1);
        // a second store finds it there
        const again = track(new SqlTrackerStore({ target }));
        expect(await again.loadAll('a')).to.have.length(5);
      } finally {
        await Promise.all(stores.splice(0).map((store) => store.close()));
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });

    it('uses the configured schema, and refuses one that does not exist', async () => {
      const missing = track(
        new SqlTrackerStore({ target: postgresTarget(database.url, { schema: 'nowhere' }) }),
      );
      await expectCode(missing.open(), 'STORE_CONFIG_INVALID');
      const setup = track(new SqlTrackerStore({ target: postgresTarget(database.url) }));
      await setup.open();
      const raw = await import('pg');
      const client = new raw.default.Client({ connectionString: database.url });
      await client.connect();
      await client.query('CREATE SCHEMA bots');
      await client.end();
      const store = track(new SqlTrackerStore({ target: postgresTarget(database.url, { schema: 'bots' }) }));
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      const tables = await adminQueryOn(
        database.url,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'bots'",
      );
      expect(tables.sort()).to.deep.equal([
        'a2a_context_tally',
        'a2a_contexts',
        'a2a_push_configs',
        'a2a_replays',
        'a2a_tasks',
        'events',
        'parley_migrations',
        'tracker_snapshots',
      ]);
      // the public schema's tables (of the first store) do not see the conversation
      expect(await setup.loadAll('a')).to.deep.equal([]);
    });

    it('carries on after its server connections are terminated', async () => {
      const store = track(new SqlTrackerStore({ target: postgresTarget(database.url) }));
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      expect(await terminateConnections(database.name)).to.be.greaterThan(0);
      expect(await store.loadAll('a')).to.have.length(5);
      await store.append('a', turnEvents('a', 1), { expectedCount: 5 });
      expect((await store.loadRecent('a')).eventCount).to.equal(10);
    });

    it('reports a dropped database as STORE_UNAVAILABLE and recovers when it is recreated', async () => {
      const store = track(new SqlTrackerStore({ target: postgresTarget(database.url) }));
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      await database.drop();
      const { ms } = await timed(() => expectCode(store.loadRecent('a'), 'STORE_UNAVAILABLE'));
      expect(ms).to.be.below(NOT_WAITING_FOR_THE_POOL_MS);
      await expectCode(store.append('a', turnEvents('a', 1), { expectedCount: 5 }), 'STORE_UNAVAILABLE');
      database = await createTestDatabase(database.name);
      expect(await store.loadRecent('a')).to.deep.equal({ eventCount: 0, eventsAfterSnapshot: [] });
      await store.append('a', turnEvents('a', 0), { expectedCount: 0 });
      expect(await store.loadAll('a')).to.have.length(5);
    });
  });
});

async function adminQueryOn(url: string, sql: string): Promise<string[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ table_name: string }>(sql);
    return result.rows.map((row) => row.table_name);
  } finally {
    await client.end();
  }
}
