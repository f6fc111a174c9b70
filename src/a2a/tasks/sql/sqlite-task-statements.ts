/**
 * The SQLite task store's writes: a few prepared statements in one synchronous transaction each (SQLite
 * has no data-modifying WITH, which the PostgreSQL store uses to do each in one statement) — a
 * savepoint of the database's group commit, shared with the other writes of the same moment.
 * SQLite writes one transaction at a time, so nothing checked here changes before the transaction ends.
 */
import type { ClaimOutcome, ClaimRequest, SaveOptions, StoredTask } from '../task-store.js';
import { claimContextIn } from './context-claim.js';
import { rows, run } from './sql-runner.js';
import type { SqlRunner, SqlScript } from './sql-runner.js';
import { TASK_COLUMNS, scopeKey, taskValues } from './task-rows.js';
import { REPLAY_SWEEP } from './task-sql.js';
import type { TaskWrites } from './task-writes.js';

const HAS_MEMBERS =
  'EXISTS (SELECT 1 FROM a2a_tasks t WHERE t.context_key = a2a_contexts.context_key AND t.member = 1)';

const SQL = {
  /** a new task joins its context's tasks when the context exists (the memory store's rule) */
  saveTask: `INSERT INTO a2a_tasks (${TASK_COLUMNS}, member)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COUNT(*) FROM a2a_contexts WHERE context_key = ?))
    ON CONFLICT (task_id) DO UPDATE SET
      context_key = excluded.context_key, owner = excluded.owner, context_id = excluded.context_id,
      state = excluded.state, status_time = excluded.status_time, bytes = excluded.bytes,
      deadline = excluded.deadline, due = excluded.due, data = excluded.data`,
  putReplay: `INSERT INTO a2a_replays (scope, message_id, fingerprint, task_id, answer, answer_bytes, expires_at)
    VALUES (?, ?, ?, ?, NULL, 0, ?)
    ON CONFLICT (scope, message_id) DO UPDATE SET fingerprint = excluded.fingerprint,
      task_id = excluded.task_id, answer = NULL, answer_bytes = 0, expires_at = excluded.expires_at`,
  sweepReplays: `DELETE FROM a2a_replays WHERE (scope, message_id) IN
    (SELECT scope, message_id FROM a2a_replays WHERE expires_at <= ? ORDER BY expires_at LIMIT ${REPLAY_SWEEP})`,
  answerReplay:
    'UPDATE a2a_replays SET answer = ?, answer_bytes = ? WHERE scope = ? AND message_id = ? AND expires_at > ?',
  taskContext: 'SELECT context_key FROM a2a_tasks WHERE task_id = ?',
  deleteTask: 'DELETE FROM a2a_tasks WHERE task_id = ?',
  deleteTaskPush: 'DELETE FROM a2a_push_configs WHERE task_id = ?',
  forgetEmpty: `DELETE FROM a2a_contexts
    WHERE context_key = ? AND (claim_until IS NULL OR claim_until <= ?) AND NOT ${HAS_MEMBERS}`,
  release:
    'UPDATE a2a_contexts SET claim_holder = NULL, claim_until = NULL WHERE context_key = ? AND claim_holder = ?',
  forgetReleased: `DELETE FROM a2a_contexts WHERE context_key = ? AND claim_holder IS NULL AND NOT ${HAS_MEMBERS}`,
  renew: 'UPDATE a2a_contexts SET claim_until = ? WHERE context_key = ? AND claim_holder = ?',
} as const;

export const SQLITE_WRITES: TaskWrites = {
  async saveTask(sql: SqlRunner, stored: StoredTask, options: SaveOptions, now: number): Promise<void> {
    // a transaction also for the save alone: it then joins the group commit instead of committing alone
    await sql.transaction(saveScript(stored, options, now));
  },

  async forgetTasks(sql: SqlRunner, ids: readonly string[], now: number): Promise<void> {
    await sql.transaction(forgetTasks(ids, now));
  },

  claimContext(sql: SqlRunner, request: ClaimRequest): Promise<ClaimOutcome> {
    return sql.transaction(claimContextIn('sqlite', request, saveScript));
  },

  async releaseContext(sql: SqlRunner, key: string, holder: string): Promise<void> {
    await sql.transaction(release(key, holder));
  },

  async renewClaims(sql: SqlRunner, keys: readonly string[], holder: string, until: number): Promise<void> {
    await sql.transaction(renew(keys, holder, until));
  },

  // the transaction took SQLite's write lock already
  *lockPushConfigs(): SqlScript<void> {},
};

function* saveScript(
  stored: StoredTask,
  { replay, answers, release: ending }: SaveOptions,
  now: number,
): SqlScript<void> {
  yield* run(SQL.saveTask, [...taskValues(stored), stored.contextKey]);
  if (replay) {
    const { messageId, fingerprint, expiresAt } = replay;
    yield* run(SQL.putReplay, [scopeKey(replay.scope), messageId, fingerprint, stored.task.id, expiresAt]);
    yield* run(SQL.sweepReplays, [now]);
  }
  if (answers) {
    const answer = [JSON.stringify(stored.task), stored.bytes];
    yield* run(SQL.answerReplay, [...answer, scopeKey(answers.scope), answers.messageId, now]);
  }
  if (ending) yield* release(ending.key, ending.holder);
}

function* forgetTasks(ids: readonly string[], now: number): SqlScript<void> {
  const keys = new Set<string>();
  for (const id of ids) {
    const [task] = yield* rows<{ context_key: string }>(SQL.taskContext, [id]);
    if (task) keys.add(task.context_key);
    yield* run(SQL.deleteTask, [id]);
    yield* run(SQL.deleteTaskPush, [id]);
  }
  for (const key of keys) yield* run(SQL.forgetEmpty, [key, now]);
}

function* release(key: string, holder: string): SqlScript<void> {
  if ((yield* run(SQL.release, [key, holder])) > 0) yield* run(SQL.forgetReleased, [key]);
}

function* renew(keys: readonly string[], holder: string, until: number): SqlScript<void> {
  for (const key of keys) yield* run(SQL.renew, [until, key, holder]);
}
