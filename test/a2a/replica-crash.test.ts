/**
 * `kill -9` of one of two `parley run` processes on one PostgreSQL during a bounded A2A load behind a
 * round-robin proxy: every acknowledged answer is in the store (its message in the task's history),
 * no conversation has a gap in its event log, no task stays `submitted` or `working` once the dead
 * process's claims lapse (2 s here, PARLEY_A2A_CLAIM_LEASE_SECONDS), and the surviving process serves
 * every context. Needs dist/ (`npm run build`) and PostgreSQL.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { createTestDatabase, requirePostgres } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { A2A_DOMAIN, A2A_FLOWS, writeA2aProject } from './a2a-project.js';
import { parleyRun, roundRobin } from './replica-support.js';
import { rpc, slowActionServer } from './rpc-support.js';

interface Acknowledged {
  readonly contextId: string;
  readonly taskId: string;
  readonly messageId: string;
}

interface WireTask {
  readonly id: string;
  readonly status: { readonly state: string; readonly message?: { parts: { data?: unknown }[] } };
  readonly history: readonly { readonly messageId: string }[];
}

const LOAD_MS = 5_000;
const KILL_AFTER_MS = 1_500;
const CALLERS = 8;

function send(text: string, extra: Record<string, unknown>) {
  const messageId = crypto.randomUUID();
  return {
    messageId,
    body: {
      jsonrpc: '2.0',
      id: messageId,
      method: 'message/send',
      params: {
        message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }], ...extra },
      },
    },
  };
}

describe('A2A: one of two processes killed during load (PostgreSQL)', function () {
  this.timeout(180_000);
  let database: TestDatabase | undefined;

  before(async function () {
    await requirePostgres(this);
    if (!existsSync('dist/cli/main.js')) throw new Error('dist/ is missing: run `npm run build` first');
    database = await createTestDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  it('loses no acknowledged turn, corrupts nothing, and the survivor serves every context', async () => {
    const url = (database as TestDatabase).url;
    const proxy = await roundRobin();
    const slow = await slowActionServer(300);
    const root = writeA2aProject({
      domain: `${A2A_DOMAIN.replace('intents: [transfer_money, greet]', 'intents: [transfer_money, greet, slow]')}\n  actions: [action_slow]\n`,
      flows: `${A2A_FLOWS}\n    slow_work:\n      description: Do slow work.\n      nlu_trigger:\n        - intent: slow\n      steps:\n        - action: action_slow\n        - collect: recipient\n`,
      endpoints: `
        tracker_store:
          type: sql
          dialect: postgresql
          url: ${url}
        lock_store:
          type: postgresql
          url: ${url}
        action_endpoint:
          url: ${slow.url}
        a2a_server:
          description: A small banking sub-agent.
          url: ${proxy.url}
          include_conversation_repair: false
      `,
    });
    const env = { PARLEY_A2A_CLAIM_LEASE_SECONDS: '2' };
    const doomed = await parleyRun(root, env);
    const survivor = await parleyRun(root, env);
    proxy.targets.push(doomed.url, survivor.url);
    const acknowledged: Acknowledged[] = [];
    const contexts = new Set<string>();
    let failures = 0;
    const until = Date.now() + LOAD_MS;
    const caller = async (index: number): Promise<void> => {
      for (let round = 0; Date.now() < until; round += 1) {
        const contextId = `crash-${index}-${round}`;
        contexts.add(contextId);
        let taskId: string | undefined;
        for (const text of ['/slow', '/SetSlots(recipient=Anna)', '/SetSlots(amount=5)']) {
          const { messageId, body } = send(text, taskId ? { contextId, taskId } : { contextId });
          try {
            const answer = await rpc(proxy.url, body);
            const task = answer.body['result'] as WireTask | undefined;
            if (answer.status !== 200 || !task) {
              failures += 1;
              break;
            }
            taskId = task.id;
            acknowledged.push({ contextId, taskId, messageId });
            if (task.status.state !== 'input-required') break;
          } catch {
            failures += 1;
            break;
          }
        }
      }
    };
    const load = Promise.all(Array.from({ length: CALLERS }, (_, index) => caller(index)));
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
    doomed.child.kill('SIGKILL');
    // the load balancer's health check takes the dead process out
    proxy.targets.splice(0, 1);
    await load;
    expect(acknowledged.length, 'acknowledged answers').to.be.greaterThan(20);

    const get = async (id: string) =>
      (await rpc(survivor.url, { jsonrpc: '2.0', id: 'g', method: 'tasks/get', params: { id } })).body[
        'result'
      ] as WireTask | undefined;
    for (const { taskId, messageId } of acknowledged) {
      const task = await get(taskId);
      expect(task, taskId).to.not.equal(undefined);
      expect(task?.history.map((message) => message.messageId)).to.include(messageId);
    }

    // no task is left running once the dead process's claims lapsed and a sweep ran
    let lost: number;
    const database_ = new pg.Client({ connectionString: url });
    await database_.connect();
    try {
      const deadline = Date.now() + 20_000;
      let open = -1;
      while (Date.now() < deadline) {
        open = Number(
          (
            await database_.query(
              "SELECT count(*) AS n FROM a2a_tasks WHERE state IN ('submitted', 'working')",
            )
          ).rows[0].n,
        );
        if (open === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(open, 'tasks left submitted or working').to.equal(0);
      lost = Number(
        (await database_.query("SELECT count(*) AS n FROM a2a_tasks WHERE data LIKE '%worker_lost%'")).rows[0]
          .n,
      );
      const gaps = await database_.query(
        'SELECT sender_id FROM events GROUP BY sender_id HAVING count(*) <> max(seq) + 1 OR min(seq) <> 0',
      );
      expect(gaps.rows, 'conversations with a gap in their events').to.deep.equal([]);
    } finally {
      await database_.end();
    }

    // the survivor serves every context, those the dead process was running included
    for (const contextId of contexts) {
      const answer = await rpc(survivor.url, send('/transfer_money', { contextId }).body);
      expect(answer.status, `${contextId}: ${JSON.stringify(answer.body)}`).to.equal(200);
      expect((answer.body['result'] as WireTask).status.state).to.equal('input-required');
    }
    console.log(
      `      (${acknowledged.length} acknowledged answers, ${failures} refused or cut, ${contexts.size} contexts, ${lost} tasks failed as worker_lost)`,
    );
    survivor.child.kill('SIGTERM');
    await proxy.close();
    await slow.close();
  });
});
