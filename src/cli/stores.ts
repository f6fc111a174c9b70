import type { Assistant } from '../core/assistant.js';
import type { EventBroker, EventBrokerObserver, LockStore, TrackerStore } from '../core/ports.js';
import type { Logger } from '../runtime/logger.js';
import { publishingTrackerStore } from '../runtime/publishing-tracker-store.js';
import { createEventBroker } from '../stores/brokers/broker-factory.js';
import { createLockStore, createTrackerStore, joinTurnStores } from '../stores/factory.js';

export interface OpenedStores {
  readonly trackerStore: TrackerStore;
  readonly lockStore: LockStore;
  /** what each store is, e.g. "sqlite at /srv/bot/.parley/tracker.db" (start-up message, /status) */
  readonly trackerDescription: string;
  readonly lockDescription: string;
  /** endpoints.yml's event_broker; absent without one */
  readonly eventBroker?: EventBroker;
  readonly brokerDescription?: string;
  /** the tracker store the agent appends to: it hands each stored turn's events to the event broker */
  readonly publishingTrackerStore: TrackerStore;
  /** flushes the event broker (bounded), then closes the lock and tracker stores */
  close(): Promise<void>;
}

/**
 * The stores endpoints.yml names (tracker_store, lock_store; the SQLite file in the project by
 * default) and its event_broker, connected now so that a database that is not there fails the start,
 * not the first user (a broker that is not there only warns, unless it says raise_on_failure). Stores
 * passed in (tests) are used as they are.
 */
export async function openStores(options: {
  readonly assistant: Assistant;
  readonly projectRoot: string;
  readonly logger: Logger;
  readonly trackerStore?: TrackerStore;
  readonly lockStore?: LockStore;
  /** hears what the event broker publishes and drops (the server's metrics) */
  readonly brokerObserver?: EventBrokerObserver;
}): Promise<OpenedStores> {
  const endpoints = options.assistant.endpoints;
  const factory = { projectRoot: options.projectRoot, logger: options.logger };
  const trackerStore =
    options.trackerStore ?? createTrackerStore({ ...factory, config: endpoints['tracker_store'] });
  const lockStore = options.lockStore ?? createLockStore({ ...factory, config: endpoints['lock_store'] });
  const opened: (TrackerStore | LockStore | EventBroker)[] = [];
  try {
    const eventBroker = createEventBroker({
      ...factory,
      config: endpoints['event_broker'],
      ...(options.brokerObserver ? { observer: options.brokerObserver } : {}),
    });
    for (const store of [trackerStore, lockStore, ...(eventBroker ? [eventBroker] : [])]) {
      // counted before it opens: one that fails half-way (a connection made, a check refused) is closed too
      opened.push(store);
      await (store as { open?: () => Promise<void> }).open?.();
    }
    joinTurnStores(trackerStore, lockStore);
    return {
      trackerStore,
      lockStore,
      trackerDescription: describe(trackerStore),
      lockDescription: describe(lockStore),
      ...(eventBroker ? { eventBroker, brokerDescription: eventBroker.describe() } : {}),
      publishingTrackerStore: eventBroker ? publishingTrackerStore(trackerStore, eventBroker) : trackerStore,
      close: async () => {
        // first: the broker publishes what waits while the stores are still open
        await eventBroker?.close();
        await (lockStore as { close?: () => Promise<void> }).close?.();
        await trackerStore.close?.();
      },
    };
  } catch (error) {
    for (const store of opened.reverse())
      await (store as { close?: () => Promise<void> }).close?.().catch(() => undefined);
    throw error;
  }
}

function describe(store: TrackerStore | LockStore): string {
  const described = store as { describe?: () => string };
  return described.describe ? described.describe() : store.constructor.name;
}
