import { expect } from 'chai';
import { LiveTasks } from '../../src/a2a/tasks/live-tasks.js';
import { Contexts } from '../../src/a2a/tasks/memory/contexts.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import { DEFAULT_TASK_LIMITS } from '../../src/a2a/tasks/memory/task-retention.js';
import type { TaskLimits } from '../../src/a2a/tasks/memory/task-retention.js';
import { MessageCache, messageFingerprint } from '../../src/a2a/tasks/message-cache.js';
import type { Task, TaskState } from '../../src/a2a/tasks/model.js';
import { TaskEvents } from '../../src/a2a/tasks/task-events.js';
import { jsonBytes } from '../../src/a2a/tasks/task-size.js';

/** The memory store's own limits (counts and bytes for the process); the port's rules are in the contract suite. */
function setup(limits: Partial<TaskLimits>, owner = 'caller') {
  const now = 1_000;
  const store = new MemoryTaskStore({ replayTtlSeconds: 600, now: () => now, limits });
  const evicted: string[] = [];
  let counter = 0;
  /** adds a task to the context as the semantic handler does (claim, save, release), then applies the limits */
  const add = async (
    contextId: string,
    state: TaskState = 'completed',
    text = '',
    by = owner,
  ): Promise<Task> => {
    counter += 1;
    const identity = { key: contextId, contextId, owner: by };
    await store.claimContext({ ...identity, holder: 'h', now, leaseMs: 1_000, maxContexts: 0 });
    const task: Task = {
      id: `t${counter}`,
      contextId,
      status: { state, timestamp: new Date(counter * 1000).toISOString() },
      history:
        text === '' ? [] : [{ messageId: `m${counter}`, role: 'user', parts: [{ kind: 'text', text }] }],
      artifacts: [],
    };
    await store.saveTask({ task, owner: by, contextKey: contextId, bytes: jsonBytes(task) });
    await store.releaseContext(contextId, 'h');
    const trimmed = await store.trim(contextId, now);
    evicted.push(...trimmed.evictions.map((eviction) => eviction.context.key));
    return task;
  };
  const taskIds = async (key: string) => (await store.getContext(key))?.taskIds;
  const has = async (id: string) => (await store.getTask(id)) !== undefined;
  return { store, add, evicted, taskIds, has, stats: () => store.stats() };
}

describe('A2A task retention', () => {
  it('documents its defaults: 100 tasks and 1 MiB per context, 10,000 tasks and 64 MiB in all', () => {
    expect(DEFAULT_TASK_LIMITS).to.deep.equal({
      perContext: 100,
      total: 10_000,
      maxContextBytes: 1024 * 1024,
      maxTotalBytes: 64 * 1024 * 1024,
    });
  });

  it('keeps the newest tasks of a context, dropping terminal ones oldest first', async () => {
    const { add, taskIds, has, stats } = setup({ perContext: 3, total: 100 });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await add('c')).id);
    expect(await taskIds('c')).to.deep.equal(ids.slice(2));
    expect(await has(ids[0] as string)).to.equal(false);
    expect((await stats()).tasks).to.equal(3);
  });

  it('never drops an open task: an input-required one survives the per-context trim', async () => {
    const { add, taskIds, has } = setup({ perContext: 2, total: 100 });
    const waiting = await add('c', 'input-required');
    await add('c');
    const newest = await add('c');
    expect(await taskIds('c')).to.deep.equal([waiting.id, newest.id]);
    expect(await has(waiting.id)).to.equal(true);
  });

  it('bounds the process: beyond the total the oldest terminal tasks go, and contexts left empty with them', async () => {
    const { add, taskIds, has, stats } = setup({ perContext: 100, total: 4 });
    const open = await add('a', 'input-required');
    const gone = await add('b');
    for (const key of ['c', 'd', 'e', 'f']) await add(key);
    expect((await stats()).tasks).to.equal(4);
    expect(await has(open.id)).to.equal(true);
    expect(await has(gone.id)).to.equal(false);
    expect(await taskIds('b')).to.equal(undefined);
    expect(await taskIds('a')).to.deep.equal([open.id]);
    expect((await stats()).contexts).to.equal(4);
  });

  it('stays bounded over many contexts with max_contexts off', async () => {
    const { add, stats } = setup({ perContext: 100, total: 50 });
    for (let index = 0; index < 5_000; index += 1) await add(`ctx-${index}`);
    expect((await stats()).tasks).to.equal(50);
    expect((await stats()).contexts).to.equal(50);
  });

  it('keeps a context whose turn still runs although its tasks are gone', async () => {
    const { store, add, taskIds, has } = setup({ perContext: 100, total: 1 });
    const first = await add('busy', 'failed');
    await store.claimContext({
      key: 'busy',
      contextId: 'busy',
      owner: 'caller',
      holder: 'h',
      now: 1_000,
      leaseMs: 1_000,
      maxContexts: 0,
    });
    await add('other');
    expect(await has(first.id)).to.equal(false);
    expect(await taskIds('busy')).to.deep.equal([]);
  });

  it('the replay cache forgets its oldest answers beyond its byte cap, once their size is known', () => {
    const cache = new MessageCache<number>({ ttlSeconds: 600, now: () => 0, maxBytes: 1_000 });
    cache.set('c', 'm1', 'f', 1);
    cache.set('c', 'm2', 'f', 2);
    cache.weigh('c', 'm1', 600);
    cache.weigh('c', 'm2', 300);
    expect(cache.totalBytes).to.equal(900);
    cache.set('c', 'm3', 'f', 3);
    cache.weigh('c', 'm3', 300);
    expect(cache.get('c', 'm1')).to.equal(undefined);
    expect(cache.get('c', 'm2')?.value).to.equal(2);
    expect(cache.totalBytes).to.equal(600);
    cache.forget('c', 'm2');
    expect(cache.totalBytes).to.equal(300);
  });

  it('keeps a digest of each message for replays, not the message itself', () => {
    const big = { role: 'user', parts: [{ kind: 'text', text: 'x'.repeat(60_000) }] };
    const reordered = { parts: [{ text: 'x'.repeat(60_000), kind: 'text' }], role: 'user' };
    expect(messageFingerprint(big)).to.have.length(43);
    expect(messageFingerprint(reordered)).to.equal(messageFingerprint(big));
    expect(messageFingerprint({ ...big, metadata: { a: 1 } })).to.not.equal(messageFingerprint(big));
  });

  it('the replay cache forgets its oldest answers beyond its cap', () => {
    const cache = new MessageCache<number>({ ttlSeconds: 600, now: () => 0, maxEntries: 2 });
    cache.set('c', 'm1', 'f', 1);
    cache.set('c', 'm2', 'f', 2);
    cache.set('c', 'm3', 'f', 3);
    expect(cache.get('c', 'm1')).to.equal(undefined);
    expect(cache.get('c', 'm3')?.value).to.equal(3);
  });

  it('forgets the oldest finished tasks of a context beyond its byte limit', async () => {
    const { add, taskIds, stats } = setup({ maxContextBytes: 35_000 });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push((await add('c', 'completed', 'x'.repeat(10_000))).id);
    expect(await taskIds('c')).to.deep.equal(ids.slice(2));
    expect((await stats()).taskBytes).to.be.at.most(35_000);
  });

  it("beyond the byte total forgets finished tasks first, then the heaviest caller's waiting context", async () => {
    const { add, taskIds, has, evicted, stats } = setup({ maxTotalBytes: 50_000 });
    const light = await add('light', 'input-required', 'x'.repeat(5_000), 'light-caller');
    await add('done', 'completed', 'x'.repeat(10_000), 'heavy-caller');
    for (const name of ['h1', 'h2', 'h3'])
      await add(name, 'input-required', 'x'.repeat(12_000), 'heavy-caller');
    expect(await taskIds('done')).to.equal(undefined);
    expect((await stats()).taskBytes).to.be.at.most(50_000);
    await add('h4', 'input-required', 'x'.repeat(12_000), 'heavy-caller');
    expect(evicted).to.deep.equal(['h1']);
    expect(await has(light.id)).to.equal(true);
    expect((await stats()).taskBytes).to.be.at.most(50_000);
  });

  it('cuts a task history to its byte limit from the front, keeping the newest message', async () => {
    const store = new MemoryTaskStore({ replayTtlSeconds: 600, now: () => 0 });
    const live = new LiveTasks({ store, events: new TaskEvents(), maxHistoryBytes: 2_500 });
    const message = (id: string, size: number) => ({
      messageId: id,
      role: 'user' as const,
      parts: [{ kind: 'text' as const, text: 'y'.repeat(size) }],
    });
    const task: Task = {
      id: 't',
      contextId: 'c',
      status: { state: 'input-required', timestamp: new Date(0).toISOString() },
      history: [message('m1', 1_000)],
      artifacts: [],
    };
    live.hold({ task, owner: 'o', contextKey: 'c', bytes: 0 });
    for (const id of ['m2', 'm3', 'm4'])
      live.publish({
        kind: 'task',
        task: {
          ...(live.get('t') as Task),
          history: [...(live.get('t') as Task).history, message(id, 1_000)],
        },
      });
    expect(live.get('t')?.history.map((item) => item.messageId)).to.deep.equal(['m3', 'm4']);
    live.publish({ kind: 'task', task: { ...(live.get('t') as Task), history: [message('big', 10_000)] } });
    expect(live.get('t')?.history.map((item) => item.messageId)).to.deep.equal(['big']);
    await live.save('t');
    const stored = await store.getTask('t');
    expect(stored?.bytes).to.equal((await store.stats()).taskBytes);
    expect(stored?.bytes).to.be.greaterThan(jsonBytes(stored?.task.history));
  });
});

describe('A2A contexts: max_contexts shared fairly between callers', () => {
  const NOW = 1_000;
  function reservedContexts(cap: number) {
    // every context waits for input: none is idle
    const contexts = new Contexts(() => true);
    const evicted: { key: string; reason: string }[] = [];
    const open = (owner: string, id: string) => {
      const outcome = contexts.open({ key: `${owner}:${id}`, contextId: id, owner }, cap, NOW);
      if (outcome.kind === 'opened')
        evicted.push(...outcome.evicted.map(({ record, reason }) => ({ key: record.key, reason })));
      return outcome;
    };
    return { contexts, evicted, open };
  }

  it('lets one caller use the whole cap while it is alone', () => {
    const { contexts, open } = reservedContexts(4);
    for (const id of ['1', '2', '3', '4']) open('a', id);
    expect(contexts.heldBy('a')).to.equal(4);
    expect(open('a', '5')).to.deep.equal({ kind: 'full', cap: 4, share: 4 });
  });

  it("evicts the heaviest caller's least recently used waiting context for a caller under its share", () => {
    const { contexts, evicted, open } = reservedContexts(4);
    for (const id of ['1', '2', '3', '4']) open('a', id);
    open('b', '1');
    expect(evicted).to.deep.equal([{ key: 'a:1', reason: 'fair_share' }]);
    open('b', '2');
    expect(contexts.heldBy('a')).to.equal(2);
    expect(contexts.heldBy('b')).to.equal(2);
    // b has its share (4 / 2): it cannot push a out further
    expect(open('b', '3')).to.deep.equal({ kind: 'full', cap: 4, share: 2 });
    expect(contexts.heldBy('a')).to.equal(2);
  });

  it('never evicts a context whose turn is running', () => {
    const { contexts, open } = reservedContexts(2);
    for (const id of ['1', '2']) {
      const opened = open('a', id);
      if (opened.kind === 'opened') opened.record.claim = { holder: 'h', until: NOW + 1 };
    }
    expect(open('b', '1').kind).to.equal('full');
    expect(contexts.heldBy('a')).to.equal(2);
  });

  it('evicts an idle context before any waiting one', () => {
    const contexts = new Contexts((context) => context.contextId !== 'idle');
    const keys = (outcome: ReturnType<Contexts['open']>) =>
      outcome.kind === 'opened' ? outcome.evicted.map(({ record }) => record.key) : [];
    contexts.open({ key: 'a:busy', contextId: 'busy', owner: 'a' }, 2, NOW);
    contexts.open({ key: 'a:idle', contextId: 'idle', owner: 'a' }, 2, NOW);
    expect(keys(contexts.open({ key: 'b:new', contextId: 'new', owner: 'b' }, 2, NOW))).to.deep.equal([
      'a:idle',
    ]);
  });
});
