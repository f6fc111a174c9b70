/**
 * The PostgreSQL tracker store's hot path without knex's query building: statements with fixed texts,
 * run as named prepared statements on a connection of knex's pool (pg prepares a name once per
 * connection; a replaced connection prepares it again). A turn is then one read and one write, neither
 * of them parsed or planned again. The read is the snapshot and the events after it, or, when this
 * process keeps the state it wrote last, only the events from its last one on.
 *
 * The append is one statement (no BEGIN / COMMIT round trips): the events, passed as one JSON array
 * whatever their number, go in only when the event before them is stored (or they are the first), and the
 * snapshot is upserted only when they went in. With the unique (sender_id, seq) index this rejects
 * what a transaction's count check would: a writer that loaded the same count collides on its first
 * seq, and a writer whose count was too high finds no predecessor and inserts nothing. Every writer
 * keeps a conversation's seqs contiguous, so no event can sit beyond the appended ones.
 */
import { AppError } from '../../core/errors.js';
import type { EventRow, SnapshotRow, StoredEventRow } from './event-rows.js';
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
 * The events from seq $2 on: with a snapshot of the conversation kept in memory at $2 + 1 events, the
 * first row (if it is that snapshot's last event) proves the log still ends there or goes on from it.
 */
export const LOAD_AFTER_STATEMENT = {
  name: 'parley_load_after_v1',
  text: 'SELECT seq, data, timestamp FROM events WHERE sender_id = $1 AND seq >= $2 ORDER BY seq',
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

/** The append's text over the given parameters (placeholders or a function's arguments), ending in `tail`. */
const appendQuery = (p: AppendParameters, tail: string): string => `WITH inserted AS (
      INSERT INTO events (sender_id, seq, type_name, timestamp, intent_name, action_name, data)
      SELECT ${p.sender}::varchar, ${p.first}::integer + (appended.position - 1)::integer, appended.row ->> 0,
             (appended.row ->> 1)::double precision, appended.row ->> 2, appended.row ->> 3, appended.data
      FROM ROWS FROM (jsonb_array_elements(${p.rows}::jsonb), unnest(string_to_array(${p.texts}::text, E'\\n')))
        WITH ORDINALITY AS appended (row, data, position)
      WHERE ${p.first}::integer = 0
         OR EXISTS (SELECT 1 FROM events WHERE sender_id = ${p.sender}::varchar AND seq = ${p.first}::integer - 1)
      RETURNING seq
    ), snapshot AS (
      INSERT INTO tracker_snapshots (sender_id, event_count, data, updated)
      SELECT ${p.sender}::varchar, ${p.count}::integer, ${p.data}::text, ${p.updated}::double precision
      WHERE ${p.data}::text IS NOT NULL AND EXISTS (SELECT 1 FROM inserted)
      ON CONFLICT (sender_id) DO UPDATE
      SET event_count = EXCLUDED.event_count, data = EXCLUDED.data, updated = EXCLUDED.updated
    )
    ${tail}`;

interface AppendParameters {
  readonly sender: string;
  readonly first: string;
  /** a JSON array of [type_name, timestamp, intent_name, action_name], one an event */
  readonly rows: string;
  /** the events' JSON texts, joined by newlines (JSON.stringify writes none) */
  readonly texts: string;
  readonly count: string;
  readonly data: string;
  readonly updated: string;
}

/**
 * $1 sender, $2 the seq of the first event (the count the turn loaded), $3 the events' other columns
 * as one JSON array of rows, $4–$6 the snapshot (null data: none), $7 the events' JSON texts.
 * Answers one row, `inserted`: all the events, or none. No parameter is an array: pg escapes each
 * element of an array in JavaScript, which cost more than the rest of the statement's preparation
 * (an event's JSON text is full of quotes to escape); the texts, joined, go as they are.
 */
export const APPEND_STATEMENT = {
  name: 'parley_append_v3',
  text: appendQuery(
    { sender: '$1', first: '$2', rows: '$3', count: '$4', data: '$5', updated: '$6', texts: '$7' },
    'SELECT COUNT(*) AS inserted FROM inserted',
  ),
} as const;

/**
 * The append of the turn that holds the conversation's advisory lock (p_key), which also frees the lock:
 * a turn then costs two round trips (lock and load, append) instead of three. The session lock is let
 * go inside the append's transaction, so the same key is first taken at transaction level: the server
 * frees that one only once the transaction has committed and is visible, and a turn waiting for the
 * key (here or in another process) enters only then and reads the events appended here.
 */
export const APPEND_AND_UNLOCK_FUNCTION = `CREATE OR REPLACE FUNCTION parley_append_and_unlock(
    p_key bigint, p_sender varchar, p_first integer, p_rows jsonb, p_count integer, p_data text,
    p_updated double precision, p_texts text)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE AS $body$
  DECLARE
    v_inserted bigint;
  BEGIN
    PERFORM pg_advisory_xact_lock(p_key);
    ${appendQuery(
      {
        sender: 'p_sender',
        first: 'p_first',
        rows: 'p_rows',
        count: 'p_count',
        data: 'p_data',
        updated: 'p_updated',
        texts: 'p_texts',
      },
      'SELECT COUNT(*) INTO v_inserted FROM inserted',
    )};
    PERFORM pg_advisory_unlock(p_key);
    RETURN v_inserted;
  END
  $body$`;

export const APPEND_AND_UNLOCK_STATEMENT = {
  name: 'parley_append_and_unlock_v1',
  text: `SELECT parley_append_and_unlock($1::bigint, $2::varchar, $3::integer, $4::jsonb, $5::integer,
    $6::text, $7::double precision, $8::text) AS inserted`,
} as const;

export async function loadRecentRows(
  connection: PostgresConnection,
  conversationId: string,
): Promise<RecentRow[]> {
  const result = await connection.query({ ...LOAD_RECENT_STATEMENT, values: [conversationId] });
  return result.rows as RecentRow[];
}

/** The stored events of the conversation from seq `fromSeq` on. */
export async function loadAfterRows(
  connection: PostgresConnection,
  conversationId: string,
  fromSeq: number,
): Promise<StoredEventRow[]> {
  const result = await connection.query({ ...LOAD_AFTER_STATEMENT, values: [conversationId, fromSeq] });
  return result.rows as StoredEventRow[];
}

/**
 * Appends `rows` (at least one, numbered from `expectedCount`); answers how many went in. With `unlockKey`
 * (the turn's connection holds that advisory lock), the statement also frees the lock once it commits.
 */
export async function appendRows(
  connection: PostgresConnection,
  append: {
    readonly conversationId: string;
    readonly expectedCount: number;
    readonly rows: readonly EventRow[];
    readonly snapshot: SnapshotRow | undefined;
    readonly unlockKey?: string;
  },
): Promise<number> {
  const { conversationId, expectedCount, rows, snapshot, unlockKey } = append;
  const values = [
    conversationId,
    expectedCount,
    JSON.stringify(rows.map((row) => [row.type_name, row.timestamp, row.intent_name, row.action_name])),
    snapshot?.event_count ?? null,
    snapshot?.data ?? null,
    snapshot?.updated ?? null,
    joinedTexts(rows),
  ];
  const result =
    unlockKey === undefined
      ? await connection.query({ ...APPEND_STATEMENT, values })
      : await connection.query({ ...APPEND_AND_UNLOCK_STATEMENT, values: [unlockKey, ...values] });
  return Number((result.rows[0] as { inserted?: number | string } | undefined)?.inserted);
}

/**
 * The events' JSON texts as one parameter, a newline between two: sent as they are, where one JSON
 * array of them would escape every quote of every event (the cost of the statement's preparation).
 */
export function joinedTexts(rows: readonly EventRow[]): string {
  const texts = rows.map((row) => row.data);
  if (texts.some((text) => text.includes('\n')))
    throw new AppError({
      code: 'INTERNAL',
      message: 'an event row holds a newline: not JSON.stringify text',
    });
  return texts.join('\n');
}
