/**
 * A task that settled in another process (its state is stored): the listeners of this process
 * (a resubscription, a stream) hear its end as the other process's listeners did: the artifact of a
 * terminal task, then the final status.
 */
import { INTERRUPTED_STATES, TERMINAL_STATES } from './model.js';
import type { TaskEvents } from './task-events.js';
import type { TaskStore } from './task-store.js';

export async function relaySettled(store: TaskStore, events: TaskEvents, taskId: string): Promise<void> {
  if (!events.hasListeners(taskId)) return;
  const stored = await store.getTask(taskId);
  if (!stored) return;
  const { task } = stored;
  const terminal = TERMINAL_STATES.has(task.status.state);
  const last = task.artifacts.at(-1);
  const ids = { taskId: task.id, contextId: task.contextId };
  if (terminal && last)
    events.emitToSubscribers(taskId, {
      kind: 'artifact-update',
      ...ids,
      artifact: last,
      append: false,
      lastChunk: true,
    });
  const final = terminal || INTERRUPTED_STATES.has(task.status.state);
  events.emitToSubscribers(taskId, { kind: 'status-update', ...ids, status: task.status, final });
}
