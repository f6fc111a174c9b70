/**
 * The PostgreSQL tracker store's cheapest read, batched: a turn that starts from the state this process
 * kept reads only the events from that state's last one on (LOAD_AFTER_STATEMENT), and under load the
 * reads of concurrent turns go in one statement, one round trip, as the appends do
 * (statement-batcher.ts). A failed batch fails each of its reads, which the store then retries once as
 * it retries any read.
 */
import type { StoredEventRow } from './event-rows.js';
import { loadAfterRows } from './postgres-statements.js';
import type { PostgresConnection } from './postgres-statements.js';
import { StatementBatcher } from './statement-batcher.js';

export interface LoadAfter {
  readonly conversationId: string;
  readonly fromSeq: number;
}

const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 64;

/**
 * $1: one JSON array per read [sender, from seq]. Answers the events of each read (seq, data,
 * timestamp) with the read's position in $1 (from 1), in that order and then in seq order. The
 * lateral subquery runs once a read, an index range scan each: `OFFSET 0` keeps the planner from
 * flattening it into a join, which it planned as a hash join over the whole events table whenever
 * the table's statistics lagged behind its growth (10 ms instead of 0.1).
 */
export const LOAD_AFTER_BATCH_STATEMENT = {
  name: 'parley_load_after_batch_v1',
  text: `SELECT wanted.position::integer AS position, found.seq, found.data, found.timestamp
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS wanted (item, position)
    CROSS JOIN LATERAL (
      SELECT seq, data, timestamp FROM events
      WHERE sender_id = wanted.item ->> 0 AND seq >= (wanted.item ->> 1)::integer
      OFFSET 0
    ) AS found
    ORDER BY wanted.position, found.seq`,
} as const;

interface BatchRow extends StoredEventRow {
  readonly position: number;
}

export class PostgresLoadBatch {
  private readonly batcher: StatementBatcher<LoadAfter, StoredEventRow[]>;

  constructor(withConnection: <T>(work: (connection: PostgresConnection) => Promise<T>) => Promise<T>) {
    this.batcher = new StatementBatcher<LoadAfter, StoredEventRow[]>(
      {
        alone: (load) =>
          withConnection((connection) => loadAfterRows(connection, load.conversationId, load.fromSeq)),
        together: (loads) => withConnection((connection) => loadAfterBatch(connection, loads)),
        retryAlone: () => false,
      },
      { maxInFlight: MAX_IN_FLIGHT, maxBatch: MAX_BATCH },
    );
  }

  /** The stored events of the conversation from seq `fromSeq` on. */
  loadAfter(conversationId: string, fromSeq: number): Promise<StoredEventRow[]> {
    return this.batcher.run(conversationId, { conversationId, fromSeq });
  }
}

async function loadAfterBatch(
  connection: PostgresConnection,
  loads: readonly LoadAfter[],
): Promise<StoredEventRow[][]> {
  const wanted = loads.map((load) => [load.conversationId, load.fromSeq]);
  const result = await connection.query({ ...LOAD_AFTER_BATCH_STATEMENT, values: [JSON.stringify(wanted)] });
  const found: StoredEventRow[][] = loads.map(() => []);
  for (const row of result.rows as BatchRow[]) {
    const { position, seq, data, timestamp } = row;
    found[position - 1]?.push({ seq, data, timestamp });
  }
  return found;
}
