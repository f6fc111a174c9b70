import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { trackerStoreContract } from './tracker-store-contract.js';

trackerStoreContract('MemoryTrackerStore', { durable: false, open: async () => new MemoryTrackerStore() });
