/** Tasks for push service tests without a semantic handler: a memory task store and its events. */
import type { PushTasks } from '../../src/a2a/push/push-service.js';
import { LiveTasks } from '../../src/a2a/tasks/live-tasks.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { Task, TaskEvent } from '../../src/a2a/tasks/model.js';
import { TaskEvents } from '../../src/a2a/tasks/task-events.js';

export interface PushTaskHarness {
  readonly store: MemoryTaskStore;
  readonly events: TaskEvents;
  readonly tasks: PushTasks;
  /** stores a working task of `owner` in context `c1` and holds it, as a running turn does */
  create(id: string, owner: string): Promise<void>;
  /** publishes an event of a held task, as a turn does; its push deliveries start soon after */
  publish(event: TaskEvent): Task | undefined;
}

export async function pushTaskHarness(): Promise<PushTaskHarness> {
  const store = new MemoryTaskStore({ replayTtlSeconds: 600, now: Date.now });
  const events = new TaskEvents();
  const live = new LiveTasks({ store, events });
  return {
    store,
    events,
    tasks: {
      owned: async (id, caller) => {
        const stored = live.stored(id) ?? (await store.getTask(id));
        return stored?.owner === caller ? stored.task : undefined;
      },
      current: (id) => live.get(id),
    },
    async create(id, owner) {
      await store.claimContext({
        key: 'c1',
        contextId: 'c1',
        owner,
        holder: 'test',
        now: Date.now(),
        leaseMs: 60_000,
        maxContexts: 0,
      });
      live.hold({
        task: {
          id,
          contextId: 'c1',
          status: { state: 'working', timestamp: new Date().toISOString() },
          history: [],
          artifacts: [],
        },
        owner,
        contextKey: 'c1',
        bytes: 0,
      });
      await live.save(id);
    },
    publish: (event) => live.publish(event),
  };
}
