/**
 * The PostgreSQL tracker store's hot path without knex's query building: two statements with fixed
 * texts, run as named prepared statements on a connection of knex's pool (pg prepares a name once per
 * connection; a replaced connection prepares it again). A turn is then one read and one write, neither
 * of them parsed or planned again.
 *
 * The append is one statement (no BEGIN / COMMIT round trips): the events, passed as arrays whatever
 * their number, go in only when the event before them is stored (or they are the first), and the
 * snapshot is upserted only when they went in. With the unique (sender_id, seq) index this rejects
 * what a transaction's count check would: a writer that loaded the same count collides on its first
 * seq, and a writer whose count was too high finds no predecessor and inserts nothing. Every writer
 * keeps a conversation's seqs contiguous, so no event can sit beyond the appended ones.
 */
import type { EventRow, SnapshotRow } from './event-rows.js';
import type { RecentRow } from './sqlite-statements.js';

/** What the SQL stores need of a pg Client: a statement, named to be prepared once per connection. */
export interface PostgresConnection {
  query(config: {
    readonly name?: string;
    readonly text: string;
    readonly values?: readonly unknown[];
  }): Promise<{ readonly rows: unknown[]; readonly rowCount: number | null }>;
}

/** The snapshot row (seq -1) followed by the events from the one before the snapshot on, in one read. */
export const LOAD_RECENT_STATEMENT = {
  name: 'parley_load_recent_v1',
  text: `SELECT -1 AS seq, data, event_count, NULL AS timestamp FROM tracker_snapshots WHERE sender_id = $1
    UNION ALL
    SELECT seq, data, NULL, timestamp FROM events
    WHERE sender_id = $1
      AND seq >= COALESCE((SELECT event_count - 1 FROM tracker_snapshots WHERE sender_id = $1), 0)
    ORDER BY seq`,
} as const;

/**
 * $1 sender, $2 the seq of the first event (the count the turn loaded), $3–$6 the events' columns as
 * arrays, $7–$9 the snapshot (null data: none). Answers one row, `inserted`: all the events, or none.
 */
export const APPEND_STATEMENT = {
  name: 'parley_append_v1',
  text: `WITH inserted AS (
      INSERT INTO events (sender_id, seq, type_name, timestamp, intent_name, action_name, data)
      SELECT $1::varchar, $2::integer + (appended.position - 1)::integer, appended.type_name,
             appended.timestamp, appended.intent_name, appended.action_name, appended.data
      FROM unnest($3::varchar[], $4::double precision[], $5::varchar[], $6::varchar[], $7::text[])
           WITH ORDINALITY AS appended (type_name, timestamp, intent_name, action_name, data, position)
      WHERE $2::integer = 0
         OR EXISTS (SELECT 1 FROM events WHERE sender_id = $1::varchar AND seq = $2::integer - 1)
      RETURNING seq
    ), snapshot AS (
      INSERT INTO tracker_snapshots (sender_id, event_count, data, updated)
      SELECT $1::varchar, $8::integer, $9::text, $10::double precision
      WHERE $9::text IS NOT NULL AND EXISTS (SELECT 1 FROM inserted)
      ON CONFLICT (sender_id) DO UPDATE
      SET event_count = EXCLUDED.event_count, data = EXCLUDED.data, updated = EXCLUDED.updated
    )
    SELECT COUNT(*) AS inserted FROM inserted`,
} as const;

export async function loadRecentRows(
  connection: PostgresConnection,
  conversationId: string,
): Promise<RecentRow[]> {
  const result = await connection.query({ ...LOAD_RECENT_STATEMENT, values: [conversationId] });
  return result.rows as RecentRow[];
}

/** Appends `rows` (at least one, numbered from `expectedCount`); answers how many went in. */
export async function appendRows(
  connection: PostgresConnection,
  conversationId: string,
  expectedCount: number,
  rows: readonly EventRow[],
  snapshot: SnapshotRow | undefined,
): Promise<number> {
  const values = [
    conversationId,
    expectedCount,
    rows.map((row) => row.type_name),
    rows.map((row) => row.timestamp),
    rows.map((row) => row.intent_name),
    rows.map((row) => row.action_name),
    rows.map((row) => row.data),
    snapshot?.event_count ?? null,
    snapshot?.data ?? null,
    snapshot?.updated ?? null,
  ];
  const result = await connection.query({ ...APPEND_STATEMENT, values });
  return Number((result.rows[0] as { inserted?: number | string } | undefined)?.inserted);
}
