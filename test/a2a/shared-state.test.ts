/**
 * A2A state in the tracker store's database: a server restarted on the same database knows every
 * task, continues a task waiting for input and answers a retried messageId without running it again;
 * two servers on one database behave as one (any server serves any turn of a context, a context
 * running a turn on one is busy on the other, a replay on the other runs nothing).
 */
import { expect } from 'chai';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { createTestDatabase, requirePostgres } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { A2A_DOMAIN, A2A_FLOWS, writeA2aProject } from './a2a-project.js';
import { rpc, slowActionServer } from './rpc-support.js';

interface V03Task {
  readonly id: string;
  readonly contextId: string;
  readonly status: { readonly state: string; readonly message?: { readonly parts: { text?: string }[] } };
  readonly history: readonly { readonly messageId: string }[];
}

let sent = 0;
function send(text: string, extra: Record<string, unknown> = {}, messageId = `shared-${(sent += 1)}`) {
  return {
    jsonrpc: '2.0',
    id: messageId,
    method: 'message/send',
    params: {
      message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }], ...extra },
    },
  };
}

const getTask = (id: string) => ({ jsonrpc: '2.0', id: 'get', method: 'tasks/get', params: { id } });

function resultOf(answer: { status: number; body: Record<string, unknown> }): V03Task {
  expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  expect(answer.body['error'], JSON.stringify(answer.body['error'])).to.equal(undefined);
  return answer.body['result'] as V03Task;
}

function textOf(task: V03Task): string {
  return (task.status.message?.parts ?? []).map((part) => part.text ?? '').join(' ');
}

function project(trackerStore: string, actionUrl?: string): string {
  return writeA2aProject({
    domain: `${A2A_DOMAIN.replace('intents: [transfer_money, greet]', 'intents: [transfer_money, greet, slow]')}\n  actions: [action_slow]\n`,
    flows: `${A2A_FLOWS}\n    slow_work:\n      description: Do slow work.\n      nlu_trigger:\n        - intent: slow\n      steps:\n        - action: action_slow\n`,
    endpoints: `
      a2a_server:
        description: A small banking sub-agent.
        include_conversation_repair: false
      ${trackerStore}
      ${actionUrl ? `action_endpoint:\n        url: ${actionUrl}` : ''}
    `,
  });
}

async function serve(root: string): Promise<ParleyServer> {
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: SILENT_LOGGER,
    env: {},
  });
}

const DIALECTS = [
  { name: 'SQLite', block: async () => '' },
  {
    name: 'PostgreSQL',
    block: async (database: TestDatabase) =>
      `tracker_store:\n        type: sql\n        dialect: postgresql\n        url: ${database.url}`,
  },
] as const;

for (const dialect of DIALECTS)
  describe(`A2A state in the tracker store (${dialect.name})`, function () {
    this.timeout(120_000);
    let database: TestDatabase | undefined;
    let slow: Awaited<ReturnType<typeof slowActionServer>>;
    let root: string;
    const servers: ParleyServer[] = [];

    before(async function () {
      if (dialect.name === 'PostgreSQL') {
        await requirePostgres(this);
        database = await createTestDatabase();
      }
      slow = await slowActionServer(1_500);
      root = project(await dialect.block(database as TestDatabase), slow.url);
    });
    afterEach(async () => {
      for (const server of servers.splice(0)) await server.close();
    });
    after(async () => {
      await slow?.close();
      await database?.drop();
    });

    const start = async (): Promise<string> => {
      const server = await serve(root);
      servers.push(server);
      return server.baseUrl;
    };

    it('a restart keeps a task waiting for input: tasks/get, the next message and a replay all work', async () => {
      const first = await start();
      const opening = send('/transfer_money', { contextId: `restart-${sent}` });
      const waiting = resultOf(await rpc(first, opening));
      expect(waiting.status.state).to.equal('input-required');
      await servers.splice(0)[0]?.close();

      const second = await start();
      const known = resultOf(await rpc(second, getTask(waiting.id)));
      expect(known.status.state).to.equal('input-required');
      expect(known.history.map((message) => message.messageId)).to.include(opening.params.message.messageId);
      // the retried first message answers as it did, and runs nothing
      const replayed = resultOf(await rpc(second, opening));
      expect(replayed).to.deep.equal(waiting);
      const done = resultOf(
        await rpc(second, send('/SetSlots(recipient=Anna, amount=5)', { taskId: waiting.id })),
      );
      expect(done.status.state).to.equal('completed');
      expect(textOf(done)).to.contain('Done.');
    });

    it('two servers on one database serve one context turn by turn, and agree on its tasks', async () => {
      const [one, two] = [await start(), await start()];
      const waiting = resultOf(await rpc(one, send('/transfer_money')));
      const asked = resultOf(await rpc(two, send('/SetSlots(recipient=Anna)', { taskId: waiting.id })));
      expect(asked.status.state).to.equal('input-required');
      expect(textOf(asked)).to.contain('How much?');
      const done = resultOf(await rpc(one, send('/SetSlots(amount=5)', { taskId: waiting.id })));
      expect(done.status.state).to.equal('completed');
      expect(resultOf(await rpc(two, getTask(waiting.id))).status.state).to.equal('completed');
    });

    it('a context running a turn on one server is busy on the other; a replay there runs nothing', async () => {
      const [one, two] = [await start(), await start()];
      const contextId = `busy-${sent}`;
      const slowMessage = send('/slow', { contextId });
      const running = rpc(one, slowMessage);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const busy = await rpc(two, send('/transfer_money', { contextId }));
      expect(busy.body['error'], JSON.stringify(busy.body)).to.deep.include({ code: -32010 });
      const finished = resultOf(await running);
      expect(finished.status.state).to.equal('completed');
      const replayed = resultOf(await rpc(two, slowMessage));
      expect(replayed).to.deep.equal(finished);
    });
  });
