/**
 * Migration 10 (`lz4 for the json columns`): where PostgreSQL has lz4, the JSON columns written at
 * every turn compress with it; a long task and a long snapshot are stored lz4-compressed and read back
 * whole.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import pg from 'pg';
import { MIGRATIONS, migrate } from '../../src/stores/sql/migrations.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { adminQuery, createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';

const COLUMNS = [
  ['a2a_tasks', 'data'],
  ['a2a_replays', 'answer'],
  ['tracker_snapshots', 'data'],
] as const;

describe('PostgreSQL JSON columns compressed with lz4 (migration 10)', function () {
  let database: TestDatabase | undefined;
  let client: pg.Client | undefined;

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
    const store = new SqlTrackerStore({ target: postgresTarget(database.url) });
    await store.open();
    await store.close();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });

  after(async () => {
    await client?.end();
    await database?.drop();
  });

  async function lz4Available(): Promise<boolean> {
    const { rows } = await (client as pg.Client).query(
      "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
    );
    return rows[0]?.lz4 === true;
  }

  it('sets lz4 on the task, replay answer and snapshot JSON where PostgreSQL has it, and nothing else', async () => {
    const { rows } = await (client as pg.Client).query(
      `SELECT c.relname AS table, a.attname AS column, a.attcompression AS compression
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relname IN ('a2a_tasks', 'a2a_replays', 'tracker_snapshots', 'events')
         AND a.attname IN ('data', 'answer') AND a.attnum > 0`,
    );
    const compression = new Map(rows.map((row) => [`${row.table}.${row.column}`, String(row.compression)]));
    const expected = (await lz4Available()) ? 'l' : '';
    for (const [table, column] of COLUMNS)
      expect(compression.get(`${table}.${column}`), `${table}.${column}`).to.equal(expected);
    // Rasa's table keeps the server's default
    expect(compression.get('events.data')).to.equal('');
  });

  it('stores a long value compressed with lz4 and reads it back whole', async function () {
    if (!(await lz4Available())) this.skip();
    const db = client as pg.Client;
    const data = JSON.stringify({ history: Array.from({ length: 400 }, (_, index) => `message ${index}`) });
    await db.query(
      'INSERT INTO tracker_snapshots (sender_id, event_count, data, updated) VALUES ($1, 1, $2, 0)',
      ['long', data],
    );
    const { rows } = await db.query(
      'SELECT data, pg_column_compression(data) AS compression FROM tracker_snapshots WHERE sender_id = $1',
      ['long'],
    );
    expect(rows[0]?.compression).to.equal('lz4');
    expect(rows[0]?.data).to.equal(data);
  });

  it('leaves the compression as it is, and starts, when the user migrating does not own the tables', async () => {
    const other = await createTestDatabase();
    const role = `parley_app_${randomBytes(4).toString('hex')}`;
    const owner = knex({ client: 'pg', connection: other.url });
    let app: ReturnType<typeof knex> | undefined;
    try {
      const upTo = (version: number) => MIGRATIONS.filter((migration) => migration.version <= version);
      await migrate(owner, 'postgresql', { now: () => 0, migrations: upTo(9) });
      await adminQuery(`CREATE ROLE ${role} LOGIN`);
      await owner.raw(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
      await owner.raw(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
      await owner.raw(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
      const url = new URL(other.url);
      url.username = role;
      app = knex({ client: 'pg', connection: url.toString() });
      const applied = await migrate(app, 'postgresql', { now: () => 0, migrations: upTo(10) });
      expect(applied).to.deep.equal(['lz4 for the json columns']);
      const { rows } = await owner.raw(
        "SELECT attcompression AS compression FROM pg_attribute WHERE attrelid = 'a2a_tasks'::regclass AND attname = 'data'",
      );
      expect(String(rows[0]?.compression)).to.equal('');
    } finally {
      await app?.destroy();
      await owner.destroy();
      await other.drop();
      await adminQuery(`DROP ROLE IF EXISTS ${role}`);
    }
  });
});
