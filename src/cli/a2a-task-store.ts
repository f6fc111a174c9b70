/**
 * The A2A task store goes with the tracker store: a SQL tracker store (SQLite, PostgreSQL) keeps the
 * A2A state in the same database, so a restart loses nothing and every process sharing it serves any
 * context; an in-memory tracker store, or `a2a_server.task_store: in_memory`, keeps it in the process.
 * On PostgreSQL the processes also signal each other (a settled task, a cancel) with LISTEN/NOTIFY.
 */
import type { A2aServerConfig } from '../a2a/config.js';
import { MemoryTaskStore } from '../a2a/tasks/memory/memory-task-store.js';
import { SqlTaskStore } from '../a2a/tasks/sql/sql-task-store.js';
import type { TaskSignals } from '../a2a/tasks/task-signals.js';
import type { TaskStore } from '../a2a/tasks/task-store.js';
import type { TrackerStore } from '../core/ports.js';
import { PostgresTaskSignals } from '../stores/sql/postgres-task-signals.js';
import { SqlTrackerStore } from '../stores/sql/sql-tracker-store.js';
import type { StoreLogger } from '../stores/store-logger.js';

/** PostgreSQL tells the other processes on the database what they need to hear (task-signals.ts). */
export function openTaskSignals(options: {
  readonly trackerStore: TrackerStore;
  readonly config: A2aServerConfig;
  readonly logger: StoreLogger;
}): TaskSignals | undefined {
  const { trackerStore, config } = options;
  if (config.taskStore !== 'tracker_store' || !(trackerStore instanceof SqlTrackerStore)) return undefined;
  const target = trackerStore.target;
  if (target.dialect !== 'postgresql') return undefined;
  return new PostgresTaskSignals({ target, logger: options.logger });
}

export function openTaskStore(options: {
  readonly trackerStore: TrackerStore;
  readonly config: A2aServerConfig;
  readonly now?: () => number;
}): TaskStore {
  const { config, trackerStore } = options;
  const now = options.now ?? Date.now;
  if (config.taskStore === 'tracker_store' && trackerStore instanceof SqlTrackerStore)
    return new SqlTaskStore({
      database: trackerStore.database,
      limits: { maxContextBytes: config.limits.maxContextBytes },
      now,
    });
  return new MemoryTaskStore({
    replayTtlSeconds: config.messageCacheTtlSeconds,
    now,
    limits: {
      maxContextBytes: config.limits.maxContextBytes,
      maxTotalBytes: config.limits.maxTaskMemoryBytes,
    },
  });
}
