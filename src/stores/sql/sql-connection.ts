/**
 * Opens a knex instance for a SQL target: SQLite through better-sqlite3 (a file in WAL mode, its folder
 * created on demand) or PostgreSQL through pg (a pool; `login_db` creates the database first, as Rasa
 * does; a `schema` becomes the search_path and must exist).
 */
import { mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { dirname } from 'node:path';
import knex from 'knex';
import type { Knex } from 'knex';
import pg from 'pg';
import { AppError } from '../../core/errors.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import type { PostgresTarget } from './postgres-target.js';
import { urlOfDatabase } from './postgres-target.js';
import type { SqlTarget, SqliteTarget } from './sql-target.js';

export interface ConnectionLimits {
  /** PostgreSQL pool size (Rasa reads SQL_POOL_SIZE; its default is 50) */
  readonly poolSize: number;
  /** how long to wait for a new connection to open */
  readonly connectTimeoutMs: number;
  /**
   * how long a statement may wait for a free connection of a busy pool; a connection that cannot be
   * opened fails the waiting statement at once (knex propagates the error), whatever this says
   */
  readonly poolWaitMs: number;
  /** SQLite: how long to wait for another process's write to finish */
  readonly busyTimeoutMs: number;
  /**
   * PostgreSQL: a statement that gets no byte back for this long ends its connection (a hung server,
   * a network that drops packets); 0 waits for ever. Migrations run without it (they may take long).
   */
  readonly silenceTimeoutMs: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  poolSize: 20,
  connectTimeoutMs: 5000,
  poolWaitMs: 30_000,
  busyTimeoutMs: 5000,
  silenceTimeoutMs: 5000,
};

export function openKnex(target: SqlTarget, limits: ConnectionLimits, logger = SILENT_STORE_LOGGER): Knex {
  const log = knexLog(target, logger);
  if (target.dialect === 'sqlite') {
    return knex({
      log,
      client: 'better-sqlite3',
      connection: { filename: target.filename },
      useNullAsDefault: true,
      acquireConnectionTimeout: limits.connectTimeoutMs,
      pool: {
        min: 1,
        max: 1,
        afterCreate: (connection: SqliteConnection, done: (error: Error | null, c: unknown) => void) => {
          prepareSqliteConnection(connection, limits.busyTimeoutMs).then(
            () => done(null, connection),
            (error: unknown) => done(error as Error, connection),
          );
        },
      },
    });
  }
  return knex({
    log,
    client: 'pg',
    connection: postgresConnection(target.url, target.schema, limits),
    acquireConnectionTimeout: limits.poolWaitMs,
    pool: {
      min: 0,
      max: limits.poolSize,
      idleTimeoutMillis: 30_000,
      ...(limits.silenceTimeoutMs > 0 ? { afterCreate: endSilentConnections(limits.silenceTimeoutMs) } : {}),
    },
  });
}

/** What endSilentConnections needs of a pg.Client (its socket is not public API, hence optional). */
interface PgClientSocket {
  readonly readyForQuery: boolean;
  readonly connection?: { readonly stream?: Socket };
}

/**
 * A server that stops answering (frozen, or the network in between drops packets) would leave a
 * statement, and the turn awaiting it, hanging until the OS gives up on the socket, which takes
 * minutes to hours. So a connection that hears nothing for `ms` while a statement of ours runs is
 * destroyed: pg fails that statement and the queued ones with a connection error (STORE_UNAVAILABLE),
 * knex drops the connection, and the transaction dies with it on the server. Silence while idle, in
 * the pool or between the statements of a transaction, is normal.
 */
function endSilentConnections(ms: number) {
  return (client: PgClientSocket, done: (error: Error | null, client: unknown) => void): void => {
    const stream = client.connection?.stream;
    stream?.on('timeout', () => {
      if (client.readyForQuery) {
        stream.setTimeout(ms);
        return;
      }
      const error = new Error(`PostgreSQL sent nothing for ${ms} ms while a statement was running`);
      stream.destroy(Object.assign(error, { code: 'ETIMEDOUT' }));
    });
    stream?.setTimeout(ms);
    done(null, client);
  };
}

/** knex's own warnings (a connection the server closed, a failed connect) go to our logger, one line each. */
function knexLog(target: SqlTarget, logger: StoreLogger): Knex.Logger {
  const line = (message: unknown): string => String(message).split('\n')[0] ?? '';
  return {
    warn: (message) => logger.warn({ store: target.description }, line(message)),
    error: (message) => logger.error({ store: target.description }, line(message)),
    deprecate: () => undefined,
    debug: () => undefined,
  };
}

interface SqliteConnection {
  pragma(source: string): unknown;
}

export function postgresConnection(url: string, schema: string | undefined, limits: ConnectionLimits) {
  return {
    connectionString: url,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    keepAlive: true,
    // a process that hangs inside a transaction must not hold rows or locks for ever
    idle_in_transaction_session_timeout: 60_000,
    application_name: 'parley',
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
}

/** The SQLite file's folder (e.g. `.parley/`), created on first use rather than when configured. */
export function ensureSqliteFolder(target: SqliteTarget): void {
  if (target.filename !== ':memory:') mkdirSync(dirname(target.filename), { recursive: true });
}

/** Rasa's `login_db`: connect there and create the working database when it does not exist. */
export async function ensurePostgresDatabase(
  target: PostgresTarget,
  limits: ConnectionLimits,
): Promise<boolean> {
  if (!target.loginDb) return false;
  const client = new pg.Client(postgresConnection(urlOfDatabase(target, target.loginDb), undefined, limits));
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_catalog.pg_database WHERE datname = $1', [
      target.database,
    ]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(target.database)}`);
    } catch (error) {
      // another process created it at the same moment
      const code = (error as { code?: string }).code;
      if (code !== '42P04' && code !== '23505') throw error;
    }
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Rasa exits when the configured schema does not exist; we refuse to open the store. */
export async function assertSchemaExists(db: Knex, target: PostgresTarget): Promise<void> {
  if (!target.schema) return;
  const rows = await db
    .select('schema_name')
    .from('information_schema.schemata')
    .where('schema_name', target.schema.toLowerCase());
  if (rows.length > 0) return;
  throw new AppError({
    code: 'STORE_CONFIG_INVALID',
    message: `PostgreSQL schema '${target.schema}' does not exist in database '${target.database}'; create it (CREATE SCHEMA ${target.schema}) or remove the schema setting.`,
    details: { schema: target.schema, database: target.database },
  });
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** how often switching to WAL is tried again while another process holds the file */
const WAL_RETRY_MS = 25;

/**
 * The connection's settings: the busy timeout first, so that every later statement waits for a lock
 * another process holds; then WAL (readers never block the writer; NORMAL sync is crash-safe in WAL
 * mode). Switching the journal mode can answer SQLITE_BUSY at once, without waiting, while another
 * process opens or migrates the same file: it is tried again until the busy timeout.
 */
export async function prepareSqliteConnection(
  connection: SqliteConnection,
  busyTimeoutMs: number,
): Promise<void> {
  connection.pragma(`busy_timeout = ${Math.round(busyTimeoutMs)}`);
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      connection.pragma('journal_mode = WAL');
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, WAL_RETRY_MS));
    }
  }
  connection.pragma('synchronous = NORMAL');
}
