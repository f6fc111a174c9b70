import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { trackerStoreContract } from './tracker-store-contract.js';

describe('SqlTrackerStore on PostgreSQL', function () {
  let database: TestDatabase | undefined;

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  after(async () => {
    await database?.drop();
  });

  trackerStoreContract('SqlTrackerStore (PostgreSQL)', {
    durable: true,
    open: async () => new SqlTrackerStore({ target: postgresTarget((database as TestDatabase).url) }),
  });
});
