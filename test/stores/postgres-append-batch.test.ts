import { expect } from 'chai';
import pg from 'pg';
import { eventRow } from '../../src/stores/sql/event-rows.js';
import type { SnapshotRow } from '../../src/stores/sql/event-rows.js';
import { PostgresAppendBatch } from '../../src/stores/sql/postgres-append-batch.js';
import type { PendingAppend } from '../../src/stores/sql/postgres-append-batch.js';
import type { PostgresConnection } from '../../src/stores/sql/postgres-statements.js';
import { isUniqueViolation } from '../../src/stores/sql/sql-errors.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import type { TestDatabase } from '../support/postgres.js';
import { createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import { expectCode, snapshotOf, turnEvents, uniqueId } from './tracker-store-contract.js';

/** events in one turn of turnEvents */
const PER_TURN = turnEvents('x', 1).length;

describe('PostgreSQL: the appends of concurrent turns are committed together', function () {
  let database: TestDatabase | undefined;
  let store: SqlTrackerStore | undefined;
  let pool: pg.Pool | undefined;
  /** the statement names run through the batch's connections, in the order they were sent */
  let sent: string[] = [];
  let batch: PostgresAppendBatch;

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
    store = new SqlTrackerStore({ target: postgresTarget(database.url) });
    await store.open();
    pool = new pg.Pool({ connectionString: database.url, max: 8 });
  });

  after(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  beforeEach(() => {
    sent = [];
    batch = batcher();
  });

  function batcher(): PostgresAppendBatch {
    return new PostgresAppendBatch(async (work) => {
      const client = await (pool as pg.Pool).connect();
      const counting: PostgresConnection = {
        query: (config) => {
          sent.push(config.name ?? config.text);
          return client.query(config as pg.QueryConfig) as never;
        },
      };
      try {
        return await work(counting);
      } finally {
        client.release();
      }
    });
  }

  /** a conversation's turn `turn` as an append after `expectedCount` stored events */
  function turnAppend(
    id: string,
    turn: number,
    expectedCount: number,
    snapshot?: SnapshotRow,
  ): PendingAppend {
    const rows = turnEvents(id, turn).map((event, index) => eventRow(id, expectedCount + index, event));
    return { conversationId: id, expectedCount, rows, snapshot };
  }

  async function storedTexts(id: string): Promise<string[]> {
    const events = await (store as SqlTrackerStore).loadAll(id);
    return events.flatMap((event) => (event.event === 'user' ? [event.text ?? ''] : []));
  }

  it('sends the first append at once and the ones that came meanwhile in one statement', async () => {
    const ids = Array.from({ length: 10 }, () => uniqueId('batch'));
    const counts = await Promise.all(ids.map((id) => batch.append(turnAppend(id, 1, 0))));
    expect(counts).to.deep.equal(ids.map(() => PER_TURN));
    expect(sent).to.deep.equal(['parley_append_v3', 'parley_append_batch_v1']);
    for (const id of ids) expect(await storedTexts(id)).to.deep.equal([`${id}/1`]);
  });

  it('inserts nothing of an append whose first event would not follow the stored ones, and the rest', async () => {
    const ids = Array.from({ length: 5 }, () => uniqueId('gap'));
    const appends = ids.map((id, index) => turnAppend(id, 1, index === 3 ? 7 : 0));
    const counts = await Promise.all(appends.map((append) => batch.append(append)));
    expect(counts).to.deep.equal([PER_TURN, PER_TURN, PER_TURN, 0, PER_TURN]);
    expect(sent).to.include('parley_append_batch_v1');
    expect(await storedTexts(ids[3] as string)).to.deep.equal([]);
    expect(await storedTexts(ids[4] as string)).to.deep.equal([`${ids[4]}/1`]);
  });

  it('runs a batch again append by append when one collides, so only that one fails', async () => {
    const ids = Array.from({ length: 6 }, () => uniqueId('collide'));
    const stale = ids[4] as string;
    await batch.append(turnAppend(stale, 1, 0));
    await batch.append(turnAppend(stale, 2, PER_TURN));
    sent = [];
    // a writer that loaded the conversation before its second turn: its first seq is taken
    const appends = ids.map((id) => (id === stale ? turnAppend(id, 3, PER_TURN) : turnAppend(id, 1, 0)));
    const outcomes = await Promise.allSettled(appends.map((append) => batch.append(append)));
    const failed = outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [index] : []));
    expect(failed).to.deep.equal([4]);
    expect(isUniqueViolation((outcomes[4] as PromiseRejectedResult).reason)).to.equal(true);
    expect(sent.filter((name) => name === 'parley_append_batch_v1')).to.have.length(1);
    expect(sent.filter((name) => name === 'parley_append_v3').length).to.be.at.least(6);
    for (const id of ids)
      expect(await storedTexts(id)).to.deep.equal(id === stale ? [`${id}/1`, `${id}/2`] : [`${id}/1`]);
  });

  it('never puts two appends of one conversation in one statement, and keeps their order', async () => {
    const others = Array.from({ length: 4 }, () => uniqueId('other'));
    const twice = uniqueId('twice');
    const pending = [
      ...others.map((id) => batch.append(turnAppend(id, 1, 0))),
      batch.append(turnAppend(twice, 1, 0)),
      batch.append(turnAppend(twice, 2, PER_TURN)),
    ];
    expect(await Promise.all(pending)).to.deep.equal(Array.from({ length: 6 }, () => PER_TURN));
    expect(await storedTexts(twice)).to.deep.equal([`${twice}/1`, `${twice}/2`]);
    // the second turn waited for the batch holding the first (in one statement it could not follow it)
    expect(sent).to.deep.equal(['parley_append_v3', 'parley_append_batch_v1', 'parley_append_v3']);
  });

  it('upserts the snapshot of each append that carries one', async () => {
    const ids = Array.from({ length: 4 }, () => uniqueId('snap'));
    const appends = ids.map((id, index) => {
      const snapshot =
        index % 2 === 0
          ? { sender_id: id, event_count: PER_TURN, data: JSON.stringify({ marker: id }), updated: 1 }
          : undefined;
      return turnAppend(id, 1, 0, snapshot);
    });
    await Promise.all(appends.map((append) => batch.append(append)));
    const result = await (pool as pg.Pool).query<{ sender_id: string; event_count: number; data: string }>(
      'SELECT sender_id, event_count, data FROM tracker_snapshots WHERE sender_id = ANY($1) ORDER BY sender_id',
      [ids],
    );
    const expected = [ids[0], ids[2]].map((id) => ({
      sender_id: id,
      event_count: PER_TURN,
      data: JSON.stringify({ marker: id }),
    }));
    expect(result.rows).to.deep.equal(
      expected.sort((a, b) => String(a.sender_id).localeCompare(String(b.sender_id))),
    );
  });

  it('fails every append of a batch whose connection fails, and stores none of them', async () => {
    const broken = new PostgresAppendBatch(async () => {
      throw Object.assign(new Error('connection terminated'), { code: 'ECONNRESET' });
    });
    const ids = Array.from({ length: 4 }, () => uniqueId('lost'));
    const outcomes = await Promise.allSettled(ids.map((id) => broken.append(turnAppend(id, 1, 0))));
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(ids.map(() => 'rejected'));
    for (const id of ids) expect(await storedTexts(id)).to.deep.equal([]);
  });

  it('through the store: concurrent turns of many conversations are all stored, in order', async () => {
    const tracker = store as SqlTrackerStore;
    const ids = Array.from({ length: 40 }, () => uniqueId('store'));
    await Promise.all(
      ids.map((id) =>
        tracker.append(id, turnEvents(id, 1), {
          expectedCount: 0,
          snapshot: snapshotOf(id, turnEvents(id, 1)),
        }),
      ),
    );
    await Promise.all(ids.map((id) => tracker.append(id, turnEvents(id, 2), { expectedCount: PER_TURN })));
    for (const id of ids) expect(await storedTexts(id)).to.deep.equal([`${id}/1`, `${id}/2`]);
    // one of them stale: it fails alone with the store's conflict, the others go in
    const stale = ids[7] as string;
    const outcomes = await Promise.allSettled(
      ids
        .slice(0, 12)
        .map((id) =>
          tracker.append(id, turnEvents(id, 3), { expectedCount: id === stale ? PER_TURN : 2 * PER_TURN }),
        ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).to.have.length(1);
    await expectCode(
      tracker.append(stale, turnEvents(stale, 3), { expectedCount: PER_TURN }),
      'TRACKER_CONFLICT',
    );
    expect(await storedTexts(ids[0] as string)).to.have.length(3);
    expect(await storedTexts(stale)).to.have.length(2);
  });
});
