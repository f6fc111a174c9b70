/**
 * The TaskStore contract for stores whose data several instances share (SQL: a restart, or several
 * processes on one database): what one instance wrote, another reads; and, where instances really run
 * at once, a claim is one process's and the cap holds.
 */
import { expect } from 'chai';
import { DEFAULT_PUSH_LIMITS } from '../../src/a2a/tasks/task-store.js';
import type { ClaimOutcome, TaskStore } from '../../src/a2a/tasks/task-store.js';
import {
  CONTRACT_REPLAY_TTL_MS,
  LEASE_MS,
  T0,
  claimRequest,
  contextView,
  contextWith,
  pushConfig,
  storedTask,
} from './task-store-contract-support.js';
import type { TaskStoreHarness } from './task-store-contract-support.js';

export function sharedContract(harness: TaskStoreHarness, second: () => Promise<TaskStore>): void {
  const store = () => harness.store();

  describe('shared by instances', () => {
    let other: TaskStore;

    beforeEach(async () => {
      other = await second();
      // started: its first statement opens (and checks the schema of) its database
      await other.stats();
    });

    afterEach(async () => {
      await other.close();
    });

    it('reads in a second instance what the first stored (a restart loses nothing)', async () => {
      const key = { scope: 'alice\u0000conv-a', messageId: 'm1' };
      await store().claimContext(claimRequest('conv-a', { holder: 'p1' }));
      const saved = storedTask('t1', { state: 'input-required', deadline: T0 + 9 });
      await store().saveTask(saved, {
        replay: { ...key, fingerprint: 'fp', expiresAt: T0 + CONTRACT_REPLAY_TTL_MS },
      });
      await store().saveTask(saved, { answers: key });
      await store().putPushConfig(pushConfig('t1', 'p1'), 'alice', DEFAULT_PUSH_LIMITS);
      expect(await other.getTask('t1')).to.deep.equal(saved);
      expect(contextView(await other.getContext('conv-a'))).to.deep.equal({
        key: 'conv-a',
        contextId: 'ctx-conv-a',
        owner: 'alice',
        taskIds: ['t1'],
        claim: { holder: 'p1', until: T0 + LEASE_MS },
      });
      expect(await other.getReplay(key, T0)).to.deep.equal({
        fingerprint: 'fp',
        taskId: 't1',
        answer: saved.task,
      });
      expect(await other.pushConfigs('t1')).to.deep.equal([
        { config: pushConfig('t1', 'p1'), owner: 'alice' },
      ]);
      expect((await other.listTasks({ owner: 'alice', offset: 0, limit: 5 })).total).to.equal(1);
    });

    it('finds a context another instance claimed busy, and claims it once released', async () => {
      await contextWith(store(), 'conv-a', [storedTask('t1')]);
      await store().claimContext(claimRequest('conv-a', { holder: 'p1', now: T0 + 1 }));
      expect(await other.claimContext(claimRequest('conv-a', { holder: 'p2', now: T0 + 2 }))).to.deep.equal({
        kind: 'busy',
      });
      await store().releaseContext('conv-a', 'p1');
      const outcome = await other.claimContext(claimRequest('conv-a', { holder: 'p2', now: T0 + 3 }));
      expect(outcome.kind).to.equal('claimed');
    });

    if (!harness.races) return;

    const kinds = (outcomes: readonly ClaimOutcome[]) => outcomes.map((outcome) => outcome.kind).sort();

    it('lets exactly one of two instances racing for a context claim it', async () => {
      const keys = Array.from({ length: 20 }, (_, index) => `race-${index}`);
      const outcomes = await Promise.all(
        keys.flatMap((key) => [
          store().claimContext(claimRequest(key, { holder: 'p1' })),
          other.claimContext(claimRequest(key, { holder: 'p2' })),
        ]),
      );
      for (let index = 0; index < keys.length; index += 1)
        expect(kinds(outcomes.slice(index * 2, index * 2 + 2)), keys[index]).to.deep.equal([
          'busy',
          'claimed',
        ]);
    });

    it('never opens more contexts than the cap, however many instances race for the last places', async () => {
      const claims = Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? store() : other).claimContext(claimRequest(`new-${index}`, { maxContexts: 3 })),
      );
      const outcomes = await Promise.all(claims);
      expect(outcomes.filter((outcome) => outcome.kind === 'claimed')).to.have.length(3);
      expect(outcomes.filter((outcome) => outcome.kind === 'full')).to.have.length(7);
      expect((await store().stats()).contexts).to.equal(3);
    });

    it('evicts each idle context once when instances race to make room', async () => {
      for (const key of ['idle-1', 'idle-2', 'idle-3'])
        await contextWith(store(), key, [storedTask(`${key}-task`, { key })]);
      const claims = Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? store() : other).claimContext(
          claimRequest(`new-${index}`, { now: T0 + 1, maxContexts: 3 }),
        ),
      );
      const outcomes = await Promise.all(claims);
      const claimed = outcomes.filter(
        (outcome): outcome is Extract<ClaimOutcome, { kind: 'claimed' }> => outcome.kind === 'claimed',
      );
      expect(claimed).to.have.length(3);
      const evicted = claimed.flatMap((outcome) => outcome.evictions.map((eviction) => eviction.context.key));
      expect(evicted.sort()).to.deep.equal(['idle-1', 'idle-2', 'idle-3']);
      expect((await store().stats()).contexts).to.equal(3);
    });
  });
}
