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
const loadRecentQuery = (sender: string): string =>
  `SELECT -1 AS seq, data, event_count, NULL::double precision AS timestamp
      FROM tracker_snapshots WHERE sender_id = ${sender}
    UNION ALL
    SELECT seq, data, NULL, timestamp FROM events
    WHERE sender_id = ${sender}
      AND seq >= COALESCE((SELECT event_count - 1 FROM tracker_snapshots WHERE sender_id = ${sender}), 0)
    ORDER BY seq`;

export const LOAD_RECENT_STATEMENT = {
  name: 'parley_load_recent_v1',
  text: loadRecentQuery('$1'),
} as const;

/**
 * Takes the conversation's advisory lock, waiting at most p_wait_ms (lock_timeout, for this call
 * only), then reads it as LOAD_RECENT_STATEMENT does. A function because its second statement gets a
 * snapshot of its own, taken once the lock is held (READ COMMITTED), so it sees every turn committed
 * before the lock was granted; one statement would read with a snapshot from before the wait. Its
 * plan is kept per connection, like a prepared statement's.
 */
export const LOCK_AND_LOAD_FUNCTION = `CREATE OR REPLACE FUNCTION parley_lock_and_load(
    p_key bigint, p_wait_ms integer, p_sender varchar)
  RETURNS TABLE (seq integer, data text, event_count integer, "timestamp" double precision)
  LANGUAGE plpgsql VOLATILE AS $body$
  #variable_conflict use_column
  BEGIN
    PERFORM set_config('lock_timeout', p_wait_ms::text, true);
    PERFORM pg_advisory_lock(p_key);
    RETURN QUERY ${loadRecentQuery('p_sender')};
  END
  $body$`;

export const LOCK_AND_LOAD_STATEMENT = {
  name: 'parley_lock_and_load_v1',
  text: 'SELECT * FROM parley_lock_and_load($1::bigint, $2::integer, $3::varchar)',
} as const;

export const UNLOCK_STATEMENT = {
  name: 'parley_unlock_v1',
  text: 'SELECT pg_advisory_unlock($1::bigint)',
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
