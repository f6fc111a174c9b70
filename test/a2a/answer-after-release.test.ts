/**
 * A send's answer goes once its context is free again: a caller who sends the next message as soon as
 * it has the answer, through any replica, must not find the context busy with the turn it was answered.
 * A new task ends the open tasks of its context without reading all the others.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlTaskStore } from '../../src/a2a/tasks/sql/sql-task-store.js';
import { sqliteTarget } from '../../src/stores/sql/sql-target.js';
import { SqlTrackerStore } from '../../src/stores/sql/sql-tracker-store.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { TaskStore } from '../../src/a2a/tasks/task-store.js';
import { FINISH, START, T0, message, setup } from './semantic-support.js';
import { withOverrides } from './store-overrides.js';

/**
 * a store whose releases take `delayMs`, recording when each ended: a release of its own, or one made
 * by the save that answers the turn (SaveOptions.release)
 */
function slowReleases(delayMs: number): { store: TaskStore; released: string[]; byAnswer: string[] } {
  const inner = new MemoryTaskStore({ replayTtlSeconds: 60, now: () => T0 });
  const released: string[] = [];
  const byAnswer: string[] = [];
  const slowly = () => new Promise((resolve) => setTimeout(resolve, delayMs));
  const store = withOverrides(inner, {
    releaseContext: async (key, holder) => {
      await slowly();
      await inner.releaseContext(key, holder);
      released.push(key);
    },
    saveTask: async (task, options) => {
      if (!options?.release) return inner.saveTask(task, options);
      await slowly();
      await inner.saveTask(task, options);
      released.push(options.release.key);
      byAnswer.push(options.release.key);
    },
  });
  return { store, released, byAnswer };
}

describe('A2A answers after the context is released', () => {
  it('answers a blocking send once the claim is released, so that the next message finds the context free', async () => {
    const { store, released, byAnswer } = slowReleases(150);
    const { handler } = await setup({}, { store });
    const first = await handler.sendMessage({
      message: message(START, { contextId: 'next-at-once' }),
      caller: '',
    });
    const answered = await first.done;
    expect(answered.status.state).to.equal('input-required');
    expect(released, 'released before the answer').to.have.length(1);
    // one write: the answer and the release
    expect(byAnswer).to.have.length(1);
    // the caller's next message, sent the moment the answer arrived
    const second = await handler.sendMessage({
      message: message(FINISH, { contextId: 'next-at-once', taskId: answered.id }),
      caller: '',
    });
    expect((await second.done).status.state).to.equal('completed');
  });
});

describe('A2A new tasks in a context with many tasks (SQLite task store)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-reads-'));
  const tracker = new SqlTrackerStore({ target: sqliteTarget('.parley/tracker.db', folder) });
  after(async () => {
    await tracker.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads only the open earlier tasks to end them, not every task of the context', async () => {
    const sql = new SqlTaskStore({ database: tracker.database, limits: { perContext: 100 } });
    const reads: string[] = [];
    const store = withOverrides(sql, {
      getTask: (id) => {
        reads.push(id);
        return sql.getTask(id);
      },
    });
    const { handler } = await setup({}, { store });
    const contextId = 'many-tasks';
    const finished: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const started = await (
        await handler.sendMessage({ message: message(START, { contextId }), caller: '' })
      ).done;
      const done = await (
        await handler.sendMessage({ message: message(FINISH, { contextId, taskId: started.id }), caller: '' })
      ).done;
      expect(done.status.state).to.equal('completed');
      finished.push(done.id);
    }
    const waiting = await (
      await handler.sendMessage({ message: message(START, { contextId }), caller: '' })
    ).done;
    reads.length = 0;
    const next = await (
      await handler.sendMessage({ message: message(START, { contextId }), caller: '' })
    ).done;
    expect(next.status.state).to.equal('input-required');
    // the waiting task is superseded; the six completed ones are not read
    expect(reads).to.deep.equal([waiting.id]);
    expect((await handler.getTask(waiting.id, '')).status.state).to.equal('canceled');
    handler.close();
  });
});

describe('A2A a message refused after its claim', () => {
  it('leaves no task behind: the context is free and the same messageId sent again runs', async () => {
    const store = new MemoryTaskStore({ replayTtlSeconds: 60, now: () => T0 });
    const { handler } = await setup({}, { store });
    const sent = message(START, { contextId: 'refused-after-claim' });
    const refused = await handler
      .sendMessage({
        message: sent,
        caller: '',
        beforeRun: () => {
          throw new Error('push config refused');
        },
      })
      .catch((error: unknown) => String(error));
    expect(refused).to.equal('Error: push config refused');
    expect((await store.stats()).tasks).to.equal(0);
    expect((await store.getContext('a2a::refused-after-claim'))?.claim).to.equal(undefined);
    const retried = await handler.sendMessage({ message: sent, caller: '' });
    expect(retried.replayed).to.equal(false);
    expect((await retried.done).status.state).to.equal('input-required');
    handler.close();
  });
});
