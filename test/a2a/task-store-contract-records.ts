/** The TaskStore contract: replay entries, push configs, overdue tasks and the stats. */
import { expect } from 'chai';
import { DEFAULT_PUSH_LIMITS } from '../../src/a2a/tasks/task-store.js';
import type { PushLimits, ReplayKey } from '../../src/a2a/tasks/task-store.js';
import {
  CONTRACT_REPLAY_TTL_MS,
  LEASE_MS,
  T0,
  claimRequest,
  contextWith,
  pushConfig,
  storedTask,
} from './task-store-contract-support.js';
import type { TaskStoreHarness } from './task-store-contract-support.js';

/** scopes are caller + NUL + conversation, as the handler makes them */
const SCOPE = 'alice\u0000conv-a';

export function recordsContract(harness: TaskStoreHarness): void {
  const store = () => harness.store();
  const replayOf = (key: ReplayKey, fingerprint = 'fp-1') => ({
    ...key,
    fingerprint,
    expiresAt: harness.clock.now + CONTRACT_REPLAY_TTL_MS,
  });

  describe('replay entries', () => {
    const key: ReplayKey = { scope: SCOPE, messageId: 'msg-1' };

    beforeEach(async () => {
      await store().claimContext(claimRequest('conv-a'));
    });

    it('records the entry with the task, and the answer with a later save of the task', async () => {
      const accepted = storedTask('t1', { state: 'submitted' });
      await store().saveTask(accepted, { replay: replayOf(key) });
      expect(await store().getReplay(key, T0)).to.deep.equal({ fingerprint: 'fp-1', taskId: 't1' });
      const answered = storedTask('t1', { state: 'input-required', bytes: 250 });
      await store().saveTask(answered, { answers: key });
      expect(await store().getReplay(key, T0)).to.deep.equal({
        fingerprint: 'fp-1',
        taskId: 't1',
        answer: answered.task,
      });
      expect((await store().stats()).replayBytes).to.equal(250);
    });

    it('answers a claim for a message sent before with its entry, claiming nothing (ClaimRequest.replay)', async () => {
      await store().saveTask(storedTask('t1', { state: 'submitted' }), { replay: replayOf(key) });
      await store().releaseContext('conv-a', 'process-1');
      const sentBefore = claimRequest('conv-a', { now: T0 + 1, replay: key, holder: 'p2' });
      expect(await store().claimContext(sentBefore)).to.deep.equal({
        kind: 'replayed',
        entry: { fingerprint: 'fp-1', taskId: 't1' },
      });
      expect((await store().getContext('conv-a'))?.claim).to.equal(undefined);
      // busy or not, the entry answers: a retry racing its first send finds it
      await store().claimContext(claimRequest('conv-a', { now: T0 + 2, holder: 'p3' }));
      const retried = await store().claimContext({ ...sentBefore, now: T0 + 3 });
      expect(retried.kind).to.equal('replayed');
      await store().releaseContext('conv-a', 'p3');
      // another message, or the same once expired, claims
      const fresh = claimRequest('conv-a', { now: T0 + 4, holder: 'p4' });
      const next = await store().claimContext({ ...fresh, replay: { scope: SCOPE, messageId: 'msg-2' } });
      expect(next.kind).to.equal('claimed');
      await store().releaseContext('conv-a', 'p4');
      harness.clock.now = T0 + CONTRACT_REPLAY_TTL_MS;
      const expired = claimRequest('conv-a', { now: harness.clock.now, replay: key, holder: 'p5' });
      expect((await store().claimContext(expired)).kind).to.equal('claimed');
    });

    it('stores the task a claim starts, with its replay entry (ClaimRequest.start), only when claimed', async () => {
      await store().releaseContext('conv-a', 'process-1');
      const accepted = storedTask('t1', { state: 'submitted' });
      const start = { task: accepted, replay: replayOf(key) };
      const outcome = await store().claimContext(
        claimRequest('conv-a', { now: T0 + 1, start, holder: 'p2' }),
      );
      expect(outcome.kind).to.equal('claimed');
      // the claim tells the context as it was before the task joined it
      if (outcome.kind === 'claimed') expect(outcome.context.taskIds).to.deep.equal([]);
      expect(await store().getTask('t1')).to.deep.equal(accepted);
      expect((await store().getContext('conv-a'))?.taskIds).to.deep.equal(['t1']);
      expect(await store().getReplay(key, T0 + 1)).to.deep.equal({ fingerprint: 'fp-1', taskId: 't1' });
      // refused: busy, another caller's, or the message sent before — nothing is stored
      const other = {
        task: storedTask('t2', { state: 'submitted' }),
        replay: replayOf({ ...key, messageId: 'm2' }),
      };
      expect(
        (await store().claimContext(claimRequest('conv-a', { now: T0 + 2, start: other }))).kind,
      ).to.equal('busy');
      await store().releaseContext('conv-a', 'p2');
      const bob = claimRequest('conv-a', { now: T0 + 3, owner: 'bob', start: other });
      expect((await store().claimContext(bob)).kind).to.equal('other_owner');
      const again = claimRequest('conv-a', { now: T0 + 4, replay: key, start: other });
      expect((await store().claimContext(again)).kind).to.equal('replayed');
      expect(await store().getTask('t2')).to.equal(undefined);
      expect(await store().getReplay({ ...key, messageId: 'm2' }, T0 + 4)).to.equal(undefined);
    });

    it('forgets an entry once it expires', async () => {
      await store().saveTask(storedTask('t1'), { replay: replayOf(key) });
      harness.clock.now = T0 + CONTRACT_REPLAY_TTL_MS - 1;
      expect(await store().getReplay(key, harness.clock.now)).to.deep.include({ taskId: 't1' });
      harness.clock.now = T0 + CONTRACT_REPLAY_TTL_MS;
      expect(await store().getReplay(key, harness.clock.now)).to.equal(undefined);
      // nor does a late answer bring it back
      await store().saveTask(storedTask('t1'), { answers: key });
      expect(await store().getReplay(key, harness.clock.now)).to.equal(undefined);
    });

    it('keys entries by scope and messageId', async () => {
      const other = { scope: 'bob\u0000conv-a', messageId: 'msg-1' };
      await store().saveTask(storedTask('t1'), { replay: replayOf(key) });
      expect(await store().getReplay(other, T0)).to.equal(undefined);
      expect(await store().getReplay({ scope: SCOPE, messageId: 'msg-2' }, T0)).to.equal(undefined);
      expect(await store().getReplay({ scope: 'alice', messageId: 'msg-1' }, T0)).to.equal(undefined);
      await store().saveTask(storedTask('t2'), { answers: other });
      expect(await store().getReplay(other, T0)).to.equal(undefined);
    });

    it('replaces an entry recorded again for the same message', async () => {
      await store().saveTask(storedTask('t1'), { replay: replayOf(key) });
      await store().saveTask(storedTask('t1'), { answers: key });
      await store().saveTask(storedTask('t2'), { replay: replayOf(key, 'fp-2') });
      expect(await store().getReplay(key, T0)).to.deep.equal({ fingerprint: 'fp-2', taskId: 't2' });
    });

    it('keeps the answer after its task is forgotten, until it expires', async () => {
      await store().saveTask(storedTask('t1'), { replay: replayOf(key) });
      await store().saveTask(storedTask('t1'), { answers: key });
      await store().removeTasks(['t1']);
      expect(await store().getTask('t1')).to.equal(undefined);
      expect(await store().getReplay(key, T0)).to.deep.equal({
        fingerprint: 'fp-1',
        taskId: 't1',
        answer: storedTask('t1').task,
      });
    });
  });

  describe('push configs', () => {
    const limits: PushLimits = { perTask: 2, perCaller: 3, total: 4 };

    it('lists a task’s configs of every caller in the order they were set; a replacement keeps its place', async () => {
      expect(await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', limits)).to.deep.equal({
        kind: 'stored',
      });
      expect(await store().putPushConfig(pushConfig('t1', 'p2'), 'azp\u0000bob', limits)).to.deep.equal({
        kind: 'stored',
      });
      const replaced = pushConfig('t1', 'p1', 'https://hooks.example/moved');
      // replacing is allowed at the per-task limit
      expect(await store().putPushConfig(replaced, 'alice', limits)).to.deep.equal({ kind: 'stored' });
      expect(await store().pushConfigs('t1')).to.deep.equal([
        { config: replaced, owner: 'alice' },
        { config: pushConfig('t1', 'p2'), owner: 'azp\u0000bob' },
      ]);
      expect(await store().pushConfigs('t2')).to.deep.equal([]);
    });

    it('refuses another caller’s config id', async () => {
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', limits);
      expect(
        await store().putPushConfig(pushConfig('t1', 'p1', 'https://evil.example'), 'bob', limits),
      ).to.deep.equal({ kind: 'taken' });
      expect((await store().pushConfigs('t1'))[0]?.config.url).to.equal('https://hooks.example/p1');
    });

    it('refuses a new config beyond the limits per task, per caller and in all', async () => {
      const put = (task: string, id: string, owner: string) =>
        store().putPushConfig(pushConfig(task, id), owner, limits);
      await put('t1', 'p1', 'alice');
      await put('t1', 'p2', 'alice');
      expect(await put('t1', 'p3', 'bob')).to.deep.equal({ kind: 'full', limit: 'perTask', max: 2 });
      await put('t2', 'p4', 'alice');
      expect(await put('t3', 'p5', 'alice')).to.deep.equal({ kind: 'full', limit: 'perCaller', max: 3 });
      await put('t3', 'p6', 'bob');
      expect(await put('t4', 'p7', 'carol')).to.deep.equal({ kind: 'full', limit: 'total', max: 4 });
      expect((await store().stats()).pushConfigs).to.equal(4);
    });

    it('deletes only the owner’s config', async () => {
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', DEFAULT_PUSH_LIMITS);
      await store().deletePushConfig('t1', 'p1', 'bob');
      expect(await store().pushConfigs('t1')).to.have.length(1);
      await store().deletePushConfig('t1', 'p1', 'alice');
      await store().deletePushConfig('t1', 'nowhere', 'alice');
      expect(await store().pushConfigs('t1')).to.deep.equal([]);
    });
  });

  describe('overdueTasks', () => {
    it('finds open tasks past their deadline, oldest first, up to the limit', async () => {
      await contextWith(store(), 'conv-a', [
        storedTask('due', { state: 'input-required', deadline: T0 + 100 }),
        storedTask('later', { state: 'input-required', deadline: T0 + 200 }),
        storedTask('ended', { state: 'completed', deadline: T0 }),
        storedTask('never', { state: 'input-required' }),
        storedTask('due-2', { state: 'working', deadline: T0 + 50 }),
      ]);
      const ids = async (now: number, limit = 10) =>
        (await store().overdueTasks(now, limit)).map((stored) => stored.task.id);
      expect(await ids(T0 + 99)).to.deep.equal(['due-2']);
      expect(await ids(T0 + 100)).to.deep.equal(['due', 'due-2']);
      expect(await ids(T0 + 1_000)).to.deep.equal(['due', 'later', 'due-2']);
      expect(await ids(T0 + 1_000, 2)).to.deep.equal(['due', 'later']);
      const [first] = await store().overdueTasks(T0 + 100, 1);
      expect(first).to.deep.equal(storedTask('due', { state: 'input-required', deadline: T0 + 100 }));
    });

    it('finds tasks mid-turn in a context whose claim lapsed (its process died)', async () => {
      await store().claimContext(claimRequest('conv-a', { holder: 'dead' }));
      await store().saveTask(storedTask('submitted', { state: 'submitted' }));
      await store().saveTask(storedTask('working', { state: 'working' }));
      await store().saveTask(storedTask('waiting', { state: 'input-required' }));
      await store().saveTask(storedTask('done', { state: 'completed' }));
      const ids = async (now: number) =>
        (await store().overdueTasks(now, 10)).map((stored) => stored.task.id);
      expect(await ids(T0 + LEASE_MS - 1)).to.deep.equal([]);
      expect(await ids(T0 + LEASE_MS)).to.deep.equal(['submitted', 'working']);
      await store().releaseContext('conv-a', 'dead');
      expect(await ids(T0 + LEASE_MS)).to.deep.equal([]);
    });
  });

  describe('stats', () => {
    it('counts contexts, tasks, their bytes, replay answers and push configs', async () => {
      expect(await store().stats()).to.deep.equal({
        contexts: 0,
        tasks: 0,
        taskBytes: 0,
        replayBytes: 0,
        pushConfigs: 0,
      });
      await contextWith(store(), 'conv-a', [
        storedTask('t1', { bytes: 100 }),
        storedTask('t2', { bytes: 50 }),
      ]);
      await store().claimContext(claimRequest('conv-b', { owner: 'bob' }));
      await store().saveTask(storedTask('t3', { key: 'conv-b', owner: 'bob', bytes: 7 }), {
        replay: replayOf({ scope: 'bob\u0000conv-b', messageId: 'm' }),
      });
      await store().saveTask(storedTask('t3', { key: 'conv-b', owner: 'bob', bytes: 30 }), {
        answers: { scope: 'bob\u0000conv-b', messageId: 'm' },
      });
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', DEFAULT_PUSH_LIMITS);
      expect(await store().stats()).to.deep.equal({
        contexts: 2,
        tasks: 3,
        taskBytes: 180,
        replayBytes: 30,
        pushConfigs: 1,
      });
    });
  });
}
