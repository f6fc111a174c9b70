/**
 * Group commit for everything written to one SQLite file by this process: the writes asked for in the
 * same turn of the event loop (turns' appends, A2A task saves, claims and releases, from any store
 * sharing the database) run in one write transaction, each in a savepoint of its own. A commit — its
 * locks and its write of the WAL — then serves several writes, which under load is most of what a
 * write costs. Each write still succeeds or fails alone (a failing one is rolled back to its
 * savepoint, the others go on), and each caller hears only once the transaction committed; a commit
 * that fails fails every write of the batch, none of which is then in the file.
 */
import type { SqliteConnection, SqliteStatement } from './sqlite-statements.js';

/** Runs synchronously on the connection, inside the batch's transaction; throws to be rolled back. */
export type SqliteWork<T> = (connection: SqliteConnection) => T;

interface Queued {
  readonly work: SqliteWork<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Settled =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** How the batch reaches the connection: `work` runs while nothing else uses it. */
export type WithConnection = <T>(work: (connection: SqliteConnection) => T) => Promise<T>;

export class SqliteWriteBatch {
  private pending: Queued[] = [];

  constructor(private readonly withConnection: WithConnection) {}

  write<T>(work: SqliteWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // after the callbacks of this turn of the loop, so that the writes asked for in it join the batch
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    let settled: Settled[];
    try {
      settled = await this.withConnection((connection) => runBatch(connection, batch));
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    batch.forEach((queued, index) => {
      const outcome = settled[index] as Settled;
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(outcome.error);
    });
  }
}

interface TransactionStatements {
  readonly begin: SqliteStatement;
  readonly commit: SqliteStatement;
  readonly rollback: SqliteStatement;
  readonly savepoint: SqliteStatement;
  readonly release: SqliteStatement;
  readonly rollbackTo: SqliteStatement;
}

const prepared = new WeakMap<SqliteConnection, TransactionStatements>();

function statementsOf(connection: SqliteConnection): TransactionStatements {
  let statements = prepared.get(connection);
  if (!statements) {
    statements = {
      // IMMEDIATE: the write lock is taken at once, so no write of the batch meets another process's
      // commit in the middle (which would fail it with SQLITE_BUSY instead of waiting)
      begin: connection.prepare('BEGIN IMMEDIATE'),
      commit: connection.prepare('COMMIT'),
      rollback: connection.prepare('ROLLBACK'),
      savepoint: connection.prepare('SAVEPOINT parley_write'),
      release: connection.prepare('RELEASE parley_write'),
      rollbackTo: connection.prepare('ROLLBACK TO parley_write'),
    };
    prepared.set(connection, statements);
  }
  return statements;
}

function runBatch(connection: SqliteConnection, batch: readonly Queued[]): Settled[] {
  const statements = statementsOf(connection);
  statements.begin.run();
  try {
    const settled = batch.map((queued) => runInSavepoint(connection, statements, queued.work));
    statements.commit.run();
    return settled;
  } catch (error) {
    if (connection.inTransaction) statements.rollback.run();
    throw error;
  }
}

function runInSavepoint(
  connection: SqliteConnection,
  statements: TransactionStatements,
  work: SqliteWork<unknown>,
): Settled {
  statements.savepoint.run();
  try {
    const value = work(connection);
    statements.release.run();
    return { ok: true, value };
  } catch (error) {
    // a statement error that ended the whole transaction (SQLITE_FULL, an I/O error) leaves no
    // savepoint to go back to: then the batch fails as a whole
    if (!connection.inTransaction) throw error;
    statements.rollbackTo.run();
    statements.release.run();
    return { ok: false, error };
  }
}
