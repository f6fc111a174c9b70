/**
 * A2A semantics over the dialogue, independent of the wire version: a message runs one turn of the
 * context's conversation (contextId = sender id) inside a task whose state is read from the dialogue
 * afterwards (dialogue-outcome.ts). jsonrpc/ translates requests and results of v0.3 and v1.0 to and
 * from these calls.
 */
import { randomUUID } from 'node:crypto';
import type { CommandGenerator } from '../core/ports.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import { A2aError, invalidParams, taskNotFound } from './a2a-error.js';
import { failedOutcome, TurnRunner } from './turn-runner.js';
import { Contexts } from './tasks/contexts.js';
import type { ContextRecord } from './tasks/contexts.js';
import { MessageCache, messageFingerprint } from './tasks/message-cache.js';
import { TERMINAL_STATES, withHistory } from './tasks/model.js';
import type { A2aMessage, Task } from './tasks/model.js';
import { TaskStore } from './tasks/task-store.js';
import type { TaskListener } from './tasks/task-store.js';
import { DEFAULT_TASK_LIMITS, TaskRetention } from './tasks/task-retention.js';
import type { TaskLimits } from './tasks/task-retention.js';
import type { TurnAdmission } from './turn-admission.js';

export interface SemanticSettings {
  readonly includeConversationRepair: boolean;
  /** 0: never */
  readonly taskTimeoutSeconds: number;
  readonly messageCacheTtlSeconds: number;
  /** 0: no cap */
  readonly maxContexts: number;
}

export interface SemanticHandlerOptions {
  readonly agent: Agent;
  /** the assistant's understanding; pre-filled slots are added to its commands */
  readonly commandGenerator: CommandGenerator;
  readonly settings: SemanticSettings;
  readonly logger: Logger;
  readonly now?: () => number;
  readonly newId?: () => string;
  /** the server's door (its TurnGate): turns counted and refused while shutting down */
  readonly admission?: TurnAdmission;
  /** how many tasks are kept (tests lower it); DEFAULT_TASK_LIMITS otherwise */
  readonly taskLimits?: TaskLimits;
}

export interface SendParams {
  readonly message: A2aMessage;
}

export interface SendResult {
  /** the task right after the message was accepted */
  readonly task: Task;
  /** the task once the turn is over (terminal or interrupted) */
  readonly done: Promise<Task>;
  /** true when the messageId was seen before: nothing ran, `task` is the first answer */
  readonly replayed: boolean;
  /** stops the listener given to sendMessage */
  readonly unsubscribe: () => void;
}

export interface ListParams {
  readonly contextId?: string;
  readonly state?: Task['status']['state'];
  readonly pageSize: number;
  readonly pageToken?: string;
  readonly historyLength?: number;
  readonly statusAfter?: number;
  readonly includeArtifacts: boolean;
}

export class SemanticHandler {
  readonly store = new TaskStore();
  private readonly contexts: Contexts;
  private readonly cache: MessageCache<Promise<Task>>;
  private readonly runner: TurnRunner;
  private readonly options: SemanticHandlerOptions;
  private readonly newId: () => string;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly retention: TaskRetention;

  constructor(options: SemanticHandlerOptions) {
    this.options = options;
    const now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.contexts = new Contexts({
      maxContexts: options.settings.maxContexts,
      isReserved: (context) => context.taskIds.some((id) => this.isOpen(id)),
      onEvict: (ids) => this.store.remove(ids),
    });
    this.retention = new TaskRetention({
      store: this.store,
      contexts: this.contexts,
      ...(options.taskLimits ? { limits: options.taskLimits } : {}),
    });
    this.cache = new MessageCache({
      ttlSeconds: options.settings.messageCacheTtlSeconds,
      now,
      maxEntries: (options.taskLimits ?? DEFAULT_TASK_LIMITS).total,
    });
    this.runner = new TurnRunner({ ...options, store: this.store, now, newId: this.newId });
  }

  /**
   * Accepts a message and starts its turn. `listener` hears the task's events from the first one on
   * (streaming); it is subscribed before anything is published.
   */
  async sendMessage(params: SendParams, listener?: TaskListener): Promise<SendResult> {
    const message = params.message;
    const fingerprint = messageFingerprint(message);
    // a retry is recognised before the task's state is checked: the retried message may have ended it
    const knownContext =
      message.contextId ?? (message.taskId ? this.store.get(message.taskId)?.contextId : undefined);
    const cached = knownContext === undefined ? undefined : this.cache.get(knownContext, message.messageId);
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
    const existing = message.taskId ? this.continuable(message) : undefined;
    const contextId = message.contextId ?? existing?.contextId ?? this.newId();
    if (this.contexts.get(contextId)?.running)
      throw new A2aError({
        reason: 'CONTEXT_BUSY',
        message: `Context ${contextId} is still handling an earlier message; send this one when that answer arrived.`,
        metadata: { contextId },
      });
    const context = this.contexts.open(contextId);
    const received: A2aMessage = { ...message, contextId, taskId: existing?.id ?? this.newId() };
    const taskId = received.taskId as string;
    const unsubscribe = listener ? this.store.subscribe(taskId, listener) : undefined;
    try {
      if (existing)
        this.store.publish({ kind: 'task', task: { ...existing, history: [...existing.history, received] } });
      else this.startTask(context, received);
    } catch (error) {
      unsubscribe?.();
      throw error;
    }
    const turn = this.runner.run(context, received);
    const done = this.settled(taskId, turn);
    // the context stays busy until the turn is over, even when the task ended before (timeout, cancel)
    const running = turn.then(
      () => undefined,
      () => undefined,
    );
    context.running = running;
    void running.then(() => {
      if (context.running === running) context.running = undefined;
    });
    this.cache.set(contextId, message.messageId, fingerprint, done);
    return {
      task: this.store.get(taskId) as Task,
      done,
      replayed: false,
      unsubscribe: unsubscribe ?? (() => undefined),
    };
  }

  getTask(id: string, historyLength?: number): Task {
    const task = this.store.get(id);
    if (!task) throw taskNotFound(id);
    return withHistory(task, historyLength);
  }

  /**
   * Cancels a task that is running or waiting for input, and the flow in the dialogue: a running turn
   * is not waited for (the task is canceled at once; the flow is cancelled once the turn is over).
   */
  async cancelTask(id: string): Promise<Task> {
    const task = this.store.get(id);
    if (!task) throw taskNotFound(id);
    if (task.status.state === 'canceled') return task;
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'TASK_NOT_CANCELABLE',
        message: `Task ${id} is ${task.status.state} and cannot be canceled.`,
        metadata: { taskId: id, state: task.status.state },
      });
    this.refuseWhenClosing();
    const context = this.contexts.open(task.contextId);
    const wasRunning = context.running;
    const cancelling = (wasRunning ?? Promise.resolve()).then(() => this.runner.cancelFlow(task));
    const settled = cancelling.then(
      () => undefined,
      () => undefined,
    );
    context.running = settled;
    void settled.then(() => {
      if (context.running === settled) context.running = undefined;
    });
    if (wasRunning)
      this.runner.finish(task, { state: 'canceled', data: { cancel: { by: 'orchestrator' } } }, []);
    else await cancelling;
    return this.store.get(id) as Task;
  }

  /** The task now and its next events; refused for a task that will change no more. */
  subscribe(id: string, listener: TaskListener): { task: Task; unsubscribe: () => void } {
    const task = this.store.get(id);
    if (!task) throw taskNotFound(id);
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'UNSUPPORTED_OPERATION',
        message: `Task ${id} is ${task.status.state}; there is nothing more to subscribe to.`,
        metadata: { taskId: id },
      });
    return { task, unsubscribe: this.store.subscribe(id, listener) };
  }

  listTasks(params: ListParams): { tasks: Task[]; nextPageToken: string; totalSize: number } {
    const all = this.store.list({
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

  /** Stops the task timers (server shutdown). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private continuable(message: A2aMessage): Task {
    const id = message.taskId as string;
    const task = this.store.get(id);
    if (!task) throw taskNotFound(id);
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
    for (const earlier of context.taskIds.filter((id) => this.isOpen(id))) {
      const task = this.store.get(earlier) as Task;
      this.runner.finish(
        task,
        { state: 'canceled', data: { cancel: { by: 'superseded', task_id: taskId } } },
        [],
      );
    }
    context.taskIds.push(taskId);
    this.store.create({
      id: taskId,
      contextId: context.id,
      status: { state: 'submitted', timestamp: this.runner.timestamp() },
      history: [message],
      artifacts: [],
    });
    this.retention.afterCreate(context);
    this.startTimer(taskId);
  }

  private startTimer(taskId: string): void {
    const seconds = this.options.settings.taskTimeoutSeconds;
    if (seconds <= 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(taskId);
      const task = this.store.get(taskId);
      if (!task || TERMINAL_STATES.has(task.status.state)) return;
      this.options.logger.warn({ taskId, contextId: task.contextId, seconds }, 'a2a task timed out');
      this.runner.finish(task, failedOutcome('task_timeout', `The task ran longer than ${seconds} s.`), []);
    }, seconds * 1000);
    timer.unref();
    this.timers.set(taskId, timer);
  }

  /**
   * The task once its last status of the turn is out (interrupted or terminal), which may come before
   * the turn ends: a timed-out or canceled task answers a blocking send at once.
   */
  private settled(taskId: string, turn: Promise<void>): Promise<Task> {
    let last = this.store.get(taskId) as Task;
    return new Promise((resolve) => {
      const stop = this.store.subscribe(taskId, (event) => {
        last = this.store.get(taskId) ?? last;
        if (event.kind !== 'status-update' || !event.final) return;
        stop();
        resolve(last);
      });
      const end = (): void => {
        stop();
        resolve(this.store.get(taskId) ?? last);
      };
      void turn.then(end, end);
    });
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
