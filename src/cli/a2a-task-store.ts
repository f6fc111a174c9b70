/**
 * The A2A task store goes with the tracker store: a SQL tracker store (SQLite, PostgreSQL) keeps the
 * A2A state in the same database, so a restart loses nothing and every process sharing it serves any
 * context; an in-memory tracker store, or `a2a_server.task_store: in_memory`, keeps it in the process.
 */
import type { A2aServerConfig } from '../a2a/config.js';
import { MemoryTaskStore } from '../a2a/tasks/memory/memory-task-store.js';
import type { TaskStore } from '../a2a/tasks/task-store.js';
import type { TrackerStore } from '../core/ports.js';

export function openTaskStore(options: {
  readonly trackerStore: TrackerStore;
  readonly config: A2aServerConfig;
  readonly now?: () => number;
}): TaskStore {
  const { config } = options;
  return new MemoryTaskStore({
    replayTtlSeconds: config.messageCacheTtlSeconds,
    now: options.now ?? Date.now,
    limits: {
      maxContextBytes: config.limits.maxContextBytes,
      maxTotalBytes: config.limits.maxTaskMemoryBytes,
    },
  });
}
