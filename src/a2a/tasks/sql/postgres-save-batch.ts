/**
 * Group commit for the PostgreSQL task store's saves: the saves that come while an earlier one is on
 * its way go together in one statement, one round trip and one commit, instead of one each. An A2A
 * message saves its task once or twice (a continued task before its turn, every task when its turn
 * settles, the answer's save also freeing the context); under load most of what PostgreSQL spends on
 * such a small write is outside the executor (the protocol, the commit and its WAL flush, waking the
 * backend), and most of what the server spends on it is the socket write. At low load a save still
 * goes at once, alone, as SAVE_TASK.
 *
 * A batch holds one save a context, and none of a context whose earlier save is on its way
 * (core/batching/statement-batcher.ts), so a context's saves are stored in order. Each save keeps its own parts (the replay entry it records or answers,
 * the claim it ends, the notification it sends on commit): a batch does what the saves would have
 * done one after another. A batch that a deadlock or a serialisation failure stopped (a claim locked
 * one of its contexts' rows the other way round) stored nothing, and its saves run again alone; any
 * other failure fails every save of the batch, as it would have failed each of them.
 */
import { StatementBatcher } from '../../../core/batching/statement-batcher.js';
import { AppError } from '../../../core/errors.js';
import { UPDATE_REPLAY, UPDATE_TASK, saveValues, waitingAfterSave } from './postgres-task-statements.js';
import type { SaveOptions, StoredTask } from '../task-store.js';
import { TASK_COLUMNS } from './task-rows.js';
import type { PostgresConnection } from './task-database.js';
import type { SettledNotice } from './task-writes.js';

export interface PendingSave {
  readonly stored: StoredTask;
  readonly options: SaveOptions;
  readonly now: number;
  readonly notice: SettledNotice | undefined;
}

/**
 * one batch on its way at a time: the saves that come meanwhile wait one round trip and go together.
 * Measured against two on the A2A benchmark (four alternated pairs): 591–650 against 556–594 messages a
 * second, 1.08–1.15 against 1.20–1.30 ms of server CPU a message; fewer, larger batches.
 */
const MAX_IN_FLIGHT = 1;
/** saves in one statement at most: a bound on its size and on the time it holds its row locks */
const MAX_BATCH = 64;
/** bytes of tasks in one statement at most (a task may hold up to a context's 1 MB) */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** SAVE_TASK's 21 parameters in order, each a column of the batch: its name and SQL type ('data': the JSON) */
const COLUMNS = [
  ['task_id', 'text'],
  ['context_key', 'text'],
  ['owner', 'text'],
  ['context_id', 'text'],
  ['state', 'text'],
  ['status_time', 'float8'],
  ['bytes', 'integer'],
  ['deadline', 'float8'],
  ['due', 'float8'],
  ['data', 'data'],
  ['replay_scope', 'text'],
  ['replay_message', 'text'],
  ['replay_fingerprint', 'text'],
  ['replay_expires', 'float8'],
  ['answers_scope', 'text'],
  ['answers_message', 'text'],
  ['now', 'float8'],
  ['release_key', 'text'],
  ['release_holder', 'text'],
  ['notify_channel', 'text'],
  ['notify_payload', 'text'],
] as const;
const DATA_COLUMN = COLUMNS.findIndex(([, type]) => type === 'data');

/** a save ends the claim of its own task's context (the claim a save ends is always that one, in practice) */
const OWN_RELEASE = '(w.release_key = c.context_key AND c.claim_holder = w.release_holder)';

/**
 * $1–$21: SAVE_TASK's parameters as columns, one array element a save ($10, the tasks' JSON texts,
 * newline-joined: JSON.stringify writes no raw newline). The same parts as SAVE_TASK, each row its own.
 * The contexts are found through their key's index, row by row (a LIMIT 1 lookup, and `= ANY` of the
 * keys released): written as a join, a batch's generic plan read the whole `a2a_contexts` table into a
 * hash when it was planned on a small table (auto_explain, bench/README.md), and kept that plan as the
 * table grew, until statistics caught up. Each save's context row is written once: its claim ended
 * and its `waiting` flag kept in one UPDATE (a statement's second change of a row would be lost).
 */
export const SAVE_BATCH_STATEMENT = {
  name: 'parley_a2a_save_batch_v2',
  text: `WITH batch AS (
      SELECT * FROM ROWS FROM (${COLUMNS.map(([, type], index) =>
        type === 'data'
          ? `unnest(string_to_array($${index + 1}::text, E'\\n'))`
          : `unnest($${index + 1}::${type}[])`,
      ).join(', ')}) AS b (${COLUMNS.map(([name]) => name).join(', ')})
    ), saved AS (
      INSERT INTO a2a_tasks (${TASK_COLUMNS}, member)
      SELECT ${TASK_COLUMNS},
        CASE WHEN (SELECT 1 FROM a2a_contexts c WHERE c.context_key = batch.context_key LIMIT 1) IS NOT NULL
          THEN 1 ELSE 0 END
      FROM batch
      ON CONFLICT (task_id) DO UPDATE SET ${UPDATE_TASK}
      RETURNING 1
    ), replay AS (
      INSERT INTO a2a_replays (scope, message_id, fingerprint, task_id, answer, answer_bytes, expires_at)
      SELECT replay_scope, replay_message, replay_fingerprint, task_id, NULL, 0, replay_expires
      FROM batch WHERE replay_scope IS NOT NULL
      ON CONFLICT (scope, message_id) DO UPDATE SET ${UPDATE_REPLAY}
      RETURNING 1
    ), answered AS (
      UPDATE a2a_replays r SET answer = batch.data, answer_bytes = batch.bytes
      FROM batch
      WHERE r.scope = batch.answers_scope AND r.message_id = batch.answers_message AND r.expires_at > batch.now
      RETURNING 1
    ), touched AS (
      UPDATE a2a_contexts c SET
        claim_holder = CASE WHEN ${OWN_RELEASE} THEN NULL ELSE c.claim_holder END,
        claim_until = CASE WHEN ${OWN_RELEASE} THEN NULL ELSE c.claim_until END,
        waiting = w.waiting
      FROM (SELECT context_key, release_key, release_holder,
          ${waitingAfterSave('batch.task_id', 'batch.context_key', 'batch.state')} AS waiting
        FROM batch) w
      WHERE c.context_key = ANY(ARRAY(SELECT context_key FROM batch)) AND c.context_key = w.context_key
        AND (${OWN_RELEASE} OR c.waiting <> w.waiting)
      RETURNING 1
    ), released AS (
      UPDATE a2a_contexts c SET claim_holder = NULL, claim_until = NULL
      FROM batch
      WHERE c.context_key = ANY(ARRAY(SELECT release_key FROM batch
          WHERE release_key <> context_key AND release_key <> ALL(ARRAY(SELECT context_key FROM batch))))
        AND c.context_key = batch.release_key AND c.claim_holder = batch.release_holder
      RETURNING 1
    )
    SELECT COUNT(*) AS notified
    FROM (SELECT pg_notify(notify_channel, notify_payload) FROM batch WHERE notify_channel IS NOT NULL) sent`,
} as const;

/** deadlock_detected, serialization_failure: nothing was stored, and each save alone would not meet it */
const RETRY_ALONE_CODES = new Set(['40P01', '40001']);

export class PostgresSaveBatch {
  private readonly batcher: StatementBatcher<PendingSave, void>;

  /**
   * `alone` saves one task as SAVE_TASK does; `withConnection` runs the batch's statement (both map
   * driver errors to the store's AppErrors, keeping the driver's code in their details)
   */
  constructor(options: {
    readonly alone: (save: PendingSave) => Promise<void>;
    readonly withConnection: (work: (connection: PostgresConnection) => Promise<void>) => Promise<void>;
  }) {
    this.batcher = new StatementBatcher<PendingSave, void>(
      {
        alone: options.alone,
        together: async (saves) => {
          await options.withConnection((connection) => saveBatch(connection, saves));
          return saves.map(() => undefined);
        },
        retryAlone: (error) => RETRY_ALONE_CODES.has(driverCode(error) ?? ''),
        weight: (save) => save.stored.bytes,
      },
      { maxInFlight: MAX_IN_FLIGHT, maxBatch: MAX_BATCH, maxWeight: MAX_BATCH_BYTES },
    );
  }

  /** Saves the task in the next batch; a context's saves are stored in the order they were made. */
  save(save: PendingSave): Promise<void> {
    return this.batcher.run(save.stored.contextKey, save);
  }
}

async function saveBatch(connection: PostgresConnection, saves: readonly PendingSave[]): Promise<void> {
  const columns: unknown[][] = COLUMNS.map(() => []);
  for (const { stored, options, now, notice } of saves) {
    saveValues(stored, options, now, notice).forEach((value, index) => columns[index]?.push(value));
  }
  const values: unknown[] = [...columns];
  values[DATA_COLUMN] = (columns[DATA_COLUMN] as string[]).join('\n');
  await connection.query({ ...SAVE_BATCH_STATEMENT, values });
}

/** the driver's SQLSTATE of a store error (AppError details) or of the driver's own error */
function driverCode(error: unknown): string | undefined {
  if (error instanceof AppError) {
    const details = error.details as { driverCode?: unknown } | undefined;
    return typeof details?.driverCode === 'string' ? details.driverCode : undefined;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
