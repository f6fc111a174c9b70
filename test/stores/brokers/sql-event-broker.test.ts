import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppError } from '../../../src/core/errors.js';
import type { Event } from '../../../src/core/events/types.js';
import { BufferedEventBroker } from '../../../src/stores/brokers/buffered-event-broker.js';
import { createEventBroker } from '../../../src/stores/brokers/broker-factory.js';
import { SqlBrokerTransport } from '../../../src/stores/brokers/sql-transport.js';
import { DEFAULT_LIMITS, openKnex } from '../../../src/stores/sql/sql-connection.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../../support/postgres.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { forEachDialect, rowsOf } from '../../support/sql-databases.js';
import { say, startBrokerServer } from './broker-server.js';

const bot = (index: number): Event => ({ event: 'bot', timestamp: index, text: `m${index}` }) as Event;

interface BrokerRow {
  id: number;
  sender_id: string;
  data: string;
}

describe('SQL event broker', function () {
  this.timeout(20_000);

  forEachDialect((fresh) => {
    it("writes each event as a row of Rasa's `events` table (id, sender_id, data), in order", async () => {
      const database = await fresh();
      const broker = new BufferedEventBroker({
        transport: new SqlBrokerTransport({ target: database.target }),
        batchSize: 7,
      });
      await broker.open();
      for (let index = 0; index < 30; index += 1)
        broker.publish(index % 2 === 0 ? 'even' : 'odd', [bot(index)]);
      await broker.close();
      const rows = rowsOf<BrokerRow>(
        await database.raw.raw('SELECT id, sender_id, data FROM events ORDER BY id'),
      );
      expect(rows).to.have.length(30);
      expect(rows.map((row) => JSON.parse(row.data) as Record<string, unknown>)).to.deep.equal(
        Array.from({ length: 30 }, (_, index) => ({
          sender_id: index % 2 === 0 ? 'even' : 'odd',
          event: 'bot',
          timestamp: index,
          text: `m${index}`,
        })),
      );
      expect(rows.map((row) => row.sender_id).slice(0, 3)).to.deep.equal(['even', 'odd', 'even']);
      const columns = Object.keys(await database.raw.table('events').columnInfo());
      expect(columns.sort()).to.deep.equal(['data', 'id', 'sender_id']);
    });

    it("refuses a database whose `events` table is the tracker store's", async () => {
      const database = await fresh();
      // the tracker store made its table first (migrations run on first use)
      await database.store().loadAll('anyone');
      const broker = new BufferedEventBroker({
        transport: new SqlBrokerTransport({ target: database.target }),
      });
      const error = await broker.open().then(
        () => undefined,
        (caught: unknown) => caught as AppError,
      );
      await broker.close();
      expect(error?.code).to.equal('STORE_CONFIG_INVALID');
      expect(error?.message).to.contain("tracker store's").and.contain('cannot share a database');
    });
  });

  describe('on PostgreSQL going away', () => {
    const cleanups: (() => Promise<void>)[] = [];
    before(async function () {
      await requirePostgres(this);
    });
    after(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('keeps the events while the database is away and writes them all, in order, once it is back', async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      const url = new URL(database.url);
      const proxy = await TcpProxy.start({ targetHost: url.hostname, targetPort: Number(url.port || 5432) });
      cleanups.push(() => proxy.close());
      url.host = `127.0.0.1:${proxy.port}`;
      const broker = new BufferedEventBroker({
        transport: new SqlBrokerTransport({ target: postgresTarget(url.toString()) }),
        maxRetryDelayMs: 100,
        batchSize: 5,
      });
      await broker.open();
      for (let index = 0; index < 10; index += 1) broker.publish('c', [bot(index)]);
      await proxy.pause();
      for (let index = 10; index < 40; index += 1) broker.publish('c', [bot(index)]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await proxy.resume();
      await broker.close();
      const raw = openKnex(postgresTarget(database.url), DEFAULT_LIMITS);
      cleanups.push(() => raw.destroy());
      const rows = rowsOf<BrokerRow>(await raw.raw('SELECT data FROM events ORDER BY id'));
      const texts = rows.map((row) => (JSON.parse(row.data) as { text: string }).text);
      expect([...new Set(texts)]).to.deep.equal(Array.from({ length: 40 }, (_, index) => `m${index}`));
      expect(broker.dropped).to.equal(0);
    });
  });

  it('is wired by parley run: a REST turn’s events land in events.db next to the tracker store', async () => {
    const running = await startBrokerServer({
      endpoints:
        'tracker_store:\n  type: sql\n  db: tracker.db\nevent_broker:\n  type: sql\n  db: events.db\n',
    });
    let rows: BrokerRow[];
    try {
      await say(running.server, 'lin');
    } finally {
      await running.server.close();
      const db = openKnex(
        { dialect: 'sqlite', filename: join(running.root, 'events.db'), description: '' },
        DEFAULT_LIMITS,
      );
      rows = rowsOf<BrokerRow>(await db.raw('SELECT id, sender_id, data FROM events ORDER BY id'));
      await db.destroy();
      rmSync(running.root, { recursive: true, force: true });
    }
    const events = rows.map((row) => JSON.parse(row.data) as { event: string; sender_id: string });
    expect(events.length).to.be.greaterThan(4);
    expect(events.every((event) => event.sender_id === 'lin')).to.equal(true);
    expect(events.map((event) => event.event)).to.include.members(['user', 'bot']);
  });

  it('refuses at start-up to share one SQLite file with the tracker store', async () => {
    const error = await startBrokerServer({
      endpoints:
        'tracker_store:\n  type: sql\n  db: shared.db\nevent_broker:\n  type: sql\n  db: shared.db\n',
    }).then(
      async (running) => {
        await running.close();
        return undefined;
      },
      (caught: unknown) => caught as AppError,
    );
    expect(error?.code).to.equal('STORE_CONFIG_INVALID');
    expect(error?.message).to.contain('cannot share a database');
  });

  it('the factory gives a SQL broker for PostgreSQL keys', async () => {
    const broker = createEventBroker({
      config: {
        type: 'sql',
        dialect: 'postgresql',
        url: 'db.internal',
        port: 5433,
        db: 'events',
        username: 'u',
      },
      projectRoot: tmpdir(),
    });
    expect(broker?.describe()).to.equal('SQL postgresql at db.internal:5433/events (table events)');
    await broker?.close();
  });
});
