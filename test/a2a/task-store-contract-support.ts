/** Builders and the harness of the TaskStore contract (task-store-contract.ts). */
import type { PushConfig } from '../../src/a2a/push/push-config.js';
import type { Task, TaskState } from '../../src/a2a/tasks/model.js';
import type { ClaimRequest, StoredContext, StoredTask, TaskStore } from '../../src/a2a/tasks/task-store.js';

/** the limits every store under the contract is opened with (memory: its process limits stay high) */
export const CONTRACT_LIMITS = { perContext: 3, maxContextBytes: 10_000 } as const;
/** how long a messageId is remembered by the stores under the contract */
export const CONTRACT_REPLAY_TTL_MS = 60_000;

export const T0 = 1_700_000_000_000;
export const LEASE_MS = 30_000;

/** the time the stores read (`now` options); tests set it, nothing sleeps */
export class ManualClock {
  now = T0;
  readonly read = (): number => this.now;
}

export interface TaskStoreContractOptions {
  readonly clock: ManualClock;
  /** another instance on the same data as the store of the running test (SQL: another connection pool) */
  readonly second?: () => Promise<TaskStore>;
  /** the instances run statements at the same moment (separate connections to a server): race tests */
  readonly races?: boolean;
}

export interface TaskStoreHarness extends TaskStoreContractOptions {
  /** the running test's store, empty when the test starts */
  store(): TaskStore;
}

export interface TaskOptions {
  readonly key?: string;
  readonly owner?: string;
  readonly contextId?: string;
  readonly state?: TaskState;
  /** status time, ms since the epoch */
  readonly at?: number;
  readonly bytes?: number;
  readonly deadline?: number;
  readonly text?: string;
}

export function storedTask(id: string, options: TaskOptions = {}): StoredTask {
  const key = options.key ?? 'conv-a';
  const text = options.text ?? `hello from ${id} — ünïcødé ✓`;
  const task: Task = {
    id,
    contextId: options.contextId ?? `ctx-${key}`,
    status: { state: options.state ?? 'completed', timestamp: new Date(options.at ?? T0).toISOString() },
    history: [{ messageId: `m-${id}`, role: 'user', parts: [{ kind: 'text', text }], contextId: 'c' }],
    artifacts: [{ artifactId: `a-${id}`, parts: [{ kind: 'data', data: { n: 1, list: [true, null] } }] }],
    metadata: { source: 'contract' },
  };
  return {
    task,
    owner: options.owner ?? 'alice',
    contextKey: key,
    bytes: options.bytes ?? 100,
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  };
}

export function claimRequest(key: string, options: Partial<ClaimRequest> = {}): ClaimRequest {
  return {
    key,
    contextId: `ctx-${key}`,
    owner: 'alice',
    holder: 'process-1',
    now: T0,
    leaseMs: LEASE_MS,
    maxContexts: 0,
    ...options,
  };
}

export function pushConfig(taskId: string, id: string, url = `https://hooks.example/${id}`): PushConfig {
  return {
    id,
    taskId,
    url,
    token: `token-${id}`,
    schemes: ['Bearer'],
    credentials: 'secret',
    version: '0.3',
  };
}

/** a context as the port describes it (the memory store returns its live record, with `claim: undefined`) */
export function contextView(context: StoredContext | undefined): StoredContext | undefined {
  if (!context) return undefined;
  const { key, contextId, owner, taskIds, claim } = context;
  return { key, contextId, owner, taskIds: [...taskIds], ...(claim ? { claim } : {}) };
}

/** Opens a context for `owner`, stores tasks in it and releases it (the tasks keep it open). */
export async function contextWith(
  store: TaskStore,
  key: string,
  tasks: readonly StoredTask[],
  options: Partial<ClaimRequest> = {},
): Promise<void> {
  const outcome = await store.claimContext(claimRequest(key, options));
  if (outcome.kind !== 'claimed') throw new Error(`could not claim ${key}: ${outcome.kind}`);
  for (const task of tasks) await store.saveTask(task);
  await store.releaseContext(key, options.holder ?? 'process-1');
}
