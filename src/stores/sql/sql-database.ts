/**
 * One SQL database (SQLite or PostgreSQL) as the stores that share it see it: the knex instance, the
 * schema made ready once (the database created for `login_db`, the schema checked, the migrations
 * run), and every operation run through `run`, which maps driver errors to AppErrors naming the store
 * (STORE_UNAVAILABLE, STORE_CORRUPT) and gives a read one more try on a fresh connection. The tracker
 * store owns it (sql-tracker-store.ts) and closes it; the A2A task store borrows it, so that tasks
 * live next to the conversations they belong to.
 */
import type { Knex } from 'knex';
import { AppError } from '../../core/errors.js';
import type { StoreLogger } from '../store-logger.js';
import { SILENT_STORE_LOGGER } from '../store-logger.js';
import type { Dialect } from './migrations.js';
import { migrate } from './migrations.js';
import type { PostgresConnection } from './postgres-statements.js';
import type { ConnectionLimits } from './sql-connection.js';
import {
  DEFAULT_LIMITS,
  assertSchemaExists,
  ensurePostgresDatabase,
  ensureSqliteFolder,
  openKnex,
} from './sql-connection.js';
import { isConnectionError, isMissingTable, isTimeout, storeError } from './sql-errors.js';
import type { SqlTarget } from './sql-target.js';
import type { SqliteConnection } from './sqlite-statements.js';
import { SqliteWriteBatch } from './sqlite-write-batch.js';
import type { SqliteWork } from './sqlite-write-batch.js';

export interface SqlDatabaseOptions {
  readonly target: SqlTarget;
  readonly logger?: StoreLogger;
  readonly limits?: Partial<ConnectionLimits>;
  /** seconds since the epoch, for the migration records */
  readonly now?: () => number;
}

export interface RunOptions {
  /** a read: worth one more try when the connection was lost */
  readonly retry?: boolean;
  /** the store named in errors and logs ("tracker store", "A2A task store") */
  readonly store?: string;
}

/** the store the database is configured as (endpoints.yml's tracker_store), named when opening fails */
const OWNER = 'tracker store';

/** What the database needs of knex's client to borrow a pool connection for a store's own statements. */
interface PooledClient<Connection> {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<unknown>;
}

export class SqlDatabase {
  readonly target: SqlTarget;
  private readonly db: Knex;
  private readonly logger: StoreLogger;
  private readonly limits: ConnectionLimits;
  private readonly now: () => number;
  private ready: Promise<void> | undefined;
  private closed = false;
  private readonly sqliteWrites = new SqliteWriteBatch((work) => this.withConnection(work));

  constructor(options: SqlDatabaseOptions) {
    this.target = options.target;
    this.logger = options.logger ?? SILENT_STORE_LOGGER;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? (() => Date.now() / 1000);
    this.db = openKnex(options.target, this.limits, this.logger);
  }

  get dialect(): Dialect {
    return this.target.dialect;
  }

  /** "sqlite at /srv/bot/.parley/tracker.db", "postgresql at host:5432/db" */
  describe(): string {
    return this.target.description;
  }

  /**
   * Runs `work` once the schema is ready; driver errors become AppErrors naming `options.store`
   * (AppErrors pass unchanged). A read (`retry`) that met a lost connection runs once more.
   */
  async run<T>(operation: string, work: (db: Knex) => Promise<T>, options: RunOptions = {}): Promise<T> {
    const store = options.store ?? OWNER;
    const label = `${store} (${this.describe()})`;
    if (this.closed) throw new AppError({ code: 'STORE_UNAVAILABLE', message: `The ${label} is closed.` });
    try {
      await this.ensureReady();
      return await work(this.db);
    } catch (error) {
      if (isMissingTable(error)) this.ready = undefined;
      // a read that met a connection the server had closed gets one more try on a fresh one (not one
      // that timed out: the database is not answering, and the turn should fail now, not in twice the time)
      const lost = (isConnectionError(error) && !isTimeout(error)) || isMissingTable(error);
      if (options.retry && lost && !this.closed) {
        this.logger.warn({ operation, error: String(error) }, `${store} connection lost: retrying once`);
        try {
          await this.ensureReady();
          return await work(this.db);
        } catch (second) {
          throw storeError(second, label, operation);
        }
      }
      throw storeError(error, label, operation);
    }
  }

  /**
   * Runs work on the SQLite connection of knex's one-connection pool: knex's own queries, and every
   * other store's work, wait until it is released, so work may span several statements (and awaits).
   */
  withSqlite<T>(work: (connection: SqliteConnection) => T | Promise<T>): Promise<T> {
    return this.withConnection(work);
  }

  /**
   * Runs a write on the SQLite connection in the next group commit (sqlite-write-batch.ts): `work` runs
   * synchronously in a savepoint of the transaction shared with the other writes asked for in the same
   * turn of the event loop, and the answer comes once that transaction committed.
   */
  sqliteWrite<T>(work: SqliteWork<T>): Promise<T> {
    return this.sqliteWrites.write(work);
  }

  /** Runs (named prepared) statements on a connection of knex's pool (knex drops one that broke). */
  withPostgres<T>(work: (connection: PostgresConnection) => Promise<T>): Promise<T> {
    return this.withConnection(work);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.destroy();
  }

  private async withConnection<Connection, T>(work: (connection: Connection) => T | Promise<T>): Promise<T> {
    const client = this.db.client as PooledClient<Connection>;
    const connection = await client.acquireConnection();
    try {
      return await work(connection);
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private ensureReady(): Promise<void> {
    this.ready ??= this.initialise().catch((error: unknown) => {
      this.ready = undefined;
      throw storeError(error, `${OWNER} (${this.describe()})`, 'open the database');
    });
    return this.ready;
  }

  private async initialise(): Promise<void> {
    const target = this.target;
    if (target.dialect === 'postgresql') {
      if (await ensurePostgresDatabase(target, this.limits))
        this.logger.info({ database: target.database }, 'created the tracker store database (login_db)');
      await assertSchemaExists(this.db, target);
    } else {
      ensureSqliteFolder(target);
    }
    // a migration may rightly keep a connection silent for long (a big table, another process's
    // migration lock): it gets its own connection without the silence timeout
    const migrator =
      target.dialect === 'postgresql'
        ? openKnex(target, { ...this.limits, poolSize: 1, silenceTimeoutMs: 0 }, this.logger)
        : this.db;
    let applied: string[];
    try {
      applied = await migrate(migrator, target.dialect, { now: this.now });
    } finally {
      if (migrator !== this.db) await migrator.destroy();
    }
    if (applied.length > 0)
      this.logger.info({ store: this.describe(), migrations: applied }, 'tracker store schema migrated');
  }
}
