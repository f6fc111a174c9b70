/**
 * Done means: PostgreSQL restarted under an A2A load. One Parley server keeps its conversations and
 * its A2A state (the SQL task store, `task_store: tracker_store`) in PostgreSQL behind a TCP proxy;
 * 8 callers run `message/send` conversations (a new context each time: three messages to a completed
 * transfer) while the proxy cuts and refuses every connection for a while, then comes back.
 * JSON-RPC answers a clear error during the outage (a failed task saying `unavailable`, or a JSON-RPC
 * error), never hangs, never crashes; afterwards no task is left `submitted` or `working`, tasks/get
 * finds every task, and replaying each messageId sent during the outage returns the stored answer or
 * runs its turn exactly once. Needs PostgreSQL.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { createTestDatabase, requirePostgres } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/timing.js';
import { errorCounts, printFigures } from '../server/done-means/dependency-load-support.js';
import { postgresEndpoints } from '../server/done-means/done-means-support.js';
import { A2A_DOMAIN, A2A_FLOWS, writeA2aProject } from './a2a-project.js';
import { rpc } from './rpc-support.js';
import type { RpcAnswer } from './rpc-support.js';

const CALLERS = 8;
const OUTAGE_MS = 4_000;
/** a request in flight at the cut takes a few seconds to fail on a busy machine, never more */
const ANSWER_WITHIN_MS = 12_000;
/**
 * A claim whose release was lost in the outage keeps its context busy (409) until it lapses: a short
 * lease here, so that the replays below do not wait the default 30 s
 */
const CLAIM_LEASE_SECONDS = 2;
const SCRIPT = ['/transfer_money', '/SetSlots(recipient=Anna)', '/SetSlots(amount=5)'];

type Phase = 'before' | 'cutting' | 'outage' | 'resuming' | 'after';

interface WireTask {
  readonly id: string;
  readonly contextId: string;
  readonly status: {
    readonly state: string;
    readonly message?: { readonly parts: readonly { readonly text?: string; readonly data?: unknown }[] };
  };
  readonly history?: readonly { readonly messageId: string }[];
}

interface Call {
  readonly contextId: string;
  readonly messageId: string;
  readonly body: unknown;
  readonly sentIn: Phase;
  readonly answeredIn: Phase;
  readonly answeredAt: number;
  readonly ms: number;
  readonly answer?: RpcAnswer;
  readonly network?: string;
}

function sendBody(text: string, contextId: string, taskId: string | undefined) {
  const messageId = crypto.randomUUID();
  const message = {
    kind: 'message',
    messageId,
    role: 'user',
    parts: [{ kind: 'text', text }],
    contextId,
    ...(taskId ? { taskId } : {}),
    // the user event keeps the metadata: how the store tells which message a turn ran
    metadata: { mid: messageId },
  };
  return { messageId, body: { jsonrpc: '2.0', id: messageId, method: 'message/send', params: { message } } };
}

const taskOf = (answer: RpcAnswer | undefined) => answer?.body['result'] as WireTask | undefined;

/** what an answer was: `ok` (the turn ran), `failed <code>` (a failed task), `<status> <rpc code> <reason> <code>` (a JSON-RPC error), or `http <status>` */
function kindOf(call: Call): string {
  if (!call.answer) return 'network';
  const error = call.answer.body['error'] as
    { code?: number; data?: { reason?: string; code?: string } } | undefined;
  if (error)
    return `${call.answer.status} ${error.code} ${error.data?.reason} ${error.data?.code ?? ''}`.trim();
  if (call.answer.status !== 200) return `http ${call.answer.status}`;
  const task = taskOf(call.answer);
  if (task?.status.state !== 'failed') return 'ok';
  const data = task.status.message?.parts.find((part) => part.data)?.data as
    { error?: { code?: string } } | undefined;
  return `failed ${data?.error?.code ?? '?'}`;
}

describe('Done means: PostgreSQL restarted under an A2A load (SQL task store)', function () {
  this.timeout(90_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ParleyServer;
  let root: string;

  before(async function () {
    await requirePostgres(this);
    database = await createTestDatabase();
    proxy = await TcpProxy.start({ targetHost: '127.0.0.1', targetPort: 5432 });
    root = writeA2aProject({
      domain: A2A_DOMAIN,
      flows: A2A_FLOWS,
      endpoints: `${postgresEndpoints(database.name, { port: proxy.port })}a2a_server:\n  description: A small banking sub-agent.\n  include_conversation_repair: false\n  max_contexts: 0\n`,
    });
    server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      env: { PARLEY_A2A_CLAIM_LEASE_SECONDS: String(CLAIM_LEASE_SECONDS) },
    });
  });

  after(async () => {
    await server?.close();
    await proxy?.close();
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('answers a clear error while it is away, leaves no task running, and replays exactly once', async () => {
    const started = performance.now();
    const now = () => performance.now() - started;
    let phase: Phase = 'before';
    let stopped = false;
    const calls: Call[] = [];
    const caller = async (index: number): Promise<void> => {
      for (let round = 0; !stopped; round += 1) {
        const contextId = `pg-outage-${index}-${round}`;
        let taskId: string | undefined;
        for (const text of SCRIPT) {
          const { messageId, body } = sendBody(text, contextId, taskId);
          const sentIn = phase;
          const sentAt = now();
          const call: { answer?: RpcAnswer; network?: string } = await rpc(server.baseUrl, body).then(
            (answer) => ({ answer }),
            (error: unknown) => ({ network: String(error) }),
          );
          const answeredAt = now();
          calls.push({
            contextId,
            messageId,
            body,
            sentIn,
            answeredIn: phase,
            answeredAt,
            ms: answeredAt - sentAt,
            ...call,
          });
          const task = taskOf(call.answer);
          // a caller told to try later (503, Retry-After) waits a moment, as a client does
          await new Promise((resolve) => setTimeout(resolve, task ? 10 : 100));
          if (!task || task.status.state !== 'input-required') break;
          taskId = task.id;
        }
      }
    };
    const answeredSince = (since: number) =>
      new Set(calls.filter((call) => call.answeredAt >= since).map((call) => call.contextId.split('-')[2]))
        .size;
    const load = Promise.all(Array.from({ length: CALLERS }, (_, index) => caller(index)));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // a request sent while the connections are being cut may still be done: 'outage' begins after
    phase = 'cutting';
    await proxy.pause('refuse');
    phase = 'outage';
    const outageAt = now();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await waitFor(
      () => answeredSince(outageAt) === CALLERS,
      'an answer to every caller during the outage',
      20_000,
    );
    phase = 'resuming';
    const fixedAt = now();
    await proxy.resume();
    await waitFor(
      () => calls.some((call) => call.answeredAt >= fixedAt && kindOf(call) === 'ok'),
      'a turn that works after the resume',
      20_000,
    );
    const recoveryMs = Math.min(
      ...calls
        .filter((call) => call.answeredAt >= fixedAt && kindOf(call) === 'ok')
        .map((call) => call.answeredAt - fixedAt),
    );
    const afterAt = now();
    phase = 'after';
    await waitFor(
      () =>
        new Set(
          calls
            .filter((call) => call.answeredAt >= afterAt && call.sentIn === 'after')
            .map((call) => call.contextId.split('-')[2]),
        ).size === CALLERS,
      'an answer to every caller afterwards',
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stopped = true;
    await load;

    const kinds = calls.map(kindOf);
    expect(
      calls.filter((call) => call.network),
      'Parley answered every request',
    ).to.deep.equal([]);
    expect(Math.max(...calls.map((call) => call.ms)), 'no request hangs').to.be.lessThan(ANSWER_WITHIN_MS);
    const duringOutage = calls.filter((call) => call.sentIn === 'outage' && call.answeredIn === 'outage');
    expect(duringOutage.length, 'requests answered during the outage').to.be.at.least(CALLERS);
    expect(
      duringOutage.filter((call) => kindOf(call) === 'ok'),
      'nothing is answered as done while the database is away',
    ).to.deep.equal([]);
    expect(
      calls.filter((call) => call.sentIn === 'after' && kindOf(call) !== 'ok').map(kindOf),
      'everything works once it is back',
    ).to.deep.equal([]);

    const settledMs = await expectNoTaskRunning(database);
    await expectTasksFound(server, calls);
    const replays = await expectReplaysRunOnce(
      server,
      database,
      calls.filter((call) => call.sentIn === 'cutting' || call.sentIn === 'outage'),
    );
    printFigures({
      dependency: 'PostgreSQL (A2A, SQL task store)',
      failure: `stopped ${OUTAGE_MS / 1000} s (connections cut and refused)`,
      turns: calls.length,
      errors: errorCounts(kinds),
      recoveryMs,
      slowestMs: Math.max(...duringOutage.map((call) => call.ms)),
    });
    console.log(
      `      (no task left running ${Math.round(settledMs)} ms after the resume check began; ${replays})`,
    );
  });
});

/** Waits until no task is `submitted` or `working` in the database; returns how long that took. */
async function expectNoTaskRunning(database: TestDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const started = performance.now();
  try {
    let open: unknown[] = [];
    await waitFor(
      async () => {
        open = (await client.query("SELECT id, state FROM a2a_tasks WHERE state IN ('submitted', 'working')"))
          .rows;
        return open.length === 0;
      },
      'no task submitted or working',
      20_000,
    ).catch(() => expect(open, 'tasks left submitted or working').to.deep.equal([]));
    return performance.now() - started;
  } finally {
    await client.end();
  }
}

/** tasks/get finds every task an answer named, with every message that was answered in its history. */
async function expectTasksFound(server: ParleyServer, calls: readonly Call[]): Promise<void> {
  const answered = new Map<string, string[]>();
  for (const call of calls) {
    const task = taskOf(call.answer);
    if (task) answered.set(task.id, [...(answered.get(task.id) ?? []), call.messageId]);
  }
  for (const [id, messageIds] of answered) {
    const answer = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 'g',
      method: 'tasks/get',
      params: { id },
    });
    expect(answer.status).to.equal(200);
    const task = taskOf(answer);
    expect(task?.id, `tasks/get ${id}: ${JSON.stringify(answer.body)}`).to.equal(id);
    expect(task?.status.state, id).to.not.be.oneOf(['submitted', 'working']);
    expect(
      task?.history?.map((message) => message.messageId),
      `${id}: the answered messages are stored`,
    ).to.include.members(messageIds);
  }
}

/**
 * Sends each message again with its messageId: an answer that was a task comes back as that task
 * (nothing runs again); a message whose first answer was an error may run now; either way the store
 * holds its turn at most once, and exactly once when some answer said it ran.
 */
async function expectReplaysRunOnce(
  server: ParleyServer,
  database: TestDatabase,
  calls: readonly Call[],
): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let returnedStored = 0;
  let ranNow = 0;
  let busy = 0;
  try {
    for (const call of calls) {
      let replay = await rpc(server.baseUrl, call.body);
      for (const giveUpAt = Date.now() + CLAIM_LEASE_SECONDS * 1000 + 5_000; replay.status === 409;) {
        expect(Date.now(), `${call.messageId}: its context stays busy`).to.be.lessThan(giveUpAt);
        busy += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
        replay = await rpc(server.baseUrl, call.body);
      }
      expect(replay.status, `${call.messageId}: ${JSON.stringify(replay.body)}`).to.equal(200);
      const first = taskOf(call.answer);
      const again = taskOf(replay);
      if (first) {
        expect(again?.id, `${call.messageId}: the replay answers the first task`).to.equal(first.id);
        returnedStored += 1;
      } else if (again && again.status.state !== 'failed') ranNow += 1;
      const stored = await client.query(
        "SELECT count(*) AS n FROM events WHERE type_name = 'user' AND data LIKE $1",
        [`%"mid":"${call.messageId}"%`],
      );
      const runs = Number(stored.rows[0].n);
      const ran = [call.answer, replay].some((answer) => {
        const task = taskOf(answer);
        return task !== undefined && task.status.state !== 'failed';
      });
      expect(runs, `${call.messageId}: its turn is stored at most once`).to.be.at.most(1);
      if (ran) expect(runs, `${call.messageId}: answered as run, so stored once`).to.equal(1);
    }
  } finally {
    await client.end();
  }
  return `${calls.length} outage messages replayed: ${returnedStored} answered with the stored task, ${ranNow} ran now, ${busy} answers 409 (context still claimed) before that`;
}
