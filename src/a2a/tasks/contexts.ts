/**
 * A2A contexts: each maps to one conversation (`key`, the conversation's sender id) and belongs to the
 * caller that opened it. Holds which context is running a turn (a second message gets CONTEXT_BUSY)
 * and the `max_contexts` cap. A context whose task waits for input (or runs) is reserved; when a new
 * context needs room, the least recently used idle one is evicted. When every context is reserved, a
 * caller holding less than its fair share (the cap divided among the callers holding contexts) still
 * gets room: the least recently used waiting context of the caller holding the most is evicted. So one
 * caller can use the whole cap while alone, but never lock the others out. Evicting forgets the A2A
 * tasks, never the conversation.
 */
import { A2aError } from '../a2a-error.js';

export interface ContextRecord {
  /** the conversation id (sender id), unique across callers */
  readonly key: string;
  /** the id the caller knows the context by */
  readonly contextId: string;
  readonly owner: string;
  /** task ids, oldest first */
  readonly taskIds: string[];
  /** the turn (or cancellation) running now; undefined when idle */
  running: Promise<void> | undefined;
}

/** why a context was evicted: it was idle, or its caller held more than its fair share */
export type EvictionReason = 'idle' | 'fair_share';

export interface ContextsOptions {
  /** 0: no cap */
  readonly maxContexts: number;
  /** true while the context has a task that is not terminal */
  readonly isReserved: (context: ContextRecord) => boolean;
  /** called with an evicted context (its open task, if any, must be ended) */
  readonly onEvict: (context: ContextRecord, reason: EvictionReason) => void;
}

export class Contexts {
  // a Map keeps insertion order: re-inserting on use makes the first entry the least recently used
  private readonly records = new Map<string, ContextRecord>();
  private readonly perOwner = new Map<string, number>();
  private readonly options: ContextsOptions;

  constructor(options: ContextsOptions) {
    this.options = options;
  }

  get size(): number {
    return this.records.size;
  }

  get(key: string): ContextRecord | undefined {
    return this.records.get(key);
  }

  /** how many contexts `owner` holds */
  heldBy(owner: string): number {
    return this.perOwner.get(owner) ?? 0;
  }

  /** the contexts, least recently used first */
  values(): IterableIterator<ContextRecord> {
    return this.records.values();
  }

  /** The context, created when new (making room under the cap); marks it recently used. */
  open(key: string, identity: { readonly contextId: string; readonly owner: string }): ContextRecord {
    const existing = this.records.get(key);
    if (existing) {
      this.records.delete(key);
      this.records.set(key, existing);
      return existing;
    }
    this.makeRoom(identity.owner);
    const record: ContextRecord = { key, ...identity, taskIds: [], running: undefined };
    this.records.set(key, record);
    this.perOwner.set(identity.owner, this.heldBy(identity.owner) + 1);
    return record;
  }

  /** Forgets a context (no tasks left, or evicted); its conversation stays stored. */
  forget(key: string): void {
    const record = this.records.get(key);
    if (!record) return;
    this.records.delete(key);
    const held = this.heldBy(record.owner) - 1;
    if (held > 0) this.perOwner.set(record.owner, held);
    else this.perOwner.delete(record.owner);
  }

  private makeRoom(owner: string): void {
    const cap = this.options.maxContexts;
    if (cap <= 0 || this.records.size < cap) return;
    const idle = this.find((record) => !record.running && !this.options.isReserved(record));
    if (idle) return this.evict(idle, 'idle');
    const callers = this.perOwner.size + (this.perOwner.has(owner) ? 0 : 1);
    const share = Math.max(1, Math.floor(cap / callers));
    const heaviest = this.heaviestOwner();
    if (this.heldBy(owner) < share && heaviest !== undefined && heaviest !== owner) {
      const waiting = this.find((record) => record.owner === heaviest && !record.running);
      if (waiting) return this.evict(waiting, 'fair_share');
    }
    throw new A2aError({
      reason: 'MAX_CONTEXTS_REACHED',
      message:
        `This agent holds its maximum of ${cap} contexts and this caller its fair share of them (${share}); ` +
        'finish or cancel a task of yours, or continue an existing context.',
      metadata: { maxContexts: String(cap), callerShare: String(share) },
    });
  }

  private find(test: (record: ContextRecord) => boolean): ContextRecord | undefined {
    for (const record of this.records.values()) if (test(record)) return record;
    return undefined;
  }

  private heaviestOwner(): string | undefined {
    let heaviest: string | undefined;
    for (const [owner, held] of this.perOwner)
      if (heaviest === undefined || held > this.heldBy(heaviest)) heaviest = owner;
    return heaviest;
  }

  private evict(record: ContextRecord, reason: EvictionReason): void {
    this.forget(record.key);
    this.options.onEvict(record, reason);
  }
}
