/**
 * A2A contexts: each maps to one conversation (the contextId is the conversation's sender id). Holds
 * which context is running a turn (a second message gets CONTEXT_BUSY) and the `max_contexts` cap: a
 * context whose task waits for input (or runs) is reserved; idle ones are evicted, least recently used
 * first, when a new context needs room. Evicting forgets the A2A tasks, never the conversation.
 */
import { A2aError } from '../a2a-error.js';

export interface ContextRecord {
  readonly id: string;
  /** task ids, oldest first */
  readonly taskIds: string[];
  /** the turn (or cancellation) running now; undefined when idle */
  running: Promise<void> | undefined;
}

export interface ContextsOptions {
  /** 0: no cap */
  readonly maxContexts: number;
  /** true while the context has a task that is not terminal: it may not be evicted */
  readonly isReserved: (context: ContextRecord) => boolean;
  /** called with the task ids of an evicted context */
  readonly onEvict: (taskIds: readonly string[]) => void;
}

export class Contexts {
  // a Map keeps insertion order: re-inserting on use makes the first entry the least recently used
  private readonly records = new Map<string, ContextRecord>();
  private readonly options: ContextsOptions;

  constructor(options: ContextsOptions) {
    this.options = options;
  }

  get size(): number {
    return this.records.size;
  }

  get(id: string): ContextRecord | undefined {
    return this.records.get(id);
  }

  /** The context, created when new (making room under the cap); marks it recently used. */
  open(id: string): ContextRecord {
    const existing = this.records.get(id);
    if (existing) {
      this.records.delete(id);
      this.records.set(id, existing);
      return existing;
    }
    this.makeRoom();
    const record: ContextRecord = { id, taskIds: [], running: undefined };
    this.records.set(id, record);
    return record;
  }

  /** Forgets a context that has no tasks left (task retention); its conversation stays stored. */
  forget(id: string): void {
    this.records.delete(id);
  }

  private makeRoom(): void {
    const cap = this.options.maxContexts;
    if (cap <= 0 || this.records.size < cap) return;
    for (const record of this.records.values()) {
      if (record.running || this.options.isReserved(record)) continue;
      this.records.delete(record.id);
      this.options.onEvict(record.taskIds);
      return;
    }
    throw new A2aError({
      reason: 'MAX_CONTEXTS_REACHED',
      message: `This agent holds its maximum of ${cap} contexts, all waiting for input; try again later or continue an existing context.`,
      metadata: { maxContexts: String(cap) },
    });
  }
}
