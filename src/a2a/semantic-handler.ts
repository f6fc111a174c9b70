/**
 * A2A semantics over the dialogue, independent of the wire version: a message runs one turn of the
 * context's conversation inside a task whose state is read from the dialogue afterwards
 * (dialogue-outcome.ts). Everything belongs to a caller (caller.ts): another caller's task is
 * unknown, and a context's conversation is `a2a:<caller>:<contextId>` (or the contextId itself with
 * `context_id_as_sender_id`). jsonrpc/ translates requests and results of v0.3 and v1.0 to and from
 * these calls.
 */
import { randomUUID } from 'node:crypto';
import { A2aError, invalidParams, taskNotFound } from './a2a-error.js';
import { conversationIdOf } from './caller.js';
import { failedOutcome, TurnRunner } from './turn-runner.js';
import { Contexts } from './tasks/contexts.js';
import type { ContextRecord, EvictionReason } from './tasks/contexts.js';
import { MessageCache, messageFingerprint } from './tasks/message-cache.js';
import { TERMINAL_STATES, withHistory } from './tasks/model.js';
import type { A2aMessage, Task } from './tasks/model.js';
import { jsonBytes } from './tasks/task-size.js';
import { refuseOversized, whenSettled } from './tasks/task-settling.js';
import { TaskStore } from './tasks/task-store.js';
import type { TaskListener } from './tasks/task-store.js';
import { TaskTimers } from './tasks/task-timers.js';
import { DEFAULT_TASK_LIMITS, TaskRetention } from './tasks/task-retention.js';
import type { TaskLimits } from './tasks/task-retention.js';
import type { ListParams, SemanticHandlerOptions, SendParams, SendResult } from './semantic-inputs.js';

export type {
  ListParams,
  SemanticHandlerOptions,
  SemanticSettings,
  SendParams,
  SendResult,
} from './semantic-inputs.js';

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
/** the replay answers (whole tasks, kept after the tasks themselves may be gone) may take a quarter of the task memory */
const REPLAY_SHARE_OF_TASK_MEMORY = 4;

export class SemanticHandler {
  readonly store: TaskStore;
  private readonly contexts: Contexts;
  private readonly cache: MessageCache<Promise<Task>>;
  private readonly runner: TurnRunner;
  private readonly options: SemanticHandlerOptions;
  private readonly newId: () => string;
  private readonly timers: TaskTimers;
  private readonly retention: TaskRetention;
  private readonly maxMessageBytes: number;

  constructor(options: SemanticHandlerOptions) {
    this.options = options;
    const { settings } = options;
    const now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.maxMessageBytes = settings.limits?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const limits: TaskLimits = {
      ...DEFAULT_TASK_LIMITS,
      ...(settings.limits?.maxContextBytes ? { maxContextBytes: settings.limits.maxContextBytes } : {}),
      ...(settings.limits?.maxTaskMemoryBytes ? { maxTotalBytes: settings.limits.maxTaskMemoryBytes } : {}),
      ...options.taskLimits,
    };
    this.store = new TaskStore({
      ...(settings.limits?.maxTaskHistoryBytes
        ? { maxHistoryBytes: settings.limits.maxTaskHistoryBytes }
        : {}),
    });
    this.timers = new TaskTimers(settings.taskTimeoutSeconds);
    this.store.onRemoved((ids) => this.timers.stop(ids));
    this.contexts = new Contexts({
      maxContexts: settings.maxContexts,
      isReserved: (context) => context.taskIds.some((id) => this.isOpen(id)),
      onEvict: (context, reason) => this.evicted(context, reason),
    });
    this.retention = new TaskRetention({
      store: this.store,
      contexts: this.contexts,
      limits,
      evict: (context) => {
        this.contexts.forget(context.key);
        this.evicted(context, 'memory');
      },
    });
    this.cache = new MessageCache({
      ttlSeconds: settings.messageCacheTtlSeconds,
      now,
      maxEntries: limits.total,
      maxBytes: Math.floor(limits.maxTotalBytes / REPLAY_SHARE_OF_TASK_MEMORY),
    });
    this.runner = new TurnRunner({ ...options, store: this.store, now, newId: this.newId });
  }

  /**
   * Accepts a message and starts its turn. `listener` hears the task's events from the first one on
   * (streaming); it is subscribed before anything is published.
   */
  async sendMessage(params: SendParams, listener?: TaskListener): Promise<SendResult> {
    const { message, caller } = params;
    refuseOversized(message, this.maxMessageBytes);
    const fingerprint = messageFingerprint(message);
    // a retry is recognised before the task's state is checked: the retried message may have ended it
    const knownContext =
      message.contextId ?? (message.taskId ? this.store.owned(message.taskId, caller)?.contextId : undefined);
    const replay = knownContext === undefined ? undefined : this.replayScope(caller, knownContext);
    const cached = replay === undefined ? undefined : this.cache.get(replay, message.messageId);
    if (cached) {
      if (cached.fingerprint !== fingerprint)
        throw invalidParams(
          `messageId ${message.messageId} was already used on context ${knownContext} for another message; give each new message a new messageId.`,
          'message.messageId',
        );
      const task = await cached.value;
      return { task, done: Promise.resolve(task), replayed: true, unsubscribe: () => undefined };
    }
    this.refuseWhenClosing();
    const existing = message.taskId ? this.continuable(message, caller) : undefined;
    const contextId = message.contextId ?? existing?.contextId ?? this.newId();
    const context = this.openContext(caller, contextId);
    const received: A2aMessage = { ...message, contextId, taskId: existing?.id ?? this.newId() };
    const taskId = received.taskId as string;
    const unsubscribe = listener ? this.store.subscribe(taskId, listener) : undefined;
    try {
      params.beforeRun?.(taskId);
      if (existing)
        this.store.publish({ kind: 'task', task: { ...existing, history: [...existing.history, received] } });
      else this.startTask(context, received);
    } catch (error) {
      unsubscribe?.();
      throw error;
    }
    this.retention.afterChange(context);
    const turn = this.runner.run(context, received);
    const done = whenSettled(this.store, taskId, turn);
    this.markRunning(context, turn);
    const scope = this.replayScope(caller, contextId);
    this.cache.set(scope, message.messageId, fingerprint, done);
    // the store measured the task as it grew; a task already forgotten is measured once here
    void done.then((task) =>
      this.cache.weigh(scope, message.messageId, this.store.bytesOf(task.id) || jsonBytes(task)),
    );
    return {
      task: this.store.get(taskId) as Task,
      done,
      replayed: false,
      unsubscribe: unsubscribe ?? (() => undefined),
    };
  }

  getTask(id: string, caller: string, historyLength?: number): Task {
    return withHistory(this.ownedTask(id, caller), historyLength);
  }

  /**
   * Cancels a task that is running or waiting for input, and the flow in the dialogue: a running turn
   * is not waited for (the task is canceled at once; the flow is cancelled once the turn is over).
   */
  async cancelTask(id: string, caller: string): Promise<Task> {
    const task = this.ownedTask(id, caller);
    if (task.status.state === 'canceled') return task;
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'TASK_NOT_CANCELABLE',
        message: `Task ${id} is ${task.status.state} and cannot be canceled.`,
        metadata: { taskId: id, state: task.status.state },
      });
    this.refuseWhenClosing();
    const context = this.contexts.open(this.conversationOf(caller, task.contextId), {
      contextId: task.contextId,
      owner: caller,
    });
    const wasRunning = context.running;
    const cancelling = (wasRunning ?? Promise.resolve()).then(() =>
      this.runner.cancelFlow(task, context.key),
    );
    this.markRunning(context, cancelling);
    if (wasRunning)
      this.runner.finish(task, { state: 'canceled', data: { cancel: { by: 'orchestrator' } } }, []);
    else await cancelling;
    return this.store.get(id) as Task;
  }

  /** The task now and its next events; refused for a task that will change no more. */
  subscribe(id: string, caller: string, listener: TaskListener): { task: Task; unsubscribe: () => void } {
    const task = this.ownedTask(id, caller);
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'UNSUPPORTED_OPERATION',
        message: `Task ${id} is ${task.status.state}; there is nothing more to subscribe to.`,
        metadata: { taskId: id },
      });
    return { task, unsubscribe: this.store.subscribe(id, listener) };
  }

  /** The caller's own tasks, newest status first. */
  listTasks(params: ListParams): { tasks: Task[]; nextPageToken: string; totalSize: number } {
    const all = this.store.list({
      owner: params.caller,
      ...(params.contextId !== undefined ? { contextId: params.contextId } : {}),
      ...(params.state !== undefined ? { state: params.state } : {}),
      ...(params.statusAfter !== undefined ? { statusAfter: params.statusAfter } : {}),
    });
    const offset = params.pageToken ? Number(params.pageToken) : 0;
    if (!Number.isInteger(offset) || offset < 0 || offset > all.length)
      throw invalidParams('pageToken is not a token this agent gave out', 'pageToken');
    const page = all.slice(offset, offset + params.pageSize).map((task) => {
      const shown = withHistory(task, params.historyLength);
      return params.includeArtifacts ? shown : { ...shown, artifacts: [] };
    });
    const next = offset + page.length;
    return { tasks: page, nextPageToken: next < all.length ? String(next) : '', totalSize: all.length };
  }

  /** what is held in memory, for /metrics */
  stats(): { contexts: number; tasks: number; taskBytes: number; replayBytes: number } {
    return {
      contexts: this.contexts.size,
      tasks: this.store.size,
      taskBytes: this.store.totalBytes,
      replayBytes: this.cache.totalBytes,
    };
  }

  /** Stops the task timers (server shutdown). */
  close(): void {
    this.timers.close();
  }

  private ownedTask(id: string, caller: string): Task {
    const task = this.store.owned(id, caller);
    if (!task) throw taskNotFound(id);
    return task;
  }

  private conversationOf(caller: string, contextId: string): string {
    return conversationIdOf(
      caller,
      contextId,
      this.options.settings.contextIdAsSenderId ? 'context_id' : 'namespaced',
    );
  }

  /** where a messageId is unique: the caller's context (with Rasa's mapping contexts are shared) */
  private replayScope(caller: string, contextId: string): string {
    return `${caller}\u0000${this.conversationOf(caller, contextId)}`;
  }

  private openContext(caller: string, contextId: string): ContextRecord {
    const key = this.conversationOf(caller, contextId);
    const current = this.contexts.get(key);
    // only with context_id_as_sender_id can two callers name the same conversation
    if (current && current.owner !== caller)
      throw invalidParams(`Context ${contextId} belongs to another caller.`, 'message.contextId');
    if (current?.running)
      throw new A2aError({
        reason: 'CONTEXT_BUSY',
        message: `Context ${contextId} is still handling an earlier message; send this one when that answer arrived.`,
        metadata: { contextId },
      });
    return this.contexts.open(key, { contextId, owner: caller });
  }

  /** the context stays busy until `work` is over, even when the task ended before (timeout, cancel) */
  private markRunning(context: ContextRecord, work: Promise<unknown>): void {
    const running = work.then(
      () => undefined,
      () => undefined,
    );
    context.running = running;
    void running.then(() => {
      if (context.running !== running) return;
      context.running = undefined;
      this.retention.afterChange(context);
    });
  }

  private continuable(message: A2aMessage, caller: string): Task {
    const id = message.taskId as string;
    const task = this.ownedTask(id, caller);
    if (message.contextId !== undefined && message.contextId !== task.contextId)
      throw invalidParams(
        `Task ${id} belongs to another context than ${message.contextId}.`,
        'message.contextId',
      );
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'TASK_TERMINAL',
        message: `Task ${id} is ${task.status.state}; send the message without taskId to start a new task.`,
        metadata: { taskId: id, state: task.status.state },
      });
    return task;
  }

  /** A new task; earlier tasks of the context still waiting for input are closed (superseded). */
  private startTask(context: ContextRecord, message: A2aMessage): void {
    const taskId = message.taskId as string;
    for (const earlier of context.taskIds.filter((id) => this.isOpen(id)))
      this.runner.finish(
        this.store.get(earlier) as Task,
        { state: 'canceled', data: { cancel: { by: 'superseded', task_id: taskId } } },
        [],
      );
    context.taskIds.push(taskId);
    this.store.create(
      {
        id: taskId,
        contextId: context.contextId,
        status: { state: 'submitted', timestamp: this.runner.timestamp() },
        history: [message],
        artifacts: [],
      },
      { owner: context.owner, contextKey: context.key },
    );
    this.timers.start(taskId, (seconds) => this.timedOut(taskId, seconds));
  }

  private timedOut(taskId: string, seconds: number): void {
    const task = this.store.get(taskId);
    if (!task || TERMINAL_STATES.has(task.status.state)) return;
    this.options.logger.warn({ taskId, contextId: task.contextId, seconds }, 'a2a task timed out');
    this.runner.finish(task, failedOutcome('task_timeout', `The task ran longer than ${seconds} s.`), []);
  }

  /**
   * A context made room for another (or for memory): its open task fails, saying why. Made room for a
   * caller under its fair share, the failed task stays readable (its caller learns why; retention
   * forgets it later like any finished task); made room for memory or evicted idle, the tasks go.
   */
  private evicted(context: ContextRecord, reason: EvictionReason | 'memory'): void {
    for (const id of context.taskIds.filter((taskId) => this.isOpen(taskId))) {
      const why =
        reason === 'memory'
          ? 'The agent needed the memory this task held for other callers.'
          : 'The agent needed this context for a caller holding fewer contexts.';
      this.options.logger.warn({ taskId: id, contextId: context.contextId, reason }, 'a2a task evicted');
      this.runner.finish(this.store.get(id) as Task, failedOutcome(`evicted_${reason}`, why), []);
    }
    if (reason !== 'fair_share') this.store.remove(context.taskIds);
  }

  private refuseWhenClosing(): void {
    if (this.options.admission?.isClosing)
      throw new A2aError({
        reason: 'SHUTTING_DOWN',
        message: 'The agent is shutting down and takes no new turns; send the message to another instance.',
      });
  }

  private isOpen(taskId: string): boolean {
    const task = this.store.get(taskId);
    return task !== undefined && !TERMINAL_STATES.has(task.status.state);
  }
}
