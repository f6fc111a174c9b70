/**
 * What processes sharing a task store tell each other, so that a caller may reach any of them: a task
 * whose turn settled (its state is stored: listeners elsewhere read it and hear its end) and a cancel
 * asked of the process running a task's turn. Adapters: none (one process), PostgreSQL LISTEN/NOTIFY
 * (src/stores/sql/postgres-task-signals.ts, wired by the composition root).
 */
export interface TaskSignalHandlers {
  /** another process stored the settled state of a task (interrupted or terminal) */
  settled(taskId: string): void;
  /** another process was asked to cancel a task whose turn may run here */
  cancel(taskId: string): void;
}

export interface TaskSignals {
  /** Tells the other processes that a task's settled state is stored. */
  settled(taskId: string): void;
  /** Asks the process running the task's turn to cancel it. */
  cancel(taskId: string): void;
  /** Hears the other processes' signals (never this process's own). */
  listen(handlers: TaskSignalHandlers): void;
  close(): Promise<void>;
}

/** one process: nothing to tell */
export const NO_SIGNALS: TaskSignals = {
  settled: () => undefined,
  cancel: () => undefined,
  listen: () => undefined,
  close: async () => undefined,
};
