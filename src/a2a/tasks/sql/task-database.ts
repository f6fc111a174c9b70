/**
 * What the SQL task store needs of the database it shares with the tracker store. That database is
 * src/stores/sql/sql-database.ts's SqlDatabase (a tracker store's `database`), handed in by the
 * composition root: src/a2a may not import src/stores (eslint-rules/layers.js), so the store states
 * here the part of it that it uses, and SqlDatabase satisfies it as it is.
 */

export type SqlDialect = 'sqlite' | 'postgresql';

/** a better-sqlite3 Database (the package ships no types) */
export interface SqliteConnection {
  prepare(source: string): SqliteStatement;
  readonly inTransaction: boolean;
}

export interface SqliteStatement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { readonly changes: number };
}

/** a pg Client */
export interface PostgresConnection {
  query(config: {
    readonly name?: string;
    readonly text: string;
    readonly values?: readonly unknown[];
  }): Promise<{ readonly rows: unknown[]; readonly rowCount: number | null }>;
}

export interface TaskDatabase {
  readonly dialect: SqlDialect;
  /** "sqlite at …", "postgresql at …" */
  describe(): string;
  /**
   * Runs `work` once the schema is migrated; driver errors become STORE_UNAVAILABLE (or
   * STORE_CORRUPT) naming `store`, and a read (`retry`) that lost its connection runs once more.
   */
  run<T>(
    operation: string,
    work: () => Promise<T>,
    options?: { readonly retry?: boolean; readonly store?: string },
  ): Promise<T>;
  /** work on the SQLite connection, which nothing else uses until the work is over */
  withSqlite<T>(work: (connection: SqliteConnection) => T | Promise<T>): Promise<T>;
  /**
   * A write on the SQLite connection in the database's next group commit: `work` runs synchronously in
   * a savepoint of one transaction shared with the other writes of the same turn of the event loop
   * (the tracker store's too), rolled back alone when it throws; the answer comes once committed.
   */
  sqliteWrite<T>(work: (connection: SqliteConnection) => T): Promise<T>;
  /** work on a PostgreSQL connection of the pool */
  withPostgres<T>(work: (connection: PostgresConnection) => Promise<T>): Promise<T>;
}
