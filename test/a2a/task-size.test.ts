import { expect } from 'chai';
import { LiveTasks } from '../../src/a2a/tasks/live-tasks.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { A2aMessage, Task } from '../../src/a2a/tasks/model.js';
import { TaskEvents } from '../../src/a2a/tasks/task-events.js';
import { TaskSize, jsonBytes } from '../../src/a2a/tasks/task-size.js';

const message = (id: string, text: string, role: 'user' | 'agent' = 'agent'): A2aMessage => ({
  messageId: id,
  role,
  parts: [{ kind: 'text', text }],
});

const task = (changes: Partial<Task> = {}): Task => ({
  id: 't',
  contextId: 'c',
  status: { state: 'submitted', timestamp: new Date(0).toISOString() },
  history: [message('m1', 'hello', 'user')],
  artifacts: [],
  ...changes,
});

/** what the size must come to: the history, the artifacts and a working status's message as JSON */
function expectedTotal(of: Task): number {
  const working = of.status.state === 'working' ? of.status.message : undefined;
  const history = of.history.reduce((sum, item) => sum + jsonBytes(item), 0);
  const artifacts = of.artifacts.length === 0 ? 0 : jsonBytes(of.artifacts);
  return 256 + history + artifacts + (working ? jsonBytes(working) : 0);
}

describe('A2A task size', () => {
  it('counts the history, the artifacts and a working status’s message, whenever the total is read', () => {
    const size = new TaskSize();
    const steps: Task[] = [task()];
    const streaming = (text: string) => ({
      state: 'working' as const,
      timestamp: new Date(1).toISOString(),
      message: message(`w-${text}`, text),
    });
    steps.push(task({ status: streaming('one') }));
    steps.push(task({ status: streaming('one, two — ünïcødé') }));
    const answer = message('a1', 'one, two, three');
    const artifacts = [
      { artifactId: 'x', parts: [{ kind: 'data' as const, data: { slots: { city: 'Porto' } } }] },
    ];
    steps.push(
      task({
        status: { state: 'completed', timestamp: new Date(2).toISOString(), message: answer },
        history: [message('m1', 'hello', 'user'), answer],
        artifacts,
      }),
    );
    for (const [index, step] of steps.entries()) {
      size.measure(step, Number.POSITIVE_INFINITY);
      // read at some steps only: what was not read is measured when it is
      if (index % 2 === 1 || index === steps.length - 1)
        expect(size.total, `step ${index}`).to.equal(expectedTotal(step));
    }
    // the same artifacts and history again: nothing changes
    size.measure(steps[steps.length - 1] as Task, Number.POSITIVE_INFINITY);
    expect(size.total).to.equal(expectedTotal(steps[steps.length - 1] as Task));
  });

  it('gives a held task’s size to whoever reads or writes it, its working status included', async () => {
    const store = new MemoryTaskStore({ replayTtlSeconds: 600, now: () => 0 });
    const live = new LiveTasks({ store, events: new TaskEvents() });
    live.hold({ task: task(), owner: 'o', contextKey: 'c', bytes: 0 });
    const status = {
      state: 'working' as const,
      timestamp: new Date(1).toISOString(),
      message: message('w', 'on it'),
    };
    live.publish({ kind: 'status-update', taskId: 't', contextId: 'c', status, final: false });
    const working = live.stored('t');
    expect(working?.bytes).to.equal(expectedTotal(working?.task as Task));
    await live.save('t');
    expect((await store.getTask('t'))?.bytes).to.equal(expectedTotal(working?.task as Task));
    const done = {
      state: 'completed' as const,
      timestamp: new Date(2).toISOString(),
      message: message('a', 'done'),
    };
    live.publish({ kind: 'status-update', taskId: 't', contextId: 'c', status: done, final: true });
    await live.save('t');
    const stored = await store.getTask('t');
    expect(stored?.task.history.map((item) => item.messageId)).to.deep.equal(['m1', 'a']);
    expect(stored?.bytes).to.equal(expectedTotal(stored?.task as Task));
    expect((await store.stats()).taskBytes).to.equal(stored?.bytes);
  });
});
