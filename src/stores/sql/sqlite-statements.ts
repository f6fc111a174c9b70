/**
 * The SQLite tracker store's hot path without knex's query building: statements prepared once per
 * connection and run synchronously on the connection knex's pool holds (better-sqlite3 is synchronous),
 * so a turn costs one read and one write transaction, not a statement compiled per query. The pool has
 * one connection, so while one of these runs, knex's own queries (migrations, removal) wait their turn.
 */
import type { TrackerSnapshot } from '../../core/ports.js';
import { EVENT_COLUMNS, eventRowValues } from './event-rows.js';
import { SnapshotCache } from './snapshot-cache.js';
import type { EventRow, SnapshotRow, StoredEventRow } from './event-rows.js';

/** What the SQL stores need of a better-sqlite3 Database (the package ships no types). */
export interface SqliteConnection {
  prepare(source: string): SqliteStatement;
  readonly inTransaction: boolean;
}

export interface SqliteStatement {
  all(...parameters: unknown[]): unknown[];
  get(...parameters: unknown[]): unknown;
  run(...parameters: unknown[]): { readonly changes: number };
}

export type RecentRow = StoredEventRow & { readonly event_count: number | string | null };

/** The snapshot row (seq -1) followed by the events from the one before the snapshot on, in one read. */
export const LOAD_RECENT = `
  SELECT -1 AS seq, data, event_count, NULL AS timestamp FROM tracker_snapshots WHERE sender_id = ?
  UNION ALL
  SELECT seq, data, NULL, timestamp FROM events
  WHERE sender_id = ?
    AND seq >= COALESCE((SELECT event_count - 1 FROM tracker_snapshots WHERE sender_id = ?), 0)
  ORDER BY seq`;

/** The conversation's last seq, and whether the event before the appended ones is there. */
export const LAST_SEQ = `SELECT
  (SELECT MAX(seq) FROM events WHERE sender_id = ?) AS last,
  (SELECT COUNT(*) FROM events WHERE sender_id = ? AND seq = ?) AS predecessor`;

/** rows per INSERT: one statement for a turn's events (a turn appends about 20) */
const ROWS_PER_INSERT = 64;

function insertEvents(rows: number): string {
  const row = '(?, ?, ?, ?, ?, ?, ?)';
  return `INSERT INTO events ${EVENT_COLUMNS} VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
}

const UPSERT_SNAPSHOT = `INSERT INTO tracker_snapshots (sender_id, event_count, data, updated) VALUES (?, ?, ?, ?)
  ON CONFLICT (sender_id) DO UPDATE
  SET event_count = excluded.event_count, data = excluded.data, updated = excluded.updated`;

const ALL_EVENTS = 'SELECT seq, data, timestamp FROM events WHERE sender_id = ? ORDER BY seq';

export interface LastSeqRow {
  readonly last: number | string | null;
  readonly predecessor: number | string;
}

export interface SqliteAppend {
  readonly conversationId: string;
  readonly expectedCount: number;
  readonly rows: readonly EventRow[];
  /** the conversation's state after the append: kept for its next load, and stored when its row is due */
  readonly current: TrackerSnapshot | undefined;
  readonly snapshotRow: (snapshot: TrackerSnapshot) => SnapshotRow;
  /** throws to roll the append back */
  readonly check: (row: LastSeqRow | undefined) => void;
}

export class SqliteStatements {
  private readonly loadRecentStatement: SqliteStatement;
  private readonly allEventsStatement: SqliteStatement;
  /** by row count, prepared on first use */
  private readonly insertStatements = new Map<number, SqliteStatement>();
  private readonly dataVersionStatement: SqliteStatement;
  private readonly upsertSnapshotStatement: SqliteStatement;
  private readonly lastSeqStatement: SqliteStatement;
  /** the snapshots this connection wrote last: a turn of a conversation no one else wrote reads nothing */
  readonly snapshots = new SnapshotCache();

  constructor(private readonly connection: SqliteConnection) {
    this.loadRecentStatement = connection.prepare(LOAD_RECENT);
    this.allEventsStatement = connection.prepare(ALL_EVENTS);
    this.dataVersionStatement = connection.prepare('PRAGMA data_version');
    this.upsertSnapshotStatement = connection.prepare(UPSERT_SNAPSHOT);
    this.lastSeqStatement = connection.prepare(LAST_SEQ);
  }

  /**
   * The snapshot this connection last wrote for the conversation, if no other connection (another
   * process) has committed since: `PRAGMA data_version` moves with every such commit, and then every
   * cached snapshot is dropped.
   */
  cachedSnapshot(conversationId: string): TrackerSnapshot | undefined {
    return this.snapshots.get(conversationId, this.dataVersion());
  }

  private dataVersion(): number {
    return Number((this.dataVersionStatement.get() as { data_version: number | bigint }).data_version);
  }

  loadRecent(conversationId: string): RecentRow[] {
    return this.loadRecentStatement.all(conversationId, conversationId, conversationId) as RecentRow[];
  }

  allEvents(conversationId: string): StoredEventRow[] {
    return this.allEventsStatement.all(conversationId) as StoredEventRow[];
  }

  /**
   * Writes an append inside the caller's transaction (a savepoint of the group commit,
   * sqlite-write-batch.ts), which rolls it back when this throws: its `check` found the count wrong, or
   * the unique (sender_id, seq) index refused a row. Answers what to do once the transaction committed
   * (keep the conversation's state for its next load); nothing is kept before, as the commit may fail.
   */
  append(append: SqliteAppend): () => void {
    const { conversationId, expectedCount, rows, current } = append;
    const storedAt = this.snapshots.storedAt(conversationId);
    const due = current !== undefined && this.snapshots.shouldStore(conversationId, current.eventCount);
    const snapshot = due ? append.snapshotRow(current) : undefined;
    this.snapshots.delete(conversationId);
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + ROWS_PER_INSERT);
      this.insertStatement(chunk.length).run(...chunk.flatMap(eventRowValues));
    }
    if (snapshot)
      this.upsertSnapshotStatement.run(
        snapshot.sender_id,
        snapshot.event_count,
        snapshot.data,
        snapshot.updated,
      );
    append.check(
      this.lastSeqStatement.get(conversationId, conversationId, expectedCount - 1) as LastSeqRow | undefined,
    );
    const keptAt = snapshot?.event_count ?? storedAt;
    return () => {
      if (current && keptAt !== undefined) this.snapshots.set(conversationId, current, keptAt);
    };
  }

  private insertStatement(rows: number): SqliteStatement {
    let statement = this.insertStatements.get(rows);
    if (!statement) {
      statement = this.connection.prepare(insertEvents(rows));
      this.insertStatements.set(rows, statement);
    }
    return statement;
  }
}
