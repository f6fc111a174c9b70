/**
 * `tasks/cancel`: a task waiting for input is canceled with its flow (a `cancel flow` turn under the
 * context's claim); a task whose turn runs here is canceled at once and its flow once the turn is
 * over; a task whose turn runs in another process is canceled by that process, asked through the
 * task signals, and the answer is the task as the store then has it.
 */
import { A2aError } from './a2a-error.js';
import type { ContextClaims } from './context-claims.js';
import type { LiveTasks } from './tasks/live-tasks.js';
import { TERMINAL_STATES } from './tasks/model.js';
import type { Task } from './tasks/model.js';
import type { TaskSignals } from './tasks/task-signals.js';
import type { StoredTask, TaskStore } from './tasks/task-store.js';
import type { TurnRunner } from './turn-runner.js';

/** how long a cancel waits for the process running the task to end it */
const REMOTE_CANCEL_WAIT_MS = 5_000;
const REMOTE_CANCEL_POLL_MS = 50;

export interface TaskCancelsOptions {
  readonly store: TaskStore;
  readonly live: LiveTasks;
  readonly claims: ContextClaims;
  readonly runner: TurnRunner;
  readonly signals: TaskSignals | undefined;
  /** throws SHUTTING_DOWN while the server closes */
  readonly refuseWhenClosing: () => void;
  /** writes a task whose state settled and tells the other processes */
  readonly saveSettled: (taskId: string) => Promise<void>;
  /** once the context's claim is released */
  readonly afterTurn: (key: string, taskId: string) => Promise<void>;
}

export class TaskCancels {
  private readonly options: TaskCancelsOptions;

  constructor(options: TaskCancelsOptions) {
    this.options = options;
  }

  async cancel(stored: StoredTask, key: string): Promise<Task> {
    const { task } = stored;
    const id = task.id;
    if (task.status.state === 'canceled') return task;
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'TASK_NOT_CANCELABLE',
        message: `Task ${id} is ${task.status.state} and cannot be canceled.`,
        metadata: { taskId: id, state: task.status.state },
      });
    const { claims, live, runner, store } = this.options;
    this.options.refuseWhenClosing();
    if (claims.runningOn(key)) return this.cancelRunning(stored);
    try {
      await claims.claim({ key, contextId: task.contextId, owner: stored.owner });
    } catch (error) {
      // its turn runs in another process: that process cancels it
      if (error instanceof A2aError && error.reason === 'CONTEXT_BUSY' && this.options.signals)
        return this.cancelElsewhere(id, error);
      throw error;
    }
    const current = live.hold(stored);
    const cancelling = runner.cancelFlow(current, key).then(() => this.options.saveSettled(id));
    claims.hold(key, cancelling, () => this.options.afterTurn(key, id));
    await cancelling;
    return live.get(id) ?? (await store.getTask(id))?.task ?? current;
  }

  /** another process asks: cancel the task if its turn runs here */
  async remoteCancel(id: string): Promise<void> {
    const stored = this.options.live.stored(id);
    if (!stored || !this.options.claims.runningOn(stored.contextKey)) return;
    await this.cancelRunning(stored);
  }

  /** A task whose turn runs here is canceled at once; its flow is cancelled once the turn is over. */
  private async cancelRunning(stored: StoredTask): Promise<Task> {
    const { claims, live, runner, saveSettled } = this.options;
    const key = stored.contextKey;
    const id = stored.task.id;
    const running = claims.runningOn(key) ?? Promise.resolve();
    const current = live.hold(stored);
    const cancelling = running.then(() => runner.cancelFlow(current, key)).then(() => saveSettled(id));
    claims.hold(key, cancelling, () => this.options.afterTurn(key, id));
    runner.finish(current, { state: 'canceled', data: { cancel: { by: 'orchestrator' } } }, []);
    await saveSettled(id);
    return live.get(id) ?? current;
  }

  /** Asks the process running the task to cancel it, and answers once the store has it ended. */
  private async cancelElsewhere(id: string, busy: A2aError): Promise<Task> {
    this.options.signals?.cancel(id);
    const deadline = Date.now() + REMOTE_CANCEL_WAIT_MS;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, REMOTE_CANCEL_POLL_MS));
      const task = (await this.options.store.getTask(id))?.task;
      if (task && TERMINAL_STATES.has(task.status.state)) return task;
    }
    throw busy;
  }
}
