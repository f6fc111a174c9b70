/**
 * The push notification configs of the tasks, each owned by the caller that set it (the task's own
 * caller: another caller cannot even see the task). Bounded: a few per task and a total, so that one
 * turn cannot be made to send thousands of POSTs and configs cannot pile up; a task's configs go when
 * the task is forgotten.
 */
import { A2aError } from '../a2a-error.js';
import type { PushConfig } from './push-config.js';

export interface PushLimits {
  readonly perTask: number;
  /** so that one caller cannot take every config of the server */
  readonly perCaller: number;
  readonly total: number;
}

/** a config holds at most ~7.5 kB (push-config.ts), so the configs hold ~30 MB at the very most */
export const DEFAULT_PUSH_LIMITS: PushLimits = { perTask: 10, perCaller: 1_000, total: 4_000 };

interface Owned {
  readonly config: PushConfig;
  readonly owner: string;
}

export class PushRegistry {
  /** task id → config id → config */
  private readonly byTask = new Map<string, Map<string, Owned>>();
  private readonly limits: PushLimits;
  private count = 0;
  private readonly perCaller = new Map<string, number>();

  constructor(limits: PushLimits = DEFAULT_PUSH_LIMITS) {
    this.limits = limits;
  }

  get size(): number {
    return this.count;
  }

  hasTask(taskId: string): boolean {
    return this.byTask.has(taskId);
  }

  /** Adds or replaces (same id) a config; a new one beyond the limits is refused with -32602. */
  put(config: PushConfig, owner: string): void {
    const forTask = this.byTask.get(config.taskId) ?? new Map<string, Owned>();
    const replacing = forTask.get(config.id);
    if (replacing && replacing.owner !== owner) throw full('That config id is taken.', config.taskId);
    if (!replacing && forTask.size >= this.limits.perTask)
      throw full(
        `A task has at most ${this.limits.perTask} push notification configs; delete one first.`,
        config.taskId,
      );
    if (!replacing && this.count >= this.limits.total)
      throw full(
        `This agent holds its maximum of ${this.limits.total} push notification configs.`,
        config.taskId,
      );
    if (!replacing) this.count += 1;
    forTask.set(config.id, { config, owner });
    this.byTask.set(config.taskId, forTask);
  }

  /** the owner's configs of the task, in the order they were set */
  list(taskId: string, owner: string): PushConfig[] {
    return [...(this.byTask.get(taskId)?.values() ?? [])]
      .filter((entry) => entry.owner === owner)
      .map((entry) => entry.config);
  }

  /** every config of the task, whoever set it: where its notifications go */
  recipients(taskId: string): PushConfig[] {
    return [...(this.byTask.get(taskId)?.values() ?? [])].map((entry) => entry.config);
  }

  /** Removes the owner's config; true when the task has no config left. */
  delete(taskId: string, configId: string, owner: string): boolean {
    const forTask = this.byTask.get(taskId);
    if (!forTask) return true;
    if (forTask.get(configId)?.owner === owner && forTask.delete(configId)) this.release(owner);
    if (forTask.size > 0) return false;
    this.byTask.delete(taskId);
    return true;
  }

  /** Forgets every config of these tasks (they were forgotten). */
  removeTasks(taskIds: readonly string[]): void {
    for (const id of taskIds) {
      for (const { owner } of this.byTask.get(id)?.values() ?? []) this.release(owner);
      this.byTask.delete(id);
    }
  }

  private release(owner: string): void {
    this.count -= 1;
    const held = (this.perCaller.get(owner) ?? 1) - 1;
    if (held > 0) this.perCaller.set(owner, held);
    else this.perCaller.delete(owner);
  }
}

function full(message: string, taskId: string): A2aError {
  return new A2aError({
    reason: 'INVALID_PARAMS',
    message,
    metadata: { field: 'pushNotificationConfig', taskId },
  });
}
