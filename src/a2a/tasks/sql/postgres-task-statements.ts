/**
 * The PostgreSQL task store's writes, each one statement (one round trip, no BEGIN / COMMIT) with
 * data-modifying WITH clauses, run as named prepared statements (sql-runner.ts).
 *
 * Claims are atomic across processes: the context's row is locked (FOR UPDATE) while the statement decides,
 * so of two processes claiming it one waits and then finds it claimed. A new context under `max_contexts`
 * takes the row lock of the `opened` tally (a2a-task-tables.ts in src/stores/sql), so contexts are added one
 * at a time, each seeing the count its predecessor left. At the cap, the same statement turns the least
 * recently used idle context's row (one no other statement has locked) into the new one: the count does not
 * change, so the tally's trigger does not fire (a delete and an insert cost a fifth of the claim's CPU,
 * measured), and a claim whose snapshot shows the cap reached swaps without the lock — new contexts at the
 * cap open side by side, not one commit and WAL flush after another (measured: that queue held most claims).
 * A claim whose snapshot shows room takes the lock, which reads the count as committed: it may still find
 * the cap reached and swap. Only when no context is idle (a caller's fair share decides, or the cap is full)
 * does the eviction run as context-claim.ts's statements in a transaction holding the lock.
 */
import type { ClaimOutcome, ClaimRequest, Eviction, SaveOptions, StoredTask } from '../task-store.js';
import { claimContextIn } from './context-claim.js';
import { rows, run } from './sql-runner.js';
import type { SqlRunner, SqlScript } from './sql-runner.js';
import {
  TASK_COLUMNS,
  decodeOwner,
  encodeOwner,
  replayEntryOf,
  scopeKey,
  storedTaskOf,
  taskValues,
} from './task-rows.js';
import type { ReplayRow, TaskRow } from './task-rows.js';
import { TERMINAL_STATES } from '../model.js';
import type { SettledNotice, TaskWrites } from './task-writes.js';

/** how many values taskValues gives (task-rows.ts): one a column */
const TASK_VALUES = TASK_COLUMNS.split(',').length;

const MEMBERS_OF_1 = 'SELECT 1 FROM a2a_tasks WHERE context_key = $1 AND member = 1';

/** a task saved again, and a replay entry recorded again (ON CONFLICT … DO UPDATE SET) */
export const UPDATE_TASK = `context_key = EXCLUDED.context_key, owner = EXCLUDED.owner,
      context_id = EXCLUDED.context_id, state = EXCLUDED.state, status_time = EXCLUDED.status_time,
      bytes = EXCLUDED.bytes, deadline = EXCLUDED.deadline, due = EXCLUDED.due, data = EXCLUDED.data`;
export const UPDATE_REPLAY = `fingerprint = EXCLUDED.fingerprint, task_id = EXCLUDED.task_id, answer = NULL,
      answer_bytes = 0, expires_at = EXCLUDED.expires_at`;

/** how many replay entries a process records between two sweeps of the expired ones */
export const REPLAY_SWEEP_EVERY = 64;

/**
 * $1 now, $2 how many: the oldest expired replay entries. Not a WITH clause of the writes recording entries,
 * as SQLite has it: a connection plans a named statement once for the table as it then is, and a sweep
 * planned on a nearly empty table read all of it each time (by the time entries expire, a table of 100,000
 * entries) and made the whole write too costly for PostgreSQL to keep its plan. This one is planned each
 * time (runPlannedEach) and goes by the rows' physical addresses; an entry recorded again meanwhile has
 * another address and stays.
 */
export const SWEEP_EXPIRED_REPLAYS = `DELETE FROM a2a_replays WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM a2a_replays WHERE expires_at <= $1::float8 ORDER BY expires_at LIMIT $2::integer))`;

/** the terminal states as SQL literals (fixed names of ours, never input) */
const TERMINAL_SQL = [...TERMINAL_STATES].map((state) => `'${state}'`).join(', ');

/**
 * $1 key, $2 contextId, $3 owner, $4 now, $5 holder, $6 claim until, $7 cap (0: none), $8–$9 the
 * message's replay key (scope null: none), $10–$19 the columns of the task it starts (null: none),
 * $20–$23 that task's replay entry (scope null: none), stored once claimed. Answers one row: replayed
 * (the message's entry: nothing is claimed), claimed (with the context's id, its tasks' ids and size,
 * and its open tasks as JSON, and the idle context it evicted to make room, if any), busy,
 * other_owner, or at_cap (no context is idle: a fair share decides); no row when another process opened
 * the same context at the same moment. A reclaimed context whose previous claim was the same holder's
 * also answers the conversation's event count (`kept_at`, StoredContext.keptAt): every claim records
 * its holder (`last_holder`), so no other process's turn ran on it since this holder's last one. A
 * context opened anew answers 0 when its conversation has no event (an evicted context's has some).
 *
 * The victim's row is locked after the statement's snapshot was taken (it may have waited for the lock), so
 * PostgreSQL hands over the row as another claim may have changed it since: updated into that claim's new
 * context, and idle again. `seen` keeps only a row whose key the snapshot has, since the eviction's UPDATE
 * finds its row by that key (it would find none, and the claim take the slow way under the lock). The search
 * goes through the contexts without a waiting task (`waiting <> 1`, the index of migration 11:
 * a2a-task-tables.ts says why an inequality), and asks each candidate about its tasks and its key in
 * subqueries of its own, so that no plan can read every candidate and sort them.
 */
export const CLAIM = `WITH replayed AS (
    SELECT fingerprint, task_id, answer FROM a2a_replays
    WHERE scope = $8::text AND message_id = $9::text AND expires_at > $4::float8
  ), current AS (
    SELECT owner, claim_until, last_holder FROM a2a_contexts
    WHERE context_key = $1 AND NOT EXISTS (SELECT 1 FROM replayed)
    FOR UPDATE
  ), tally AS (
    SELECT opened.total - closed.total AS open_now
    FROM a2a_context_tally opened, a2a_context_tally closed
    WHERE opened.kind = 'opened' AND closed.kind = 'closed' AND $7::integer > 0
      AND NOT EXISTS (SELECT 1 FROM current) AND NOT EXISTS (SELECT 1 FROM replayed)
  ), opened AS (
    SELECT total FROM a2a_context_tally
    WHERE kind = 'opened' AND EXISTS (SELECT 1 FROM tally WHERE open_now < $7::integer)
    FOR UPDATE
  ), room AS (
    SELECT opened.total - closed.total < $7::integer AS free
    FROM opened, a2a_context_tally closed WHERE closed.kind = 'closed'
    UNION ALL SELECT FALSE FROM tally WHERE open_now >= $7::integer
  ), victim AS (
    SELECT c.context_key, c.context_id, c.owner FROM a2a_contexts c
    WHERE c.waiting <> 1 AND EXISTS (SELECT 1 FROM room WHERE NOT free) AND c.context_key <> $1::text
      AND (c.claim_until IS NULL OR c.claim_until <= $4::float8)
      AND (SELECT NOT EXISTS (SELECT 1 FROM a2a_tasks t
        WHERE t.context_key = c.context_key AND t.member = 1 AND t.state NOT IN (${TERMINAL_SQL})))
      AND (SELECT EXISTS (SELECT 1 FROM a2a_contexts seen WHERE seen.context_key = c.context_key))
    ORDER BY c.used_seq LIMIT 1
    FOR UPDATE OF c SKIP LOCKED
  ), evicted AS (
    UPDATE a2a_contexts c SET context_key = $1::text, context_id = $2::text, owner = $3::text,
      last_used = $4::float8, used_seq = nextval('a2a_context_uses'), claim_holder = $5::text,
      last_holder = $5::text, claim_until = $6::float8, waiting = 0
    FROM victim WHERE c.context_key = victim.context_key
    RETURNING victim.context_key, victim.context_id, victim.owner, c.context_id AS opened_id
  ), evicted_push AS (
    DELETE FROM a2a_push_configs WHERE task_id IN (SELECT task_id FROM a2a_tasks
      WHERE context_key IN (SELECT context_key FROM evicted) AND member = 1)
    RETURNING 1
  ), evicted_tasks AS (
    DELETE FROM a2a_tasks WHERE context_key IN (SELECT context_key FROM evicted) AND member = 1
    RETURNING 1
  ), reclaimed AS (
    UPDATE a2a_contexts SET last_used = $4::float8, used_seq = nextval('a2a_context_uses'),
      claim_holder = $5::text, last_holder = $5::text, claim_until = $6::float8
    FROM current
    WHERE a2a_contexts.context_key = $1::text AND current.owner = $3::text
      AND (current.claim_until IS NULL OR current.claim_until <= $4::float8)
    RETURNING a2a_contexts.context_id
  ), inserted AS (
    INSERT INTO a2a_contexts (context_key, context_id, owner, last_used, used_seq, claim_holder, last_holder,
      claim_until)
    SELECT $1::text, $2::text, $3::text, $4::float8, nextval('a2a_context_uses'), $5::text, $5::text, $6::float8
    WHERE NOT EXISTS (SELECT 1 FROM current) AND NOT EXISTS (SELECT 1 FROM replayed)
      AND ($7::integer <= 0 OR EXISTS (SELECT 1 FROM room WHERE free))
    ON CONFLICT (context_key) DO NOTHING
    RETURNING context_id
  ), claimed AS (
    SELECT 1 FROM reclaimed UNION ALL SELECT 1 FROM inserted UNION ALL SELECT 1 FROM evicted
  ), started AS (
    INSERT INTO a2a_tasks (task_id, context_key, owner, context_id, state, status_time, bytes, deadline, due, data,
      member)
    SELECT $10::text, $11::text, $12::text, $13::text, $14::text, $15::float8, $16::integer, $17::float8,
      $18::float8, $19::text, 1
    WHERE $10::text IS NOT NULL AND EXISTS (SELECT 1 FROM claimed)
    ON CONFLICT (task_id) DO UPDATE SET ${UPDATE_TASK}
    RETURNING 1
  ), started_replay AS (
    INSERT INTO a2a_replays (scope, message_id, fingerprint, task_id, answer, answer_bytes, expires_at)
    SELECT $20::text, $21::text, $22::text, $10::text, NULL, 0, $23::float8
    WHERE $20::text IS NOT NULL AND EXISTS (SELECT 1 FROM claimed)
    ON CONFLICT (scope, message_id) DO UPDATE SET ${UPDATE_REPLAY}
    RETURNING 1
  )
  SELECT 'claimed' AS outcome, context_id,
    ARRAY(SELECT task_id FROM a2a_tasks WHERE context_key = $1 AND member = 1 ORDER BY seq) AS task_ids,
    (SELECT COALESCE(SUM(bytes), 0) FROM a2a_tasks WHERE context_key = $1 AND member = 1) AS task_bytes,
    (SELECT COALESCE(json_agg(json_build_object('owner', owner, 'context_key', context_key, 'bytes', bytes,
        'deadline', deadline, 'data', data) ORDER BY seq), '[]'::json)
      FROM a2a_tasks WHERE context_key = $1 AND member = 1 AND state NOT IN (${TERMINAL_SQL})) AS open_tasks,
    NULL AS fingerprint, NULL AS task_id, NULL AS answer,
    NULL AS evicted_key, NULL AS evicted_id, NULL AS evicted_owner,
    CASE WHEN (SELECT last_holder FROM current) = $5::text
      THEN (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE sender_id = $1::text) END AS kept_at
  FROM reclaimed
  UNION ALL SELECT 'claimed', opened.context_id, ARRAY[]::text[], 0, '[]'::json, NULL, NULL, NULL,
      evicted.context_key, evicted.context_id, evicted.owner,
      CASE WHEN NOT EXISTS (SELECT 1 FROM events WHERE sender_id = $1::text) THEN 0 END
    FROM (SELECT context_id FROM inserted UNION ALL SELECT opened_id FROM evicted) opened
      LEFT JOIN evicted ON TRUE
  UNION ALL SELECT CASE WHEN owner <> $3 THEN 'other_owner' ELSE 'busy' END, NULL, NULL, NULL, NULL,
      NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM current WHERE NOT EXISTS (SELECT 1 FROM reclaimed)
  UNION ALL SELECT 'at_cap', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM room WHERE NOT free AND NOT EXISTS (SELECT 1 FROM evicted)
  UNION ALL SELECT 'replayed', NULL, NULL, NULL, NULL, fingerprint, task_id, answer, NULL, NULL, NULL, NULL
    FROM replayed`;

/** the lock new contexts are created under (see the file's comment) */
const LOCK_OPENED = "SELECT total FROM a2a_context_tally WHERE kind = 'opened' FOR UPDATE";

/**
 * `waiting` (a2a-task-tables.ts) of the context of a task being saved, as it is once the save is stored:
 * whether the task (when it belongs to the context) or another of the context's tasks is open. The arguments
 * are SQL for the task's id, its context's key and its new state.
 */
export function waitingAfterSave(taskId: string, contextKey: string, state: string): string {
  return `CASE WHEN (${state} NOT IN (${TERMINAL_SQL})
        AND NOT EXISTS (SELECT 1 FROM a2a_tasks own WHERE own.task_id = ${taskId} AND own.member = 0))
      OR EXISTS (SELECT 1 FROM a2a_tasks other WHERE other.context_key = ${contextKey} AND other.member = 1
        AND other.task_id <> ${taskId} AND other.state NOT IN (${TERMINAL_SQL}))
    THEN 1 ELSE 0 END`;
}

/** the save ends the claim of its own task's context (the claim it ends is always that one, in practice) */
const OWN_RELEASE = '($18::text = $2::text AND c.claim_holder = $19::text)';

/**
 * $1–$10 the task's columns (task-rows.ts), $11–$14 the replay entry (scope null: none), $15–$16 the
 * replay entry it answers (null: none), $17 now, $18–$19 the claim it ends (key and holder, null:
 * none), $20–$21 the notification sent on commit (channel and payload, null: none). A new task joins
 * its context when the context exists. The released context keeps its row: it holds the saved task.
 */
const SAVE_TASK = `WITH saved AS (
    INSERT INTO a2a_tasks (task_id, context_key, owner, context_id, state, status_time, bytes, deadline, due, data,
      member)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
      CASE WHEN EXISTS (SELECT 1 FROM a2a_contexts WHERE context_key = $2) THEN 1 ELSE 0 END)
    ON CONFLICT (task_id) DO UPDATE SET ${UPDATE_TASK}
    RETURNING 1
  ), replay AS (
    INSERT INTO a2a_replays (scope, message_id, fingerprint, task_id, answer, answer_bytes, expires_at)
    SELECT $11::text, $12::text, $13::text, $1::text, NULL, 0, $14::float8 WHERE $11::text IS NOT NULL
    ON CONFLICT (scope, message_id) DO UPDATE SET ${UPDATE_REPLAY}
    RETURNING 1
  ), answered AS (
    UPDATE a2a_replays SET answer = $10, answer_bytes = $7
    WHERE scope = $15::text AND message_id = $16::text AND expires_at > $17::float8
    RETURNING 1
  ), touched AS (
    UPDATE a2a_contexts c SET
      claim_holder = CASE WHEN ${OWN_RELEASE} THEN NULL ELSE c.claim_holder END,
      claim_until = CASE WHEN ${OWN_RELEASE} THEN NULL ELSE c.claim_until END,
      waiting = w.waiting
    FROM (SELECT ${waitingAfterSave('$1::text', '$2::text', '$5::text')} AS waiting) w
    WHERE c.context_key = $2::text AND (${OWN_RELEASE} OR c.waiting <> w.waiting)
    RETURNING 1
  ), released AS (
    UPDATE a2a_contexts SET claim_holder = NULL, claim_until = NULL
    WHERE context_key = $18::text AND $18::text <> $2::text AND claim_holder = $19::text
    RETURNING 1
  )
  SELECT COUNT(*) AS notified FROM (SELECT pg_notify($20::text, $21::text) WHERE $20::text IS NOT NULL) sent`;

/** $1 task ids, $2 now */
const FORGET_TASKS = `WITH removed AS (
    DELETE FROM a2a_tasks WHERE task_id = ANY($1::text[]) RETURNING context_key
  ), unpushed AS (
    DELETE FROM a2a_push_configs WHERE task_id = ANY($1::text[]) RETURNING 1
  )
  DELETE FROM a2a_contexts c
  WHERE c.context_key IN (SELECT context_key FROM removed)
    AND (c.claim_until IS NULL OR c.claim_until <= $2::float8)
    AND NOT EXISTS (SELECT 1 FROM a2a_tasks t
      WHERE t.context_key = c.context_key AND t.member = 1 AND t.task_id <> ALL($1::text[]))`;

/** $1 key, $2 holder: the claim ends, and a context without tasks goes with it */
const RELEASE = `WITH kept AS (
    UPDATE a2a_contexts SET claim_holder = NULL, claim_until = NULL,
      waiting = CASE WHEN EXISTS (SELECT 1 FROM a2a_tasks t WHERE t.context_key = $1 AND t.member = 1
        AND t.state NOT IN (${TERMINAL_SQL})) THEN 1 ELSE 0 END
    WHERE context_key = $1 AND claim_holder = $2 AND EXISTS (${MEMBERS_OF_1})
    RETURNING 1
  )
  DELETE FROM a2a_contexts WHERE context_key = $1 AND claim_holder = $2 AND NOT EXISTS (${MEMBERS_OF_1})`;

const RENEW =
  'UPDATE a2a_contexts SET claim_until = $3 WHERE context_key = ANY($1::text[]) AND claim_holder = $2';

/** an arbitrary constant of ours (migrations.ts has the one before it) */
const PUSH_LOCK = 'SELECT pg_advisory_xact_lock(7306542203916405252)';

interface ClaimRow {
  readonly outcome: 'claimed' | 'busy' | 'other_owner' | 'at_cap' | 'replayed';
  readonly context_id: string | null;
  readonly task_ids: string[] | null;
  /** a bigint sum: pg reads it as text */
  readonly task_bytes: string | number | null;
  /** JSON: pg parses it */
  readonly open_tasks: TaskRow[] | null;
  readonly fingerprint: string | null;
  readonly task_id: string | null;
  readonly answer: string | null;
  /** the idle context evicted to make room (owner escaped) */
  readonly evicted_key: string | null;
  readonly evicted_id: string | null;
  readonly evicted_owner: string | null;
  /** the conversation's event count when the context's previous claim was the same holder's, or 0 */
  readonly kept_at: number | string | null;
}

export const POSTGRES_WRITES: TaskWrites = {
  async saveTask(
    sql: SqlRunner,
    stored: StoredTask,
    options: SaveOptions,
    now: number,
    notice?: SettledNotice,
  ): Promise<void> {
    await sql.execute(saveScript(stored, options, now, notice));
  },

  async forgetTasks(sql: SqlRunner, ids: readonly string[], now: number): Promise<void> {
    await sql.execute(run(FORGET_TASKS, [ids, now]));
  },

  async claimContext(sql: SqlRunner, request: ClaimRequest): Promise<ClaimOutcome> {
    const { key, contextId, owner, now, holder, leaseMs, maxContexts, replay, start } = request;
    const until = now + leaseMs;
    const replayKey = replay ? [scopeKey(replay.scope), replay.messageId] : [null, null];
    const values = [
      ...[key, contextId, encodeOwner(owner), now, holder, until, maxContexts, ...replayKey],
      ...(start ? taskValues(start.task) : new Array<null>(TASK_VALUES).fill(null)),
      ...replayValues(start?.replay),
    ];
    const [row] = await sql.execute(rows<ClaimRow>(CLAIM, values)).catch(unlessOpenedMeanwhile);
    if (row?.outcome === 'busy' || row?.outcome === 'other_owner') return { kind: row.outcome };
    if (row?.outcome === 'replayed') return { kind: 'replayed', entry: replayEntryOf(row as ReplayRow) };
    if (row?.outcome === 'claimed') {
      const openTasks = (row.open_tasks ?? []).map(storedTaskOf);
      const context = {
        key,
        contextId: row.context_id ?? contextId,
        owner,
        taskIds: row.task_ids ?? [],
        taskBytes: Number(row.task_bytes ?? 0),
        openTaskIds: openTasks.map((stored) => stored.task.id),
        openTasks,
        claim: { holder, until },
        ...(row.kept_at !== null ? { keptAt: Number(row.kept_at) } : {}),
      };
      return { kind: 'claimed', context, evictions: evictionOf(row) };
    }
    // no idle context at the cap, or opened by another process just now: decided again under the lock
    return sql.transaction(underLock(request));
  },

  async releaseContext(sql: SqlRunner, key: string, holder: string): Promise<void> {
    await sql.execute(run(RELEASE, [key, holder]));
  },

  async renewClaims(sql: SqlRunner, keys: readonly string[], holder: string, until: number): Promise<void> {
    await sql.execute(run(RENEW, [keys, holder, until]));
  },

  *lockPushConfigs(): SqlScript<void> {
    yield* rows(PUSH_LOCK);
  },
};

/**
 * No row when the claim's swap gave the victim's row a key another process committed meanwhile (swaps
 * at the cap do not wait for each other; a claim that waited for the lock decided before): decided
 * again under the lock, as when its insert finds the key taken.
 */
function unlessOpenedMeanwhile(error: unknown): ClaimRow[] {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  if (code === '23505' && constraint === 'a2a_contexts_pkey') return [];
  throw error;
}

/** the idle context a claim evicted in its statement: none of its tasks was open */
function evictionOf(row: ClaimRow): Eviction[] {
  if (row.evicted_key === null || row.evicted_id === null || row.evicted_owner === null) return [];
  const context = { key: row.evicted_key, contextId: row.evicted_id, owner: decodeOwner(row.evicted_owner) };
  return [{ context, reason: 'idle', openTasks: [] }];
}

function* underLock(request: ClaimRequest): SqlScript<ClaimOutcome> {
  yield* rows(LOCK_OPENED);
  return yield* claimContextIn('postgresql', request, saveScript);
}

function saveScript(
  stored: StoredTask,
  options: SaveOptions,
  now: number,
  notice?: SettledNotice,
): SqlScript<unknown> {
  return rows(SAVE_TASK, saveValues(stored, options, now, notice));
}

/** SAVE_TASK's parameters, in order (postgres-save-batch.ts writes several saves' as columns) */
export function saveValues(
  stored: StoredTask,
  options: SaveOptions,
  now: number,
  notice?: SettledNotice,
): unknown[] {
  const { replay, answers, release } = options;
  return [
    ...taskValues(stored),
    ...replayValues(replay),
    answers ? scopeKey(answers.scope) : null,
    answers?.messageId ?? null,
    now,
    release?.key ?? null,
    release?.holder ?? null,
    notice?.channel ?? null,
    notice?.payload ?? null,
  ];
}

/** a replay entry to record: scope, messageId, fingerprint, expiry (nulls: none) */
function replayValues(replay: SaveOptions['replay']): unknown[] {
  if (!replay) return [null, null, null, null];
  return [scopeKey(replay.scope), replay.messageId, replay.fingerprint, replay.expiresAt];
}
