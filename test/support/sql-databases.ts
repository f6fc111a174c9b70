/**
 * Fresh SQL databases for store tests, one per test when asked: a SQLite file in a temp folder, or a
 * PostgreSQL database on the test server (skipped or failed as test/support/postgres.ts says). Each
 * comes with a raw knex handle to look at and tamper with the tables behind the store's back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { Dialect } from '../../src/stores/sql/migrations.js';
import { DEFAULT_LIMITS, ensureSqliteFolder, openKnex } from '../../src/stores/sql/sql-connection.js';
import type { SqlTarget } from '../../src/stores/sql/sql-target.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import type { SqlTrackerStoreOptions } from '../../src/stores/sql/sql-tracker-store.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { createTestDatabase, postgresTarget, requirePostgres } from './postgres.js';

export interface SqlTestDatabase {
  readonly dialect: Dialect;
  readonly target: SqlTarget;
  /** raw access to the same database */
  readonly raw: Knex;
  /** a store on the database (closed by the cleanup) */
  store(options?: Omit<SqlTrackerStoreOptions, 'target'>): SqlTrackerStore;
}

/**
 * Runs `body` once per dialect in a describe block; `fresh()` gives a new empty database, cleaned up
 * (stores closed, database dropped) after the test.
 */
export function forEachDialect(body: (fresh: () => Promise<SqlTestDatabase>) => void): void {
  for (const dialect of ['sqlite', 'postgresql'] as const) {
    describe(`on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, function () {
      this.timeout(60_000);
      const cleanups: (() => Promise<void>)[] = [];

      before(async function () {
        if (dialect === 'postgresql') await requirePostgres(this);
      });

      afterEach(async () => {
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      });

      body(async () => {
        const { target, drop } = await newDatabase(dialect);
        if (target.dialect === 'sqlite') ensureSqliteFolder(target);
        const raw = openKnex(target, DEFAULT_LIMITS);
        const stores: SqlTrackerStore[] = [];
        cleanups.push(async () => {
          await Promise.all(stores.map((store) => store.close()));
          await raw.destroy();
          await drop();
        });
        return {
          dialect,
          target,
          raw,
          store: (options = {}) => {
            const store = new SqlTrackerStore({ ...options, target });
            stores.push(store);
            return store;
          },
        };
      });
    });
  }
}

async function newDatabase(dialect: Dialect): Promise<{ target: SqlTarget; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'parley-sql-'));
    return {
      target: sqliteTarget('.parley/tracker.db', folder),
      drop: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase();
  return { target: postgresTarget(database.url), drop: () => database.drop() };
}

/** The rows of a raw query, whichever driver answered. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
