/**
 * The push notification configs of the tasks, each owned by the caller that set it (the task's own
 * caller: another caller cannot even see the task). Bounded: a few per task and a total, so that one
 * turn cannot be made to send thousands of POSTs and configs cannot pile up; a task's configs go when
 * the task is forgotten.
 */
import type { PushConfig } from '../../push/push-config.js';
import { DEFAULT_PUSH_LIMITS } from '../task-store.js';
import type { OwnedPushConfig, PushLimits, PushPutOutcome } from '../task-store.js';

export class PushRegistry {
  /** task id → config id → config */
  private readonly byTask = new Map<string, Map<string, OwnedPushConfig>>();
  private count = 0;
  private readonly perCaller = new Map<string, number>();

  get size(): number {
    return this.count;
  }

  hasTask(taskId: string): boolean {
    return this.byTask.has(taskId);
  }

  /** Adds or replaces (same id) a config; a new one beyond the limits is refused. */
  put(config: PushConfig, owner: string, limits: PushLimits = DEFAULT_PUSH_LIMITS): PushPutOutcome {
    const forTask = this.byTask.get(config.taskId) ?? new Map<string, OwnedPushConfig>();
    const replacing = forTask.get(config.id);
    if (replacing && replacing.owner !== owner) return { kind: 'taken' };
    if (!replacing) {
      if (forTask.size >= limits.perTask) return { kind: 'full', limit: 'perTask', max: limits.perTask };
      if ((this.perCaller.get(owner) ?? 0) >= limits.perCaller)
        return { kind: 'full', limit: 'perCaller', max: limits.perCaller };
      if (this.count >= limits.total) return { kind: 'full', limit: 'total', max: limits.total };
      this.count += 1;
      this.perCaller.set(owner, (this.perCaller.get(owner) ?? 0) + 1);
    }
    forTask.set(config.id, { config, owner });
    this.byTask.set(config.taskId, forTask);
    return { kind: 'stored' };
  }

  /** the owner's configs of the task, in the order they were set */
  list(taskId: string, owner: string): PushConfig[] {
    return [...(this.byTask.get(taskId)?.values() ?? [])]
      .filter((entry) => entry.owner === owner)
      .map((entry) => entry.config);
  }

  /** every config of the task, whoever set it: where its notifications go */
  recipients(taskId: string): OwnedPushConfig[] {
    return [...(this.byTask.get(taskId)?.values() ?? [])];
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
