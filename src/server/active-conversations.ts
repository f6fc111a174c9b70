/** A conversation's place in the recency list. */
interface Entry {
  readonly id: string;
  seenMs: number;
  newer: Entry | undefined;
  older: Entry | undefined;
}

/**
 * Conversations that had a turn in the last `windowSeconds`, for the active-conversations gauge.
 * Memory is bounded: at most `maxTracked` ids are kept (the least recently active are forgotten
 * first, so the count saturates at the cap), and expired ids are dropped as new turns arrive.
 *
 * A Map plus a doubly linked recency list, so a turn costs O(1) and expiry O(expired): a Map alone,
 * re-inserted on each turn, slows down as deleted slots pile up at its front.
 */
export class ActiveConversations {
  private readonly entries = new Map<string, Entry>();
  /** least recently active first */
  private oldest: Entry | undefined;
  private newest: Entry | undefined;
  private readonly windowMs: number;
  private readonly maxTracked: number;
  private readonly now: () => number;

  constructor(options: { windowSeconds: number; maxTracked: number; now?: () => number }) {
    this.windowMs = options.windowSeconds * 1000;
    this.maxTracked = options.maxTracked;
    this.now = options.now ?? Date.now;
  }

  touch(conversationId: string): void {
    const now = this.now();
    const known = this.entries.get(conversationId);
    if (known) {
      this.unlink(known);
      known.seenMs = now;
      this.append(known);
    } else {
      const entry: Entry = { id: conversationId, seenMs: now, newer: undefined, older: undefined };
      this.entries.set(conversationId, entry);
      this.append(entry);
      if (this.entries.size > this.maxTracked && this.oldest) this.forget(this.oldest);
    }
    this.prune(now);
  }

  count(): number {
    this.prune(this.now());
    return this.entries.size;
  }

  private prune(now: number): void {
    while (this.oldest && now - this.oldest.seenMs > this.windowMs) this.forget(this.oldest);
  }

  private forget(entry: Entry): void {
    this.unlink(entry);
    this.entries.delete(entry.id);
  }

  private append(entry: Entry): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }
}
