/**
 * `parley run --workers N`: refused (with every reason) when the workers would not share their state;
 * with PostgreSQL stores, two real worker processes on one port serve REST conversations and A2A tasks
 * turn by turn whichever worker a connection lands on, a killed worker is replaced, and SIGTERM stops
 * them all.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createTestDatabase, requirePostgres } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { writeA2aProject } from '../a2a/a2a-project.js';
import { runCli } from './cli-harness.js';

const BIN = 'bin/parley.js';

function project(endpoints: string): string {
  return writeA2aProject({ endpoints });
}

describe('parley run --workers', function () {
  this.timeout(120_000);

  it('refuses workers that would not share their state, listing every reason', async () => {
    const root = project(`
      tracker_store:
        type: in_memory
      a2a_server:
        description: A small banking sub-agent.
        task_store: in_memory
    `);
    const run = await runCli(['run', '--workers', '2', '--project', root]);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('--workers 2 needs state every worker shares');
    expect(run.stderr).to.contain('tracker_store is in memory');
    expect(run.stderr).to.contain('lock_store is in memory (the default)');
    expect(run.stderr).to.contain('a2a_server.task_store is in_memory');
  });

  it('refuses a worker count that is not a whole number from 1 to 64', async () => {
    for (const count of ['0', '65', 'two', '1.5']) {
      const run = await runCli(['run', '--workers', count, '--project', project('')]);
      expect(run.code, count).to.equal(2);
      expect(run.stderr).to.contain('--workers must be a whole number from 1 to 64');
    }
  });

  describe('two workers on PostgreSQL', () => {
    let database: TestDatabase | undefined;
    let child: ChildProcess | undefined;
    let stderr = '';
    let base = '';

    before(async function () {
      await requirePostgres(this);
      if (!existsSync('dist/cli/main.js')) throw new Error('dist/ is missing: run `npm run build` first');
      database = await createTestDatabase();
      const root = project(`
        tracker_store:
          type: sql
          dialect: postgresql
          url: ${database.url}
        lock_store:
          type: postgresql
          url: ${database.url}
        a2a_server:
          description: A small banking sub-agent.
          include_conversation_repair: false
      `);
      child = spawn(
        process.execPath,
        [BIN, 'run', '--workers', '2', '--port', '0', '-i', '127.0.0.1', '--project', root],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      base = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child?.stdout?.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /running at (http:\/\/[^ ]+) \(2 workers\)/.exec(stdout);
          if (match?.[1]) resolve(match[1]);
        });
        child?.once('exit', (code) => reject(new Error(`parley run exited (${code}): ${stderr}`)));
      });
      await until(() => listeningPids().length === 2, 60_000);
    });
    after(async () => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await database?.drop();
    });

    const listeningPids = (): string[] => [
      ...new Set([...stderr.matchAll(/"pid":(\d+)[^\n]*"worker listening"/g)].map((match) => match[1] ?? '')),
    ];

    /** each call on a new connection, so the cluster spreads them over the workers */
    async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).to.equal(200);
      return (await response.json()) as Record<string, unknown>;
    }

    const a2a = (text: string, extra: Record<string, unknown> = {}) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: crypto.randomUUID(),
          role: 'user',
          parts: [{ kind: 'text', text }],
          ...extra,
        },
      },
    });

    it('serves REST conversations and A2A tasks turn by turn, whichever worker answers', async () => {
      const conversations = Array.from({ length: 10 }, (_, index) => `worker-user-${index}`);
      await Promise.all(
        conversations.map(async (sender) => {
          const asked = await post('/webhooks/rest/webhook', { sender, message: '/transfer_money' });
          expect(JSON.stringify(asked)).to.contain('Who should get the money?');
          const next = await post('/webhooks/rest/webhook', { sender, message: '/SetSlots(recipient=Anna)' });
          expect(JSON.stringify(next)).to.contain('How much?');
        }),
      );
      for (let index = 0; index < 4; index += 1) {
        const waiting = (await post('/', a2a('/transfer_money')))['result'] as { id: string };
        const done = (await post('/', a2a('/SetSlots(recipient=Anna, amount=5)', { taskId: waiting.id })))[
          'result'
        ] as { status: { state: string } };
        expect(done.status.state).to.equal('completed');
      }
    });

    it('replaces a worker that dies, and stops every worker on SIGTERM', async () => {
      const [victim] = listeningPids();
      process.kill(Number(victim), 'SIGKILL');
      await until(() => /worker died: starting another/.test(stderr) && listeningPids().length === 3, 60_000);
      const asked = await post('/webhooks/rest/webhook', {
        sender: 'after-crash',
        message: '/transfer_money',
      });
      expect(JSON.stringify(asked)).to.contain('Who should get the money?');
      const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
      child?.kill('SIGTERM');
      expect(await exited).to.equal(0);
    });
  });
});

async function until(test: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
