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
import type { Contexts, ContextRecord } from './contexts.js';
import { TERMINAL_STATES } from './model.js';
import type { TaskStore } from './task-store.js';

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

export interface TaskRetentionOptions {
  readonly store: TaskStore;
  readonly contexts: Contexts;
  readonly limits?: TaskLimits;
  /** ends a context's open task and forgets the context (memory limit) */
  readonly evict: (context: ContextRecord) => void;
}

export class TaskRetention {
  private readonly store: TaskStore;
  private readonly contexts: Contexts;
  private readonly limits: TaskLimits;
  private readonly evict: (context: ContextRecord) => void;

  constructor(options: TaskRetentionOptions) {
    this.store = options.store;
    this.contexts = options.contexts;
    this.limits = options.limits ?? DEFAULT_TASK_LIMITS;
    this.evict = options.evict;
  }

  /** after a task of `context` was added or grew: forgets what goes beyond the limits */
  afterChange(context: ContextRecord): void {
    this.trimContext(context);
    this.trimTerminal();
    if (this.store.totalBytes > this.limits.maxTotalBytes) this.evictHeaviest();
  }

  private trimContext(context: ContextRecord): void {
    let count = context.taskIds.length;
    let bytes = context.taskIds.reduce((sum, id) => sum + this.store.bytesOf(id), 0);
    for (const id of [...context.taskIds]) {
      if (count <= this.limits.perContext && bytes <= this.limits.maxContextBytes) return;
      const task = this.store.get(id);
      if (task && !TERMINAL_STATES.has(task.status.state)) continue;
      bytes -= this.store.bytesOf(id);
      count -= 1;
      this.forget(id, context.key);
    }
  }

  private trimTerminal(): void {
    const overBy = () => ({
      count: this.store.size - this.limits.total,
      bytes: this.store.totalBytes - this.limits.maxTotalBytes,
    });
    if (overBy().count <= 0 && overBy().bytes <= 0) return;
    const forgettable: { id: string; key: string }[] = [];
    let { count, bytes } = overBy();
    for (const { task, contextKey, bytes: size } of this.store.oldestFirst()) {
      if (count <= 0 && bytes <= 0) break;
      if (!TERMINAL_STATES.has(task.status.state)) continue;
      forgettable.push({ id: task.id, key: contextKey });
      count -= 1;
      bytes -= size;
    }
    for (const { id, key } of forgettable) this.forget(id, key);
  }

  /** open tasks alone over the byte total: the heaviest caller's least recently used waiting context goes */
  private evictHeaviest(): void {
    while (this.store.totalBytes > this.limits.maxTotalBytes) {
      const owner = this.heaviestOwner();
      let victim: ContextRecord | undefined;
      for (const context of this.contexts.values())
        if (context.owner === owner && !context.running && context.taskIds.length > 0) {
          victim = context;
          break;
        }
      if (!victim) return;
      this.evict(victim);
    }
  }

  private heaviestOwner(): string | undefined {
    const bytes = new Map<string, number>();
    for (const context of this.contexts.values()) {
      if (context.running) continue;
      const held = context.taskIds.reduce((sum, id) => sum + this.store.bytesOf(id), 0);
      bytes.set(context.owner, (bytes.get(context.owner) ?? 0) + held);
    }
    let heaviest: string | undefined;
    for (const [owner, held] of bytes)
      if (heaviest === undefined || held > (bytes.get(heaviest) ?? 0)) heaviest = owner;
    return heaviest;
  }

  private forget(taskId: string, key: string): void {
    this.store.remove([taskId]);
    const context = this.contexts.get(key);
    if (!context) return;
    const index = context.taskIds.indexOf(taskId);
    if (index >= 0) context.taskIds.splice(index, 1);
    if (context.taskIds.length === 0 && !context.running) this.contexts.forget(key);
  }
}
