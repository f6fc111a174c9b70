/**
 * Done means: PostgreSQL stopped in the middle of traffic. A TCP proxy stands between Parley and
 * PostgreSQL; while clients keep talking over many conversations, the proxy cuts every connection and
 * refuses new ones (a stopped server), or lets every byte vanish (a hung server, a network dropping
 * packets), then comes back. Requests must fail fast with 503 ServiceUnavailable (never hang, never a
 * 500, the server stays up), nothing may be answered as done while the database is away, service must
 * come back without a restart, and every stored conversation must be a valid log that can go on.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { ParleyServer } from '../../../src/cli/serve.js';
import { createTestDatabase, requirePostgres } from '../../support/postgres.js';
import type { TestDatabase } from '../../support/postgres.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { waitFor } from '../../support/timing.js';
import type { RestReply } from './done-means-support.js';
import {
  ANYTHING_ELSE,
  inspectStore,
  postRest,
  postgresEndpoints,
  slotSetIn,
  startProjectServer,
  textsOf,
  turnsOf,
  writeDoneMeansProject,
} from './done-means-support.js';

const CONVERSATIONS = 20;

type Phase = 'before' | 'cutting' | 'outage' | 'resuming' | 'after';

interface Sent {
  readonly conversation: string;
  readonly n: number;
  readonly sentIn: Phase;
  readonly answeredIn: Phase;
  readonly reply: RestReply | undefined;
  /** a network failure talking to Parley (it crashed or dropped the connection) */
  readonly error?: string;
}

interface Outage {
  readonly mode: 'refuse' | 'freeze';
  readonly title: string;
  readonly outageMs: number;
  /** every request must be answered within this */
  readonly answerWithinMs: number;
}

// Each outage lasts well beyond the time allowed for an answer, so that a request left waiting for
// the database to come back cannot pass for a fast failure.
const OUTAGES: readonly Outage[] = [
  // a request in flight at the cut takes some 2 s to fail, over 6 s on a busy machine
  {
    mode: 'refuse',
    title: 'stopped (connections cut and refused)',
    outageMs: 20_000,
    answerWithinMs: 12_000,
  },
  // a silent server is only noticed by timeouts: 5 s of silence ends a connection, 5 s to connect
  { mode: 'freeze', title: 'hung (nothing answers)', outageMs: 30_000, answerWithinMs: 16_000 },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const countIn = (reply: RestReply): number => Number(/^Count (\d+)\.$/.exec(textsOf(reply)[0] ?? '')?.[1]);

for (const outage of OUTAGES) {
  describe(`PostgreSQL ${outage.title} in the middle of REST traffic`, function () {
    this.timeout(120_000);
    let database: TestDatabase;
    let proxy: TcpProxy;
    let server: ParleyServer;
    let root: string;

    before(async function () {
      await requirePostgres(this);
      database = await createTestDatabase();
      proxy = await TcpProxy.start({ targetHost: '127.0.0.1', targetPort: 5432 });
      root = writeDoneMeansProject(postgresEndpoints(database.name, { port: proxy.port }));
      server = await startProjectServer(root);
    });

    after(async () => {
      await server?.close();
      await proxy?.close();
      await database?.drop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('fails fast with 503 while it is away, recovers without a restart, and leaves valid logs', async () => {
      const ids = Array.from({ length: CONVERSATIONS }, (_, index) => `outage-${index}`);
      const { sent, health } = await trafficThroughOutage(server, proxy, outage, ids);

      expect(
        sent.filter((entry) => entry.error),
        'Parley answered every request',
      ).to.deep.equal([]);
      const replies = sent.map((entry) => entry.reply!);
      expect(
        [...new Set(replies.map((reply) => reply.status))].sort(),
        'answers and "try later" only',
      ).to.deep.equal([200, 503]);
      for (const reply of replies.filter((candidate) => candidate.status === 503))
        expect(reply.json).to.deep.include({
          status: 'failure',
          reason: 'ServiceUnavailable',
          code: 503,
          details: { code: 'STORE_UNAVAILABLE' },
        });
      const slowest = Math.max(...replies.map((reply) => reply.ms));
      expect(slowest, 'no request hangs').to.be.lessThan(outage.answerWithinMs);
      expect(health, 'the server stays up and healthy').to.satisfy((codes: number[]) =>
        codes.every((code) => code === 200),
      );

      const whileAway = sent.filter((entry) => entry.sentIn === 'outage' && entry.answeredIn === 'outage');
      expect(whileAway.length, 'requests were answered during the outage').to.be.greaterThan(
        CONVERSATIONS / 2,
      );
      expect(
        whileAway.filter((entry) => entry.reply?.status !== 503),
        'nothing is answered as done while the database is away',
      ).to.deep.equal([]);
      const after = sent.filter((entry) => entry.sentIn === 'after');
      expect(
        after.filter((entry) => entry.reply?.status !== 200),
        'everything is served again once it is back',
      ).to.deep.equal([]);
      for (const id of ids)
        expect(
          after.filter((entry) => entry.conversation === id).length,
          `${id} talked again`,
        ).to.be.greaterThan(0);

      await expectValidLogs(server, root, database, ids, sent);
    });
  });
}

/** Clients talk (each to its own conversation, one message after the other) before, during and after. */
async function trafficThroughOutage(
  server: ParleyServer,
  proxy: TcpProxy,
  outage: Outage,
  ids: readonly string[],
): Promise<{ sent: Sent[]; health: number[] }> {
  let phase: Phase = 'before';
  let stopped = false;
  const sent: Sent[] = [];
  const health: number[] = [];
  const everyClientAnswered = (sentIn: Phase) =>
    new Set(sent.filter((entry) => entry.sentIn === sentIn).map((entry) => entry.conversation)).size ===
    ids.length;
  const client = async (conversation: string): Promise<void> => {
    for (let n = 0; !stopped; n += 1) {
      const sentIn = phase;
      try {
        const reply = await postRest(server.baseUrl, {
          sender: conversation,
          message: '/count',
          metadata: { n },
        });
        sent.push({ conversation, n, sentIn, answeredIn: phase, reply });
      } catch (error) {
        sent.push({ conversation, n, sentIn, answeredIn: phase, reply: undefined, error: String(error) });
      }
      await sleep(5);
    }
  };
  const clients = Promise.all(ids.map(client));
  await sleep(1_500);
  phase = 'cutting';
  // a hung database is only noticed by a statement waiting for its answer: freeze with one under way
  await (outage.mode === 'freeze' ? proxy.freezeMidStatement() : proxy.pause('refuse'));
  phase = 'outage';
  const outageEnds = Date.now() + outage.outageMs;
  while (Date.now() < outageEnds) {
    health.push((await fetch(`${server.baseUrl}/status`)).status);
    await sleep(250);
  }
  phase = 'resuming';
  await proxy.resume();
  // a connection attempt that was begun during the outage and fails now may still fail a request
  // waiting for a connection: 'after' begins once every client has been answered since the resume
  await waitFor(() => everyClientAnswered('resuming'), 'an answer to every client since the resume', 30_000);
  phase = 'after';
  await sleep(2_000);
  await waitFor(() => everyClientAnswered('after'), 'an answer to every client afterwards', 30_000);
  stopped = true;
  await clients;
  return { sent, health };
}

/**
 * What the store holds: one valid log per conversation (whole turns, each message once, in the order
 * sent), consistent with what clients were told, and a conversation that goes on from there.
 */
async function expectValidLogs(
  server: ParleyServer,
  root: string,
  database: TestDatabase,
  ids: readonly string[],
  sent: readonly Sent[],
): Promise<void> {
  const store = inspectStore(root, database);
  try {
    for (const id of ids) {
      const turns = turnsOf(await store.loadAll(id), id);
      const storedN = turns.map((turn) => (turn.user.metadata as { n: number }).n);
      expect(storedN, `${id}: messages stored once each, in the order sent`).to.deep.equal(
        [...new Set(storedN)].sort((a, b) => a - b),
      );
      turns.forEach((turn, index) =>
        expect(slotSetIn(turn, 'count'), `${id}: turn ${index}`).to.equal(index + 1),
      );
      for (const entry of sent.filter(
        (candidate) => candidate.conversation === id && candidate.reply?.status === 200,
      )) {
        const position = storedN.indexOf(entry.n);
        expect(position, `${id}: message ${entry.n} was answered, so it is stored`).to.not.equal(-1);
        expect(countIn(entry.reply!), `${id}: message ${entry.n} was answered as its stored turn`).to.equal(
          position + 1,
        );
      }
      const next = await postRest(server.baseUrl, { sender: id, message: '/count', metadata: { n: -1 } });
      expect(textsOf(next), `${id} goes on`).to.deep.equal([`Count ${turns.length + 1}.`, ANYTHING_ELSE]);
    }
  } finally {
    await store.close();
  }
}
