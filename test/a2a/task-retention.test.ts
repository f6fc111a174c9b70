import { expect } from 'chai';
import { Contexts } from '../../src/a2a/tasks/contexts.js';
import { MessageCache } from '../../src/a2a/tasks/message-cache.js';
import type { Task, TaskState } from '../../src/a2a/tasks/model.js';
import { DEFAULT_TASK_LIMITS, TaskRetention } from '../../src/a2a/tasks/task-retention.js';
import { TaskStore } from '../../src/a2a/tasks/task-store.js';

function setup(limits: { perContext: number; total: number }) {
  const store = new TaskStore();
  const contexts = new Contexts({
    maxContexts: 0,
    isReserved: () => false,
    onEvict: (ids) => store.remove(ids),
  });
  const retention = new TaskRetention({ store, contexts, limits });
  let counter = 0;
  /** adds a task to the context as the semantic handler does, then applies the limits */
  const add = (contextId: string, state: TaskState = 'completed'): Task => {
    counter += 1;
    const context = contexts.open(contextId);
    const task: Task = {
      id: `t${counter}`,
      contextId,
      status: { state, timestamp: new Date(counter * 1000).toISOString() },
      history: [],
      artifacts: [],
    };
    context.taskIds.push(task.id);
    store.create(task);
    retention.afterCreate(context);
    return task;
  };
  return { store, contexts, add };
}

describe('A2A task retention', () => {
  it('documents its defaults: 100 tasks per context, 10,000 in all', () => {
    expect(DEFAULT_TASK_LIMITS).to.deep.equal({ perContext: 100, total: 10_000 });
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

  it('the replay cache forgets its oldest answers beyond its cap', () => {
    const cache = new MessageCache<number>({ ttlSeconds: 600, now: () => 0, maxEntries: 2 });
    cache.set('c', 'm1', 'f', 1);
    cache.set('c', 'm2', 'f', 2);
    cache.set('c', 'm3', 'f', 3);
    expect(cache.get('c', 'm1')).to.equal(undefined);
    expect(cache.get('c', 'm3')?.value).to.equal(3);
  });
});
