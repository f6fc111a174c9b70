/**
 * Task deadlines (`task_timeout_seconds`) and tasks whose process died, enforced by whichever process
 * is alive: a timer per task this process started fails it when it runs too long, and a periodic sweep
 * of the store ends the overdue tasks no process here holds (started by a process that restarted or
 * died, or by another replica that is gone).
 */
import type { Logger } from '../../runtime/logger.js';
import type { StoredTask, TaskStore } from './task-store.js';

export const DEFAULT_SWEEP_INTERVAL_MS = 5_000;
/** overdue tasks ended per sweep, so that a backlog is worked off without a burst */
const SWEEP_BATCH = 100;

export type OverdueReason = 'timeout' | 'lost';

export interface TaskSweeperOptions {
  readonly store: TaskStore;
  readonly now: () => number;
  /** true for a task this process is changing (its own timer or turn ends it) */
  readonly isHeld: (taskId: string) => boolean;
  /** ends a task: by its id when this process's timer fired, else as the store has it */
  readonly end: (task: string | StoredTask, reason: OverdueReason) => Promise<void>;
  readonly logger: Logger;
  readonly intervalMs?: number;
}

export class TaskSweeper {
  private readonly options: TaskSweeperOptions;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private seconds = 0;
  private interval: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(options: TaskSweeperOptions) {
    this.options = options;
  }

  /** Starts the periodic sweep; `seconds` 0: tasks never time out (lost ones still end). */
  start(seconds: number): void {
    this.seconds = seconds;
    this.interval = setInterval(
      () => void this.sweep(),
      this.options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
    );
    this.interval.unref();
  }

  /** A timer for a task this process started: fires once unless the task was forgotten before. */
  watch(taskId: string): void {
    if (this.seconds <= 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(taskId);
      void this.ended(taskId, 'timeout');
    }, this.seconds * 1000);
    timer.unref();
    this.timers.set(taskId, timer);
  }

  /** Stops forgotten tasks' timers. */
  unwatch(taskIds: Iterable<string>): void {
    for (const id of taskIds) {
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
    }
  }

  /** Ends the overdue tasks of the store that no process here holds; one sweep at a time. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const now = this.options.now();
      const overdue = await this.options.store.overdueTasks(now, SWEEP_BATCH);
      for (const stored of overdue) {
        if (this.options.isHeld(stored.task.id) || this.timers.has(stored.task.id)) continue;
        const reason = stored.deadline !== undefined && stored.deadline <= now ? 'timeout' : 'lost';
        await this.ended(stored, reason);
      }
    } catch (error) {
      this.options.logger.warn({ error: String(error) }, 'a2a task sweep failed');
    } finally {
      this.sweeping = false;
    }
  }

  close(): void {
    clearInterval(this.interval);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async ended(task: string | StoredTask, reason: OverdueReason): Promise<void> {
    try {
      await this.options.end(task, reason);
    } catch (error) {
      const taskId = typeof task === 'string' ? task : task.task.id;
      this.options.logger.error({ taskId, error: String(error) }, 'a2a overdue task could not be ended');
    }
  }
}
