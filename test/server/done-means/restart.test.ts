/**
 * Done means: a REST conversation continues correctly after a server restart, with the SQLite default
 * and with PostgreSQL. The first server leaves the conversation in the middle of a flow (a collect step
 * waiting); a second server on the same project and database finishes it.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ParleyServer } from '../../../src/cli/serve.js';
import { createTestDatabase, requirePostgres } from '../../support/postgres.js';
import type { TestDatabase } from '../../support/postgres.js';
import {
  ANYTHING_ELSE,
  inspectStore,
  postRest,
  postgresEndpoints,
  startProjectServer,
  textsOf,
  turnsOf,
  writeDoneMeansProject,
} from './done-means-support.js';

const SENDER = 'restart-me';

async function say(server: ParleyServer, message: string): Promise<string[]> {
  return textsOf(await postRest(server.baseUrl, { sender: SENDER, message }));
}

function restartCase(label: string, setUp: () => Promise<{ endpoints: string; database?: TestDatabase }>) {
  describe(`a REST conversation across a server restart (${label})`, function () {
    this.timeout(60_000);
    let root: string;
    let database: TestDatabase | undefined;
    const servers: ParleyServer[] = [];

    before(async function () {
      if (label === 'PostgreSQL') await requirePostgres(this);
      const setup = await setUp();
      database = setup.database;
      root = writeDoneMeansProject(setup.endpoints);
    });

    after(async () => {
      for (const server of servers) await server.close();
      await database?.drop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('finishes the flow the first server left waiting, keeping its slots and its one session', async () => {
      const first = await startProjectServer(root);
      servers.push(first);
      expect(first.summary.join('\n')).to.contain(
        database
          ? `postgresql at 127.0.0.1:5432/${database.name}`
          : `sqlite at ${join(root, '.parley', 'tracker.db')}`,
      );
      expect(await say(first, '/transfer')).to.deep.equal(['To whom?']);
      expect(await say(first, '/SetSlots(recipient=Zoë)')).to.deep.equal(['How much for Zoë?']);
      await first.close();
      const storedBefore = await loadEvents();

      // a new server, as after a deployment: nothing in memory, everything from the database
      const second = await startProjectServer(root);
      servers.push(second);
      expect(await say(second, '/SetSlots(amount=70)')).to.deep.equal(['Sent 70.0 to Zoë.', ANYTHING_ELSE]);
      expect(await say(second, '/transfer')).to.deep.equal(['To whom?']);
      await second.close();

      const events = await loadEvents();
      expect(
        events.slice(0, storedBefore.length),
        'the first server’s events are kept as they were',
      ).to.deep.equal(storedBefore);
      const turns = turnsOf(events, SENDER);
      expect(turns.map((turn) => turn.user.text)).to.deep.equal([
        '/transfer',
        '/SetSlots(recipient=Zoë)',
        '/SetSlots(amount=70)',
        '/transfer',
      ]);
      const said = turns.map((turn) =>
        turn.events.flatMap((event) => (event.event === 'bot' ? [event.text] : [])),
      );
      expect(said).to.deep.equal([
        ['To whom?'],
        ['How much for Zoë?'],
        ['Sent 70.0 to Zoë.', ANYTHING_ELSE],
        ['To whom?'],
      ]);
    });

    async function loadEvents() {
      const store = inspectStore(root, database);
      try {
        return await store.loadAll(SENDER);
      } finally {
        await store.close();
      }
    }
  });
}

restartCase('SQLite default', async () => ({ endpoints: '' }));
restartCase('PostgreSQL', async () => {
  const database = await createTestDatabase();
  return { endpoints: postgresEndpoints(database.name), database };
});
