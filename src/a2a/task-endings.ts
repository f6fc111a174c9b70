/**
 * How tasks end otherwise than by their turn's answer: superseded by a new task of their context,
 * evicted to make room, forgotten beyond the retention limits, past their deadline, or orphaned by a
 * process that died. Each ends as a failed (or canceled) task saying why, written to the store unless
 * the store has forgotten it already.
 */
import type { Logger } from '../runtime/logger.js';
import { failedOutcome } from './turn-runner.js';
import type { TurnRunner } from './turn-runner.js';
import type { DialogueOutcome } from './dialogue-outcome.js';
import type { LiveTasks } from './tasks/live-tasks.js';
import { TERMINAL_STATES } from './tasks/model.js';
import type { TaskEvents } from './tasks/task-events.js';
import type { OverdueReason } from './tasks/task-sweeper.js';
import type { Eviction, KnownContextSize, StoredTask, TaskStore } from './tasks/task-store.js';

export interface TaskEndingsOptions {
  readonly store: TaskStore;
  readonly live: LiveTasks;
  readonly events: TaskEvents;
  readonly runner: TurnRunner;
  readonly logger: Logger;
  readonly now: () => number;
  readonly taskTimeoutSeconds: number;
  /** stops the timers of forgotten tasks */
  readonly forgotten: (taskIds: readonly string[]) => void;
  /** writes a task whose state settled and tells the other processes */
  readonly saveSettled: (taskId: string) => Promise<void>;
}

export class TaskEndings {
  private readonly options: TaskEndingsOptions;

  constructor(options: TaskEndingsOptions) {
    this.options = options;
  }

  /** Ends a task that is not running here (superseded, evicted, overdue) and writes it. */
  async endWith(stored: StoredTask, outcome: DialogueOutcome): Promise<void> {
    const { live, runner } = this.options;
    const task = live.hold(stored);
    runner.finish(task, outcome, []);
    try {
      await this.options.saveSettled(task.id);
    } finally {
      await live.drop(task.id);
    }
  }

  /**
   * Closes the context's earlier tasks still waiting for input (superseded by the new task `taskId`):
   * its open tasks when the claim told them (read with it when the store did), else all its tasks.
   */
  async supersede(
    context: {
      readonly taskIds: readonly string[];
      readonly openTaskIds?: readonly string[];
      readonly openTasks?: readonly StoredTask[];
    },
    taskId: string,
  ): Promise<void> {
    const { live, store } = this.options;
    const read = new Map(context.openTasks?.map((stored) => [stored.task.id, stored]));
    for (const id of context.openTaskIds ?? context.taskIds) {
      if (id === taskId) continue;
      const earlier = live.stored(id) ?? read.get(id) ?? (await store.getTask(id));
      if (!earlier || TERMINAL_STATES.has(earlier.task.status.state)) continue;
      await this.endWith(earlier, {
        state: 'canceled',
        data: { cancel: { by: 'superseded', task_id: taskId } },
      });
    }
  }

  /** The task of an evicted context fails, saying why; unless evicted for a fair share it is gone already. */
  async endEvicted(evictions: readonly Eviction[]): Promise<void> {
    for (const { context, reason, openTasks } of evictions)
      for (const stored of openTasks) {
        const why =
          reason === 'fair_share'
            ? 'The agent needed this context for a caller holding fewer contexts.'
            : 'The agent needed the memory this task held for other callers.';
        this.options.logger.warn(
          { taskId: stored.task.id, contextId: context.contextId, reason },
          'a2a task evicted',
        );
        const outcome = failedOutcome(`evicted_${reason}`, why);
        if (reason === 'fair_share') await this.endWith(stored, outcome);
        else this.announceEnd(stored, outcome);
      }
  }

  /**
   * the retention limits, as soon as a task is accepted and again once its turn is over; `size`: what
   * the turn's claim said the context holds besides `task`, the turn's task as it is now (the store may
   * then skip reading the context)
   */
  async applyLimits(key: string, size?: KnownContextSize, task?: StoredTask): Promise<void> {
    const known = size && task ? { tasks: size.tasks, bytes: size.bytes + task.bytes } : undefined;
    const trimmed = await this.options.store.trim(key, this.options.now(), known);
    this.options.forgotten(trimmed.removed);
    this.options.events.forget(trimmed.removed);
    await this.endEvicted(trimmed.evictions);
  }

  /**
   * A task past its deadline, or whose process died mid-turn, fails saying so: at once when its turn
   * runs here (the turn's answer is then written as usual), else as the store has it.
   */
  async endOverdue(task: string | StoredTask, reason: OverdueReason): Promise<void> {
    const { live, store, logger, taskTimeoutSeconds: seconds } = this.options;
    const id = typeof task === 'string' ? task : task.task.id;
    const outcome =
      reason === 'timeout'
        ? failedOutcome('task_timeout', `The task ran longer than ${seconds} s.`)
        : failedOutcome(
            'worker_lost',
            'The agent process handling this task stopped; send the message again.',
          );
    const running = live.get(id);
    const stored = typeof task === 'string' ? (running ? undefined : await store.getTask(id)) : task;
    const current = running ?? stored?.task;
    if (!current || TERMINAL_STATES.has(current.status.state)) return;
    const fields = { taskId: id, contextId: current.contextId };
    if (reason === 'timeout') logger.warn({ ...fields, seconds }, 'a2a task timed out');
    else logger.warn(fields, 'a2a task lost its process');
    if (running) {
      this.options.runner.finish(running, outcome, []);
      await this.options.saveSettled(id);
    } else if (stored) await this.endWith(stored, outcome);
  }

  /** tells the listeners of a task the store has forgotten how it ended */
  private announceEnd(stored: StoredTask, outcome: DialogueOutcome): void {
    const { live, runner, events } = this.options;
    const task = live.hold(stored);
    runner.finish(task, outcome, []);
    void live.drop(task.id);
    events.forget([task.id]);
  }
}

/** what ending an earlier task (superseded) may add to its size: a status message and a data part */
const ENDING_GROWTH_BYTES = 4 * 1024;

/**
 * What a claim says its context holds besides the turn's own task (`added`: 1 for a new task), the
 * earlier tasks a new one may end counted as they may grow by it; undefined when the store did not say.
 */
export function contextSize(
  claimed: { readonly taskIds: readonly string[]; readonly taskBytes?: number },
  added: number,
): KnownContextSize | undefined {
  if (claimed.taskBytes === undefined) return undefined;
  const tasks = claimed.taskIds.length + added;
  return { tasks, bytes: claimed.taskBytes + claimed.taskIds.length * ENDING_GROWTH_BYTES };
}
