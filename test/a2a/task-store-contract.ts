/**
 * THE contract every TaskStore passes (memory, SQLite, PostgreSQL): one suite, written from the port's
 * doc comments (src/a2a/tasks/task-store.ts) and the memory store's rules, run by each store's test
 * file. Stores are opened with CONTRACT_LIMITS and CONTRACT_REPLAY_TTL_MS and read the harness's
 * clock; times are set, never waited for.
 */
import type { TaskStore } from '../../src/a2a/tasks/task-store.js';
import { contextsContract } from './task-store-contract-contexts.js';
import { recordsContract } from './task-store-contract-records.js';
import { sharedContract } from './task-store-contract-shared.js';
import { T0 } from './task-store-contract-support.js';
import type { TaskStoreContractOptions, TaskStoreHarness } from './task-store-contract-support.js';
import { tasksContract } from './task-store-contract-tasks.js';

export { CONTRACT_LIMITS, CONTRACT_REPLAY_TTL_MS, ManualClock } from './task-store-contract-support.js';
export type { TaskStoreContractOptions } from './task-store-contract-support.js';

/** `open` gives an empty store for each test, reading `options.clock` */
export function taskStoreContract(
  name: string,
  open: () => Promise<TaskStore>,
  options: TaskStoreContractOptions,
): void {
  describe(`${name} (TaskStore contract)`, () => {
    let current: TaskStore | undefined;
    const harness: TaskStoreHarness = {
      ...options,
      store: () => {
        if (!current) throw new Error('no store: the contract opens one before each test');
        return current;
      },
    };

    beforeEach(async () => {
      options.clock.now = T0;
      current = await open();
    });

    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    tasksContract(harness);
    contextsContract(harness);
    recordsContract(harness);
    if (options.second) sharedContract(harness, options.second);
  });
}
