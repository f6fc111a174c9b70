/**
 * A stress test of the PostgreSQL tracker store: turns stored while its server connections are killed
 * every 15 ms. It takes about ten seconds, so the mutation runs leave it out (stryker.config.mjs); the
 * cheaper tests of sql-failures.test.ts and the contract cover the same code.
 */
import { expect } from 'chai';
import type { AppError } from '../../src/core/errors.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import {
  createTestDatabase,
  postgresTarget,
  requirePostgres,
  terminateConnections,
} from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { expectWholeTurns, turnEvents } from './tracker-store-contract.js';

describe('SqlTrackerStore on PostgreSQL under load while connections are killed', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let store: SqlTrackerStore | undefined;

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  after(async () => {
    await store?.close();
    await database?.drop();
  });

  it('never keeps half a turn while connections are being killed under load', async () => {
    const opened = new SqlTrackerStore({ target: postgresTarget(database.url) });
    store = opened;
    await opened.open();
    let killing = true;
    const killer = (async () => {
      while (killing) {
        await terminateConnections(database.name);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const id = `load-${index}`;
        for (let turn = 0; turn < 15; turn += 1) {
          try {
            const { eventCount } = await opened.loadRecent(id);
            await opened.append(id, turnEvents(id, turn), { expectedCount: eventCount });
          } catch (error) {
            failures.push((error as AppError).code);
          }
        }
      }),
    );
    killing = false;
    await killer;
    expect(failures.length, 'turns that failed while connections were killed').to.be.greaterThan(0);
    expect([...new Set(failures)]).to.satisfy((codes: string[]) =>
      codes.every((code) => code === 'STORE_UNAVAILABLE' || code === 'TRACKER_CONFLICT'),
    );
    for (let index = 0; index < 20; index += 1) {
      expectWholeTurns(await opened.loadAll(`load-${index}`));
    }
  });
});
