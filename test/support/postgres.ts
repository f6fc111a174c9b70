/**
 * The real PostgreSQL of the test machine (127.0.0.1:5432, user postgres, trust auth; override with
 * PARLEY_TEST_POSTGRES_URL). Suites skip with a message when it is unreachable, unless
 * REQUIRE_POSTGRES=1 (CI), where they fail. Each suite gets a fresh database, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ConfigReader } from '../../src/stores/config-reader.js';
import { readPostgresTarget } from '../../src/stores/sql/postgres-target.js';
import type { PostgresTarget } from '../../src/stores/sql/postgres-target.js';

export const ADMIN_URL =
  process.env['PARLEY_TEST_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the admin database. */
export async function adminQuery(sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

let reachable: Promise<string | undefined> | undefined;

/** undefined when PostgreSQL answers, else why not */
function unreachableReason(): Promise<string | undefined> {
  reachable ??= adminQuery('SELECT 1').then(
    () => undefined,
    (error: unknown) => String(error),
  );
  return reachable;
}

/**
 * Call in a `before` hook: skips the suite with a clear message when PostgreSQL is unreachable, or
 * fails it when REQUIRE_POSTGRES=1.
 */
export async function requirePostgres(context: Mocha.Context): Promise<void> {
  const reason = await unreachableReason();
  if (reason === undefined) return;
  if (process.env['REQUIRE_POSTGRES'] === '1')
    throw new Error(`PostgreSQL (${ADMIN_URL}) is required (REQUIRE_POSTGRES=1) but unreachable: ${reason}`);
  console.warn(
    `    ⚠ skipping: PostgreSQL at ${ADMIN_URL} is unreachable (${reason}); set REQUIRE_POSTGRES=1 to fail instead`,
  );
  context.skip();
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

export function testDatabaseName(): string {
  return `parley_test_${randomBytes(5).toString('hex')}`;
}

/** A fresh, empty database; `drop` removes it even while connections are open. */
export async function createTestDatabase(name = testDatabaseName()): Promise<TestDatabase> {
  await adminQuery(`CREATE DATABASE ${name}`);
  return {
    name,
    url: databaseUrl(name),
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Ends every server connection to the database (what a failover or an admin restart does to clients). */
export async function terminateConnections(database: string): Promise<number> {
  const result = await adminQuery(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return result.rowCount ?? 0;
}

/** The store target of a connection URL, read as endpoints.yml's `url` would be. */
export function postgresTarget(url: string, extra: Record<string, unknown> = {}): PostgresTarget {
  const reader = new ConfigReader({ section: 'tracker_store', raw: { url, ...extra } });
  const target = readPostgresTarget(reader, {});
  reader.throwIfInvalid();
  return target as PostgresTarget;
}
