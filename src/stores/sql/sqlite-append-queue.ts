import type { SqliteAppend } from './sqlite-statements.js';

interface Queued {
  readonly append: SqliteAppend;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for the SQLite tracker store: the appends of the turns that end in the same turn of the
 * event loop are written in one transaction (`SqliteStatements.appendMany`), so under load a commit
 * (its locks and its write of the WAL) serves several turns. Each append still succeeds or fails on
 * its own, and each caller hears only once its transaction committed.
 */
export class SqliteAppendQueue {
  private pending: Queued[] = [];

  /** `write`: runs the appends in one transaction; answers each one's error (undefined: written) */
  constructor(private readonly write: (appends: readonly SqliteAppend[]) => Promise<unknown[]>) {}

  append(append: SqliteAppend): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ append, resolve, reject });
      // after the callbacks of this turn of the loop, so that the turns ending in it join the batch
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    let errors: unknown[];
    try {
      errors = await this.write(batch.map((queued) => queued.append));
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    batch.forEach((queued, index) => {
      const error = errors[index];
      if (error === undefined) queued.resolve();
      else queued.reject(error);
    });
  }
}
