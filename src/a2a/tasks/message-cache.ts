import { hash } from 'node:crypto';
import { OrderedMap } from '../../core/collections/ordered-map.js';

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
  /** what the answer holds, once known (`weigh`) */
  bytes: number;
}

export interface CachedAnswer<T> {
  readonly fingerprint: string;
  readonly value: T;
}

export class MessageCache<T> {
  private readonly entries = new OrderedMap<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;

  /**
   * `maxEntries` and `maxBytes`: the oldest answers are forgotten beyond them, whatever their TTL, so
   * memory stays bounded (an answer is a whole task, which the task limits no longer see once the
   * task itself is forgotten)
   */
  constructor(options: { ttlSeconds: number; now: () => number; maxEntries?: number; maxBytes?: number }) {
    this.ttlMs = options.ttlSeconds * 1000;
    this.now = options.now;
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /** the bytes of the answers weighed so far */
  get totalBytes(): number {
    return this.bytes;
  }

  get(contextId: string, messageId: string): CachedAnswer<T> | undefined {
    const key = keyOf(contextId, messageId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Records how large an answer turned out (known once its turn is over) and trims to the byte cap. */
  weigh(contextId: string, messageId: string, bytes: number): void {
    const entry = this.entries.get(keyOf(contextId, messageId));
    if (!entry) return;
    this.bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.trim();
  }

  set(contextId: string, messageId: string, fingerprint: string, value: T): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    // entries are in insertion order, so expired ones are at the front
    for (let oldest = this.entries.oldest(); oldest && oldest[1].expiresAt <= now;) {
      this.delete(oldest[0]);
      oldest = this.entries.oldest();
    }
    const key = keyOf(contextId, messageId);
    this.delete(key);
    this.entries.set(key, { expiresAt: now + this.ttlMs, fingerprint, value, bytes: 0 });
    this.trim();
  }

  forget(contextId: string, messageId: string): void {
    this.delete(keyOf(contextId, messageId));
  }

  private trim(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.oldest();
      if (!oldest) break;
      this.delete(oldest[0]);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
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
  // a digest, not the canonical text: the cache keeps one per answer for the whole TTL. One-shot: a
  // Hash object per message was most of the fingerprint's cost in the A2A profile
  return hash('sha256', canonicalPayload(message), 'base64url');
}

function canonicalPayload(message: Parameters<typeof messageFingerprint>[0]): string {
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
