/** The TaskStore contract: tasks (save, read, list, remove) and retention (trim). */
import { expect } from 'chai';
import {
  T0,
  claimRequest,
  contextView,
  contextWith,
  pushConfig,
  storedTask,
} from './task-store-contract-support.js';
import type { TaskStoreHarness } from './task-store-contract-support.js';
import { DEFAULT_PUSH_LIMITS } from '../../src/a2a/tasks/task-store.js';

export function tasksContract(harness: TaskStoreHarness): void {
  const store = () => harness.store();

  describe('tasks', () => {
    it('answers undefined for a task it does not have', async () => {
      expect(await store().getTask('nope')).to.equal(undefined);
    });

    it('reads a task back as it was saved: task, owner, context, bytes and deadline', async () => {
      await store().claimContext(claimRequest('conv-a'));
      const withDeadline = storedTask('t1', { state: 'working', bytes: 321, deadline: T0 + 5_000 });
      const without = storedTask('t2', { bytes: 17 });
      await store().saveTask(withDeadline);
      await store().saveTask(without);
      expect(await store().getTask('t1')).to.deep.equal(withDeadline);
      expect(await store().getTask('t2')).to.deep.equal(without);
      expect(await store().getTask('t2')).not.to.have.property('deadline');
    });

    it('keeps an owner holding NUL and backslashes (a caller named by azp)', async () => {
      const owner = 'azp\u0000agent\\one\\0';
      await contextWith(store(), 'conv-z', [storedTask('z1', { key: 'conv-z', owner })], { owner });
      expect((await store().getTask('z1'))?.owner).to.equal(owner);
      expect(contextView(await store().getContext('conv-z'))?.owner).to.equal(owner);
      const page = await store().listTasks({ owner, offset: 0, limit: 10 });
      expect(page.tasks.map((task) => task.id)).to.deep.equal(['z1']);
      expect((await store().listTasks({ owner: 'azp', offset: 0, limit: 10 })).total).to.equal(0);
      expect(await store().claimContext(claimRequest('conv-z', { owner: 'azp' }))).to.deep.equal({
        kind: 'other_owner',
      });
    });

    it('replaces a task saved again, which keeps its place among its context’s tasks', async () => {
      await contextWith(store(), 'conv-a', [storedTask('t1'), storedTask('t2')]);
      const changed = storedTask('t1', { state: 'failed', bytes: 999, text: 'changed' });
      await store().saveTask(changed);
      expect(await store().getTask('t1')).to.deep.equal(changed);
      expect(contextView(await store().getContext('conv-a'))?.taskIds).to.deep.equal(['t1', 't2']);
      expect((await store().stats()).tasks).to.equal(2);
    });

    it('adds a new task to its context’s tasks, oldest first', async () => {
      await contextWith(store(), 'conv-a', [storedTask('t2'), storedTask('t1'), storedTask('t3')]);
      expect(contextView(await store().getContext('conv-a'))?.taskIds).to.deep.equal(['t2', 't1', 't3']);
    });
  });

  describe('listTasks', () => {
    beforeEach(async () => {
      // status times: old (T0), mid (T0 + 1s, twice: created in this order), new (T0 + 2s); bob's in between
      await contextWith(store(), 'conv-a', [
        storedTask('old', { at: T0 }),
        storedTask('mid-1', { at: T0 + 1_000, state: 'input-required' }),
      ]);
      await contextWith(store(), 'conv-b', [
        storedTask('mid-2', { key: 'conv-b', at: T0 + 1_000 }),
        storedTask('new', { key: 'conv-b', at: T0 + 2_000, state: 'working' }),
      ]);
      await contextWith(
        store(),
        'conv-bob',
        [storedTask('bobs', { key: 'conv-bob', owner: 'bob', at: T0 + 1_500 })],
        {
          owner: 'bob',
        },
      );
    });

    const ids = (page: { tasks: readonly { id: string }[] }) => page.tasks.map((task) => task.id);

    it('lists the caller’s tasks, newest status first and, at the same time, newest created first', async () => {
      const page = await store().listTasks({ owner: 'alice', offset: 0, limit: 10 });
      expect(ids(page)).to.deep.equal(['new', 'mid-2', 'mid-1', 'old']);
      expect(page.total).to.equal(4);
      expect(page.tasks[0]).to.deep.equal(
        storedTask('new', { key: 'conv-b', at: T0 + 2_000, state: 'working' }).task,
      );
      expect(ids(await store().listTasks({ owner: 'bob', offset: 0, limit: 10 }))).to.deep.equal(['bobs']);
      expect(await store().listTasks({ owner: 'carol', offset: 0, limit: 10 })).to.deep.equal({
        tasks: [],
        total: 0,
      });
    });

    it('filters by context, state and status time (inclusive), counting every match', async () => {
      const list = (query: object) => store().listTasks({ owner: 'alice', offset: 0, limit: 10, ...query });
      expect(ids(await list({ contextId: 'ctx-conv-b' }))).to.deep.equal(['new', 'mid-2']);
      expect(ids(await list({ state: 'input-required' }))).to.deep.equal(['mid-1']);
      expect(ids(await list({ statusAfter: T0 + 1_000 }))).to.deep.equal(['new', 'mid-2', 'mid-1']);
      const all = await list({ contextId: 'ctx-conv-a', state: 'completed', statusAfter: T0 });
      expect(all).to.deep.equal({ tasks: [storedTask('old').task], total: 1 });
    });

    it('pages with offset and limit; the total counts them all', async () => {
      const page = await store().listTasks({ owner: 'alice', offset: 1, limit: 2 });
      expect(ids(page)).to.deep.equal(['mid-2', 'mid-1']);
      expect(page.total).to.equal(4);
      expect(await store().listTasks({ owner: 'alice', offset: 9, limit: 2 })).to.deep.equal({
        tasks: [],
        total: 4,
      });
      expect(ids(await store().listTasks({ owner: 'alice', offset: 0, limit: 0 }))).to.deep.equal([]);
    });
  });

  describe('removeTasks', () => {
    it('forgets tasks and their push configs, and ignores ids it does not have', async () => {
      await contextWith(store(), 'conv-a', [storedTask('t1'), storedTask('t2')]);
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', DEFAULT_PUSH_LIMITS);
      await store().putPushConfig(pushConfig('ghost', 'p2'), 'alice', DEFAULT_PUSH_LIMITS);
      await store().removeTasks(['t1', 'ghost', 'never']);
      expect(await store().getTask('t1')).to.equal(undefined);
      expect(await store().pushConfigs('t1')).to.deep.equal([]);
      expect(await store().pushConfigs('ghost')).to.deep.equal([]);
      expect(contextView(await store().getContext('conv-a'))?.taskIds).to.deep.equal(['t2']);
      expect((await store().stats()).pushConfigs).to.equal(0);
    });

    it('forgets a context left without tasks, unless a turn holds it', async () => {
      await contextWith(store(), 'conv-a', [storedTask('a1')]);
      await contextWith(store(), 'conv-b', [storedTask('b1', { key: 'conv-b' })]);
      await store().claimContext(claimRequest('conv-b', { now: harness.clock.now }));
      await store().removeTasks(['a1', 'b1']);
      expect(await store().getContext('conv-a')).to.equal(undefined);
      expect(contextView(await store().getContext('conv-b'))).to.deep.include({ key: 'conv-b', taskIds: [] });
      // a claim that lapsed holds nothing
      await contextWith(store(), 'conv-c', [storedTask('c1', { key: 'conv-c' })]);
      await store().claimContext(claimRequest('conv-c'));
      harness.clock.now = T0 + 60_000;
      await store().removeTasks(['c1']);
      expect(await store().getContext('conv-c')).to.equal(undefined);
    });
  });

  describe('trim', () => {
    it('forgets the oldest terminal tasks beyond the per-context count, with their push configs', async () => {
      const tasks = ['t1', 't2', 't3', 't4', 't5'].map((id) => storedTask(id));
      await contextWith(store(), 'conv-a', tasks);
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', DEFAULT_PUSH_LIMITS);
      await store().putPushConfig(pushConfig('t5', 'p5'), 'alice', DEFAULT_PUSH_LIMITS);
      expect(await store().trim('conv-a', T0)).to.deep.equal({ removed: ['t1', 't2'], evictions: [] });
      expect(contextView(await store().getContext('conv-a'))?.taskIds).to.deep.equal(['t3', 't4', 't5']);
      expect(await store().getTask('t1')).to.equal(undefined);
      expect(await store().pushConfigs('t1')).to.deep.equal([]);
      expect(await store().pushConfigs('t5')).to.have.length(1);
      expect(await store().trim('conv-a', T0)).to.deep.equal({ removed: [], evictions: [] });
    });

    it('never forgets an open task, even when the open ones alone are over the limits', async () => {
      await contextWith(store(), 'conv-a', [
        storedTask('open-1', { state: 'input-required', bytes: 6_000 }),
        storedTask('done-1'),
        storedTask('open-2', { state: 'working', bytes: 6_000 }),
        storedTask('done-2'),
      ]);
      const { removed } = await store().trim('conv-a', T0);
      expect(removed).to.deep.equal(['done-1', 'done-2']);
      expect(contextView(await store().getContext('conv-a'))?.taskIds).to.deep.equal(['open-1', 'open-2']);
    });

    it('forgets the oldest terminal tasks until the context’s bytes fit', async () => {
      await contextWith(store(), 'conv-a', [
        storedTask('big', { bytes: 6_000 }),
        storedTask('small', { bytes: 100 }),
        storedTask('newest', { bytes: 6_000 }),
      ]);
      // 12,100 bytes over the 10,000 of CONTRACT_LIMITS
      expect((await store().trim('conv-a', T0)).removed).to.deep.equal(['big']);
    });

    it('trims as usual when told a size beyond its limits', async () => {
      await contextWith(store(), 'conv-a', [
        storedTask('big', { bytes: 6_000 }),
        storedTask('small', { bytes: 100 }),
        storedTask('newest', { bytes: 6_000 }),
      ]);
      const known = { tasks: 3, bytes: 12_100 };
      expect((await store().trim('conv-a', T0, known)).removed).to.deep.equal(['big']);
      const tasks = ['t1', 't2', 't3', 't4'].map((id) => storedTask(id, { key: 'conv-b' }));
      await contextWith(store(), 'conv-b', tasks);
      expect((await store().trim('conv-b', T0, { tasks: 4, bytes: 400 })).removed).to.deep.equal(['t1']);
    });

    it('does nothing for a context it does not have', async () => {
      expect(await store().trim('nowhere', T0)).to.deep.equal({ removed: [], evictions: [] });
    });

    it('forgets a context it trimmed empty, unless a turn holds it at that time', async () => {
      await contextWith(store(), 'conv-a', [storedTask('huge', { bytes: 50_000 })]);
      await contextWith(store(), 'conv-b', [storedTask('huge-b', { key: 'conv-b', bytes: 50_000 })]);
      await store().claimContext(claimRequest('conv-b', { now: T0 }));
      expect((await store().trim('conv-a', T0)).removed).to.deep.equal(['huge']);
      expect(await store().getContext('conv-a')).to.equal(undefined);
      expect((await store().trim('conv-b', T0 + 1)).removed).to.deep.equal(['huge-b']);
      expect(contextView(await store().getContext('conv-b'))).to.deep.include({ taskIds: [] });
    });
  });
}
