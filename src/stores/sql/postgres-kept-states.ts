/**
 * PostgreSQL: the state of the conversations this process wrote last (the last 1,000), each with the
 * stored text of the last event it appended. Other replicas write to the same database and PostgreSQL
 * has no cheap "changed since" number, so a kept state is only used when rows read from the database
 * hold that very event: then the log still ends there or goes on from it (another replica's turns,
 * folded onto the kept state), and the snapshot row needs no parsing nor the events before it a fold.
 * Anything else (the event gone, another text: the conversation was removed, perhaps begun anew) is
 * read as usual. See docs/stores.md, "Snapshots".
 */
import type { RecentConversation, TrackerSnapshot } from '../../core/ports.js';
import { eventsOfRows } from './event-rows.js';
import type { StoredEventRow } from './event-rows.js';
import { SnapshotCache } from './snapshot-cache.js';

export class PostgresKeptStates {
  private readonly cache = new SnapshotCache();

  /** the seq a load of only what changed reads from (the kept last event's), if a state is kept */
  readFrom(conversationId: string): number | undefined {
    const count = this.cache.peek(conversationId)?.snapshot.eventCount;
    return count === undefined || count === 0 ? undefined : count - 1;
  }

  /**
   * The conversation from the kept state and the rows after its last event, when `rows` (in seq order:
   * the events from `readFrom` on, or a snapshot row and the events from its count on) hold that event.
   */
  fromRows(conversationId: string, rows: readonly StoredEventRow[]): RecentConversation | undefined {
    const entry = this.cache.peek(conversationId);
    if (!entry || entry.snapshot.eventCount === 0) return undefined;
    const count = entry.snapshot.eventCount;
    const index = rows.findIndex((row) => Number(row.seq) === count - 1);
    if (index < 0 || rows[index]?.data !== entry.lastEvent) return undefined;
    const after = eventsOfRows(conversationId, rows.slice(index + 1), count);
    return { eventCount: count + after.length, snapshot: entry.snapshot, eventsAfterSnapshot: after };
  }

  /**
   * The kept state, without reading, when the caller knows the log holds `eventCount` events and no
   * other process wrote it since this one's last write (LoadHint.keptAt) and that write is the kept one.
   */
  at(conversationId: string, eventCount: number): RecentConversation | undefined {
    const entry = this.cache.peek(conversationId);
    if (!entry || entry.snapshot.eventCount !== eventCount) return undefined;
    return { eventCount, snapshot: entry.snapshot, eventsAfterSnapshot: [] };
  }

  /** whether an append reaching `eventCount` events writes the snapshot row (every 64 events) */
  shouldStore(conversationId: string, eventCount: number): boolean {
    return this.cache.shouldStore(conversationId, eventCount);
  }

  storedAt(conversationId: string): number | undefined {
    return this.cache.storedAt(conversationId);
  }

  /** after an append of this process: `storedAt` is the count of the snapshot row last written */
  keep(conversationId: string, state: TrackerSnapshot, storedAt: number, lastEvent: string): void {
    this.cache.set(conversationId, state, storedAt, lastEvent);
  }

  forget(conversationId: string): void {
    this.cache.delete(conversationId);
  }
}
