import { expect } from 'chai';
import { A2aError } from '../../src/a2a/a2a-error.js';
import { Contexts } from '../../src/a2a/tasks/contexts.js';
import { MessageCache, messageFingerprint } from '../../src/a2a/tasks/message-cache.js';
import type { Task, TaskState } from '../../src/a2a/tasks/model.js';
import { DEFAULT_TASK_LIMITS, TaskRetention } from '../../src/a2a/tasks/task-retention.js';
import type { TaskLimits } from '../../src/a2a/tasks/task-retention.js';
import { TaskStore } from '../../src/a2a/tasks/task-store.js';

function setup(limits: Partial<TaskLimits>, owner = 'caller') {
  const store = new TaskStore();
  const evicted: string[] = [];
  const contexts = new Contexts({
    maxContexts: 0,
    isReserved: () => false,
    onEvict: (context) => store.remove(context.taskIds),
  });
  const retention = new TaskRetention({
    store,
    contexts,
    limits: { ...DEFAULT_TASK_LIMITS, ...limits },
    evict: (context) => {
      evicted.push(context.key);
      contexts.forget(context.key);
      store.remove(context.taskIds);
    },
  });
  let counter = 0;
  /** adds a task to the context as the semantic handler does, then applies the limits */
  const add = (contextId: string, state: TaskState = 'completed', text = '', by = owner): Task => {
    counter += 1;
    const context = contexts.open(contextId, { contextId, owner: by });
    const task: Task = {
      id: `t${counter}`,
      contextId,
      status: { state, timestamp: new Date(counter * 1000).toISOString() },
      history:
        text === '' ? [] : [{ messageId: `m${counter}`, role: 'user', parts: [{ kind: 'text', text }] }],
      artifacts: [],
    };
    context.taskIds.push(task.id);
    store.create(task, { owner: by, contextKey: context.key });
    retention.afterChange(context);
    return task;
  };
  return { store, contexts, add, evicted };
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

  it('keeps the newest tasks of a context, dropping terminal ones oldest first', () => {
    const { store, contexts, add } = setup({ perContext: 3, total: 100 });
    const ids = [1, 2, 3, 4, 5].map(() => add('c').id);
    expect(contexts.get('c')?.taskIds).to.deep.equal(ids.slice(2));
    expect(store.get(ids[0] as string)).to.equal(undefined);
    expect(store.size).to.equal(3);
  });

  it('never drops an open task: an input-required one survives the per-context trim', () => {
    const { store, contexts, add } = setup({ perContext: 2, total: 100 });
    const waiting = add('c', 'input-required');
    add('c');
    const newest = add('c');
    expect(contexts.get('c')?.taskIds).to.deep.equal([waiting.id, newest.id]);
    expect(store.get(waiting.id)?.status.state).to.equal('input-required');
  });

  it('bounds the process: beyond the total the oldest terminal tasks go, and contexts left empty with them', () => {
    const { store, contexts, add } = setup({ perContext: 100, total: 4 });
    const open = add('a', 'input-required');
    const gone = add('b');
    add('c');
    add('d');
    add('e');
    add('f');
    expect(store.size).to.equal(4);
    expect(store.get(open.id)).to.not.equal(undefined);
    expect(store.get(gone.id)).to.equal(undefined);
    expect(contexts.get('b')).to.equal(undefined);
    expect(contexts.get('a')?.taskIds).to.deep.equal([open.id]);
    expect(contexts.size).to.equal(4);
  });

  it('stays bounded over many contexts with max_contexts off', () => {
    const { store, contexts, add } = setup({ perContext: 100, total: 50 });
    for (let index = 0; index < 5_000; index += 1) add(`ctx-${index}`);
    expect(store.size).to.equal(50);
    expect(contexts.size).to.equal(50);
  });

  it('keeps a context whose turn still runs although its tasks are gone', () => {
    const { store, contexts, add } = setup({ perContext: 100, total: 1 });
    const first = add('busy', 'failed');
    const context = contexts.get('busy');
    if (context) context.running = Promise.resolve();
    add('other');
    expect(store.get(first.id)).to.equal(undefined);
    expect(contexts.get('busy')?.taskIds).to.deep.equal([]);
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

  it('forgets the oldest finished tasks of a context beyond its byte limit', () => {
    const { store, contexts, add } = setup({ maxContextBytes: 35_000 });
    const ids = [1, 2, 3, 4, 5].map(() => add('c', 'completed', 'x'.repeat(10_000)).id);
    expect(contexts.get('c')?.taskIds).to.deep.equal(ids.slice(2));
    expect(store.totalBytes).to.be.at.most(35_000);
  });

  it("beyond the byte total forgets finished tasks first, then the heaviest caller's waiting context", () => {
    const { store, contexts, add, evicted } = setup({ maxTotalBytes: 50_000 });
    const light = add('light', 'input-required', 'x'.repeat(5_000), 'light-caller');
    add('done', 'completed', 'x'.repeat(10_000), 'heavy-caller');
    for (const name of ['h1', 'h2', 'h3']) add(name, 'input-required', 'x'.repeat(12_000), 'heavy-caller');
    expect(contexts.get('done')).to.equal(undefined);
    expect(store.totalBytes).to.be.at.most(50_000);
    add('h4', 'input-required', 'x'.repeat(12_000), 'heavy-caller');
    expect(evicted).to.deep.equal(['h1']);
    expect(store.get(light.id)?.status.state).to.equal('input-required');
    expect(store.totalBytes).to.be.at.most(50_000);
  });

  it('cuts a task history to its byte limit from the front, keeping the newest message', () => {
    const store = new TaskStore({ maxHistoryBytes: 2_500 });
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
    store.create(task, { owner: 'o', contextKey: 'c' });
    for (const id of ['m2', 'm3', 'm4'])
      store.publish({
        kind: 'task',
        task: {
          ...(store.get('t') as Task),
          history: [...(store.get('t') as Task).history, message(id, 1_000)],
        },
      });
    expect(store.get('t')?.history.map((item) => item.messageId)).to.deep.equal(['m3', 'm4']);
    store.publish({ kind: 'task', task: { ...(store.get('t') as Task), history: [message('big', 10_000)] } });
    expect(store.get('t')?.history.map((item) => item.messageId)).to.deep.equal(['big']);
    expect(store.bytesOf('t')).to.equal(store.totalBytes);
    store.remove(['t']);
    expect(store.totalBytes).to.equal(0);
  });
});

describe('A2A contexts: max_contexts shared fairly between callers', () => {
  function reservedContexts(cap: number) {
    const evicted: { key: string; reason: string }[] = [];
    const contexts = new Contexts({
      maxContexts: cap,
      // every context waits for input: none is idle
      isReserved: () => true,
      onEvict: (context, reason) => evicted.push({ key: context.key, reason }),
    });
    const open = (owner: string, id: string) => contexts.open(`${owner}:${id}`, { contextId: id, owner });
    return { contexts, evicted, open };
  }

  it('lets one caller use the whole cap while it is alone', () => {
    const { contexts, open } = reservedContexts(4);
    for (const id of ['1', '2', '3', '4']) open('a', id);
    expect(contexts.heldBy('a')).to.equal(4);
    expect(() => open('a', '5'))
      .to.throw(A2aError)
      .with.property('reason', 'MAX_CONTEXTS_REACHED');
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
    expect(() => open('b', '3'))
      .to.throw(A2aError)
      .with.property('reason', 'MAX_CONTEXTS_REACHED');
    expect(contexts.heldBy('a')).to.equal(2);
  });

  it('never evicts a context whose turn is running', () => {
    const { contexts, open } = reservedContexts(2);
    for (const id of ['1', '2']) open('a', id).running = Promise.resolve();
    expect(() => open('b', '1'))
      .to.throw(A2aError)
      .with.property('reason', 'MAX_CONTEXTS_REACHED');
    expect(contexts.heldBy('a')).to.equal(2);
  });

  it('evicts an idle context before any waiting one', () => {
    const evicted: string[] = [];
    const contexts = new Contexts({
      maxContexts: 2,
      isReserved: (context) => context.contextId !== 'idle',
      onEvict: (context) => evicted.push(context.key),
    });
    contexts.open('a:busy', { contextId: 'busy', owner: 'a' });
    contexts.open('a:idle', { contextId: 'idle', owner: 'a' });
    contexts.open('b:new', { contextId: 'new', owner: 'b' });
    expect(evicted).to.deep.equal(['a:idle']);
  });
});
