/**
 * A PostgreSQL append in one statement (one round trip instead of BEGIN, inserts, snapshot, check,
 * COMMIT): the events go in only when the event before them is stored (or they are the first), and
 * the snapshot is upserted only when they went in. With the unique (sender_id, seq) index this rejects
 * what the transaction's count check did: a writer that loaded the same count collides on its first
 * seq, and a writer whose count was too high finds no predecessor and inserts nothing. Every writer
 * keeps a conversation's seqs contiguous, so no event can sit beyond the appended ones.
 */
import { EVENT_COLUMNS, eventRowValues } from './event-rows.js';
import type { EventRow, SnapshotRow } from './event-rows.js';

/** 7 parameters a row; PostgreSQL allows 65,535 parameters a statement. Bigger batches use a transaction. */
export const MAX_SINGLE_STATEMENT_ROWS = 500;

// the first row's casts give the VALUES list its column types; later rows follow them
const TYPED_ROW =
  '(?::varchar, ?::integer, ?::varchar, ?::double precision, ?::varchar, ?::varchar, ?::text)';
const ROW = '(?, ?, ?, ?, ?, ?, ?)';

export interface Statement {
  readonly sql: string;
  readonly bindings: readonly (string | number | null)[];
}

/** The statement answers one row, `inserted`: the events inserted (all of them, or none on a conflict). */
export function postgresAppend(
  conversationId: string,
  expectedCount: number,
  rows: readonly EventRow[],
  snapshot: SnapshotRow | undefined,
): Statement {
  const values = rows.map((_, index) => (index === 0 ? TYPED_ROW : ROW)).join(', ');
  const bindings: (string | number | null)[] = [];
  for (const row of rows) bindings.push(...eventRowValues(row));
  bindings.push(expectedCount, conversationId, expectedCount - 1);
  const insertEvents = `INSERT INTO events ${EVENT_COLUMNS}
    SELECT * FROM (VALUES ${values}) AS appended ${EVENT_COLUMNS}
    WHERE ?::integer = 0 OR EXISTS (SELECT 1 FROM events WHERE sender_id = ? AND seq = ?::integer)
    RETURNING seq`;
  if (!snapshot)
    return { sql: `WITH inserted AS (${insertEvents}) SELECT COUNT(*) AS inserted FROM inserted`, bindings };
  bindings.push(snapshot.sender_id, snapshot.event_count, snapshot.data, snapshot.updated);
  const upsertSnapshot = `INSERT INTO tracker_snapshots (sender_id, event_count, data, updated)
    SELECT ?::varchar, ?::integer, ?::text, ?::double precision WHERE EXISTS (SELECT 1 FROM inserted)
    ON CONFLICT (sender_id) DO UPDATE
    SET event_count = EXCLUDED.event_count, data = EXCLUDED.data, updated = EXCLUDED.updated`;
  return {
    sql: `WITH inserted AS (${insertEvents}), snapshot AS (${upsertSnapshot})
      SELECT COUNT(*) AS inserted FROM inserted`,
    bindings,
  };
}
