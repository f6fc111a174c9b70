/**
 * A2A task signals over PostgreSQL LISTEN/NOTIFY: what one process sends the others hear (never
 * itself), a burst of signals all arrive, and closing while the LISTEN connection is still being
 * opened (a SIGTERM right after start) leaves no connection behind to keep the process alive.
 */
import { expect } from 'chai';
import pg from 'pg';
import { PostgresTaskSignals, TASK_SIGNAL_CHANNEL } from '../../src/stores/sql/postgres-task-signals.js';
import { SILENT_STORE_LOGGER } from '../../src/stores/store-logger.js';
import { adminQuery, createTestDatabase, postgresTarget, requirePostgres } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { waitFor } from '../support/timing.js';

interface Heard {
  readonly settled: string[];
  readonly cancel: string[];
}

/** counts the NOTIFY statements sent by any pg client until stopped */
function countNotifyStatements(): { readonly count: number; stop(): void } {
  const original = pg.Client.prototype.query;
  const counter = {
    count: 0,
    stop: () => {
      pg.Client.prototype.query = original;
    },
  };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { text?: unknown } | undefined;
    if (typeof config?.text === 'string' && config.text.includes('pg_notify')) counter.count += 1;
    return (original as (...given: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return counter;
}

function listening(signals: PostgresTaskSignals): Heard {
  const heard: Heard = { settled: [], cancel: [] };
  signals.listen({ settled: (id) => heard.settled.push(id), cancel: (id) => heard.cancel.push(id) });
  return heard;
}

async function listenConnections(database: string): Promise<number> {
  const result = await adminQuery(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'",
    [database],
  );
  return Number((result.rows[0] as { n: string }).n);
}

describe('PostgreSQL task signals', function () {
  this.timeout(20_000);
  let database: TestDatabase;
  const opened: PostgresTaskSignals[] = [];
  const signals = () => {
    const made = new PostgresTaskSignals({
      target: postgresTarget(database.url),
      logger: SILENT_STORE_LOGGER,
    });
    opened.push(made);
    return made;
  };

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const made of opened.splice(0)) await made.close();
  });
  after(async () => {
    await database?.drop();
  });

  it('delivers a burst of settled and cancel signals to the other process, not back to the sender', async () => {
    const sender = signals();
    const receiver = signals();
    const own = listening(sender);
    const heard = listening(receiver);
    await waitFor(async () => (await listenConnections(database.name)) === 2, 'both listening');
    const ids = Array.from({ length: 50 }, (_, index) => `task-${index}`);
    const statements = countNotifyStatements();
    try {
      for (const id of ids) sender.settled(id);
      sender.cancel('task-c');
      await waitFor(() => heard.settled.length === ids.length && heard.cancel.length === 1, 'every signal');
    } finally {
      statements.stop();
    }
    expect(heard.settled).to.deep.equal(ids);
    expect(heard.cancel).to.deep.equal(['task-c']);
    expect(own.settled, 'the sender hears itself').to.deep.equal([]);
    // the signals given while one statement ran go together in the next: not one round trip each
    expect(statements.count).to.be.within(1, 3);
  });

  it('leaves no LISTEN connection open when closed while it is still connecting', async () => {
    for (let round = 0; round < 5; round += 1) {
      const made = signals();
      listening(made);
      await made.close();
    }
    // a connection that was still opening finishes now; it must end itself instead of listening
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await listenConnections(database.name)).to.equal(0);
  });

  it('ignores payloads it did not write', async () => {
    const receiver = signals();
    const heard = listening(receiver);
    await waitFor(async () => (await listenConnections(database.name)) === 1, 'listening');
    const raw = new pg.Client({ connectionString: database.url });
    await raw.connect();
    try {
      for (const payload of [
        'not json',
        '{"from":"x","kind":"settled"}',
        '{"from":"x","kind":"nope","taskId":"t"}',
      ])
        await raw.query('SELECT pg_notify($1, $2)', [TASK_SIGNAL_CHANNEL, payload]);
      await raw.query('SELECT pg_notify($1, $2)', [
        TASK_SIGNAL_CHANNEL,
        JSON.stringify({ from: 'x', kind: 'settled', taskId: 'real' }),
      ]);
    } finally {
      await raw.end();
    }
    await waitFor(() => heard.settled.length === 1, 'the real signal');
    expect(heard).to.deep.equal({ settled: ['real'], cancel: [] });
  });
});
