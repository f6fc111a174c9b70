/**
 * The memory store's tasks, in the order they were created, with their total size so that the
 * retention limits (task-retention.ts) can be byte limits.
 */
import { OrderedMap } from '../../../core/collections/ordered-map.js';
import type { ListQuery, StoredTask, TaskPage } from '../task-store.js';

export class TaskTable {
  private readonly entries = new OrderedMap<string, StoredTask>();
  private bytes = 0;

  get(id: string): StoredTask | undefined {
    return this.entries.get(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  bytesOf(id: string): number {
    return this.entries.get(id)?.bytes ?? 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** the bytes of every task held */
  get totalBytes(): number {
    return this.bytes;
  }

  /** Stores a task, replacing the one of its id (which keeps its place in the creation order). */
  put(stored: StoredTask): void {
    this.bytes += stored.bytes - this.bytesOf(stored.task.id);
    this.entries.set(stored.task.id, stored);
  }

  list(query: ListQuery): TaskPage {
    const found: StoredTask[] = [];
    for (const stored of this.entries.values())
      if (
        stored.owner === query.owner &&
        (query.contextId === undefined || stored.task.contextId === query.contextId) &&
        (query.state === undefined || stored.task.status.state === query.state) &&
        (query.statusAfter === undefined || Date.parse(stored.task.status.timestamp) >= query.statusAfter)
      )
        found.push(stored);
    // newest status first (spec/a2a.md §2.4); ties keep creation order reversed, which is stable
    const sorted = found
      .reverse()
      .sort((a, b) => Date.parse(b.task.status.timestamp) - Date.parse(a.task.status.timestamp));
    return {
      tasks: sorted.slice(query.offset, query.offset + query.limit).map((stored) => stored.task),
      total: sorted.length,
    };
  }

  /** the tasks in the order they were created */
  values(): IterableIterator<StoredTask> {
    return this.entries.values();
  }

  /** Forgets tasks; returns the ids that were there. */
  remove(ids: Iterable<string>): string[] {
    const removed: string[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      this.bytes -= entry.bytes;
      this.entries.delete(id);
      removed.push(id);
    }
    return removed;
  }
}
