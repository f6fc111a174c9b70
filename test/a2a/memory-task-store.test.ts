import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import {
  CONTRACT_LIMITS,
  CONTRACT_REPLAY_TTL_MS,
  ManualClock,
  taskStoreContract,
} from './task-store-contract.js';

const clock = new ManualClock();

taskStoreContract(
  'MemoryTaskStore',
  async () =>
    new MemoryTaskStore({
      limits: CONTRACT_LIMITS,
      replayTtlSeconds: CONTRACT_REPLAY_TTL_MS / 1000,
      now: clock.read,
    }),
  { clock },
);
