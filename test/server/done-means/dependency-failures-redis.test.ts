/**
 * Done means: Redis, the lock store, restarted under load. Two Parley servers share one PostgreSQL
 * tracker store and one Redis lock store, reached through a TCP proxy (the machine's Redis is never
 * stopped: other suites use it); every conversation has a client on each server, so its turns race
 * and only the Redis lock keeps them apart. While they talk, the proxy cuts and refuses connections
 * (a restart; once with the lock keys wiped, as a restart without persistence), or lets nothing
 * through (a hung Redis). Turns either work or get 503 STORE_UNAVAILABLE, never hang or 500; no two
 * turns of a conversation interleave (the counter goes up by one per turn, no TRACKER_CONFLICT); no
 * turn is half-written; service comes back without a restart. Needs PostgreSQL and Redis.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { ParleyServer } from '../../../src/cli/serve.js';
import { createTestDatabase, requirePostgres } from '../../support/postgres.js';
import type { TestDatabase } from '../../support/postgres.js';
import { REDIS_URL, requireRedis } from '../../support/redis.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import {
  inspectStore,
  postgresEndpoints,
  startProjectServer,
  writeDoneMeansProject,
} from './done-means-support.js';
import type { LoadEntry } from './dependency-load-support.js';
import {
  allRecoveredMs,
  countOf,
  errorCounts,
  expectValidCountingLogs,
  kindOf,
  loadThroughFailure,
  printFigures,
  recoveryMs,
} from './dependency-load-support.js';

const CONVERSATIONS = 8;
/** Redis' socket_timeout (connect and command): how long a hung Redis holds a turn */
const SOCKET_TIMEOUT_SECONDS = 1;
/** the lock lease (`lifetime`): a ticket whose release was lost blocks its conversation this long */
const LEASE_SECONDS = 3;
/** a restart takes a while: long enough for a client's reconnection attempts to back off */
const OUTAGE_MS = 8_000;
/** from Redis back to the first turn that works: the client tries to reconnect at least every second */
const RECOVER_WITHIN_MS = 2_500;
const ANSWER_WITHIN_MS = SOCKET_TIMEOUT_SECONDS * 2_000 + 3_000;
const UNAVAILABLE = '503 STORE_UNAVAILABLE';
const MESSAGE = '/count';

interface Failure {
  readonly name: string;
  readonly title: string;
  readonly mode: 'refuse' | 'freeze';
  /** the restart loses every key (no persistence) */
  readonly wipe?: boolean;
}

const FAILURES: readonly Failure[] = [
  { name: 'restart', title: 'restarted (connections cut and refused)', mode: 'refuse' },
  { name: 'wiped', title: 'restarted without its keys', mode: 'refuse', wipe: true },
  { name: 'hung', title: 'hung (nothing answers)', mode: 'freeze' },
];

const isOk = (entry: LoadEntry) => kindOf(entry, (texts) => countOf(texts) !== undefined) === 'ok';

describe('Done means: Redis (lock store) restarted under a REST load on two servers', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let servers: ParleyServer[] = [];
  let root: string;
  const keyPrefix = `deps${randomBytes(4).toString('hex')}`;

  before(async function () {
    await requirePostgres(this);
    await requireRedis(this);
    database = await createTestDatabase();
    const redis = new URL(REDIS_URL);
    proxy = await TcpProxy.start({ targetHost: redis.hostname, targetPort: Number(redis.port || 6379) });
    root = writeDoneMeansProject(
      `${postgresEndpoints(database.name)}lock_store:
  type: redis
  host: 127.0.0.1
  port: ${proxy.port}
  key_prefix: ${keyPrefix}
  socket_timeout: ${SOCKET_TIMEOUT_SECONDS}
  lifetime: ${LEASE_SECONDS}
`,
    );
    servers = [await startProjectServer(root), await startProjectServer(root)];
  });

  after(async () => {
    for (const server of servers) await server.close();
    await proxy?.close();
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const failure of FAILURES) {
    it(`${failure.title}: answers or 503, no interleaving, valid logs, recovery without a restart`, async () => {
      const ids = Array.from({ length: CONVERSATIONS }, (_, index) => `redis-${failure.name}-${index}`);
      const { entries, fixedAt } = await loadThroughFailure({
        baseUrl: servers.map((server) => server.baseUrl),
        conversations: ids,
        message: MESSAGE,
        fail: async () => {
          await proxy.pause(failure.mode);
          if (failure.wipe) await wipeKeys(keyPrefix);
        },
        fix: () => proxy.resume(),
        minFailingMs: OUTAGE_MS,
        answersAfter: 6,
      });

      const kinds = entries.map((entry) => kindOf(entry, (texts) => countOf(texts) !== undefined));
      expect(
        kinds.filter((kind) => kind !== 'ok' && kind !== UNAVAILABLE),
        'every answer is the turn done or 503 STORE_UNAVAILABLE (no 409, no 500, no network error)',
      ).to.deep.equal([]);
      for (const entry of entries.filter((candidate) => candidate.reply?.status === 503))
        expect(entry.reply!.json).to.deep.include({
          status: 'failure',
          reason: 'ServiceUnavailable',
          code: 503,
        });
      const whileFailing = entries.filter(
        (entry) => entry.sentIn === 'failing' && entry.answeredIn === 'failing',
      );
      expect(whileFailing.length, 'answers while Redis is away').to.be.at.least(CONVERSATIONS * 4);
      expect(
        whileFailing
          .filter((entry) => !entry.reply || entry.reply.status !== 503)
          .map((entry) => entry.reply?.text),
        'nothing is done while the lock store is away',
      ).to.deep.equal([]);
      const slowest = Math.max(
        ...entries.filter((entry) => entry.sentIn === 'failing').map((entry) => entry.reply!.ms),
      );
      expect(slowest, 'no request hangs').to.be.lessThan(ANSWER_WITHIN_MS);

      const recovery = recoveryMs(entries, fixedAt, isOk);
      const everyone = allRecoveredMs(entries, fixedAt, ids, isOk);
      expect(recovery, 'Parley notices Redis is back').to.be.lessThan(RECOVER_WITHIN_MS);
      // a ticket whose release was lost in the cut holds its conversation until its lease lapses
      expect(everyone, 'every conversation served again').to.be.lessThan(LEASE_SECONDS * 1000 + 5_000);
      expect(
        entries.filter((entry) => entry.sentAt > fixedAt + everyone && !isOk(entry)),
        'everything works once recovered',
      ).to.deep.equal([]);

      const store = inspectStore(root, database);
      try {
        await expectValidCountingLogs({
          baseUrl: servers[0]!.baseUrl,
          root,
          store,
          entries,
          conversations: ids,
          message: MESSAGE,
          database,
        });
      } finally {
        await store.close();
      }
      printFigures({
        dependency: 'Redis lock store',
        failure: failure.title,
        turns: entries.length,
        errors: errorCounts(kinds),
        recoveryMs: recovery,
        allRecoveredMs: everyone,
        slowestMs: slowest,
      });
    });
  }
});

/** Deletes the keys of this suite's lock store, as a Redis restarted without persistence has none. */
async function wipeKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}
