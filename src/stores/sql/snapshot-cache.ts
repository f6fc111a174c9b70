import type { TrackerSnapshot } from '../../core/ports.js';

/** how many conversations' latest snapshots one SQLite store keeps in memory */
export const CACHED_SNAPSHOTS = 1000;

/**
 * While a conversation's snapshot is cached, its row is rewritten once this many events were appended
 * since the last one written (a few turns): a load that misses the cache (after a restart, another
 * process's turn) reads the row and at most about this many events after it.
 */
export const SNAPSHOT_WRITE_INTERVAL = 64;

export interface CachedSnapshot {
  readonly snapshot: TrackerSnapshot;
  /** the event count of the snapshot row last written for the conversation */
  readonly storedAt: number;
  /** the stored text of the conversation's last event (PostgreSQL checks the log still ends with it) */
  readonly lastEvent?: string | null;
}

/**
 * The snapshots of the turns this process wrote last, per conversation, least recently used dropped first
 * (and when each conversation's snapshot row was last written). On SQLite only valid while no other
 * connection changed the database: the store clears it whenever `PRAGMA data_version` moves, so a
 * conversation another process (or connection) wrote is read again. PostgreSQL has no such number: its
 * store reads the events from the cached count on (`peek`), which tells it whether the log still ends
 * where the cache does.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, CachedSnapshot>();
  private version: number | undefined;

  constructor(private readonly limit = CACHED_SNAPSHOTS) {}

  /** the cached snapshot, if the database is as this cache last saw it */
  get(conversationId: string, dataVersion: number): TrackerSnapshot | undefined {
    if (dataVersion !== this.version) {
      this.entries.clear();
      this.version = dataVersion;
      return undefined;
    }
    return this.peek(conversationId)?.snapshot;
  }

  /** the entry as it is, whatever the database did since (PostgreSQL checks it against the log) */
  peek(conversationId: string): CachedSnapshot | undefined {
    const entry = this.entries.get(conversationId);
    if (entry) {
      this.entries.delete(conversationId);
      this.entries.set(conversationId, entry);
    }
    return entry;
  }

  /** whether an append reaching `eventCount` events should write the snapshot row */
  shouldStore(conversationId: string, eventCount: number): boolean {
    const entry = this.entries.get(conversationId);
    return !entry || eventCount - entry.storedAt >= SNAPSHOT_WRITE_INTERVAL;
  }

  /** the event count of the row last written, as far as this cache knows */
  storedAt(conversationId: string): number | undefined {
    return this.entries.get(conversationId)?.storedAt;
  }

  /**
   * After a turn this connection wrote. No version is needed: the turn loaded the conversation after the
   * last `get` brought the version up to date, a commit by another connection to it since then would have
   * refused the turn's append, and any commit after the append moves the version, so the next `get`
   * drops the entry.
   */
  set(conversationId: string, snapshot: TrackerSnapshot, storedAt: number, lastEvent?: string | null): void {
    this.entries.delete(conversationId);
    this.entries.set(conversationId, {
      snapshot,
      storedAt,
      ...(lastEvent !== undefined ? { lastEvent } : {}),
    });
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(conversationId: string): void {
    this.entries.delete(conversationId);
  }

  clear(): void {
    this.entries.clear();
    this.version = undefined;
  }
}
