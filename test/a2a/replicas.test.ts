/**
 * Two `parley run` processes sharing their state behind a round-robin proxy (as any load balancer
 * without sticky sessions), on one PostgreSQL, and on one SQLite file with a Redis lock store: the official @a2a-js/sdk client drives a multi-turn task, streams, replays a
 * messageId, meets a busy context, cancels a running and a waiting task and resubscribes, whichever
 * process each request lands on. Needs dist/ (`npm run build`), PostgreSQL and Redis.
 */
import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, requirePostgres } from '../support/postgres.js';
import { REDIS_URL, requireRedis } from '../support/redis.js';
import type { TestDatabase } from '../support/postgres.js';
import { A2A_DOMAIN, A2A_FLOWS, writeA2aProject } from './a2a-project.js';
import { parleyRun, roundRobin } from './replica-support.js';
import { readSse, rpc, slowActionServer } from './rpc-support.js';

function request(text: string, extra: Partial<Message> = {}): SendMessageRequest {
  return {
    tenant: '',
    metadata: {},
    configuration: undefined,
    message: {
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      contextId: '',
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
      ...extra,
      parts: [
        {
          content: { $case: 'text', value: text },
          mediaType: 'text/plain',
          filename: '',
          metadata: undefined,
        },
      ],
    },
  };
}

let sent = 0;
function v03(text: string, extra: Record<string, unknown> = {}, messageId = `replica-${(sent += 1)}`) {
  return {
    jsonrpc: '2.0',
    id: messageId,
    method: 'message/send',
    params: {
      message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }], ...extra },
    },
  };
}

/** Where the two processes keep their shared state: the stores block of endpoints.yml (8 spaces in). */
interface SharedStores {
  readonly name: string;
  open(context: Mocha.Context): Promise<{ readonly endpoints: string; close(): Promise<void> }>;
}

const POSTGRES: SharedStores = {
  name: 'PostgreSQL',
  async open(context) {
    await requirePostgres(context);
    const database: TestDatabase = await createTestDatabase();
    const endpoints = `
        tracker_store:
          type: sql
          dialect: postgresql
          url: ${database.url}
        lock_store:
          type: postgresql
          url: ${database.url}`;
    return { endpoints, close: () => database.drop() };
  },
};

/** one host: one SQLite file, turns and task signals through Redis */
const SQLITE_AND_REDIS: SharedStores = {
  name: 'SQLite file and Redis lock store',
  async open(context) {
    await requireRedis(context);
    const folder = mkdtempSync(join(tmpdir(), 'parley-replicas-'));
    const endpoints = `
        tracker_store:
          type: sql
          dialect: sqlite
          db: ${join(folder, 'tracker.db')}
        lock_store:
          type: redis
          url: ${REDIS_URL}
          key_prefix: replicas${randomBytes(3).toString('hex')}`;
    return { endpoints, close: async () => rmSync(folder, { recursive: true, force: true }) };
  },
};

for (const stores of [POSTGRES, SQLITE_AND_REDIS])
  describe(`A2A on two processes behind a round-robin proxy (${stores.name})`, function () {
    this.timeout(180_000);
    let shared: Awaited<ReturnType<SharedStores['open']>> | undefined;
    let proxy: Awaited<ReturnType<typeof roundRobin>>;
    let slow: Awaited<ReturnType<typeof slowActionServer>>;
    const processes: Awaited<ReturnType<typeof parleyRun>>[] = [];
    let one = '';
    let two = '';

    before(async function () {
      if (!existsSync('dist/cli/main.js')) throw new Error('dist/ is missing: run `npm run build` first');
      shared = await stores.open(this);
      proxy = await roundRobin();
      slow = await slowActionServer(2_000);
      const root = writeA2aProject({
        domain: `${A2A_DOMAIN.replace('intents: [transfer_money, greet]', 'intents: [transfer_money, greet, slow]')}\n  actions: [action_slow]\n`,
        flows: `${A2A_FLOWS}\n    slow_work:\n      description: Do slow work.\n      nlu_trigger:\n        - intent: slow\n      steps:\n        - action: action_slow\n        - collect: recipient\n`,
        endpoints: `${shared.endpoints}
        action_endpoint:
          url: ${slow.url}
        a2a_server:
          description: A small banking sub-agent.
          url: ${proxy.url}
          include_conversation_repair: false
      `,
      });
      // one after the other: the first trains the model, the second loads it
      for (let index = 0; index < 2; index += 1) processes.push(await parleyRun(root));
      [one, two] = processes.map((process) => process.url) as [string, string];
      proxy.targets.push(one, two);
    });
    after(async () => {
      for (const { child } of processes.splice(0)) child.kill('SIGTERM');
      await proxy?.close();
      await slow?.close();
      await shared?.close();
    });

    it('the official client completes a multi-turn task and streams, turn by turn on either process', async () => {
      const client = await new ClientFactory().createFromUrl(proxy.url);
      const first = (await client.sendMessage(request('/transfer_money'))) as Task;
      expect(first.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      const second = (await client.sendMessage(
        request('/SetSlots(recipient=Anna)', { contextId: first.contextId, taskId: first.id }),
      )) as Task;
      expect(second.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      const seen: string[] = [];
      for await (const event of client.sendMessageStream(
        request('/SetSlots(amount=5)', { contextId: first.contextId, taskId: first.id }),
      )) {
        const payload = event.payload;
        seen.push(
          payload?.$case === 'statusUpdate' ? TaskState[payload.value.status!.state] : String(payload?.$case),
        );
      }
      expect(seen.at(0)).to.equal('task');
      expect(seen.at(-1)).to.equal('TASK_STATE_COMPLETED');
      const got = await client.getTask({ tenant: '', id: first.id, historyLength: undefined });
      expect(got.status?.state).to.equal(TaskState.TASK_STATE_COMPLETED);
    });

    it('a messageId replayed on the other process gets the first answer; a busy context is busy on both', async () => {
      const contextId = `replicas-${sent}`;
      const opening = v03('/transfer_money', { contextId });
      const answered = await rpc(one, opening);
      expect((await rpc(two, opening)).body['result']).to.deep.equal(answered.body['result']);
      const slowTurn = rpc(one, v03('/slow', { contextId: `slow-${sent}` }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const busy = await rpc(two, v03('/transfer_money', { contextId: `slow-${sent - 1}` }));
      expect(busy.status).to.equal(409);
      expect(busy.body['error']).to.deep.include({ code: -32010 });
      expect(((await slowTurn).body['result'] as { status: { state: string } }).status.state).to.equal(
        'input-required',
      );
    });

    it('cancels a turn running on the other process, and a waiting task from either', async () => {
      const contextId = `cancel-${sent}`;
      const running = rpc(one, v03('/slow', { contextId }, `cancel-run-${sent}`));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const taskId = (
        (
          await rpc(
            one,
            { jsonrpc: '2.0', id: 'l', method: 'ListTasks', params: { contextId } },
            { 'A2A-Version': '1.0' },
          )
        ).body['result'] as { tasks: { id: string }[] }
      ).tasks[0]?.id as string;
      const canceled = await rpc(two, {
        jsonrpc: '2.0',
        id: 'c',
        method: 'tasks/cancel',
        params: { id: taskId },
      });
      expect((canceled.body['result'] as { status: { state: string } }).status.state).to.equal('canceled');
      expect(((await running).body['result'] as { status: { state: string } }).status.state).to.equal(
        'canceled',
      );

      const client = await new ClientFactory().createFromUrl(proxy.url);
      const waiting = (await client.sendMessage(request('/transfer_money'))) as Task;
      const done = await client.cancelTask({ tenant: '', id: waiting.id, metadata: {} });
      expect(done.status?.state).to.equal(TaskState.TASK_STATE_CANCELED);
    });

    it('a resubscription on one process hears the turn the other process runs', async () => {
      const waiting = (await rpc(one, v03('/transfer_money', { contextId: `resub-${sent}` }))).body[
        'result'
      ] as {
        id: string;
      };
      const stream = fetch(`${two}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'r',
          method: 'tasks/resubscribe',
          params: { id: waiting.id },
        }),
      });
      const response = await stream;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const next = await rpc(one, v03('/SetSlots(recipient=Anna)', { taskId: waiting.id }));
      expect((next.body['result'] as { status: { state: string } }).status.state).to.equal('input-required');
      const { events } = await readSse(response);
      const results = events.map((event) => event['result'] as { kind: string; status?: { state: string } });
      expect(results.at(0)?.kind).to.equal('task');
      expect(results.at(-1)).to.deep.include({ kind: 'status-update' });
      expect(results.at(-1)?.status?.state).to.equal('input-required');
    });
  });
