/**
 * Bounds the memory the A2A tasks take, in counts and in bytes: a context keeps its newest
 * `perContext` tasks within `maxContextBytes`, the process its newest `total` tasks within
 * `maxTotalBytes`; beyond, the oldest terminal tasks are forgotten (tasks/get answers -32001 for
 * them). Open tasks are at most one per context (a new task supersedes the waiting one); when they
 * alone exceed the byte total, the least recently used waiting context of the caller holding the most
 * bytes is evicted, so the heaviest caller pays. A context left without tasks and not running is
 * forgotten too, which bounds the contexts when `max_contexts` is 0. Conversations stay in the
 * tracker store.
 */
import { TERMINAL_STATES } from '../model.js';
import type { Eviction, StoredTask, TrimResult } from '../task-store.js';
import { isClaimed } from './contexts.js';
import type { ContextRecord, Contexts } from './contexts.js';
import type { TaskTable } from './task-table.js';

export interface TaskLimits {
  /** tasks kept per context */
  readonly perContext: number;
  /** tasks kept in the process */
  readonly total: number;
  /** bytes of the tasks of one context */
  readonly maxContextBytes: number;
  /** bytes of every task in the process */
  readonly maxTotalBytes: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = {
  perContext: 100,
  total: 10_000,
  maxContextBytes: 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
};

export class TaskRetention {
  private readonly table: TaskTable;
  private readonly contexts: Contexts;
  private readonly limits: TaskLimits;

  constructor(options: { table: TaskTable; contexts: Contexts; limits?: TaskLimits }) {
    this.table = options.table;
    this.contexts = options.contexts;
    this.limits = options.limits ?? DEFAULT_TASK_LIMITS;
  }

  /** after a task of `context` was added or grew: forgets what goes beyond the limits */
  afterChange(context: ContextRecord, now: number): TrimResult {
    const removed = [...this.trimContext(context, now), ...this.trimTerminal(now)];
    const evictions = this.table.totalBytes > this.limits.maxTotalBytes ? this.evictHeaviest(now) : [];
    return { removed, evictions };
  }

  /** Forgets a task; a context left without tasks and not running goes with it. */
  forget(taskId: string, key: string, now: number): void {
    this.table.remove([taskId]);
    const context = this.contexts.get(key);
    if (!context) return;
    const index = context.taskIds.indexOf(taskId);
    if (index >= 0) context.taskIds.splice(index, 1);
    if (context.taskIds.length === 0 && !isClaimed(context, now)) this.contexts.forget(key);
  }

  private trimContext(context: ContextRecord, now: number): string[] {
    let count = context.taskIds.length;
    let bytes = context.taskIds.reduce((sum, id) => sum + this.table.bytesOf(id), 0);
    const removed: string[] = [];
    for (const id of [...context.taskIds]) {
      if (count <= this.limits.perContext && bytes <= this.limits.maxContextBytes) break;
      const stored = this.table.get(id);
      if (stored && !TERMINAL_STATES.has(stored.task.status.state)) continue;
      bytes -= this.table.bytesOf(id);
      count -= 1;
      this.forget(id, context.key, now);
      removed.push(id);
    }
    return removed;
  }

  private trimTerminal(now: number): string[] {
    let count = this.table.size - this.limits.total;
    let bytes = this.table.totalBytes - this.limits.maxTotalBytes;
    if (count <= 0 && bytes <= 0) return [];
    const forgettable: StoredTask[] = [];
    for (const stored of this.table.values()) {
      if (count <= 0 && bytes <= 0) break;
      if (TERMINAL_STATES.has(stored.task.status.state)) {
        forgettable.push(stored);
        count -= 1;
        bytes -= stored.bytes;
      }
    }
    for (const { task, contextKey } of forgettable) this.forget(task.id, contextKey, now);
    return forgettable.map((stored) => stored.task.id);
  }

  /** open tasks alone over the byte total: the heaviest caller's least recently used waiting context goes */
  private evictHeaviest(now: number): Eviction[] {
    const evictions: Eviction[] = [];
    while (this.table.totalBytes > this.limits.maxTotalBytes) {
      const owner = this.heaviestOwner(now);
      let victim: ContextRecord | undefined;
      for (const context of this.contexts.values())
        if (context.owner === owner && !isClaimed(context, now) && context.taskIds.length > 0) {
          victim = context;
          break;
        }
      if (!victim) break;
      evictions.push(this.evict(victim));
    }
    return evictions;
  }

  /** Forgets a context and its tasks; the open ones are returned for the handler to end. */
  evict(context: ContextRecord, reason: Eviction['reason'] = 'memory'): Eviction {
    this.contexts.forget(context.key);
    const openTasks = context.taskIds
      .map((id) => this.table.get(id))
      .filter((stored): stored is StoredTask => !!stored && !TERMINAL_STATES.has(stored.task.status.state));
    if (reason !== 'fair_share') this.table.remove(context.taskIds);
    const { key, contextId, owner } = context;
    return { context: { key, contextId, owner }, reason, openTasks };
  }

  private heaviestOwner(now: number): string | undefined {
    const bytes = new Map<string, number>();
    for (const context of this.contexts.values()) {
      if (isClaimed(context, now)) continue;
      const held = context.taskIds.reduce((sum, id) => sum + this.table.bytesOf(id), 0);
      bytes.set(context.owner, (bytes.get(context.owner) ?? 0) + held);
    }
    let heaviest: string | undefined;
    for (const [owner, held] of bytes)
      if (heaviest === undefined || held > (bytes.get(heaviest) ?? 0)) heaviest = owner;
    return heaviest;
  }
}
