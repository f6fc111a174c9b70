/**
 * The PostgreSQL tracker store against a database that stops answering without closing anything (a
 * hung server, a network dropping packets), through a TCP proxy that freezes: a statement that hears
 * nothing for the silence timeout fails with STORE_UNAVAILABLE instead of hanging, idle connections are
 * left alone, and migrations, which may rightly wait long, are not cut short.
 */
import { expect } from 'chai';
import pg from 'pg';
import { AppError } from '../../src/core/errors.js';
import { MIGRATION_LOCK_KEY } from '../../src/stores/sql/migrations.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/timing.js';

const SILENCE_MS = 400;
const CONNECT_TIMEOUT_MS = 1_000;
const EVENT = { event: 'action', name: 'action_listen', timestamp: 1 } as const;

/** Sessions waiting for the migration lock that another session holds. */
async function migrationWaiters(client: pg.Client): Promise<number> {
  const waiting = await client.query(
    `SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
    [MIGRATION_LOCK_KEY],
  );
  return (waiting.rows[0] as { n: number }).n;
}

describe('SqlTrackerStore on a PostgreSQL that stops answering', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  const stores: SqlTrackerStore[] = [];

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });

  beforeEach(async () => {
    proxy = await TcpProxy.start({ targetHost: '127.0.0.1', targetPort: 5432 });
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await proxy.close();
  });

  after(async () => {
    await database?.drop();
  });

  function storeThroughProxy(): SqlTrackerStore {
    const url = new URL(database.url);
    url.port = String(proxy.port);
    const store = new SqlTrackerStore({
      target: postgresTarget(url.toString()),
      limits: { silenceTimeoutMs: SILENCE_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS },
    });
    stores.push(store);
    return store;
  }

  it('fails a statement that hears nothing with STORE_UNAVAILABLE, then works again when it is back', async () => {
    const store = storeThroughProxy();
    await store.append('frozen', [EVENT], { expectedCount: 0 });
    await proxy.pause('freeze');
    const connectionsBefore = proxy.accepted;
    const started = performance.now();
    const error = await store.loadRecent('frozen').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const elapsed = performance.now() - started;
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).code).to.equal('STORE_UNAVAILABLE');
    // a retry would have opened a second connection (and waited for it as long again)
    expect(proxy.accepted, 'one silence timeout, not a retry on top').to.equal(connectionsBefore);
    // failed by the silence timer (not at once), and not left hanging until the test's timeout
    expect(elapsed, 'failed by the silence timeout').to.be.within(SILENCE_MS * 0.75, SILENCE_MS * 10);

    const write = await store.append('frozen', [EVENT], { expectedCount: 1 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((write as AppError).code).to.equal('STORE_UNAVAILABLE');

    await proxy.resume();
    // a connection attempt begun while frozen may still fail (and fail the operation waiting for a
    // connection then) up to the connect timeout later; after that every operation works again
    let eventCount: number | undefined;
    await waitFor(async () => {
      eventCount = await store.loadRecent('frozen').then(
        (recent) => recent.eventCount,
        () => undefined,
      );
      return eventCount !== undefined;
    }, 'the store to answer again after the database is back');
    expect(eventCount, 'the failed write stored nothing').to.equal(1);
    await store.append('frozen', [EVENT], { expectedCount: 1 });
    expect((await store.loadAll('frozen')).length).to.equal(2);
  });

  it('leaves connections alone while they are idle, however long', async () => {
    const store = storeThroughProxy();
    await store.loadRecent('idle');
    const connections = proxy.connections;
    await new Promise((resolve) => setTimeout(resolve, SILENCE_MS * 3));
    expect(proxy.connections, 'no pooled connection was ended').to.equal(connections);
    expect((await store.loadRecent('idle')).eventCount).to.equal(0);
  });

  it('lets a migration wait for another process’s migration for longer than the silence timeout', async () => {
    // a fresh database, so that the store has to migrate; another "process" holds the migration lock
    const fresh = await createTestDatabase();
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      const url = new URL(fresh.url);
      url.port = String(proxy.port);
      const store = new SqlTrackerStore({
        target: postgresTarget(url.toString()),
        limits: { silenceTimeoutMs: SILENCE_MS },
      });
      stores.push(store);
      const opened = store.open();
      await waitFor(
        async () => (await migrationWaiters(other)) > 0,
        'the store to wait for the migration lock',
      );
      await new Promise((resolve) => setTimeout(resolve, SILENCE_MS * 3));
      await other.query('COMMIT');
      await opened;
      expect((await store.loadRecent('after-migration')).eventCount).to.equal(0);
    } finally {
      await other.end();
      for (const store of stores.splice(0)) await store.close();
      await fresh.drop();
    }
  });
});
