/**
 * Replays by `messageId`: a message sent again on the same context within the TTL gets the first
 * answer (awaited when still running) and runs nothing twice. Entries expire lazily on access and are
 * swept when the cache is written, so memory stays bounded by the traffic of one TTL.
 */

interface Entry<T> {
  readonly expiresAt: number;
  readonly value: T;
}

export class MessageCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlSeconds: number; now: () => number }) {
    this.ttlMs = options.ttlSeconds * 1000;
    this.now = options.now;
  }

  get(contextId: string, messageId: string): T | undefined {
    const key = keyOf(contextId, messageId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(contextId: string, messageId: string, value: T): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    // entries are in insertion order, so expired ones are at the front
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
    this.entries.set(keyOf(contextId, messageId), { expiresAt: now + this.ttlMs, value });
  }

  forget(contextId: string, messageId: string): void {
    this.entries.delete(keyOf(contextId, messageId));
  }
}

function keyOf(contextId: string, messageId: string): string {
  return `${contextId}\u0000${messageId}`;
}
