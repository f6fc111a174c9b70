/**
 * Done means: 100 concurrent REST messages to one conversation are processed one at a time with
 * their events in order, and 1,000 conversations in parallel all complete, with no lost or duplicated
 * event — checked in the store, on the SQLite default, on PostgreSQL, and on PostgreSQL with
 * PostgreSQL advisory locks.
 *
 * The one-conversation case uses the counter flow: its action reads the `count` slot, yields, and
 * writes count + 1, so two turns let in together would both answer the same number (or one would be
 * refused with TRACKER_CONFLICT). Serialised, the 100 answers are exactly 1..100, and the stored turn
 * that answered k is the k-th.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { ParleyServer } from '../../../src/cli/serve.js';
import type { Event } from '../../../src/core/events/types.js';
import { createTestDatabase, requirePostgres } from '../../support/postgres.js';
import type { TestDatabase } from '../../support/postgres.js';
import {
  ANYTHING_ELSE,
  eventRowCounts,
  INSPECT_POOL_SIZE,
  inParallel,
  inspectStore,
  postRest,
  postgresEndpoints,
  slotSetIn,
  startProjectServer,
  textsOf,
  turnsOf,
  writeDoneMeansProject,
} from './done-means-support.js';

const ONE_CONVERSATION_MESSAGES = 100;
const CONVERSATIONS = 1000;
const CLIENT_CONCURRENCY = 100;

interface Setup {
  readonly label: string;
  readonly postgres: boolean;
  readonly lockStore?: boolean;
}

const SETUPS: readonly Setup[] = [
  { label: 'SQLite default, memory locks', postgres: false },
  { label: 'PostgreSQL, memory locks', postgres: true },
  { label: 'PostgreSQL, PostgreSQL advisory locks', postgres: true, lockStore: true },
];

/** The first two turns of the transfer flow: what each conversation says and must hear back. */
function transferScript(index: number): [string, string[]][] {
  const recipient = `Person${index}`;
  return [
    ['/transfer', ['To whom?']],
    [`/SetSlots(recipient=${recipient})`, [`How much for ${recipient}?`]],
  ];
}

/** Event kinds of a log without ids, timestamps and values: the shape two equal conversations share. */
function shapeOf(events: readonly Event[]): string[] {
  return events.map((event) => `${event.event}:${'name' in event ? String(event.name) : ''}`);
}

for (const setup of SETUPS) {
  describe(`REST under concurrency (${setup.label})`, function () {
    this.timeout(180_000);
    let root: string;
    let database: TestDatabase | undefined;
    let server: ParleyServer;

    before(async function () {
      if (setup.postgres) {
        await requirePostgres(this);
        database = await createTestDatabase();
      }
      root = writeDoneMeansProject(
        database ? postgresEndpoints(database.name, { lockStore: setup.lockStore ?? false }) : '',
      );
      server = await startProjectServer(root);
      if (setup.lockStore) expect(server.summary.join('\n')).to.contain('postgresql advisory locks');
    });

    after(async () => {
      await server?.close();
      await database?.drop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    async function storedEvents(conversationId: string): Promise<readonly Event[]> {
      const store = inspectStore(root, database);
      try {
        return await store.loadAll(conversationId);
      } finally {
        await store.close();
      }
    }

    it(`processes ${ONE_CONVERSATION_MESSAGES} concurrent messages to one conversation one at a time`, async () => {
      const sender = 'one-busy-conversation';
      const replies = await Promise.all(
        Array.from({ length: ONE_CONVERSATION_MESSAGES }, (_, n) =>
          postRest(server.baseUrl, { sender, message: '/count', metadata: { n } }),
        ),
      );
      const counts = replies.map((reply) => {
        const [count, ...rest] = textsOf(reply);
        expect(rest).to.deep.equal([ANYTHING_ELSE]);
        return Number(/^Count (\d+)\.$/.exec(count ?? '')?.[1]);
      });
      expect([...counts].sort((a, b) => a - b)).to.deep.equal(
        Array.from({ length: ONE_CONVERSATION_MESSAGES }, (_, index) => index + 1),
      );

      const turns = turnsOf(await storedEvents(sender), sender);
      expect(turns, 'exactly one stored turn per message').to.have.length(ONE_CONVERSATION_MESSAGES);
      const storedOrder = turns.map((turn) => (turn.user.metadata as { n: number }).n);
      expect(new Set(storedOrder).size, 'no message stored twice').to.equal(ONE_CONVERSATION_MESSAGES);
      turns.forEach((turn, index) => {
        expect(slotSetIn(turn, 'count'), 'the k-th stored turn counted k').to.equal(index + 1);
        expect(counts[storedOrder[index]!], 'each reply is the answer of its stored turn').to.equal(
          index + 1,
        );
      });
    });

    it(`completes ${CONVERSATIONS} conversations in parallel with exact event counts in the store`, async () => {
      const ids = Array.from({ length: CONVERSATIONS }, (_, index) => `parallel-${index}`);
      // every conversation's turns in order; up to CLIENT_CONCURRENCY conversations at once
      await inParallel(ids, CLIENT_CONCURRENCY, async (sender, index) => {
        for (const [message, expected] of transferScript(index))
          expect(textsOf(await postRest(server.baseUrl, { sender, message })), sender).to.deep.equal(
            expected,
          );
      });

      const store = inspectStore(root, database);
      let reference: readonly Event[];
      try {
        reference = await store.loadAll(ids[0]!);
        const referenceShape = shapeOf(reference);
        await inParallel(ids, INSPECT_POOL_SIZE, async (sender, index) => {
          const events = await store.loadAll(sender);
          expect(shapeOf(events), `${sender}: the same events as every other conversation`).to.deep.equal(
            referenceShape,
          );
          const turns = turnsOf(events, sender);
          expect(turns.map((turn) => turn.user.text)).to.deep.equal(
            transferScript(index).map(([text]) => text),
          );
          const asked = turns[1]!.events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
          expect(asked, `${sender}: its own recipient, stored`).to.deep.equal([
            `How much for Person${index}?`,
          ]);
        });
      } finally {
        await store.close();
      }
      // the rows themselves, counted by the database: exactly the events of the log, seq 0..n-1
      const rows = await eventRowCounts(root, database);
      for (const id of ids)
        expect(rows.get(id), id).to.deep.equal({
          rows: reference.length,
          first: 0,
          last: reference.length - 1,
        });
    });
  });
}
