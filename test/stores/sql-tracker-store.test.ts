/** SqlTrackerStore behaviour beyond the shared contract: schema, snapshots kept honest, corruption, cost. */
import { expect } from 'chai';
import type { Event } from '../../src/core/events/types.js';
import { SNAPSHOT_VERSION } from '../../src/core/events/snapshot-json.js';
import { MAX_CONVERSATION_ID_LENGTH } from '../../src/stores/sql/sql-tracker-store.js';
import type { SqlTestDatabase } from '../support/sql-databases.js';
import { recordingLogger } from '../support/recording-logger.js';
import { forEachDialect, rowsOf } from '../support/sql-databases.js';
import { expectCode, snapshotOf, turnEvents } from './tracker-store-contract.js';

function conversation(id: string, turns: number): Event[] {
  return Array.from({ length: turns }, (_, turn) => turnEvents(id, turn)).flat();
}

describe('SqlTrackerStore', () => {
  forEachDialect((fresh) => {
    let database: SqlTestDatabase;

    beforeEach(async () => {
      database = await fresh();
    });

    it('creates its tables in a new database, in parallel starts too', async () => {
      const stores = Array.from({ length: database.dialect === 'sqlite' ? 1 : 5 }, () => database.store());
      await Promise.all(stores.map((store) => store.open()));
      const versions = await database.raw('parley_migrations').select('version');
      expect(versions.map((row) => Number(row.version)).sort((a, b) => a - b)).to.deep.equal([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
      ]);
      await stores[0]?.append('a', turnEvents('a', 0), { expectedCount: 0 });
      expect(await stores[stores.length - 1]?.loadAll('a')).to.deep.equal(turnEvents('a', 0));
    });

    it('ignores a snapshot of another version and replays the events instead', async () => {
      const logged = recordingLogger();
      const store = database.store({ logger: logged });
      const events = conversation('old', 3);
      await store.append('old', events, { expectedCount: 0, snapshot: snapshotOf('old', events) });
      const row = await database.raw('tracker_snapshots').where('sender_id', 'old').first('data');
      const older = { ...JSON.parse(row.data), version: SNAPSHOT_VERSION - 1 };
      await database
        .raw('tracker_snapshots')
        .where('sender_id', 'old')
        .update({ data: JSON.stringify(older) });
      // read as after an upgrade: by a process that did not write the row (one that did keeps its state)
      const upgraded = database.store({ logger: logged });
      expect(await upgraded.loadRecent('old')).to.deep.equal({ eventCount: 15, eventsAfterSnapshot: events });
      // an expected upgrade, not a damaged log: said at info level
      expect(logged.messages).to.include(
        'tracker snapshot of another format or version: replaying the events',
      );
      expect(logged.warnings).to.deep.equal([]);
      // the next turn's snapshot replaces it
      const more = turnEvents('old', 3);
      await upgraded.append('old', more, {
        expectedCount: 15,
        snapshot: snapshotOf('old', [...events, ...more]),
      });
      expect((await database.store().loadRecent('old')).snapshot?.eventCount).to.equal(20);
    });

    it('ignores a snapshot that is ahead of the event log (events deleted by hand)', async () => {
      const logger = recordingLogger();
      const store = database.store({ logger });
      const events = conversation('cut', 2);
      await store.append('cut', events, { expectedCount: 0, snapshot: snapshotOf('cut', events) });
      await database.raw('events').where('sender_id', 'cut').andWhere('seq', '>=', 5).delete();
      expect(await store.loadRecent('cut')).to.deep.equal({
        eventCount: 5,
        eventsAfterSnapshot: events.slice(0, 5),
      });
      expect(logger.warnings).to.deep.equal(['tracker snapshot ahead of the event log: ignored']);
      expect(logger.warningFields).to.deep.equal([{ conversationId: 'cut', snapshotCount: 10 }]);
    });

    it('ignores a snapshot whose last event is gone although later ones are there', async () => {
      const logger = recordingLogger();
      const store = database.store({ logger });
      const events = conversation('gap', 2);
      await store.append('gap', events, { expectedCount: 0, snapshot: snapshotOf('gap', events) });
      const more = turnEvents('gap', 2);
      await store.append('gap', more, { expectedCount: 10 });
      await database.raw('events').where({ sender_id: 'gap', seq: 9 }).delete();
      // the replay meets the hole
      await expectCode(store.loadRecent('gap'), 'STORE_CORRUPT');
      expect(logger.warningFields).to.deep.equal([{ conversationId: 'gap', snapshotCount: 10 }]);
    });

    it('uses a snapshot of a conversation without events, and the events after it', async () => {
      const logger = recordingLogger();
      const store = database.store({ logger });
      const empty = snapshotOf('fresh', []);
      await store.append('fresh', [], { expectedCount: 0, snapshot: empty });
      expect(await store.loadRecent('fresh')).to.deep.equal({
        eventCount: 0,
        snapshot: empty,
        eventsAfterSnapshot: [],
      });
      const first = turnEvents('fresh', 0);
      await store.append('fresh', first, { expectedCount: 0 });
      expect(await store.loadRecent('fresh')).to.deep.equal({
        eventCount: 5,
        snapshot: empty,
        eventsAfterSnapshot: first,
      });
      expect(logger.warnings).to.deep.equal([]);
    });

    it('reports a hole in the event log or an unreadable event as STORE_CORRUPT', async () => {
      const store = database.store();
      await store.append('holes', conversation('holes', 2), { expectedCount: 0 });
      await database.raw('events').where({ sender_id: 'holes', seq: 3 }).delete();
      const hole = await expectCode(store.loadAll('holes'), 'STORE_CORRUPT');
      expect(hole.details).to.deep.include({ conversationId: 'holes', seq: 4 });

      await store.append('garbled', conversation('garbled', 1), { expectedCount: 0 });
      await database
        .raw('events')
        .where({ sender_id: 'garbled', seq: 1 })
        .update({ data: '{"event": "slot"' });
      await expectCode(store.loadRecent('garbled'), 'STORE_CORRUPT');
      await database
        .raw('events')
        .where({ sender_id: 'garbled', seq: 1 })
        .update({ data: '{"event": "form"}' });
      await expectCode(store.loadAll('garbled'), 'STORE_CORRUPT');
    });

    it("refuses a conversation id longer than Rasa's sender_id column", async () => {
      const store = database.store();
      const id = '🙂'.repeat(MAX_CONVERSATION_ID_LENGTH);
      await store.append(id, turnEvents(id, 0), { expectedCount: 0 });
      expect(await store.loadAll(id)).to.have.length(5);
      await expectCode(store.append(`${id}x`, [], { expectedCount: 0 }), 'CONVERSATION_ID_INVALID');
    });

    it('refuses an empty conversation id and an expected count that is not a count', async () => {
      const store = database.store();
      await expectCode(store.append('', turnEvents('', 0), { expectedCount: 0 }), 'CONVERSATION_ID_INVALID');
      for (const expectedCount of [-1, 1.5, Number.NaN])
        await expectCode(store.append('a', turnEvents('a', 0), { expectedCount }), 'INTERNAL');
      expect(await store.loadAll('a')).to.deep.equal([]);
    });

    it('stamps the snapshot row with its clock, in seconds', async () => {
      const store = database.store({ now: () => 1_700_000_123.25 });
      const events = turnEvents('clock', 0);
      await store.append('clock', events, { expectedCount: 0, snapshot: snapshotOf('clock', events) });
      const row = await database
        .raw('tracker_snapshots')
        .where('sender_id', 'clock')
        .first('updated', 'event_count');
      expect(Number(row.updated)).to.equal(1_700_000_123.25);
      expect(Number(row.event_count)).to.equal(5);
      // without a clock of its own: the system's, in seconds since the epoch
      const before = Date.now() / 1000;
      await database.store().append('clock', [], { expectedCount: 5, snapshot: snapshotOf('clock', events) });
      const system = await database.raw('tracker_snapshots').where('sender_id', 'clock').first('updated');
      expect(Number(system.updated)).to.be.within(before - 1, Date.now() / 1000 + 1);
    });

    it('loads a conversation without a snapshot quietly, and a big append without one too', async () => {
      const logger = recordingLogger();
      const store = database.store({ logger });
      const events = conversation('plain', 2);
      await store.append('plain', events, { expectedCount: 0 });
      expect(await store.loadRecent('plain')).to.deep.equal({ eventCount: 10, eventsAfterSnapshot: events });
      const many = conversation('many-plain', 120); // 600 rows: more than one statement's worth
      await store.append('many-plain', many, { expectedCount: 0 });
      expect((await store.loadRecent('many-plain')).eventCount).to.equal(600);
      expect(logger.messages, 'nothing logged but the migration').to.deep.equal([
        'tracker store schema migrated',
      ]);
    });

    it('checks the count of an append without events, and stores nothing for it', async () => {
      const store = database.store();
      await store.append('empty', turnEvents('empty', 0), { expectedCount: 0 });
      await store.append('empty', [], { expectedCount: 5 });
      await expectCode(store.append('empty', [], { expectedCount: 4 }), 'TRACKER_CONFLICT');
      await expectCode(store.append('empty', [], { expectedCount: 6 }), 'TRACKER_CONFLICT');
      expect((await store.loadRecent('empty')).eventCount).to.equal(5);
    });

    it('writes an append with many events all or nothing', async () => {
      const store = database.store();
      const many = conversation('many', 250); // 1,250 rows in one append
      await store.append('many', many, { expectedCount: 0, snapshot: snapshotOf('many', many) });
      expect(await store.loadAll('many')).to.deep.equal(many);
      const rival = conversation('rival', 250);
      await store.append('late', rival.slice(0, 5), { expectedCount: 0 });
      // the 501st row collides with what is there: nothing of the 1,250 may stay
      await database.raw('events').insert({ sender_id: 'late', seq: 505, type_name: 'x', data: '{}' });
      await expectCode(store.append('late', rival.slice(5), { expectedCount: 5 }), 'TRACKER_CONFLICT');
      const count = rowsOf<{ n: number | string }>(
        await database.raw.raw("SELECT COUNT(*) AS n FROM events WHERE sender_id = 'late'"),
      );
      expect(Number(count[0]?.n)).to.equal(6);
    });

    it("writes Rasa's columns as they are, whatever characters the names hold", async () => {
      // PostgreSQL passes a turn's columns as arrays: quotes, braces, commas and the word NULL in a
      // name must come back as written, and a missing name as SQL NULL
      const store = database.store();
      const odd = 'NULL';
      const braces = '{a,"b"}\\ c';
      const events: Event[] = [
        {
          event: 'user',
          timestamp: 2.25,
          text: 'hi',
          parse_data: { text: 'hi', intent: { name: odd, confidence: 1 }, entities: [] },
        },
        { event: 'action', timestamp: 2.5, name: braces },
        {
          event: 'user',
          timestamp: 2.75,
          text: 'no intent',
          parse_data: { text: 'no intent', intent: { name: null, confidence: 0 }, entities: [] },
        },
      ];
      await store.append('columns', events, { expectedCount: 0 });
      const rows = rowsOf<{
        seq: number;
        type_name: string;
        intent_name: string | null;
        action_name: string | null;
        timestamp: number;
      }>(
        await database.raw.raw(
          "SELECT seq, type_name, intent_name, action_name, timestamp FROM events WHERE sender_id = 'columns' ORDER BY seq",
        ),
      );
      expect(
        rows.map((row) => [
          Number(row.seq),
          row.type_name,
          row.intent_name,
          row.action_name,
          Number(row.timestamp),
        ]),
      ).to.deep.equal([
        [0, 'user', odd, null, 2.25],
        [1, 'action', null, braces, 2.5],
        [2, 'user', null, null, 2.75],
      ]);
      expect(await store.loadAll('columns')).to.deep.equal(events);
    });

    it('refuses a database migrated by a newer Parley', async () => {
      await database.store().open();
      await database.raw('parley_migrations').insert({ version: 99, name: 'future', applied_at: 0 });
      await expectCode(database.store().open(), 'STORE_CONFIG_INVALID');
    });

    it("refuses an `events` table of Rasa's SQL event broker", async () => {
      await database.raw.raw(
        'CREATE TABLE events (id INTEGER NOT NULL PRIMARY KEY, sender_id VARCHAR(255), data TEXT)',
      );
      const error = await expectCode(database.store().open(), 'STORE_CONFIG_INVALID');
      expect(error.message).to.match(/event broker/);
      expect(await database.raw.schema.hasTable('parley_migrations')).to.equal(database.dialect === 'sqlite');
    });

    it('loads a long conversation as fast as a short one (snapshot + events after it)', async () => {
      const store = database.store();
      const short = conversation('short', 2);
      await store.append('short', short, { expectedCount: 0, snapshot: snapshotOf('short', short) });
      const long = conversation('long', 2000);
      await store.append('long', long, { expectedCount: 0, snapshot: snapshotOf('long', long) });
      const tail = turnEvents('long', 2000);
      await store.append('long', tail, { expectedCount: long.length });
      // the fastest of many interleaved loads: a busy machine can slow a load down, never speed it up
      const fastest = { short: Infinity, long: Infinity };
      for (let round = 0; round < 30; round += 1)
        for (const id of ['short', 'long'] as const) {
          const start = performance.now();
          await store.loadRecent(id);
          fastest[id] = Math.min(fastest[id], performance.now() - start);
        }
      expect((await store.loadRecent('long')).eventsAfterSnapshot).to.deep.equal(tail);
      const shown = `short ${fastest.short.toFixed(2)} ms, long ${fastest.long.toFixed(2)} ms`;
      // 10,005 events against 10: a load that read the history takes over ten times longer
      expect(fastest.long, shown).to.be.below(fastest.short * 3 + 1);
    });
  });
});
