/**
 * The tasks of this process, in memory (Rasa keeps A2A state per process too; the start-up guardrail
 * refuses several workers). Every change goes through `publish`, which applies the event to the stored
 * task and hands it to the task's subscribers in order, so all streams of a task see the same sequence.
 * Each task belongs to the caller that created it and knows its size in bytes (as JSON), so that the
 * limits of task-retention.ts can be byte limits; a history over `maxHistoryBytes` loses its oldest
 * messages.
 */
import { TERMINAL_STATES } from './model.js';
import type { Artifact, Task, TaskEvent, TaskState } from './model.js';
import { TaskSize } from './task-size.js';

export type TaskListener = (event: TaskEvent) => void;

export interface ListQuery {
  readonly owner: string;
  readonly contextId?: string;
  readonly state?: TaskState;
  /** only tasks whose status changed at or after this time (ms since the epoch) */
  readonly statusAfter?: number;
}

/** whose a task is: the caller that created it, and the context (conversation) it runs in */
export interface TaskOwnership {
  readonly owner: string;
  /** the context's key (its conversation id), unique across callers unlike the contextId */
  readonly contextKey: string;
}

/** a stored task with its ownership and size */
export interface StoredTask extends TaskOwnership {
  readonly task: Task;
  readonly bytes: number;
}

interface Entry extends TaskOwnership {
  task: Task;
  readonly size: TaskSize;
}

export class TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Map<string, Set<TaskListener>>();
  private readonly removalListeners = new Set<(ids: readonly string[]) => void>();
  private readonly maxHistoryBytes: number;
  private bytes = 0;

  constructor(options: { readonly maxHistoryBytes?: number } = {}) {
    this.maxHistoryBytes = options.maxHistoryBytes ?? Number.POSITIVE_INFINITY;
  }

  get(id: string): Task | undefined {
    return this.entries.get(id)?.task;
  }

  /** The task when it belongs to `owner`; another caller's task is as unknown as a missing one. */
  owned(id: string, owner: string): Task | undefined {
    const entry = this.entries.get(id);
    return entry && entry.owner === owner ? entry.task : undefined;
  }

  ownershipOf(id: string): TaskOwnership | undefined {
    const entry = this.entries.get(id);
    return entry ? { owner: entry.owner, contextKey: entry.contextKey } : undefined;
  }

  bytesOf(id: string): number {
    return this.entries.get(id)?.size.total ?? 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** the bytes of every task held */
  get totalBytes(): number {
    return this.bytes;
  }

  /** Stores a new task and announces it with its first event. */
  create(task: Task, ownership: TaskOwnership): void {
    const size = new TaskSize();
    const entry: Entry = { task: this.sized(size, task), ...ownership, size };
    this.entries.set(task.id, entry);
    this.bytes += size.total;
    this.emit(task.id, { kind: 'task', task: entry.task });
  }

  /** Applies an update to its task and tells the subscribers; a terminal task changes no more. */
  publish(event: TaskEvent): Task | undefined {
    const id = event.kind === 'task' ? event.task.id : event.taskId;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (TERMINAL_STATES.has(entry.task.status.state) && event.kind !== 'task') return entry.task;
    const before = entry.size.total;
    entry.task = this.sized(entry.size, apply(entry.task, event));
    this.bytes += entry.size.total - before;
    this.emit(id, event);
    return entry.task;
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

  /** Hears which tasks are forgotten (push configs go with their task). */
  onRemoved(listener: (ids: readonly string[]) => void): () => void {
    this.removalListeners.add(listener);
    return () => this.removalListeners.delete(listener);
  }

  list(query: ListQuery): Task[] {
    const found: Task[] = [];
    for (const { task, owner } of this.entries.values())
      if (
        owner === query.owner &&
        (query.contextId === undefined || task.contextId === query.contextId) &&
        (query.state === undefined || task.status.state === query.state) &&
        (query.statusAfter === undefined || Date.parse(task.status.timestamp) >= query.statusAfter)
      )
        found.push(task);
    // newest status first (spec/a2a.md §2.4); ties keep creation order reversed, which is stable
    return found.reverse().sort((a, b) => Date.parse(b.status.timestamp) - Date.parse(a.status.timestamp));
  }

  /** the tasks in the order they were created */
  *oldestFirst(): IterableIterator<StoredTask> {
    for (const { task, owner, contextKey, size } of this.entries.values())
      yield { task, owner, contextKey, bytes: size.total };
  }

  /** Forgets tasks (their context was evicted, or they are beyond the retention limits). */
  remove(ids: Iterable<string>): void {
    const removed: string[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      this.bytes -= entry.size.total;
      this.entries.delete(id);
      this.listeners.delete(id);
      removed.push(id);
    }
    if (removed.length > 0) for (const listener of [...this.removalListeners]) listener(removed);
  }

  /** the task with its history cut to the byte limit, its size measured */
  private sized(size: TaskSize, task: Task): Task {
    const kept = size.measure(task, this.maxHistoryBytes);
    return kept === task.history ? task : { ...task, history: kept };
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
