/** One safety-net timer per task (`task_timeout_seconds`): fires once unless the task ended before. */
export class TaskTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly seconds: number;

  /** `seconds` 0: no timers */
  constructor(seconds: number) {
    this.seconds = seconds;
  }

  start(taskId: string, onTimeout: (seconds: number) => void): void {
    if (this.seconds <= 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(taskId);
      onTimeout(this.seconds);
    }, this.seconds * 1000);
    timer.unref();
    this.timers.set(taskId, timer);
  }

  /** Stops a forgotten task's timer. */
  stop(taskIds: Iterable<string>): void {
    for (const id of taskIds) {
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
    }
  }

  /** Stops every timer (server shutdown). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
