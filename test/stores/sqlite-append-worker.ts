/**
 * A separate process appending turns to one SQLite conversation (spawned by sqlite-processes.test.ts):
 * load, append at the loaded count, and on TRACKER_CONFLICT load again, as the runtime would.
 * Prints {conflicts} as JSON when done.
 */
import { AppError } from '../../src/core/errors.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { turnEvents } from './tracker-store-contract.js';

const [file = '', worker = '0', turns = '10'] = process.argv.slice(2);
const store = new SqlTrackerStore({ target: sqliteTarget(file, process.cwd()) });
let conflicts = 0;
for (let turn = 0; turn < Number(turns); turn += 1) {
  for (;;) {
    const { eventCount } = await store.loadRecent('shared');
    try {
      await store.append('shared', turnEvents(`w${worker}`, turn), { expectedCount: eventCount });
      break;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'TRACKER_CONFLICT') throw error;
      conflicts += 1;
    }
  }
}
await store.close();
process.stdout.write(JSON.stringify({ conflicts }));
