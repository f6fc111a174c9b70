import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { SqlTaskStoreHarness, sqlTaskStoreBehaviour } from './sql-task-store-support.js';
import { taskStoreContract } from './task-store-contract.js';

describe('SqlTaskStore on SQLite', function () {
  const folder = mkdtempSync(join(tmpdir(), 'parley-tasks-'));
  const harness = new SqlTaskStoreHarness(() => sqliteTarget('.parley/tracker.db', folder));

  after(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  // The second instance is another connection to the file. In one process its "races" interleave
  // whole transactions, which are synchronous: they show that the claims and the cap hold across
  // connections, and that no transaction waits for the event loop while it holds the write lock
  // (the other connection, waiting for that lock, would block the loop: "database is locked").
  taskStoreContract('SqlTaskStore (SQLite)', harness.open, {
    clock: harness.clock,
    second: harness.second,
    races: true,
  });
  sqlTaskStoreBehaviour(harness, /^sqlite at .*tracker\.db$/);
});
