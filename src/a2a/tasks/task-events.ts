/**
 * The listeners of this process's tasks: streams, resubscriptions and push deliveries hear each event
 * of a task in the order it was published. The task store keeps state, not listeners.
 */
import type { TaskEvent } from './model.js';

export type TaskListener = (event: TaskEvent) => void;

export class TaskEvents {
  private readonly listeners = new Map<string, Set<TaskListener>>();
  private readonly everyTask = new Set<TaskListener>();

  /** Hears every task's events (push notifications); returns the function that stops it. */
  onEvery(listener: TaskListener): () => void {
    this.everyTask.add(listener);
    return () => this.everyTask.delete(listener);
  }

  /** Hears the task's next events; returns the function that stops it. */
  subscribe(taskId: string, listener: TaskListener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) {
      set = new Set();
      this.listeners.set(taskId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
    };
  }

  emit(taskId: string, event: TaskEvent): void {
    for (const listener of [...(this.listeners.get(taskId) ?? [])]) listener(event);
    for (const listener of this.everyTask) listener(event);
  }

  hasListeners(taskId: string): boolean {
    return this.listeners.has(taskId);
  }

  /** An event heard from another process: the task's own listeners hear it, not the every-task ones. */
  emitToSubscribers(taskId: string, event: TaskEvent): void {
    for (const listener of [...(this.listeners.get(taskId) ?? [])]) listener(event);
  }

  /** Drops the listeners of forgotten tasks. */
  forget(taskIds: Iterable<string>): void {
    for (const id of taskIds) this.listeners.delete(id);
  }
}
