/**
 * Replays by `messageId`: a message sent again on the same context within the TTL gets the first
 * answer (awaited when still running) and runs nothing twice. The entry keeps a fingerprint of the
 * message, so the same id with another payload is told apart from a retry (the spec makes it invalid
 * params, not a replay). Entries expire lazily on access and are swept when the cache is written, so
 * memory stays bounded by the traffic of one TTL.
 */

interface Entry<T> {
  readonly expiresAt: number;
  readonly fingerprint: string;
  readonly value: T;
}

export interface CachedAnswer<T> {
  readonly fingerprint: string;
  readonly value: T;
}

export class MessageCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly maxEntries: number;

  /** `maxEntries`: the oldest answers are forgotten beyond it, whatever their TTL (memory stays bounded) */
  constructor(options: { ttlSeconds: number; now: () => number; maxEntries?: number }) {
    this.ttlMs = options.ttlSeconds * 1000;
    this.now = options.now;
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  }

  get(contextId: string, messageId: string): CachedAnswer<T> | undefined {
    const key = keyOf(contextId, messageId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(contextId: string, messageId: string, fingerprint: string, value: T): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    // entries are in insertion order, so expired ones are at the front
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
    this.entries.set(keyOf(contextId, messageId), { expiresAt: now + this.ttlMs, fingerprint, value });
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }

  forget(contextId: string, messageId: string): void {
    this.entries.delete(keyOf(contextId, messageId));
  }
}

/**
 * What makes two sends of a messageId the same message: its content, with object keys sorted so that a
 * client re-serialising its JSON in another key order is still recognised as retrying.
 */
export function messageFingerprint(message: {
  readonly role: string;
  readonly parts: unknown;
  readonly taskId?: string | undefined;
  readonly referenceTaskIds?: unknown;
  readonly metadata?: unknown;
}): string {
  return canonicalJson({
    role: message.role,
    parts: message.parts,
    taskId: message.taskId ?? null,
    referenceTaskIds: message.referenceTaskIds ?? [],
    metadata: message.metadata ?? {},
  });
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function keyOf(contextId: string, messageId: string): string {
  return `${contextId}\u0000${messageId}`;
}
