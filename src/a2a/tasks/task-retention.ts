/**
 * Bounds the memory the A2A tasks take: a context keeps its newest `perContext` tasks and the process
 * its newest `total` tasks; older ones are forgotten (tasks/get answers -32001 for them), terminal
 * ones only, oldest first. A task that is still open is never dropped: there is at most one per
 * context (a new task supersedes the waiting one), so `max_contexts` bounds those. A context left
 * without tasks and not running is forgotten too, which bounds the contexts when `max_contexts` is 0.
 * The conversations themselves stay in the tracker store.
 */
import type { Contexts, ContextRecord } from './contexts.js';
import { TERMINAL_STATES } from './model.js';
import type { TaskStore } from './task-store.js';

export interface TaskLimits {
  /** tasks kept per context */
  readonly perContext: number;
  /** tasks kept in the process */
  readonly total: number;
}

/** ~10 k tasks of a few kB each (history and artifacts of one exchange): tens of MB at most */
export const DEFAULT_TASK_LIMITS: TaskLimits = { perContext: 100, total: 10_000 };

export class TaskRetention {
  private readonly store: TaskStore;
  private readonly contexts: Contexts;
  private readonly limits: TaskLimits;

  constructor(options: { store: TaskStore; contexts: Contexts; limits?: TaskLimits }) {
    this.store = options.store;
    this.contexts = options.contexts;
    this.limits = options.limits ?? DEFAULT_TASK_LIMITS;
  }

  /** after a task was added to `context`: forgets what goes beyond the limits */
  afterCreate(context: ContextRecord): void {
    this.trimContext(context);
    let excess = this.store.size - this.limits.total;
    if (excess <= 0) return;
    for (const task of this.store.oldestFirst()) {
      if (excess <= 0) break;
      if (!TERMINAL_STATES.has(task.status.state)) continue;
      this.forget(task.id, task.contextId);
      excess -= 1;
    }
  }

  private trimContext(context: ContextRecord): void {
    let excess = context.taskIds.length - this.limits.perContext;
    for (const id of [...context.taskIds]) {
      if (excess <= 0) return;
      const task = this.store.get(id);
      if (task && !TERMINAL_STATES.has(task.status.state)) continue;
      this.forget(id, context.id);
      excess -= 1;
    }
  }

  private forget(taskId: string, contextId: string): void {
    this.store.remove([taskId]);
    const context = this.contexts.get(contextId);
    if (!context) return;
    const index = context.taskIds.indexOf(taskId);
    if (index >= 0) context.taskIds.splice(index, 1);
    if (context.taskIds.length === 0 && !context.running) this.contexts.forget(contextId);
  }
}
