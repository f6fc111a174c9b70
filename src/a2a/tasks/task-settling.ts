/** Small rules of a message's life: whether it may be taken in, and when its answer is ready. */
import { A2aError, invalidParams, taskNotFound } from '../a2a-error.js';
import { TERMINAL_STATES } from './model.js';
import type { StoredTask } from './task-store.js';
import type { A2aMessage, Task } from './model.js';
import { jsonBytes } from './task-size.js';
import type { LiveTasks } from './live-tasks.js';
import type { TaskEvents } from './task-events.js';

/** A message over `maxBytes` (its parts and metadata as JSON) is refused before anything runs. */
export function refuseOversized(message: A2aMessage, maxBytes: number): void {
  const bytes = jsonBytes({ parts: message.parts, metadata: message.metadata ?? null });
  if (bytes <= maxBytes) return;
  throw new A2aError({
    reason: 'INVALID_PARAMS',
    message: `The message is ${bytes} bytes; this agent accepts messages of at most ${maxBytes} bytes.`,
    metadata: { field: 'message', limitBytes: String(maxBytes) },
  });
}

/**
 * The task once its last status of the turn is out (interrupted or terminal), which may come before
 * the turn ends: a timed-out or canceled task answers a blocking send at once.
 */
export function whenSettled(
  tasks: { readonly live: LiveTasks; readonly events: TaskEvents },
  taskId: string,
  turn: Promise<void>,
): Promise<Task> {
  const { live, events } = tasks;
  let last = live.get(taskId) as Task;
  return new Promise((resolve) => {
    const stop = events.subscribe(taskId, (event) => {
      last = live.get(taskId) ?? last;
      if (event.kind !== 'status-update' || !event.final) return;
      stop();
      resolve(last);
    });
    const end = (): void => {
      stop();
      resolve(live.get(taskId) ?? last);
    };
    void turn.then(end, end);
  });
}

/**
 * The answer of a send, once its context is free again (`released`), so that the caller's next
 * message finds it free on any replica; at once when the turn still runs (its task timed out or was
 * canceled meanwhile, and the context stays claimed until the turn ends).
 */
export function answerWhenFree(
  settled: Promise<Task>,
  turn: Promise<void>,
  released: Promise<void>,
): Promise<Task> {
  return settled.then(async (task) => {
    if (await endsSoon(turn)) await released;
    return task;
  });
}

/** whether the turn is over within this turn of the event loop: a turn normally ends with its final event */
export function endsSoon(turn: Promise<void>): Promise<boolean> {
  return Promise.race([
    turn.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
  ]);
}

/** The task a message names, when the message may continue it (another caller's is not found). */
export function continuable(message: A2aMessage, stored: StoredTask | undefined): StoredTask {
  const id = message.taskId as string;
  if (!stored) throw taskNotFound(id);
  if (message.contextId !== undefined && message.contextId !== stored.task.contextId)
    throw invalidParams(
      `Task ${id} belongs to another context than ${message.contextId}.`,
      'message.contextId',
    );
  if (TERMINAL_STATES.has(stored.task.status.state))
    throw new A2aError({
      reason: 'TASK_TERMINAL',
      message: `Task ${id} is ${stored.task.status.state}; send the message without taskId to start a new task.`,
      metadata: { taskId: id, state: stored.task.status.state },
    });
  return stored;
}
