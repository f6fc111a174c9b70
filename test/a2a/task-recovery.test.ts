/**
 * Tasks whose process is gone, ended by whichever process is alive: a turn that never finished fails
 * with `worker_lost` once its process's claim lapses, a task past its deadline fails with
 * `task_timeout` after a restart, and a task waiting for input stays waiting. Two handlers on one SQL
 * task store stand for two processes (each with its own holder id); the first one "dies" by stopping
 * (its claim renewals and timers end, its turn never finishes).
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlTaskStore } from '../../src/a2a/tasks/sql/sql-task-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { FINISH, START, message, setup, statusData } from './semantic-support.js';

async function waitFor(test: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('A2A tasks of a process that is gone', function () {
  this.timeout(30_000);
  let tracker: SqlTrackerStore;
  let store: SqlTaskStore;
  let now = Date.UTC(2026, 0, 1);

  beforeEach(() => {
    tracker = new SqlTrackerStore({
      target: sqliteTarget('tasks.db', mkdtempSync(join(tmpdir(), 'parley-recovery-'))),
    });
    store = new SqlTaskStore({ database: tracker.database, now: () => now });
  });
  afterEach(async () => {
    await tracker.close();
  });

  const processOn = (options: { taskTimeoutSeconds?: number } = {}) =>
    setup(
      { taskTimeoutSeconds: options.taskTimeoutSeconds ?? 0 },
      { store, now: () => now, claimLeaseMs: 1_000, sweepIntervalMs: 20 },
    );

  it('fails a turn that never finished with worker_lost once its claim lapses; the context serves again', async () => {
    const dead = await processOn();
    const accepted = await dead.handler.sendMessage({
      message: message('wait', { contextId: 'ctx' }),
      caller: '',
    });
    dead.handler.close();
    const alive = await processOn();
    // within the lease the context is still the dead process's
    const busy = await alive.handler
      .sendMessage({ message: message(START, { contextId: 'ctx' }), caller: '' })
      .catch((error: unknown) => error);
    expect(busy).to.have.property('reason', 'CONTEXT_BUSY');
    now += 1_001;
    await waitFor(async () => (await alive.handler.getTask(accepted.task.id, '')).status.state === 'failed');
    const failed = await alive.handler.getTask(accepted.task.id, '');
    expect(statusData(failed)['error']).to.deep.include({ code: 'worker_lost' });
    expect(alive.logger.warningFields.some((fields) => fields['taskId'] === accepted.task.id)).to.equal(true);
    const next = await (
      await alive.handler.sendMessage({ message: message(START, { contextId: 'ctx' }), caller: '' })
    ).done;
    expect(next.status.state).to.equal('input-required');
    dead.understanding.release();
    alive.handler.close();
  });

  it('keeps a task waiting for input as it is when its process is gone, and continues it elsewhere', async () => {
    const dead = await processOn();
    const waiting = await (await dead.handler.sendMessage({ message: message(START), caller: '' })).done;
    dead.handler.close();
    const alive = await processOn();
    now += 60_000;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await alive.handler.getTask(waiting.id, '')).status.state).to.equal('input-required');
    const done = await (
      await alive.handler.sendMessage({ message: message(FINISH, { taskId: waiting.id }), caller: '' })
    ).done;
    expect(done.status.state).to.equal('completed');
    alive.handler.close();
  });

  it('fails a task past its deadline after a restart, with task_timeout', async () => {
    const before = await processOn({ taskTimeoutSeconds: 600 });
    const waiting = await (await before.handler.sendMessage({ message: message(START), caller: '' })).done;
    before.handler.close();
    const after = await processOn({ taskTimeoutSeconds: 600 });
    now += 600_001;
    await waitFor(async () => (await after.handler.getTask(waiting.id, '')).status.state === 'failed');
    expect(statusData(await after.handler.getTask(waiting.id, ''))['error']).to.deep.include({
      code: 'task_timeout',
    });
    const refused = await after.handler
      .sendMessage({ message: message(FINISH, { taskId: waiting.id }), caller: '' })
      .catch((error: unknown) => error);
    expect(refused).to.have.property('reason', 'TASK_TERMINAL');
    after.handler.close();
  });
});
