/**
 * The A2A task store's tables (migration 5; the store is src/a2a/tasks/sql/sql-task-store.ts), next to
 * the conversations so that a restart loses nothing and any replica can serve any turn.
 *
 * - a2a_contexts: one row per open context, with the claim of the turn running on it. `used_seq` orders
 *   the contexts by last use (a counter, not the clock: several uses in one millisecond, or on two
 *   hosts whose clocks differ, stay in order); `last_used` is the time, for people reading the table.
 *   `last_holder` (migration 9) is the process whose claim it had last, kept when the claim ends;
 *   `waiting` (migration 11, PostgreSQL) whether it has an open task.
 * - a2a_tasks: the task as JSON in `data`, and the columns the queries filter on. `seq` is the order of
 *   creation. `member` is 1 while the task counts among its context's tasks: a context evicted for
 *   fair share keeps its tasks (their caller reads why they failed) but they no longer belong to a
 *   context that reopens under the same key. `due` is the deadline while the task is open.
 * - a2a_replays: messageId replay entries. `scope` is a digest of the caller and the conversation
 *   (a caller's name may hold a NUL, which PostgreSQL text refuses, and be long).
 * - a2a_push_configs: push notification configs, in the order they were set (`seq`).
 *
 * Owners (caller names) are stored escaped (`\` as `\\`, NUL as `\0`) for the same reason. Lengths
 * are checked where the ids arrive (256 characters, conversation ids 255), so the columns are TEXT.
 *
 * PostgreSQL only: `a2a_context_tally` counts the contexts ever opened and ever closed (a trigger keeps
 * it), and its `opened` row is the lock under which contexts are created when `max_contexts` caps
 * them, so that two processes cannot both take the last place. Deleting a context updates only the
 * `closed` row, so nothing that waits for that lock holds a row the lock's holder may wait for.
 */
interface DialectTypes {
  /** the creation order: SQLite's INTEGER PRIMARY KEY is the rowid (numbered on insert, kept by an upsert) */
  readonly seq: string;
  /** the task's key and the push config's key (SQLite's primary key being `seq`) */
  readonly taskKey: string;
  readonly pushKey: string;
  readonly flag: string;
}

/** ms since the epoch (FLOAT is a double in both dialects) */
const time = 'FLOAT';

function tables({ seq, taskKey, pushKey, flag }: DialectTypes): string[] {
  return [
    `CREATE TABLE a2a_contexts (
      context_key TEXT NOT NULL PRIMARY KEY,
      context_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      last_used ${time} NOT NULL,
      used_seq BIGINT NOT NULL,
      claim_holder TEXT,
      claim_until ${time}
    )`,
    'CREATE INDEX ix_a2a_contexts_used ON a2a_contexts (used_seq)',
    'CREATE INDEX ix_a2a_contexts_claim_until ON a2a_contexts (claim_until) WHERE claim_until IS NOT NULL',
    `CREATE TABLE a2a_tasks (
      seq ${seq},
      task_id TEXT NOT NULL,
      context_key TEXT NOT NULL,
      member ${flag} NOT NULL,
      owner TEXT NOT NULL,
      context_id TEXT NOT NULL,
      state TEXT NOT NULL,
      status_time ${time} NOT NULL,
      bytes INTEGER NOT NULL,
      deadline ${time},
      due ${time},
      data TEXT NOT NULL,
      ${taskKey} (task_id)
    )`,
    'CREATE INDEX ix_a2a_tasks_context ON a2a_tasks (context_key, seq)',
    'CREATE INDEX ix_a2a_tasks_owner ON a2a_tasks (owner, status_time, seq)',
    'CREATE INDEX ix_a2a_tasks_due ON a2a_tasks (due) WHERE due IS NOT NULL',
    `CREATE TABLE a2a_replays (
      scope TEXT NOT NULL,
      message_id TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      task_id TEXT NOT NULL,
      answer TEXT,
      answer_bytes INTEGER NOT NULL,
      expires_at ${time} NOT NULL,
      PRIMARY KEY (scope, message_id)
    )`,
    'CREATE INDEX ix_a2a_replays_expires_at ON a2a_replays (expires_at)',
    `CREATE TABLE a2a_push_configs (
      seq ${seq},
      task_id TEXT NOT NULL,
      config_id TEXT NOT NULL,
      owner TEXT NOT NULL,
      data TEXT NOT NULL,
      ${pushKey} (task_id, config_id)
    )`,
    'CREATE INDEX ix_a2a_push_configs_owner ON a2a_push_configs (owner)',
  ];
}

/** migrations.ts's Dialect, spelt out: that module imports this one */
export const A2A_TASK_TABLES: Readonly<Record<'sqlite' | 'postgresql', readonly string[]>> = {
  sqlite: tables({ seq: 'INTEGER PRIMARY KEY', taskKey: 'UNIQUE', pushKey: 'UNIQUE', flag: 'INTEGER' }),
  postgresql: [
    ...tables({
      seq: 'BIGSERIAL NOT NULL',
      taskKey: 'PRIMARY KEY',
      pushKey: 'PRIMARY KEY',
      flag: 'SMALLINT',
    }),
    'CREATE SEQUENCE a2a_context_uses',
    `CREATE TABLE a2a_context_tally (
      kind VARCHAR(16) NOT NULL PRIMARY KEY,
      total BIGINT NOT NULL
    )`,
    "INSERT INTO a2a_context_tally (kind, total) VALUES ('opened', 0), ('closed', 0)",
    // the table's own schema, whatever the search_path of the session that changed it
    `CREATE FUNCTION parley_a2a_context_tally() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        EXECUTE format('UPDATE %I.a2a_context_tally SET total = 0', TG_TABLE_SCHEMA);
      ELSE
        EXECUTE format('UPDATE %I.a2a_context_tally SET total = total + 1 WHERE kind = $1', TG_TABLE_SCHEMA)
          USING CASE TG_OP WHEN 'INSERT' THEN 'opened' ELSE 'closed' END;
      END IF;
      RETURN NULL;
    END
    $body$`,
    `CREATE TRIGGER a2a_contexts_tally AFTER INSERT OR DELETE ON a2a_contexts
      FOR EACH ROW EXECUTE FUNCTION parley_a2a_context_tally()`,
    // an operator emptying the table: a tally left high would send every new context the slow way
    `CREATE TRIGGER a2a_contexts_tally_truncate AFTER TRUNCATE ON a2a_contexts
      FOR EACH STATEMENT EXECUTE FUNCTION parley_a2a_context_tally()`,
  ],
};

/**
 * Migration 8, PostgreSQL: the open tasks of contexts (not terminal: the four terminal states spelt out, as a
 * migration never changes once shipped). Finding the least recently used idle context at the cap asks,
 * for each candidate, whether it has an open task; without this index PostgreSQL answered that by
 * scanning every task once per claim (about 500 pages at 2,000 tasks), and the claim held the lock under
 * which contexts open meanwhile. Open tasks are few, so the index is small.
 */
export const A2A_OPEN_TASKS_INDEX = `CREATE INDEX ix_a2a_tasks_open ON a2a_tasks (context_key)
  WHERE member = 1 AND state NOT IN ('completed', 'canceled', 'failed', 'rejected')`;

/**
 * Migration 9: `last_holder`, the process whose claim the context had last (set by every claim, kept
 * when it ends), so that a claim can tell whether another process ran a turn on it since.
 */
export const A2A_LAST_HOLDER_COLUMN = 'ALTER TABLE a2a_contexts ADD COLUMN last_holder TEXT';

/**
 * Migration 11, PostgreSQL: `waiting`, 1 while a context has an open task (kept by the claims, saves and
 * releases of postgres-task-statements.ts and postgres-save-batch.ts), and an index of the contexts
 * without one in least-recently-used order. The search for an idle context to evict at `max_contexts`
 * went through every context in that order and asked each whether it had an open task: the contexts
 * waiting for input at the old end were passed at every new context (1.9 ms of PostgreSQL's CPU a claim
 * with 500 of them, bench/README.md), and new contexts are claimed one at a time. The flag only guides
 * that search, which still checks the tasks of the context it takes; the slow way under the lock
 * (context-claim.ts) reads the tasks themselves and finds a context whose flag a write missed.
 * The index's condition (and the search's) is `waiting <> 1`, not `= 0`: on a table without statistics
 * (a new database, where a pooled connection makes the claim's generic plan) PostgreSQL counts on an
 * equality for 0.5 % of the rows and planned a bitmap scan and a sort of every candidate, each asked for
 * its tasks; on an inequality for 99.5 %, and it walks the index in order.
 */
export const A2A_WAITING_COLUMN = [
  'ALTER TABLE a2a_contexts ADD COLUMN waiting SMALLINT NOT NULL DEFAULT 0',
  `UPDATE a2a_contexts c SET waiting = 1 WHERE EXISTS (SELECT 1 FROM a2a_tasks t
    WHERE t.context_key = c.context_key AND t.member = 1
      AND t.state NOT IN ('completed', 'canceled', 'failed', 'rejected'))`,
  'CREATE INDEX ix_a2a_contexts_evictable ON a2a_contexts (used_seq) WHERE waiting <> 1',
];
