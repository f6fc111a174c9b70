/**
 * The tasks this process is changing (a turn runs, or a cancel, timeout or eviction ends them): their
 * current copy, which the listeners hear change event by event, and which is written to the task store
 * at the points where the state must survive the process (accepted, answered). Writes of one task go
 * in order and each writes the task as it is then, so the last state always wins. A task's history
 * over `maxHistoryBytes` loses its oldest messages.
 */
import { applyTaskEvent } from './apply-event.js';
import { TERMINAL_STATES } from './model.js';
import type { Task, TaskEvent } from './model.js';
import type { TaskEvents } from './task-events.js';
import { TaskSize } from './task-size.js';
import type { SaveOptions, StoredTask, TaskStore } from './task-store.js';

interface Live {
  /** the task as it is now; its `bytes` are the size's total, read when asked for (current()) */
  stored: StoredTask;
  readonly size: TaskSize;
  writes: Promise<void>;
  /** how many pieces of work hold it (a turn and a cancel may overlap) */
  holders: number;
}

export class LiveTasks {
  private readonly entries = new Map<string, Live>();
  private readonly store: TaskStore;
  private readonly events: TaskEvents;
  private readonly maxHistoryBytes: number;

  constructor(options: { store: TaskStore; events: TaskEvents; maxHistoryBytes?: number }) {
    this.store = options.store;
    this.events = options.events;
    this.maxHistoryBytes = options.maxHistoryBytes ?? Number.POSITIVE_INFINITY;
  }

  get(id: string): Task | undefined {
    return this.entries.get(id)?.stored.task;
  }

  stored(id: string): StoredTask | undefined {
    const live = this.entries.get(id);
    return live && current(live);
  }

  /**
   * Starts changing a task (a new one, or one read from the store; a task held already keeps its
   * current copy) and returns that copy; announces nothing. Each hold is ended by one `drop`.
   */
  hold(stored: StoredTask): Task {
    const known = this.entries.get(stored.task.id);
    if (known) {
      known.holders += 1;
      return known.stored.task;
    }
    const size = new TaskSize();
    const task = this.sized(size, stored.task);
    const live: Live = {
      stored: { ...stored, task },
      size,
      writes: Promise.resolve(),
      holders: 1,
    };
    this.entries.set(task.id, live);
    return task;
  }

  /** Applies an update and tells the listeners; a terminal task changes no more. */
  publish(event: TaskEvent): Task | undefined {
    const id = event.kind === 'task' ? event.task.id : event.taskId;
    const live = this.entries.get(id);
    if (!live) return undefined;
    if (TERMINAL_STATES.has(live.stored.task.status.state) && event.kind !== 'task') return live.stored.task;
    const task = this.sized(live.size, applyTaskEvent(live.stored.task, event));
    live.stored = { ...live.stored, task };
    this.events.emit(id, event);
    return task;
  }

  /** Writes the task as it is when its turn to be written comes. */
  save(id: string, options?: SaveOptions): Promise<void> {
    const live = this.entries.get(id);
    if (!live) return Promise.resolve();
    const write = live.writes.then(
      () => this.store.saveTask(current(live), options),
      () => this.store.saveTask(current(live), options),
    );
    live.writes = write.catch(() => undefined);
    return write;
  }

  /** Ends a hold; the last one forgets the copy once its writes are done (the store has it as it is). */
  async drop(id: string): Promise<void> {
    const live = this.entries.get(id);
    if (!live) return;
    live.holders -= 1;
    await live.writes;
    if (live.holders <= 0 && this.entries.get(id) === live) this.entries.delete(id);
  }

  /** the task with its history cut to the byte limit, its size measured */
  private sized(size: TaskSize, task: Task): Task {
    const kept = size.measure(task, this.maxHistoryBytes);
    return kept === task.history ? task : { ...task, history: kept };
  }
}

/** the task as it is now, with its size */
function current(live: Live): StoredTask {
  return { ...live.stored, bytes: live.size.total };
}
