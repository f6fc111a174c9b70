/**
 * Statements on one borrowed connection, the same way for both drivers, without knex's query building.
 *
 * The task store writes what it does as a script: a generator that yields statements and is handed
 * each one's result (`const [row] = yield* rows(...)`). The SQLite runner drives a script
 * synchronously, with statements prepared once per connection, so a transaction never waits for the
 * event loop while it holds the file's write lock (better-sqlite3 is synchronous: a second connection
 * waiting for that lock in the same process would otherwise block the loop the first one needs). The
 * PostgreSQL runner drives it with awaits, as named prepared statements (pg prepares a name once per
 * connection). Statement texts use `?` for their parameters (the PostgreSQL runner numbers them `$1…`),
 * so most of the SQL is written once; PostgreSQL-only texts may use `$n` themselves.
 */
import { createHash } from 'node:crypto';
import type { PostgresConnection, SqlDialect, SqliteConnection, SqliteStatement } from './task-database.js';

export interface Statement {
  /** rows: answers its rows; run: answers how many rows it changed */
  readonly kind: 'rows' | 'run';
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /**
   * PostgreSQL: planned with its values each time (an unnamed statement), for a statement whose best
   * plan depends on how big a table has grown since the connection first ran it
   */
  readonly planEach?: boolean;
}

/** statements run one after the other, each handed the result of the one before; returns T */
export type SqlScript<T> = Generator<Statement, T, unknown>;

export function* rows<T>(sql: string, parameters: readonly unknown[] = []): SqlScript<T[]> {
  return (yield { kind: 'rows', sql, parameters }) as T[];
}

export function* run(sql: string, parameters: readonly unknown[] = []): SqlScript<number> {
  return (yield { kind: 'run', sql, parameters }) as number;
}

/** `run`, planned with its values each time on PostgreSQL (Statement.planEach) */
export function* runPlannedEach(sql: string, parameters: readonly unknown[] = []): SqlScript<number> {
  return (yield { kind: 'run', sql, parameters, planEach: true }) as number;
}

export interface SqlRunner {
  readonly dialect: SqlDialect;
  execute<T>(script: SqlScript<T>): Promise<T>;
  /** Runs the script in one transaction (SQLite: one that takes the write lock first), all or nothing. */
  transaction<T>(script: SqlScript<T>): Promise<T>;
}

/** Drives scripts synchronously on one SQLite connection, with statements prepared once for it. */
export class SqliteScripts {
  private readonly connection: SqliteConnection;
  private readonly prepared = new Map<string, SqliteStatement>();

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  /** Runs the script's statements at once, in whatever transaction the connection is in. */
  drive<T>(script: SqlScript<T>): T {
    let step = script.next();
    while (!step.done) {
      const { kind, sql, parameters } = step.value;
      const statement = this.statement(sql);
      step = script.next(
        kind === 'rows' ? statement.all(...parameters) : statement.run(...parameters).changes,
      );
    }
    return step.value;
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

/**
 * The SQLite runner: a transaction is a savepoint of the database's next group commit (`sqliteWrite`,
 * which took the write lock with BEGIN IMMEDIATE), a lone statement runs on the connection when it is
 * free. Neither holds the connection while it waits.
 */
export class SqliteRunner implements SqlRunner {
  readonly dialect = 'sqlite';

  constructor(
    private readonly database: {
      withSqlite<T>(work: (connection: SqliteConnection) => T): Promise<T>;
      sqliteWrite<T>(work: (connection: SqliteConnection) => T): Promise<T>;
    },
    private readonly scriptsOf: (connection: SqliteConnection) => SqliteScripts,
  ) {}

  execute<T>(script: SqlScript<T>): Promise<T> {
    return this.database.withSqlite((connection) => this.scriptsOf(connection).drive(script));
  }

  transaction<T>(script: SqlScript<T>): Promise<T> {
    return this.database.sqliteWrite((connection) => this.scriptsOf(connection).drive(script));
  }
}

interface Named {
  readonly name: string;
  readonly text: string;
}

/** `?` → `$n` and a name per text, the same on every connection (the task store has a fixed set of texts) */
const namedTexts = new Map<string, Named>();

export class PostgresRunner implements SqlRunner {
  readonly dialect = 'postgresql';
  private readonly connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
  }

  async execute<T>(script: SqlScript<T>): Promise<T> {
    let step = script.next();
    while (!step.done) {
      const { kind, sql, parameters, planEach } = step.value;
      const { name, text } = named(sql);
      const result = await this.connection.query(
        planEach ? { text, values: parameters } : { name, text, values: parameters },
      );
      step = script.next(kind === 'rows' ? result.rows : (result.rowCount ?? 0));
    }
    return step.value;
  }

  async transaction<T>(script: SqlScript<T>): Promise<T> {
    await this.connection.query({ text: 'BEGIN' });
    try {
      const result = await this.execute(script);
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
