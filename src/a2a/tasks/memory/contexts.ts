/**
 * The memory store's contexts: each maps to one conversation (`key`, the conversation's sender id) and
 * belongs to the caller that opened it. A context running a turn is claimed; one whose task waits for
 * input (or runs) is reserved. When a new context needs room under `max_contexts`, the least recently
 * used idle one is evicted. When every context is reserved, a caller holding less than its fair share
 * (the cap divided among the callers holding contexts) still gets room: the least recently used
 * waiting context of the caller holding the most is evicted. So one caller can use the whole cap while
 * alone, but never lock the others out. Evicting forgets the A2A tasks, never the conversation.
 */
import { OrderedMap } from '../../../core/collections/ordered-map.js';
import type { ContextClaim, ContextIdentity, EvictionReason } from '../task-store.js';

export interface ContextRecord extends ContextIdentity {
  /** task ids, oldest first */
  readonly taskIds: string[];
  /** the turn (or cancellation) running now; undefined or lapsed when idle */
  claim: ContextClaim | undefined;
}

export interface EvictedContext {
  readonly record: ContextRecord;
  readonly reason: EvictionReason;
}

export type OpenOutcome =
  | { readonly kind: 'opened'; readonly record: ContextRecord; readonly evicted: readonly EvictedContext[] }
  | { readonly kind: 'full'; readonly cap: number; readonly share: number };

/** true while the context has a task that is not terminal */
export type IsReserved = (context: ContextRecord) => boolean;

export function isClaimed(record: ContextRecord, now: number): boolean {
  return record.claim !== undefined && record.claim.until > now;
}

export class Contexts {
  // touched on use, so the oldest entry is the least recently used
  private readonly records = new OrderedMap<string, ContextRecord>();
  private readonly perOwner = new Map<string, number>();
  private readonly isReserved: IsReserved;

  constructor(isReserved: IsReserved) {
    this.isReserved = isReserved;
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

  /** The context, created when new (making room under `cap`, 0: none); marks it recently used. */
  open(identity: ContextIdentity, cap: number, now: number): OpenOutcome {
    const existing = this.records.get(identity.key);
    if (existing) {
      this.records.touch(identity.key);
      return { kind: 'opened', record: existing, evicted: [] };
    }
    const room = this.makeRoom(identity.owner, cap, now);
    if (room.kind === 'full') return room;
    const record: ContextRecord = { ...identity, taskIds: [], claim: undefined };
    this.records.set(identity.key, record);
    this.perOwner.set(identity.owner, this.heldBy(identity.owner) + 1);
    return { kind: 'opened', record, evicted: room.evicted };
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

  private makeRoom(
    owner: string,
    cap: number,
    now: number,
  ): { kind: 'room'; evicted: EvictedContext[] } | { kind: 'full'; cap: number; share: number } {
    if (cap <= 0 || this.records.size < cap) return { kind: 'room', evicted: [] };
    const idle = this.find((record) => !isClaimed(record, now) && !this.isReserved(record));
    if (idle) return { kind: 'room', evicted: [this.evict(idle, 'idle')] };
    const callers = this.perOwner.size + (this.perOwner.has(owner) ? 0 : 1);
    const share = Math.max(1, Math.floor(cap / callers));
    const heaviest = this.heaviestOwner();
    if (this.heldBy(owner) < share && heaviest !== undefined && heaviest !== owner) {
      const waiting = this.find((record) => record.owner === heaviest && !isClaimed(record, now));
      if (waiting) return { kind: 'room', evicted: [this.evict(waiting, 'fair_share')] };
    }
    return { kind: 'full', cap, share };
  }

  private find(test: (record: ContextRecord) => boolean): ContextRecord | undefined {
    return this.records.find(test)?.[1];
  }

  private heaviestOwner(): string | undefined {
    let heaviest: string | undefined;
    for (const [owner, held] of this.perOwner)
      if (heaviest === undefined || held > this.heldBy(heaviest)) heaviest = owner;
    return heaviest;
  }

  private evict(record: ContextRecord, reason: EvictionReason): EvictedContext {
    this.forget(record.key);
    return { record, reason };
  }
}
