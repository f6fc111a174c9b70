/**
 * The A2A state of one process, in memory (tests, `in_memory` tracker stores): lost on restart, and
 * not shared with other processes, so the start-up guardrail refuses several workers with it. Its
 * limits are memory limits (task-retention.ts): counts and bytes per context and for the process.
 */
import type { PushConfig } from '../../push/push-config.js';
import { MessageCache } from '../message-cache.js';
import { TERMINAL_STATES } from '../model.js';
import type { Task } from '../model.js';
import type {
  ClaimOutcome,
  ClaimRequest,
  Eviction,
  ListQuery,
  OwnedPushConfig,
  PushLimits,
  PushPutOutcome,
  ReplayEntry,
  ReplayKey,
  SaveOptions,
  StoredContext,
  StoredTask,
  TaskPage,
  TaskStore,
  TaskStoreStats,
  TrimResult,
} from '../task-store.js';
import { Contexts, isClaimed } from './contexts.js';
import type { ContextRecord } from './contexts.js';
import { PushRegistry } from './push-registry.js';
import { DEFAULT_TASK_LIMITS, TaskRetention } from './task-retention.js';
import type { TaskLimits } from './task-retention.js';
import { TaskTable } from './task-table.js';

/** the replay answers (whole tasks, kept after the tasks themselves may be gone) may take a quarter of the task memory */
const REPLAY_SHARE_OF_TASK_MEMORY = 4;

interface Replay {
  readonly taskId: string;
  answer: Task | undefined;
}

export interface MemoryTaskStoreOptions {
  readonly limits?: Partial<TaskLimits>;
  /** how long a messageId is remembered (seconds; 0: not at all) */
  readonly replayTtlSeconds: number;
  readonly now: () => number;
}

export class MemoryTaskStore implements TaskStore {
  private readonly table = new TaskTable();
  private readonly contexts: Contexts;
  private readonly retention: TaskRetention;
  private readonly replays: MessageCache<Replay>;
  private readonly push = new PushRegistry();
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions) {
    const limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
    this.now = options.now;
    this.contexts = new Contexts((context) => context.taskIds.some((id) => this.isOpen(id)));
    this.retention = new TaskRetention({ table: this.table, contexts: this.contexts, limits });
    this.replays = new MessageCache({
      ttlSeconds: options.replayTtlSeconds,
      now: options.now,
      maxEntries: limits.total,
      maxBytes: Math.floor(limits.maxTotalBytes / REPLAY_SHARE_OF_TASK_MEMORY),
    });
  }

  describe(): string {
    return 'memory';
  }

  async getTask(id: string): Promise<StoredTask | undefined> {
    return this.table.get(id);
  }

  async listTasks(query: ListQuery): Promise<TaskPage> {
    return this.table.list(query);
  }

  async saveTask(stored: StoredTask, options: SaveOptions = {}): Promise<void> {
    const id = stored.task.id;
    if (!this.table.has(id)) this.contexts.get(stored.contextKey)?.taskIds.push(id);
    this.table.put(stored);
    if (options.replay) {
      const { scope, messageId, fingerprint } = options.replay;
      this.replays.set(scope, messageId, fingerprint, { taskId: id, answer: undefined });
    }
    if (options.answers) {
      const entry = this.replays.get(options.answers.scope, options.answers.messageId);
      if (entry) {
        entry.value.answer = stored.task;
        this.replays.weigh(options.answers.scope, options.answers.messageId, stored.bytes);
      }
    }
    if (options.release) await this.releaseContext(options.release.key, options.release.holder);
  }

  async removeTasks(ids: readonly string[]): Promise<void> {
    const now = this.now();
    for (const id of ids) {
      const stored = this.table.get(id);
      if (stored) this.retention.forget(id, stored.contextKey, now);
    }
    this.push.removeTasks(ids);
  }

  async trim(contextKey: string, now: number): Promise<TrimResult> {
    const context = this.contexts.get(contextKey);
    if (!context) return { removed: [], evictions: [] };
    const result = this.retention.afterChange(context, now);
    this.push.removeTasks(result.removed);
    for (const eviction of result.evictions) this.push.removeTasks(eviction.openTasks.map((s) => s.task.id));
    return result;
  }

  async getContext(key: string): Promise<StoredContext | undefined> {
    return this.contexts.get(key);
  }

  async claimContext(request: ClaimRequest): Promise<ClaimOutcome> {
    const entry = request.replay ? await this.getReplay(request.replay, request.now) : undefined;
    if (entry) return { kind: 'replayed', entry };
    const current = this.contexts.get(request.key);
    if (current && current.owner !== request.owner) return { kind: 'other_owner' };
    // one turn at a time, also for the holder itself; a lapsed claim (its process died) is taken over
    if (current && isClaimed(current, request.now)) return { kind: 'busy' };
    const { key, contextId, owner } = request;
    const opened = this.contexts.open({ key, contextId, owner }, request.maxContexts, request.now);
    if (opened.kind === 'full') return opened;
    opened.record.claim = { holder: request.holder, until: request.now + request.leaseMs };
    const evictions = opened.evicted.map(({ record, reason }) => this.evicted(record, reason));
    const context = snapshotOf(opened.record);
    const { start } = request;
    if (start) await this.saveTask(start.task, start.replay ? { replay: start.replay } : {});
    return { kind: 'claimed', context, evictions };
  }

  async renewClaims(keys: readonly string[], holder: string, until: number): Promise<void> {
    for (const key of keys) {
      const context = this.contexts.get(key);
      if (context?.claim?.holder === holder) context.claim = { holder, until };
    }
  }

  async releaseContext(key: string, holder: string): Promise<void> {
    const context = this.contexts.get(key);
    if (!context || context.claim?.holder !== holder) return;
    context.claim = undefined;
    if (context.taskIds.length === 0) this.contexts.forget(key);
  }

  async getReplay(key: ReplayKey, now: number): Promise<ReplayEntry | undefined> {
    void now; // the cache reads the store's clock
    const entry = this.replays.get(key.scope, key.messageId);
    if (!entry) return undefined;
    const { taskId, answer } = entry.value;
    return { fingerprint: entry.fingerprint, taskId, ...(answer ? { answer } : {}) };
  }

  async putPushConfig(config: PushConfig, owner: string, limits: PushLimits): Promise<PushPutOutcome> {
    return this.push.put(config, owner, limits);
  }

  async pushConfigs(taskId: string): Promise<readonly OwnedPushConfig[]> {
    return this.push.recipients(taskId);
  }

  async deletePushConfig(taskId: string, configId: string, owner: string): Promise<void> {
    this.push.delete(taskId, configId, owner);
  }

  async overdueTasks(now: number, limit: number): Promise<readonly StoredTask[]> {
    const found: StoredTask[] = [];
    for (const stored of this.table.values()) {
      if (found.length >= limit) break;
      if (TERMINAL_STATES.has(stored.task.status.state)) continue;
      const context = this.contexts.get(stored.contextKey);
      const lapsed =
        context?.claim !== undefined &&
        !isClaimed(context, now) &&
        (stored.task.status.state === 'submitted' || stored.task.status.state === 'working');
      if ((stored.deadline !== undefined && stored.deadline <= now) || lapsed) found.push(stored);
    }
    return found;
  }

  async stats(): Promise<TaskStoreStats> {
    return {
      contexts: this.contexts.size,
      tasks: this.table.size,
      taskBytes: this.table.totalBytes,
      replayBytes: this.replays.totalBytes,
      pushConfigs: this.push.size,
    };
  }

  async close(): Promise<void> {
    // nothing to release: the state goes with the process
  }

  private evicted(record: ContextRecord, reason: Eviction['reason']): Eviction {
    const eviction = this.retention.evict(record, reason);
    if (reason !== 'fair_share') this.push.removeTasks(record.taskIds);
    return eviction;
  }

  private isOpen(taskId: string): boolean {
    const stored = this.table.get(taskId);
    return stored !== undefined && !TERMINAL_STATES.has(stored.task.status.state);
  }
}

function snapshotOf(record: ContextRecord): StoredContext {
  const { key, contextId, owner, taskIds, claim } = record;
  return { key, contextId, owner, taskIds: [...taskIds], ...(claim ? { claim } : {}) };
}
