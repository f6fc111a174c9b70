import type { Assistant } from '../core/assistant.js';
import type { LockStore, TrackerStore } from '../core/ports.js';
import type { Logger } from '../runtime/logger.js';
import { createLockStore, createTrackerStore } from '../stores/factory.js';

export interface OpenedStores {
  readonly trackerStore: TrackerStore;
  readonly lockStore: LockStore;
  /** what each store is, e.g. "sqlite at /srv/bot/.parley/tracker.db" (start-up message, /status) */
  readonly trackerDescription: string;
  readonly lockDescription: string;
  close(): Promise<void>;
}

/**
 * The stores endpoints.yml names (tracker_store, lock_store; the SQLite file in the project by
 * default), connected now so that a database that is not there fails the start, not the first user.
 * Stores passed in (tests) are used as they are.
 */
export async function openStores(options: {
  readonly assistant: Assistant;
  readonly projectRoot: string;
  readonly logger: Logger;
  readonly trackerStore?: TrackerStore;
  readonly lockStore?: LockStore;
}): Promise<OpenedStores> {
  const endpoints = options.assistant.endpoints;
  const factory = { projectRoot: options.projectRoot, logger: options.logger };
  const trackerStore =
    options.trackerStore ?? createTrackerStore({ ...factory, config: endpoints['tracker_store'] });
  const lockStore = options.lockStore ?? createLockStore({ ...factory, config: endpoints['lock_store'] });
  const opened: (TrackerStore | LockStore)[] = [];
  try {
    for (const store of [trackerStore, lockStore]) {
      await (store as { open?: () => Promise<void> }).open?.();
      opened.push(store);
    }
  } catch (error) {
    for (const store of opened) await (store as { close?: () => Promise<void> }).close?.();
    throw error;
  }
  return {
    trackerStore,
    lockStore,
    trackerDescription: describe(trackerStore),
    lockDescription: describe(lockStore),
    close: async () => {
      await (lockStore as { close?: () => Promise<void> }).close?.();
      await trackerStore.close?.();
    },
  };
}

function describe(store: TrackerStore | LockStore): string {
  const described = store as { describe?: () => string };
  return described.describe ? described.describe() : store.constructor.name;
}
