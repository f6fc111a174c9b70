import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { trackerStoreContract } from './tracker-store-contract.js';

describe('SqlTrackerStore on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-sqlite-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  trackerStoreContract('SqlTrackerStore (SQLite file)', {
    durable: true,
    open: async () => new SqlTrackerStore({ target: sqliteTarget(join(folder, 'tracker.db'), folder) }),
  });
});
