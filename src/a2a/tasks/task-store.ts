/**
 * Where the A2A state lives: tasks (with history and artifacts), contexts (each one conversation, the
 * `max_contexts` cap, and the claim of the process running its turn), the messageId replay entries and
 * the push notification configs. Adapters: memory (one process; memory/memory-task-store.ts) and SQL
 * (SQLite or PostgreSQL next to the trackers; sql/sql-task-store.ts), so that a restart loses nothing
 * and any replica can serve any turn. One contract suite (test/a2a/task-store-contract.ts) holds every
 * adapter to the same rules.
 *
 * The store keeps state, not subscribers: the events of a running task go to the process's own
 * listeners (task-events.ts). A claim is a lease: the process running a context's turn holds it until
 * the turn is over or the lease lapses (the process died), so a second message finds the context busy
 * wherever it lands.
 */
import type { PushConfig } from '../push/push-config.js';
import type { Task, TaskState } from './model.js';

/** whose a task is: the caller that created it, and the context (conversation) it runs in */
export interface TaskOwnership {
  readonly owner: string;
  /** the context's key (its conversation id), unique across callers unlike the contextId */
  readonly contextKey: string;
}

export interface StoredTask extends TaskOwnership {
  readonly task: Task;
  /** the task's size as JSON */
  readonly bytes: number;
  /** when the task times out (ms since the epoch); undefined: never */
  readonly deadline?: number;
}

export interface ContextIdentity {
  /** the conversation id (sender id), unique across callers */
  readonly key: string;
  /** the id the caller knows the context by */
  readonly contextId: string;
  readonly owner: string;
}

export interface ContextClaim {
  /** the process holding it */
  readonly holder: string;
  /** ms since the epoch; a claim past it has lapsed */
  readonly until: number;
}

export interface StoredContext extends ContextIdentity {
  /** task ids, oldest first */
  readonly taskIds: readonly string[];
  /** the size of those tasks as JSON, when the store tells it (the SQL stores, on a claim) */
  readonly taskBytes?: number;
  /**
   * those of its tasks not in a terminal state, oldest first, when the store tells it (the SQL stores,
   * on a claim): a new task ends them without reading every task of the context
   */
  readonly openTaskIds?: readonly string[];
  /**
   * those open tasks themselves, when the store read them with the claim (PostgreSQL: not a round
   * trip each to end them)
   */
  readonly openTasks?: readonly StoredTask[];
  readonly claim?: ContextClaim;
  /**
   * On a claim (PostgreSQL): the context's previous claim was the same holder's, and its conversation
   * holds this many events; or 0, the conversation of a context opened anew holding none. A turn may
   * then start from the state its holder kept of its own last write at that count, or from nothing,
   * without reading it (TrackerStore.loadRecent's LoadHint).
   */
  readonly keptAt?: number;
}

/**
 * What a turn knows its context holds (its claim's tasks and its own task, sizes over- rather than
 * under-estimated): a store whose limits this is within may skip reading the context to trim it.
 */
export interface KnownContextSize {
  readonly tasks: number;
  readonly bytes: number;
}

/** why a context was evicted: idle under the cap, a caller over its fair share, or memory */
export type EvictionReason = 'idle' | 'fair_share' | 'memory';

/**
 * A context the store made room without. Its open tasks must be ended by the handler (failed, saying
 * why): with `fair_share` they stay stored (their caller learns why); otherwise the store has removed
 * them with the context, and the failure only reaches the tasks' listeners.
 */
export interface Eviction {
  readonly context: ContextIdentity;
  readonly reason: EvictionReason;
  /** its tasks that were not terminal, as they were */
  readonly openTasks: readonly StoredTask[];
}

export interface ClaimRequest extends ContextIdentity {
  readonly holder: string;
  readonly now: number;
  readonly leaseMs: number;
  /** 0: no cap */
  readonly maxContexts: number;
  /**
   * the message's replay key: when it has an entry (not expired at `now`), nothing is claimed and the
   * entry is the outcome, as getReplay would answer it (the lookup and the claim in one write)
   */
  readonly replay?: ReplayKey;
  /**
   * a new task to store once the context is claimed, with its replay entry, in the same write (as
   * saveTask would: it joins the context); nothing is stored when the outcome is not `claimed`
   */
  readonly start?: AcceptedTask;
}

/** the task a message starts, as accepted (ClaimRequest.start) */
export interface AcceptedTask {
  readonly task: StoredTask;
  readonly replay?: ReplayKey & { readonly fingerprint: string; readonly expiresAt: number };
}

export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly context: StoredContext; readonly evictions: readonly Eviction[] }
  /** the message was sent before (ClaimRequest.replay): its entry, and nothing claimed */
  | { readonly kind: 'replayed'; readonly entry: ReplayEntry }
  /** another turn holds the context and its lease has not lapsed */
  | { readonly kind: 'busy' }
  /** the key is another caller's context (only possible with context_id_as_sender_id) */
  | { readonly kind: 'other_owner' }
  /** the cap is reached and no context could be evicted for this caller */
  | { readonly kind: 'full'; readonly cap: number; readonly share: number };

export interface ReplayEntry {
  readonly fingerprint: string;
  readonly taskId: string;
  /** the task as answered once the turn was over; undefined while it runs (or if its process died) */
  readonly answer?: Task;
}

export interface ReplayKey {
  /** where a messageId is unique: the caller and the context's conversation */
  readonly scope: string;
  readonly messageId: string;
}

/** a claim to end: the context's key and the process holding it */
export interface ClaimRelease {
  readonly key: string;
  readonly holder: string;
}

export interface SaveOptions {
  /** records a message's replay entry (no answer yet) in the same write */
  readonly replay?: ReplayKey & { readonly fingerprint: string; readonly expiresAt: number };
  /** makes the saved task the answer of an existing replay entry, in the same write */
  readonly answers?: ReplayKey;
  /** ends the claim in the same write (a turn's last save), as releaseContext does */
  readonly release?: ClaimRelease;
  /**
   * tells the other processes, in the same write, that the task's settled state is stored: only to a
   * store that `announcesSettled`
   */
  readonly announce?: boolean;
}

export interface ListQuery {
  readonly owner: string;
  readonly contextId?: string;
  readonly state?: TaskState;
  /** only tasks whose status changed at or after this time (ms since the epoch) */
  readonly statusAfter?: number;
  readonly offset: number;
  readonly limit: number;
}

export interface TaskPage {
  /** newest status first; ties in creation order, newest first */
  readonly tasks: readonly Task[];
  /** how many tasks match the query */
  readonly total: number;
}

export interface TrimResult {
  /** tasks forgotten beyond the retention limits */
  readonly removed: readonly string[];
  /** contexts evicted for memory (the memory store only) */
  readonly evictions: readonly Eviction[];
}

export interface PushLimits {
  readonly perTask: number;
  /** so that one caller cannot take every config of the server */
  readonly perCaller: number;
  readonly total: number;
}

/** a config holds at most ~7.5 kB (push-config.ts), so the configs hold ~30 MB at the very most */
export const DEFAULT_PUSH_LIMITS: PushLimits = { perTask: 10, perCaller: 1_000, total: 4_000 };

export type PushPutOutcome =
  | { readonly kind: 'stored' }
  /** the config id is another caller's */
  | { readonly kind: 'taken' }
  | { readonly kind: 'full'; readonly limit: 'perTask' | 'perCaller' | 'total'; readonly max: number };

export interface OwnedPushConfig {
  readonly config: PushConfig;
  readonly owner: string;
}

export interface TaskStoreStats {
  readonly contexts: number;
  readonly tasks: number;
  readonly taskBytes: number;
  readonly replayBytes: number;
  readonly pushConfigs: number;
}

export interface TaskStore {
  /** "memory", "sqlite at …", "postgresql at …": for the startup log */
  describe(): string;

  /**
   * true when a save with `announce` tells the other processes itself (PostgreSQL: the NOTIFY goes in
   * the save's statement), so that the task signals need not send it in a round trip of their own
   */
  readonly announcesSettled?: boolean;

  getTask(id: string): Promise<StoredTask | undefined>;
  listTasks(query: ListQuery): Promise<TaskPage>;
  /** Creates or replaces a task; a new one joins its context's tasks (the context must exist). */
  saveTask(task: StoredTask, options?: SaveOptions): Promise<void>;
  /** Forgets tasks, their push configs with them (replay answers stay until they expire). */
  removeTasks(ids: readonly string[]): Promise<void>;
  /** Applies the retention limits to a context after its tasks changed. */
  trim(contextKey: string, now: number, known?: KnownContextSize): Promise<TrimResult>;

  getContext(key: string): Promise<StoredContext | undefined>;
  /** Opens the context (making room under the cap) or reopens it, marks it used, and claims it. */
  claimContext(request: ClaimRequest): Promise<ClaimOutcome>;
  /** Extends the holder's claims on these contexts. */
  renewClaims(keys: readonly string[], holder: string, until: number): Promise<void>;
  /** Ends the holder's claim; a context left without tasks is forgotten. */
  releaseContext(key: string, holder: string): Promise<void>;

  getReplay(key: ReplayKey, now: number): Promise<ReplayEntry | undefined>;

  putPushConfig(config: PushConfig, owner: string, limits: PushLimits): Promise<PushPutOutcome>;
  /** the task's configs, every caller's, in the order they were set */
  pushConfigs(taskId: string): Promise<readonly OwnedPushConfig[]>;
  deletePushConfig(taskId: string, configId: string, owner: string): Promise<void>;

  /**
   * Open tasks that need ending by whichever process is alive: past their deadline, or in a context
   * whose claim lapsed while the task was `submitted` or `working` (its process died mid-turn).
   */
  overdueTasks(now: number, limit: number): Promise<readonly StoredTask[]>;

  stats(): Promise<TaskStoreStats>;
  close(): Promise<void>;
}
