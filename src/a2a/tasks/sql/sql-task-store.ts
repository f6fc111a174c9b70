/**
 * The A2A state in the tracker store's SQL database (SQLite or PostgreSQL; tables of migration 5,
 * src/stores/sql/a2a-task-tables.ts): a restart loses nothing, and every process on the database sees
 * the same contexts, claims, tasks, replay entries and push configs. The rules are the memory store's
 * (memory/memory-task-store.ts), held to by the same contract suite, except its memory limits: a
 * context keeps its newest `perContext` tasks within `maxContextBytes`, and nothing caps the process.
 *
 * The statements of a turn (replay lookup, claim, saves, release, trim) run without knex's query
 * building: prepared statements on SQLite, named prepared statements on PostgreSQL, one round trip
 * each there (a trim that forgets tasks takes two; under load, saves go several to a statement:
 * postgres-save-batch.ts). The database belongs to the tracker store, which
 * closes it.
 */
import type { PushConfig } from '../../push/push-config.js';
import { DEFAULT_TASK_LIMITS } from '../memory/task-retention.js';
import type {
  ClaimOutcome,
  ClaimRequest,
  KnownContextSize,
  ListQuery,
  OwnedPushConfig,
  PushLimits,
  PushPutOutcome,
  ReplayEntry,
  ReplayKey,
  SaveOptions,
  StoredContext,
  StoredTask,
  TaskPage,
  TaskStore,
  TaskStoreStats,
  TrimResult,
} from '../task-store.js';
import type { Task } from '../model.js';
import { membersOf, replayOf } from './context-claim.js';
import { PostgresSaveBatch } from './postgres-save-batch.js';
import type { PendingSave } from './postgres-save-batch.js';
import { POSTGRES_WRITES, REPLAY_SWEEP_EVERY, SWEEP_EXPIRED_REPLAYS } from './postgres-task-statements.js';
import { pushConfigsOf, putPushConfigIn } from './sql-push-configs.js';
import { PostgresRunner, SqliteRunner, SqliteScripts, rows, run, runPlannedEach } from './sql-runner.js';
import type { SqlRunner, SqlScript } from './sql-runner.js';
import { SQLITE_WRITES } from './sqlite-task-statements.js';
import type { SqliteConnection, TaskDatabase } from './task-database.js';
import { beyondLimits, contextOf, encodeOwner, storedTaskOf } from './task-rows.js';
import type { ContextRow, MemberRow, TaskRow } from './task-rows.js';
import { CONTEXT_SQL, PUSH_SQL, REPLAY_SWEEP, TASK_SQL, listStatements } from './task-sql.js';
import type { SettledNotice, TaskWrites } from './task-writes.js';

export interface SqlTaskLimits {
  /** tasks kept per context */
  readonly perContext: number;
  /** bytes of the tasks of one context */
  readonly maxContextBytes: number;
}

export interface SqlTaskStoreOptions {
  /** a SQL tracker store's `database` */
  readonly database: TaskDatabase;
  readonly limits?: Partial<SqlTaskLimits>;
  /** ms since the epoch: when replay entries expire on writes, and whether a claim lapsed on removal */
  readonly now?: () => number;
  /**
   * PostgreSQL: the notification the task signals would send for a settled task (they listen on this
   * database); a save with `announce` sends it itself, in its statement
   */
  readonly announce?: (taskId: string) => SettledNotice;
}

const STORE = 'A2A task store';

export class SqlTaskStore implements TaskStore {
  private readonly database: TaskDatabase;
  private readonly limits: SqlTaskLimits;
  private readonly now: () => number;
  private readonly writes: TaskWrites;
  /** statements are prepared per SQLite connection (knex may replace a broken one) */
  private readonly sqliteScripts = new WeakMap<SqliteConnection, SqliteScripts>();
  private readonly sqlite: SqliteRunner;
  private readonly announce: ((taskId: string) => SettledNotice) | undefined;
  readonly announcesSettled: boolean;
  /** replay entries recorded since the last sweep (PostgreSQL) */
  private recordedReplays = 0;
  /** PostgreSQL: saves that come while others are on their way go together (postgres-save-batch.ts) */
  private readonly saves: PostgresSaveBatch | undefined;

  constructor(options: SqlTaskStoreOptions) {
    this.database = options.database;
    const { perContext, maxContextBytes } = DEFAULT_TASK_LIMITS;
    this.limits = { perContext, maxContextBytes, ...options.limits };
    this.now = options.now ?? Date.now;
    this.writes = options.database.dialect === 'sqlite' ? SQLITE_WRITES : POSTGRES_WRITES;
    this.sqlite = new SqliteRunner(options.database, (connection) => this.scriptsOf(connection));
    this.announce = options.database.dialect === 'postgresql' ? options.announce : undefined;
    this.announcesSettled = this.announce !== undefined;
    this.saves =
      options.database.dialect === 'postgresql'
        ? new PostgresSaveBatch({
            alone: (save) => this.saveAlone(save),
            withConnection: (work) =>
              this.database.run('save tasks', () => this.database.withPostgres(work), { store: STORE }),
          })
        : undefined;
  }

  describe(): string {
    return this.database.describe();
  }

  async getTask(id: string): Promise<StoredTask | undefined> {
    const [row] = await this.read('read a task', (sql) => sql.execute(rows<TaskRow>(TASK_SQL.get, [id])));
    return row ? storedTaskOf(row) : undefined;
  }

  async listTasks(query: ListQuery): Promise<TaskPage> {
    return this.read('list tasks', (sql) => sql.execute(taskPage(query)));
  }

  async saveTask(task: StoredTask, options: SaveOptions = {}): Promise<void> {
    const notice = options.announce ? this.announce?.(task.task.id) : undefined;
    const save = { stored: task, options, now: this.now(), notice };
    await (this.saves ? this.saves.save(save) : this.saveAlone(save));
    if (options.replay) await this.recorded();
  }

  private saveAlone({ stored, options, now, notice }: PendingSave): Promise<void> {
    return this.write('save a task', (sql) => this.writes.saveTask(sql, stored, options, now, notice));
  }

  async removeTasks(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.write('remove tasks', (sql) => this.writes.forgetTasks(sql, ids, this.now()));
  }

  async trim(contextKey: string, now: number, known?: KnownContextSize): Promise<TrimResult> {
    // within the limits by what the turn knows: not a round trip to read the context again
    if (known && known.tasks <= this.limits.perContext && known.bytes <= this.limits.maxContextBytes)
      return { removed: [], evictions: [] };
    const removed = await this.write('trim a context', async (sql) => {
      const members = await sql.execute(rows<MemberRow>(TASK_SQL.members, [contextKey]));
      const beyond = beyondLimits(members, this.limits);
      if (beyond.length > 0) await this.writes.forgetTasks(sql, beyond, now);
      return beyond;
    });
    // no memory limits here: nothing is evicted for them
    return { removed, evictions: [] };
  }

  async getContext(key: string): Promise<StoredContext | undefined> {
    return this.read('read a context', (sql) => sql.execute(context(key)));
  }

  async claimContext(request: ClaimRequest): Promise<ClaimOutcome> {
    const outcome = await this.write('claim a context', (sql) => this.writes.claimContext(sql, request));
    if (outcome.kind === 'claimed' && request.start?.replay) await this.recorded();
    return outcome;
  }

  async renewClaims(keys: readonly string[], holder: string, until: number): Promise<void> {
    if (keys.length === 0) return;
    await this.write('renew claims', (sql) => this.writes.renewClaims(sql, keys, holder, until));
  }

  async releaseContext(key: string, holder: string): Promise<void> {
    await this.write('release a context', (sql) => this.writes.releaseContext(sql, key, holder));
  }

  async getReplay(key: ReplayKey, now: number): Promise<ReplayEntry | undefined> {
    return this.read('read a replay entry', (sql) => sql.execute(replayOf(key, now)));
  }

  async putPushConfig(config: PushConfig, owner: string, limits: PushLimits): Promise<PushPutOutcome> {
    return this.write('store a push config', (sql) =>
      sql.transaction(putPushConfigIn(this.writes, { config, owner, limits })),
    );
  }

  async pushConfigs(taskId: string): Promise<readonly OwnedPushConfig[]> {
    return this.read('read push configs', (sql) => sql.execute(pushConfigsOf(taskId)));
  }

  async deletePushConfig(taskId: string, configId: string, owner: string): Promise<void> {
    await this.write('delete a push config', (sql) =>
      sql.execute(run(PUSH_SQL.delete, [taskId, configId, encodeOwner(owner)])),
    );
  }

  async overdueTasks(now: number, limit: number): Promise<readonly StoredTask[]> {
    const overdue = await this.read('find overdue tasks', (sql) =>
      sql.execute(rows<TaskRow>(TASK_SQL.overdue, [now, now, limit])),
    );
    return overdue.map(storedTaskOf);
  }

  /** replayBytes: the answers of the replay entries not expired, as the answering tasks weighed */
  async stats(): Promise<TaskStoreStats> {
    const [row] = await this.read('count the tasks', (sql) =>
      sql.execute(rows<Record<string, number | string>>(TASK_SQL.stats, [this.now()])),
    );
    return {
      contexts: Number(row?.['contexts'] ?? 0),
      tasks: Number(row?.['tasks'] ?? 0),
      taskBytes: Number(row?.['task_bytes'] ?? 0),
      replayBytes: Number(row?.['replay_bytes'] ?? 0),
      pushConfigs: Number(row?.['push_configs'] ?? 0),
    };
  }

  async close(): Promise<void> {
    // the database is the tracker store's: it closes it
  }

  /**
   * A replay entry was recorded. PostgreSQL: every REPLAY_SWEEP_EVERY of them, the expired entries go
   * in a statement of their own, planned for the table as it is then (postgres-task-statements.ts says
   * why not in the writes); SQLite sweeps in each write's transaction. Lookups ignore expired entries
   * anyway: a sweep that fails (the database went away) is left to the next one.
   */
  private async recorded(): Promise<void> {
    if (this.database.dialect !== 'postgresql') return;
    this.recordedReplays += 1;
    if (this.recordedReplays < REPLAY_SWEEP_EVERY) return;
    this.recordedReplays = 0;
    await this.write('sweep expired replay entries', (sql) =>
      sql.execute(runPlannedEach(SWEEP_EXPIRED_REPLAYS, [this.now(), REPLAY_SWEEP * REPLAY_SWEEP_EVERY])),
    ).catch(() => undefined);
  }

  /** a read: one more try on a fresh connection when the first was lost */
  private read<T>(operation: string, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    return this.database.run(operation, () => this.onConnection(work), { retry: true, store: STORE });
  }

  private write<T>(operation: string, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    return this.database.run(operation, () => this.onConnection(work), { store: STORE });
  }

  /** SQLite: each script borrows the connection on its own, and transactions join the group commit */
  private onConnection<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    if (this.database.dialect === 'postgresql')
      return this.database.withPostgres((connection) => work(new PostgresRunner(connection)));
    return work(this.sqlite);
  }

  private scriptsOf(connection: SqliteConnection): SqliteScripts {
    let scripts = this.sqliteScripts.get(connection);
    if (!scripts) {
      scripts = new SqliteScripts(connection);
      this.sqliteScripts.set(connection, scripts);
    }
    return scripts;
  }
}

function* taskPage(query: ListQuery): SqlScript<TaskPage> {
  const { page, count, parameters } = listStatements(query, encodeOwner(query.owner));
  const found = yield* rows<{ data: string }>(page, [...parameters, query.limit, query.offset]);
  const [counted] = yield* rows<{ total: number | string }>(count, parameters);
  return { tasks: found.map((row) => JSON.parse(row.data) as Task), total: Number(counted?.total ?? 0) };
}

function* context(key: string): SqlScript<StoredContext | undefined> {
  const [row] = yield* rows<ContextRow>(CONTEXT_SQL.get, [key]);
  return row ? contextOf(row, yield* membersOf(key)) : undefined;
}
