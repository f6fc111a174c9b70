/**
 * The SQLite tracker store's hot path without knex's query building: statements prepared once per
 * connection and run synchronously on the connection knex's pool holds (better-sqlite3 is synchronous),
 * so a turn costs one read and one write transaction, not a statement compiled per query. The pool has
 * one connection, so while one of these runs, knex's own queries (migrations, removal) wait their turn.
 */
import { EVENT_COLUMNS, eventRowValues } from './event-rows.js';
import type { EventRow, SnapshotRow, StoredEventRow } from './event-rows.js';

/** What the SQL stores need of a better-sqlite3 Database (the package ships no types). */
export interface SqliteConnection {
  prepare(source: string): SqliteStatement;
  transaction<A extends unknown[], R>(work: (...args: A) => R): (...args: A) => R;
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

const INSERT_EVENT = `INSERT INTO events ${EVENT_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?)`;

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
  readonly snapshot: SnapshotRow | undefined;
  /** throws to roll the transaction back */
  readonly check: (row: LastSeqRow | undefined) => void;
}

export class SqliteStatements {
  private readonly loadRecentStatement: SqliteStatement;
  private readonly allEventsStatement: SqliteStatement;
  private readonly insertEventStatement: SqliteStatement;
  private readonly upsertSnapshotStatement: SqliteStatement;
  private readonly lastSeqStatement: SqliteStatement;
  private readonly appendTransaction: (append: SqliteAppend) => void;

  constructor(connection: SqliteConnection) {
    this.loadRecentStatement = connection.prepare(LOAD_RECENT);
    this.allEventsStatement = connection.prepare(ALL_EVENTS);
    this.insertEventStatement = connection.prepare(INSERT_EVENT);
    this.upsertSnapshotStatement = connection.prepare(UPSERT_SNAPSHOT);
    this.lastSeqStatement = connection.prepare(LAST_SEQ);
    this.appendTransaction = connection.transaction(
      ({ conversationId, expectedCount, rows, snapshot, check }) => {
        for (const row of rows) this.insertEventStatement.run(...eventRowValues(row));
        if (snapshot)
          this.upsertSnapshotStatement.run(
            snapshot.sender_id,
            snapshot.event_count,
            snapshot.data,
            snapshot.updated,
          );
        check(
          this.lastSeqStatement.get(conversationId, conversationId, expectedCount - 1) as
            LastSeqRow | undefined,
        );
      },
    );
  }

  loadRecent(conversationId: string): RecentRow[] {
    return this.loadRecentStatement.all(conversationId, conversationId, conversationId) as RecentRow[];
  }

  allEvents(conversationId: string): StoredEventRow[] {
    return this.allEventsStatement.all(conversationId) as StoredEventRow[];
  }

  /**
   * Inserts the rows and the snapshot and runs `check` on the count query, in one transaction: a
   * throw from `check` (or a unique violation) rolls all of it back.
   */
  append(append: SqliteAppend): void {
    this.appendTransaction(append);
  }
}
