/**
 * Statements on one borrowed connection, the same way for both drivers, without knex's query building:
 * SQLite statements are prepared once per connection and run synchronously; PostgreSQL statements are
 * named prepared statements (pg prepares a name once per connection). Statement texts use `?` for their
 * parameters (the PostgreSQL runner numbers them `$1…`), so most of the task store's SQL is written once;
 * PostgreSQL-only texts may use `$n` themselves.
 */
import { createHash } from 'node:crypto';
import type {
  PostgresConnection,
  SqlDialect,
  SqliteConnection,
  SqliteStatement,
} from './task-database.js';

export interface SqlRunner {
  readonly dialect: SqlDialect;
  rows<T>(sql: string, parameters?: readonly unknown[]): Promise<T[]>;
  /** a statement that answers no rows; returns how many rows it changed */
  run(sql: string, parameters?: readonly unknown[]): Promise<number>;
  /** Runs `work` in a transaction (SQLite: one that takes the write lock first), all or nothing. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

export class SqliteRunner implements SqlRunner {
  readonly dialect = 'sqlite';
  private readonly connection: SqliteConnection;
  private readonly prepared = new Map<string, SqliteStatement>();

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  async rows<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    return this.statement(sql).all(...parameters) as T[];
  }

  async run(sql: string, parameters: readonly unknown[] = []): Promise<number> {
    return this.statement(sql).run(...parameters).changes;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    // IMMEDIATE: a transaction that reads first and writes later could otherwise find that another
    // process wrote in between, and fail at once instead of waiting for the lock
    this.statement('BEGIN IMMEDIATE').run();
    try {
      const result = await work();
      this.statement('COMMIT').run();
      return result;
    } catch (error) {
      if (this.connection.inTransaction) this.statement('ROLLBACK').run();
      throw error;
    }
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}

interface Named {
  readonly name: string;
  readonly text: string;
}

/** `?` → `$n` and a name per text, shared by every connection */
const namedTexts = new Map<string, Named>();

export class PostgresRunner implements SqlRunner {
  readonly dialect = 'postgresql';
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
  }

  async rows<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    return (await this.connection.query({ ...named(sql), values: parameters })).rows as T[];
  }

  async run(sql: string, parameters: readonly unknown[] = []): Promise<number> {
    return (await this.connection.query({ ...named(sql), values: parameters })).rowCount ?? 0;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    await this.connection.query({ text: 'BEGIN' });
    try {
      const result = await work();
      await this.connection.query({ text: 'COMMIT' });
      return result;
    } catch (error) {
      // a connection that broke has lost the transaction with it; the pool drops such a connection
      await this.connection.query({ text: 'ROLLBACK' }).catch(() => undefined);
      throw error;
    }
  }
}

function named(sql: string): Named {
  let found = namedTexts.get(sql);
  if (!found) {
    let count = 0;
    const text = sql.replace(/\?/g, () => `$${++count}`);
    const digest = createHash('sha256').update(text).digest('hex').slice(0, 20);
    found = { name: `parley_a2a_${digest}`, text };
    namedTexts.set(sql, found);
  }
  return found;
}
