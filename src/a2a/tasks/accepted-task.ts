/** The task a message starts, as accepted: `submitted`, with the message as its history. */
import type { A2aMessage, Task } from './model.js';
import type { ContextIdentity, StoredTask } from './task-store.js';

/** `deadline`: when it times out (ms since the epoch), undefined for never; its size is measured when held */
export function acceptedTask(
  context: ContextIdentity,
  message: A2aMessage & { readonly taskId: string },
  timestamp: string,
  deadline: number | undefined,
): StoredTask {
  const task: Task = {
    id: message.taskId,
    contextId: context.contextId,
    status: { state: 'submitted', timestamp },
    history: [message],
    artifacts: [],
  };
  return {
    task,
    owner: context.owner,
    contextKey: context.key,
    bytes: 0,
    ...(deadline !== undefined ? { deadline } : {}),
  };
}
