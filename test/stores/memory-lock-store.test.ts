import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { lockStoreContract } from './lock-store-contract.js';

lockStoreContract('MemoryLockStore', { shared: false, open: async () => new MemoryLockStore() });
