/** The TaskStore contract: contexts (claims, leases, release) and the `max_contexts` cap. */
import { expect } from 'chai';
import { DEFAULT_PUSH_LIMITS } from '../../src/a2a/tasks/task-store.js';
import type { ClaimOutcome, ClaimRequest } from '../../src/a2a/tasks/task-store.js';
import {
  LEASE_MS,
  T0,
  claimRequest,
  contextView,
  contextWith,
  pushConfig,
  storedTask,
} from './task-store-contract-support.js';
import type { TaskStoreHarness } from './task-store-contract-support.js';

function expectClaimed(outcome: ClaimOutcome): Extract<ClaimOutcome, { kind: 'claimed' }> {
  expect(outcome.kind, JSON.stringify(outcome)).to.equal('claimed');
  return outcome as Extract<ClaimOutcome, { kind: 'claimed' }>;
}

export function contextsContract(harness: TaskStoreHarness): void {
  const store = () => harness.store();
  const claim = (key: string, options: Partial<ClaimRequest> = {}) =>
    store().claimContext(claimRequest(key, options));

  describe('claimContext', () => {
    it('opens a new context, claimed for the lease', async () => {
      const outcome = await claim('conv-a', { holder: 'p1', now: T0 + 5 });
      const context = {
        key: 'conv-a',
        contextId: 'ctx-conv-a',
        owner: 'alice',
        taskIds: [],
        claim: { holder: 'p1', until: T0 + 5 + LEASE_MS },
      };
      const claimed = expectClaimed(outcome);
      expect({ ...claimed, context: contextView(claimed.context) }).to.deep.equal({
        kind: 'claimed',
        context,
        evictions: [],
      });
      // a store that tells the size of a context's tasks tells it right
      if (claimed.context.taskBytes !== undefined) expect(claimed.context.taskBytes).to.equal(0);
      if (claimed.context.openTaskIds) expect(claimed.context.openTaskIds).to.deep.equal([]);
      expect(contextView(await store().getContext('conv-a'))).to.deep.equal(context);
      expect(await store().getContext('conv-b')).to.equal(undefined);
    });

    it('is busy while a claim has not lapsed, for its own holder too', async () => {
      expectClaimed(await claim('conv-a', { holder: 'p1' }));
      expect(await claim('conv-a', { holder: 'p2', now: T0 + 1 })).to.deep.equal({ kind: 'busy' });
      expect(await claim('conv-a', { holder: 'p1', now: T0 + LEASE_MS - 1 })).to.deep.equal({ kind: 'busy' });
    });

    it('takes over a claim that lapsed (its process died)', async () => {
      expectClaimed(await claim('conv-a', { holder: 'p1' }));
      const outcome = expectClaimed(await claim('conv-a', { holder: 'p2', now: T0 + LEASE_MS }));
      expect(outcome.context.claim).to.deep.equal({ holder: 'p2', until: T0 + 2 * LEASE_MS });
      expect(contextView(await store().getContext('conv-a'))?.claim).to.deep.equal(outcome.context.claim);
    });

    it('refuses another caller’s context, claimed or not', async () => {
      await contextWith(store(), 'conv-a', [storedTask('t1')]);
      expect(await claim('conv-a', { owner: 'bob', now: T0 + 1 })).to.deep.equal({ kind: 'other_owner' });
      expectClaimed(await claim('conv-a', { now: T0 + 1 }));
      expect(await claim('conv-a', { owner: 'bob', now: T0 + 2 })).to.deep.equal({ kind: 'other_owner' });
    });

    it('reopens a context with its tasks, keeping the contextId it was opened with', async () => {
      await contextWith(store(), 'conv-a', [
        storedTask('t1', { bytes: 120 }),
        storedTask('t2', { bytes: 30 }),
      ]);
      const outcome = expectClaimed(
        await claim('conv-a', { contextId: 'other-id', holder: 'p9', now: T0 + 7 }),
      );
      if (outcome.context.taskBytes !== undefined) expect(outcome.context.taskBytes).to.equal(150);
      if (outcome.context.openTaskIds) expect(outcome.context.openTaskIds).to.deep.equal([]);
      expect(contextView(outcome.context)).to.deep.equal({
        key: 'conv-a',
        contextId: 'ctx-conv-a',
        owner: 'alice',
        taskIds: ['t1', 't2'],
        claim: { holder: 'p9', until: T0 + 7 + LEASE_MS },
      });
    });

    it('tells which of the context’s tasks are still open, when it tells them', async () => {
      await contextWith(store(), 'conv-a', [
        storedTask('done', { state: 'completed' }),
        storedTask('waiting', { state: 'input-required' }),
        storedTask('failed', { state: 'failed' }),
        storedTask('running', { state: 'working' }),
      ]);
      const outcome = expectClaimed(await claim('conv-a', { holder: 'p9', now: T0 + 7 }));
      expect(outcome.context.taskIds).to.deep.equal(['done', 'waiting', 'failed', 'running']);
      if (outcome.context.openTaskIds)
        expect(outcome.context.openTaskIds).to.deep.equal(['waiting', 'running']);
      // a store that read them with the claim hands them as stored
      if (outcome.context.openTasks)
        expect(outcome.context.openTasks).to.deep.equal([
          storedTask('waiting', { state: 'input-required' }),
          storedTask('running', { state: 'working' }),
        ]);
    });
  });

  describe('renewClaims and releaseContext', () => {
    it('extends only the holder’s claims', async () => {
      expectClaimed(await claim('conv-a', { holder: 'p1' }));
      expectClaimed(await claim('conv-b', { holder: 'p2' }));
      await store().renewClaims(['conv-a', 'conv-b', 'nowhere'], 'p1', T0 + 99_000);
      expect(contextView(await store().getContext('conv-a'))?.claim).to.deep.equal({
        holder: 'p1',
        until: T0 + 99_000,
      });
      expect(contextView(await store().getContext('conv-b'))?.claim).to.deep.equal({
        holder: 'p2',
        until: T0 + LEASE_MS,
      });
      expect(await claim('conv-a', { holder: 'p2', now: T0 + LEASE_MS })).to.deep.equal({ kind: 'busy' });
    });

    it('ends the holder’s claim; the context stays while it has tasks', async () => {
      expectClaimed(await claim('conv-a', { holder: 'p1' }));
      await store().saveTask(storedTask('t1'));
      await store().releaseContext('conv-a', 'p2');
      expect(contextView(await store().getContext('conv-a'))?.claim).to.deep.equal({
        holder: 'p1',
        until: T0 + LEASE_MS,
      });
      await store().releaseContext('conv-a', 'p1');
      expect(contextView(await store().getContext('conv-a'))).to.deep.equal({
        key: 'conv-a',
        contextId: 'ctx-conv-a',
        owner: 'alice',
        taskIds: ['t1'],
      });
      expectClaimed(await claim('conv-a', { holder: 'p2', now: T0 + 1 }));
    });

    it('ends the holder’s claim in the save that answers its turn (SaveOptions.release), not another’s', async () => {
      expectClaimed(await claim('conv-a', { holder: 'p1' }));
      await store().saveTask(storedTask('t1', { state: 'submitted' }));
      await store().saveTask(storedTask('t1', { state: 'input-required' }), {
        release: { key: 'conv-a', holder: 'p2' },
      });
      expect(contextView(await store().getContext('conv-a'))?.claim).to.deep.equal({
        holder: 'p1',
        until: T0 + LEASE_MS,
      });
      await store().saveTask(storedTask('t1'), { release: { key: 'conv-a', holder: 'p1' } });
      expect(contextView(await store().getContext('conv-a'))).to.deep.equal({
        key: 'conv-a',
        contextId: 'ctx-conv-a',
        owner: 'alice',
        taskIds: ['t1'],
      });
      expect((await store().getTask('t1'))?.task.status.state).to.equal('completed');
      expectClaimed(await claim('conv-a', { holder: 'p2', now: T0 + 1 }));
    });

    it('forgets a released context without tasks, but not one another process holds', async () => {
      expectClaimed(await claim('conv-a', { holder: 'p1' }));
      await store().releaseContext('conv-a', 'p2');
      expect(await store().getContext('conv-a')).not.to.equal(undefined);
      await store().releaseContext('conv-a', 'p1');
      expect(await store().getContext('conv-a')).to.equal(undefined);
      await store().releaseContext('nowhere', 'p1');
      expect((await store().stats()).contexts).to.equal(0);
    });
  });

  describe('the max_contexts cap', () => {
    it('opens contexts freely without a cap (0)', async () => {
      for (const key of ['a', 'b', 'c', 'd']) expectClaimed(await claim(key));
      expect((await store().stats()).contexts).to.equal(4);
    });

    it('evicts the least recently used idle context, with its tasks and their push configs', async () => {
      await contextWith(store(), 'conv-a', [storedTask('a1')]);
      await contextWith(store(), 'conv-b', [storedTask('b1', { key: 'conv-b', owner: 'bob' })], {
        owner: 'bob',
      });
      await store().putPushConfig(pushConfig('b1', 'p1'), 'bob', DEFAULT_PUSH_LIMITS);
      // conv-a used again: conv-b is now the least recently used
      await contextWith(store(), 'conv-a', [], { now: T0 + 1 });
      const outcome = expectClaimed(await claim('conv-c', { owner: 'carol', now: T0 + 2, maxContexts: 2 }));
      expect(outcome.evictions).to.deep.equal([
        { context: { key: 'conv-b', contextId: 'ctx-conv-b', owner: 'bob' }, reason: 'idle', openTasks: [] },
      ]);
      expect(await store().getContext('conv-b')).to.equal(undefined);
      expect(await store().getTask('b1')).to.equal(undefined);
      expect(await store().pushConfigs('b1')).to.deep.equal([]);
      expect(await store().getTask('a1')).not.to.equal(undefined);
      expect((await store().stats()).contexts).to.equal(2);
    });

    it('stores the task a claim starts also when the claim evicted to make room', async () => {
      await contextWith(store(), 'conv-a', [storedTask('a1')]);
      const started = storedTask('c1', { key: 'conv-c', owner: 'carol', state: 'submitted' });
      const outcome = expectClaimed(
        await claim('conv-c', { owner: 'carol', now: T0 + 2, maxContexts: 1, start: { task: started } }),
      );
      expect(outcome.evictions.map((eviction) => eviction.context.key)).to.deep.equal(['conv-a']);
      expect(await store().getTask('c1')).to.deep.equal(started);
      expect((await store().getContext('conv-c'))?.taskIds).to.deep.equal(['c1']);
    });

    it('counts neither a claimed context nor one waiting on an open task as idle; a lapsed claim is none', async () => {
      await contextWith(store(), 'claimed', [storedTask('c1', { key: 'claimed' })]);
      expectClaimed(await claim('claimed', { holder: 'p1', now: T0 + 10, leaseMs: 1_000 }));
      await contextWith(store(), 'waiting', [storedTask('w1', { key: 'waiting', state: 'input-required' })], {
        now: T0 + 20,
      });
      await contextWith(store(), 'idle', [storedTask('i1', { key: 'idle' })], { now: T0 + 30 });
      const first = expectClaimed(await claim('new-1', { now: T0 + 40, maxContexts: 3 }));
      expect(first.evictions.map((eviction) => eviction.context.key)).to.deep.equal(['idle']);
      // the claim on `claimed` lapsed at T0 + 1,010
      const second = expectClaimed(await claim('new-2', { now: T0 + 2_000, maxContexts: 3 }));
      expect(second.evictions.map((eviction) => eviction.context.key)).to.deep.equal(['claimed']);
    });

    it('lets a caller under its fair share evict a waiting context of the caller holding the most', async () => {
      const waiting = (id: string, key: string) => storedTask(id, { key, state: 'input-required' });
      await contextWith(store(), 'a1', [waiting('t1', 'a1'), storedTask('t1-done', { key: 'a1' })]);
      await contextWith(store(), 'a2', [waiting('t2', 'a2')], { now: T0 + 1 });
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', DEFAULT_PUSH_LIMITS);
      const outcome = expectClaimed(await claim('b1', { owner: 'bob', now: T0 + 2, maxContexts: 2 }));
      expect(outcome.evictions).to.deep.equal([
        {
          context: { key: 'a1', contextId: 'ctx-a1', owner: 'alice' },
          reason: 'fair_share',
          openTasks: [waiting('t1', 'a1')],
        },
      ]);
      // its tasks stay (their caller reads why they failed), but no longer belong to a context
      expect(await store().getTask('t1')).to.deep.equal(waiting('t1', 'a1'));
      expect(await store().getTask('t1-done')).not.to.equal(undefined);
      expect(await store().pushConfigs('t1')).to.have.length(1);
      expect(await store().getContext('a1')).to.equal(undefined);
      await store().releaseContext('b1', 'process-1');
      const reopened = expectClaimed(await claim('a1', { now: T0 + 3, maxContexts: 2 }));
      expect(reopened.context.taskIds).to.deep.equal([]);
      expect(await store().trim('a1', T0 + 3)).to.deep.equal({ removed: [], evictions: [] });
    });

    it('is full when nothing can be evicted for the caller, saying the cap and its share', async () => {
      const waiting = (id: string, key: string) => storedTask(id, { key, state: 'input-required' });
      await contextWith(store(), 'a1', [waiting('t1', 'a1')]);
      await contextWith(store(), 'a2', [waiting('t2', 'a2')]);
      // alone, alice may hold the whole cap
      expect(await claim('a3', { now: T0 + 1, maxContexts: 2 })).to.deep.equal({
        kind: 'full',
        cap: 2,
        share: 2,
      });
      // bob's share is 1, but every context of alice's is claimed
      expectClaimed(await claim('a1', { now: T0 + 2 }));
      expectClaimed(await claim('a2', { now: T0 + 2 }));
      expect(await claim('b1', { owner: 'bob', now: T0 + 3, maxContexts: 2 })).to.deep.equal({
        kind: 'full',
        cap: 2,
        share: 1,
      });
      expect((await store().stats()).contexts).to.equal(2);
    });

    it('lets a caller at its fair share reopen its own contexts at the cap', async () => {
      await contextWith(store(), 'a1', [storedTask('t1', { key: 'a1', state: 'input-required' })]);
      expectClaimed(await claim('a1', { now: T0 + 1, maxContexts: 1 }));
    });
  });
}
