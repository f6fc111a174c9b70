/**
 * The A2A task store goes with the tracker store: a SQL tracker store (SQLite, PostgreSQL) keeps the
 * A2A state in the same database, so a restart loses nothing and every process sharing it serves any
 * context; an in-memory tracker store, or `a2a_server.task_store: in_memory`, keeps it in the process.
 * The processes also signal each other (a settled task, a cancel): see openTaskSignals.
 */
import type { A2aServerConfig } from '../a2a/config.js';
import { MemoryTaskStore } from '../a2a/tasks/memory/memory-task-store.js';
import { SqlTaskStore } from '../a2a/tasks/sql/sql-task-store.js';
import type { TaskSignals } from '../a2a/tasks/task-signals.js';
import type { TaskStore } from '../a2a/tasks/task-store.js';
import type { LockStore, TrackerStore } from '../core/ports.js';
import { PostgresLockStore } from '../stores/locks/postgres-lock-store.js';
import { RedisLockStore } from '../stores/locks/redis-lock-store.js';
import { RedisTaskSignals } from '../stores/locks/redis-task-signals.js';
import { PostgresTaskSignals } from '../stores/sql/postgres-task-signals.js';
import { SqlTrackerStore } from '../stores/sql/sql-tracker-store.js';
import type { StoreLogger } from '../stores/store-logger.js';

/**
 * Processes sharing the A2A state tell each other what they need to hear (task-signals.ts): through
 * PostgreSQL LISTEN/NOTIFY when the tracker store (or else the lock store) is PostgreSQL, through
 * Redis pub/sub when the lock store is Redis (several workers on one SQLite file); none otherwise.
 */
export function openTaskSignals(options: {
  readonly trackerStore: TrackerStore;
  readonly lockStore: LockStore;
  readonly config: A2aServerConfig;
  readonly logger: StoreLogger;
}): TaskSignals | undefined {
  const { trackerStore, lockStore, config, logger } = options;
  if (config.taskStore !== 'tracker_store' || !(trackerStore instanceof SqlTrackerStore)) return undefined;
  const tracker = trackerStore.target;
  if (tracker.dialect === 'postgresql') return new PostgresTaskSignals({ target: tracker, logger });
  if (lockStore instanceof PostgresLockStore)
    return new PostgresTaskSignals({ target: lockStore.target, logger });
  if (lockStore instanceof RedisLockStore)
    return new RedisTaskSignals({ connection: lockStore.connection, logger });
  return undefined;
}

/**
 * `signals`: openTaskSignals' answer for the same stores. When they are PostgreSQL LISTEN/NOTIFY on the
 * task store's own database, a save that settles a task sends their notification in its statement.
 */
export function openTaskStore(options: {
  readonly trackerStore: TrackerStore;
  readonly config: A2aServerConfig;
  readonly signals?: TaskSignals;
  readonly now?: () => number;
}): TaskStore {
  const { config, trackerStore, signals } = options;
  const now = options.now ?? Date.now;
  if (config.taskStore === 'tracker_store' && trackerStore instanceof SqlTrackerStore) {
    const sameDatabase =
      signals instanceof PostgresTaskSignals && signals.target === trackerStore.target ? signals : undefined;
    return new SqlTaskStore({
      database: trackerStore.database,
      limits: { maxContextBytes: config.limits.maxContextBytes },
      now,
      ...(sameDatabase ? { announce: (taskId: string) => sameDatabase.settledNotice(taskId) } : {}),
    });
  }
  return new MemoryTaskStore({
    replayTtlSeconds: config.messageCacheTtlSeconds,
    now,
    limits: {
      maxContextBytes: config.limits.maxContextBytes,
      maxTotalBytes: config.limits.maxTaskMemoryBytes,
    },
  });
}
