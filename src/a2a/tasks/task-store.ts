/**
 * The tasks of this process, in memory (Rasa keeps A2A state per process too; the start-up guardrail
 * refuses several workers). Every change goes through `publish`, which applies the event to the stored
 * task and hands it to the task's subscribers in order, so all streams of a task see the same sequence.
 */
import { TERMINAL_STATES } from './model.js';
import type { Artifact, Task, TaskEvent, TaskState } from './model.js';

export type TaskListener = (event: TaskEvent) => void;

export interface ListQuery {
  readonly contextId?: string;
  readonly state?: TaskState;
  /** only tasks whose status changed at or after this time (ms since the epoch) */
  readonly statusAfter?: number;
}

export class TaskStore {
  private readonly tasks = new Map<string, Task>();
  private readonly listeners = new Map<string, Set<TaskListener>>();

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Stores a new task and announces it with its first event. */
  create(task: Task): void {
    this.tasks.set(task.id, task);
    this.emit(task.id, { kind: 'task', task });
  }

  /** Applies an update to its task and tells the subscribers; a terminal task changes no more. */
  publish(event: TaskEvent): Task | undefined {
    const id = event.kind === 'task' ? event.task.id : event.taskId;
    const current = this.tasks.get(id);
    if (!current) return undefined;
    if (TERMINAL_STATES.has(current.status.state) && event.kind !== 'task') return current;
    const next = apply(current, event);
    this.tasks.set(id, next);
    this.emit(id, event);
    return next;
  }

  /** Hears the task's next events; returns the function that stops it. */
  subscribe(id: string, listener: TaskListener): () => void {
    let set = this.listeners.get(id);
    if (!set) {
      set = new Set();
      this.listeners.set(id, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(id);
    };
  }

  list(query: ListQuery): Task[] {
    const found = [...this.tasks.values()].filter(
      (task) =>
        (query.contextId === undefined || task.contextId === query.contextId) &&
        (query.state === undefined || task.status.state === query.state) &&
        (query.statusAfter === undefined || Date.parse(task.status.timestamp) >= query.statusAfter),
    );
    // newest status first (spec/a2a.md §2.4); ties keep creation order reversed, which is stable
    return found.reverse().sort((a, b) => Date.parse(b.status.timestamp) - Date.parse(a.status.timestamp));
  }

  /** the tasks in the order they were created */
  oldestFirst(): IterableIterator<Task> {
    return this.tasks.values();
  }

  /** Forgets tasks (their context was evicted, or they are beyond the retention limits). */
  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      this.tasks.delete(id);
      this.listeners.delete(id);
    }
  }

  private emit(id: string, event: TaskEvent): void {
    for (const listener of [...(this.listeners.get(id) ?? [])]) listener(event);
  }
}

function apply(task: Task, event: TaskEvent): Task {
  switch (event.kind) {
    case 'task':
      return event.task;
    case 'status-update': {
      // the agent's answer of a turn becomes part of the history (as a2a-js does); the progress messages
      // of a working status are only the pieces of that answer, streamed as they were produced
      const message = event.status.state === 'working' ? undefined : event.status.message;
      return { ...task, status: event.status, history: message ? [...task.history, message] : task.history };
    }
    case 'artifact-update':
      return { ...task, artifacts: mergeArtifact(task.artifacts, event.artifact, event.append) };
  }
}

function mergeArtifact(artifacts: readonly Artifact[], artifact: Artifact, append: boolean): Artifact[] {
  const index = artifacts.findIndex((item) => item.artifactId === artifact.artifactId);
  if (index < 0) return [...artifacts, artifact];
  const merged = artifacts.slice();
  const earlier = artifacts[index] as Artifact;
  merged[index] = append ? { ...earlier, parts: [...earlier.parts, ...artifact.parts] } : artifact;
  return merged;
}
