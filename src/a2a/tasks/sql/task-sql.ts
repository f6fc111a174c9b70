/**
 * The task store's statements that both dialects run as they are (`?` parameters, see sql-runner.ts).
 * A task `member = 1` counts among its context's tasks (a2a-task-tables.ts in src/stores/sql).
 */
import { TERMINAL_STATES_SQL } from './task-rows.js';
import type { ListQuery } from '../task-store.js';
import type { SqlDialect } from './task-database.js';

/** expired replay entries deleted with each new one: enough to keep up, never a long statement */
export const REPLAY_SWEEP = 32;

const TASK_FIELDS = 'owner, context_key, bytes, deadline, data';
const UNCLAIMED = '(claim_until IS NULL OR claim_until <= ?)';

/** the next `used_seq`: SQLite writes one at a time, PostgreSQL has a sequence */
const NEXT_USE: Readonly<Record<SqlDialect, string>> = {
  sqlite: '(SELECT COALESCE(MAX(used_seq), 0) + 1 FROM a2a_contexts)',
  postgresql: "nextval('a2a_context_uses')",
};

export const TASK_SQL = {
  get: `SELECT ${TASK_FIELDS} FROM a2a_tasks WHERE task_id = ?`,
  /** a context's tasks, oldest first, as retention weighs them */
  members: 'SELECT task_id, state, bytes FROM a2a_tasks WHERE context_key = ? AND member = 1 ORDER BY seq',
  memberIds: 'SELECT task_id, state, bytes FROM a2a_tasks WHERE context_key = ? AND member = 1 ORDER BY seq',
  /** open tasks past their deadline, and tasks mid-turn in a context whose claim lapsed; oldest first */
  overdue: `SELECT seq, ${TASK_FIELDS} FROM a2a_tasks WHERE due <= ?
    UNION
    SELECT t.seq, t.owner, t.context_key, t.bytes, t.deadline, t.data
    FROM a2a_contexts c JOIN a2a_tasks t ON t.context_key = c.context_key
    WHERE c.claim_until <= ? AND t.state IN ('submitted', 'working')
    ORDER BY seq LIMIT ?`,
  stats: `SELECT
    (SELECT COUNT(*) FROM a2a_contexts) AS contexts,
    (SELECT COUNT(*) FROM a2a_tasks) AS tasks,
    (SELECT COALESCE(SUM(bytes), 0) FROM a2a_tasks) AS task_bytes,
    (SELECT COALESCE(SUM(answer_bytes), 0) FROM a2a_replays WHERE expires_at > ?) AS replay_bytes,
    (SELECT COUNT(*) FROM a2a_push_configs) AS push_configs`,
  replay:
    'SELECT fingerprint, task_id, answer FROM a2a_replays WHERE scope = ? AND message_id = ? AND expires_at > ?',
} as const;

export const CONTEXT_SQL = {
  get: 'SELECT context_key, context_id, owner, claim_holder, claim_until FROM a2a_contexts WHERE context_key = ?',
  count: 'SELECT COUNT(*) AS total FROM a2a_contexts',
  /** the least recently used context with no claim and no open task */
  idle: `SELECT context_key, context_id, owner FROM a2a_contexts c
    WHERE (c.claim_until IS NULL OR c.claim_until <= ?)
      AND NOT EXISTS (SELECT 1 FROM a2a_tasks t
        WHERE t.context_key = c.context_key AND t.member = 1 AND t.state NOT IN ${TERMINAL_STATES_SQL})
    ORDER BY c.used_seq LIMIT 1`,
  /**
   * How the contexts are shared among callers. The heaviest caller holds the most; of callers holding
   * as many, the one whose least recently used context is the oldest.
   */
  shares: `SELECT
    (SELECT COUNT(DISTINCT owner) FROM a2a_contexts) AS owners,
    (SELECT COUNT(*) FROM a2a_contexts WHERE owner = ?) AS mine,
    (SELECT owner FROM a2a_contexts GROUP BY owner ORDER BY COUNT(*) DESC, MIN(used_seq) LIMIT 1) AS heaviest`,
  /** the owner's least recently used context without a claim (its tasks may wait for input) */
  waiting: `SELECT context_key, context_id, owner FROM a2a_contexts WHERE owner = ? AND ${UNCLAIMED}
    ORDER BY used_seq LIMIT 1`,
  /** evicts a context, unless it was claimed since it was chosen */
  forgetUnclaimed: `DELETE FROM a2a_contexts WHERE context_key = ? AND ${UNCLAIMED}`,
  openMembers: `SELECT ${TASK_FIELDS} FROM a2a_tasks
    WHERE context_key = ? AND member = 1 AND state NOT IN ${TERMINAL_STATES_SQL} ORDER BY seq`,
  deleteMemberPush: `DELETE FROM a2a_push_configs
    WHERE task_id IN (SELECT task_id FROM a2a_tasks WHERE context_key = ? AND member = 1)`,
  deleteMembers: 'DELETE FROM a2a_tasks WHERE context_key = ? AND member = 1',
  detachMembers: 'UPDATE a2a_tasks SET member = 0 WHERE context_key = ? AND member = 1',
  /** parameters: now, holder, holder, until, key, now */
  reclaim: (dialect: SqlDialect) =>
    `UPDATE a2a_contexts SET last_used = ?, used_seq = ${NEXT_USE[dialect]}, claim_holder = ?, last_holder = ?,
      claim_until = ?
    WHERE context_key = ? AND ${UNCLAIMED}`,
  /** parameters: key, contextId, owner, now, holder, holder, until */
  insert: (dialect: SqlDialect) =>
    `INSERT INTO a2a_contexts (context_key, context_id, owner, last_used, used_seq, claim_holder, last_holder,
      claim_until)
    VALUES (?, ?, ?, ?, ${NEXT_USE[dialect]}, ?, ?, ?)
    ON CONFLICT (context_key) DO NOTHING`,
} as const;

export const PUSH_SQL = {
  owner: 'SELECT owner FROM a2a_push_configs WHERE task_id = ? AND config_id = ?',
  counts: `SELECT
    (SELECT COUNT(*) FROM a2a_push_configs WHERE task_id = ?) AS per_task,
    (SELECT COUNT(*) FROM a2a_push_configs WHERE owner = ?) AS per_caller,
    (SELECT COUNT(*) FROM a2a_push_configs) AS total`,
  insert: 'INSERT INTO a2a_push_configs (task_id, config_id, owner, data) VALUES (?, ?, ?, ?)',
  replace: 'UPDATE a2a_push_configs SET data = ? WHERE task_id = ? AND config_id = ?',
  list: 'SELECT owner, data FROM a2a_push_configs WHERE task_id = ? ORDER BY seq',
  delete: 'DELETE FROM a2a_push_configs WHERE task_id = ? AND config_id = ? AND owner = ?',
} as const;

/** tasks/list: the page (newest status first, then newest created) and the count, with the same filters */
export function listStatements(
  query: ListQuery,
  owner: string,
): { readonly page: string; readonly count: string; readonly parameters: readonly unknown[] } {
  const conditions = ['owner = ?'];
  const parameters: unknown[] = [owner];
  const filter = (condition: string, value: unknown): void => {
    conditions.push(condition);
    parameters.push(value);
  };
  if (query.contextId !== undefined) filter('context_id = ?', query.contextId);
  if (query.state !== undefined) filter('state = ?', query.state);
  if (query.statusAfter !== undefined) filter('status_time >= ?', query.statusAfter);
  const where = conditions.join(' AND ');
  return {
    page: `SELECT data FROM a2a_tasks WHERE ${where} ORDER BY status_time DESC, seq DESC LIMIT ? OFFSET ?`,
    count: `SELECT COUNT(*) AS total FROM a2a_tasks WHERE ${where}`,
    parameters,
  };
}
