/**
 * The task store's writes that each dialect does its own way: SQLite in one synchronous write
 * transaction of prepared statements (sqlite-task-statements.ts), PostgreSQL in one statement each
 * where it can (postgres-task-statements.ts), so that a turn's writes cost one round trip each.
 */
import type { ClaimOutcome, ClaimRequest, SaveOptions, StoredTask } from '../task-store.js';
import type { SqlRunner, SqlScript } from './sql-runner.js';

/** the statements of a save (TaskWrites.saveTask), to run within another write (a claim's) */
export type SaveScript = (stored: StoredTask, options: SaveOptions, now: number) => SqlScript<unknown>;

/** a PostgreSQL notification to send when the write commits: what the task signals would send */
export interface SettledNotice {
  readonly channel: string;
  readonly payload: string;
}

export interface TaskWrites {
  /**
   * the task, and the replay entry, answer and release of the options; `now` expires replay entries;
   * `notice` (PostgreSQL only) goes out when the save commits
   */
  saveTask(
    sql: SqlRunner,
    stored: StoredTask,
    options: SaveOptions,
    now: number,
    notice?: SettledNotice,
  ): Promise<void>;
  /** Deletes tasks and their push configs; a context left without tasks and unclaimed at `now` goes too. */
  forgetTasks(sql: SqlRunner, ids: readonly string[], now: number): Promise<void>;
  claimContext(sql: SqlRunner, request: ClaimRequest): Promise<ClaimOutcome>;
  releaseContext(sql: SqlRunner, key: string, holder: string): Promise<void>;
  renewClaims(sql: SqlRunner, keys: readonly string[], holder: string, until: number): Promise<void>;
  /** First in a transaction that adds a push config: such transactions then run one at a time. */
  lockPushConfigs(): SqlScript<void>;
}
