/**
 * A2A semantics over the dialogue, independent of the wire version: a message runs one turn of the
 * context's conversation inside a task whose state is read from the dialogue afterwards
 * (dialogue-outcome.ts). Everything belongs to a caller (caller.ts): another caller's task is
 * unknown, and a context's conversation is `a2a:<caller>:<contextId>` (or the contextId itself with
 * `context_id_as_sender_id`). The state lives in the task store it is given (memory, or SQL shared by
 * every process); the task of a turn running here is changed in this process (live-tasks.ts) and
 * written to the store when accepted and when answered. jsonrpc/ translates requests and results of
 * v0.3 and v1.0 to and from these calls.
 */
import { randomUUID } from 'node:crypto';
import { A2aError, taskNotFound } from './a2a-error.js';
import { conversationIdOf } from './caller.js';
import { ContextClaims } from './context-claims.js';
import type { ClaimHold, ClaimResult } from './context-claims.js';
import { ReplayAnswers } from './replay-answers.js';
import { TurnRunner } from './turn-runner.js';
import { messageFingerprint } from './tasks/message-cache.js';
import { acceptedTask } from './tasks/accepted-task.js';
import { LiveTasks } from './tasks/live-tasks.js';
import { TERMINAL_STATES, withHistory } from './tasks/model.js';
import type { A2aMessage, Task } from './tasks/model.js';
import { TaskEvents } from './tasks/task-events.js';
import type { TaskListener } from './tasks/task-events.js';
import {
  answerWhenFree,
  continuable,
  endsSoon,
  refuseOversized,
  whenSettled,
} from './tasks/task-settling.js';
import type {
  AcceptedTask,
  ClaimRelease,
  ContextIdentity,
  KnownContextSize,
  ReplayKey,
  SaveOptions,
  StoredTask,
  TaskStore,
  TaskStoreStats,
} from './tasks/task-store.js';
import { TaskSweeper } from './tasks/task-sweeper.js';
import { TaskCancels } from './task-cancels.js';
import { TaskEndings, contextSize } from './task-endings.js';
import { listOwnTasks } from './task-listing.js';
import type { TaskList } from './task-listing.js';
import { relaySettled } from './tasks/remote-settled.js';
import type { ListParams, SemanticHandlerOptions, SendParams, SendResult } from './semantic-inputs.js';

export type {
  ListParams,
  SemanticHandlerOptions,
  SemanticSettings,
  SendParams,
  SendResult,
} from './semantic-inputs.js';

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;

export class SemanticHandler {
  readonly store: TaskStore;
  readonly events = new TaskEvents();
  private readonly live: LiveTasks;
  private readonly claims: ContextClaims;
  private readonly runner: TurnRunner;
  private readonly sweeper: TaskSweeper;
  private readonly endings: TaskEndings;
  private readonly cancels: TaskCancels;
  private readonly options: SemanticHandlerOptions;
  private readonly newId: () => string;
  private readonly now: () => number;
  private readonly maxMessageBytes: number;
  private readonly replays: ReplayAnswers;

  constructor(options: SemanticHandlerOptions) {
    this.options = options;
    const { settings } = options;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.store = options.store;
    this.maxMessageBytes = settings.limits?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.replays = new ReplayAnswers({
      store: this.store,
      now: this.now,
      ttlMs: settings.messageCacheTtlSeconds * 1000,
    });
    this.live = new LiveTasks({
      store: this.store,
      events: this.events,
      ...(settings.limits?.maxTaskHistoryBytes
        ? { maxHistoryBytes: settings.limits.maxTaskHistoryBytes }
        : {}),
    });
    this.claims = new ContextClaims({
      store: this.store,
      holder: options.holder ?? randomUUID(),
      maxContexts: settings.maxContexts,
      now: this.now,
      logger: options.logger,
      ...(options.claimLeaseMs !== undefined ? { leaseMs: options.claimLeaseMs } : {}),
    });
    this.runner = new TurnRunner({ ...options, live: this.live, now: this.now, newId: this.newId });
    this.sweeper = new TaskSweeper({
      store: this.store,
      now: this.now,
      isHeld: (id) => this.live.get(id) !== undefined,
      end: (stored, reason) => this.endings.endOverdue(stored, reason),
      logger: options.logger,
      ...(options.sweepIntervalMs !== undefined ? { intervalMs: options.sweepIntervalMs } : {}),
    });
    this.endings = new TaskEndings({
      store: this.store,
      live: this.live,
      events: this.events,
      runner: this.runner,
      logger: options.logger,
      now: this.now,
      taskTimeoutSeconds: settings.taskTimeoutSeconds,
      forgotten: (ids) => this.sweeper.unwatch(ids),
      saveSettled: (id) => this.saveSettled(id),
    });
    this.cancels = new TaskCancels({
      store: this.store,
      live: this.live,
      claims: this.claims,
      runner: this.runner,
      signals: options.signals,
      refuseWhenClosing: () => this.refuseWhenClosing(),
      saveSettled: (id) => this.saveSettled(id),
      afterTurn: (key, id) => this.afterTurn(key, id),
    });
    this.sweeper.start(settings.taskTimeoutSeconds);
    options.signals?.listen({
      settled: (id) => this.relayRemoteSettled(id),
      cancel: (id) =>
        void this.cancels.remoteCancel(id).catch((error: unknown) => this.signalFailed(id, error)),
    });
  }

  /**
   * Accepts a message and starts its turn. `listener` hears the task's events from the first one on
   * (streaming); it is subscribed before anything is published.
   */
  async sendMessage(params: SendParams, listener?: TaskListener): Promise<SendResult> {
    const { message, caller } = params;
    refuseOversized(message, this.maxMessageBytes);
    const fingerprint = messageFingerprint(message);
    // a task named without its context is read for it; with its context, the claim reads it (open tasks)
    const readFirst = message.taskId !== undefined && message.contextId === undefined;
    const named = readFirst ? await this.ownedOrUndefined(message.taskId as string, caller) : undefined;
    const knownContext = message.contextId ?? named?.task.contextId;
    const replayKey = (contextId: string): ReplayKey => ({
      scope: this.replayScope(caller, contextId),
      messageId: message.messageId,
    });
    // a retry is known (here, else by the claim) before the task is checked: its first send may have ended it
    const replayFirst = knownContext !== undefined && (readFirst || this.options.admission?.isClosing);
    if (replayFirst) {
      const replayed = await this.replays.replayed(replayKey(knownContext), fingerprint, knownContext);
      if (replayed) return replayed;
    }
    this.refuseWhenClosing();
    if (readFirst) continuable(message, named);
    const contextId = knownContext ?? this.newId();
    const unseen = contextId !== knownContext;
    const key = this.conversationOf(caller, contextId);
    const taskId = message.taskId ?? this.newId();
    const received: A2aMessage = { ...message, contextId, taskId };
    const replay = replayKey(contextId);
    const entry = { ...replay, fingerprint, expiresAt: this.replays.expiresAt() };
    // a new task is stored with the claim (one write); nothing is announced before it is claimed
    const start = message.taskId
      ? undefined
      : this.accept({ key, contextId, owner: caller }, received, entry);
    const claimed = await this.replays
      .claimUnlessSent(this.claims, {
        identity: { key, contextId, owner: caller },
        key: replay,
        fingerprint,
        withClaim: knownContext !== undefined && !replayFirst,
        ...(start ? { start } : {}),
      })
      .catch(async (error: unknown) => {
        if (start) await this.live.drop(taskId);
        throw error;
      });
    if ('replayed' in claimed) {
      if (start) await this.live.drop(taskId);
      return claimed;
    }
    const unsubscribe = listener ? this.events.subscribe(taskId, listener) : () => undefined;
    try {
      await this.endings.endEvicted(claimed.evictions);
      // read again under the claim (by it, if open): a turn elsewhere may have changed the task since
      const existing = message.taskId
        ? continuable(message, await this.ownedOrUndefined(taskId, caller, claimed.openTasks))
        : undefined;
      await params.beforeRun?.(taskId);
      if (existing) {
        this.continueTask(existing, received);
        await this.live.save(taskId, { replay: entry });
      } else await this.startTask(claimed, taskId);
    } catch (error) {
      unsubscribe();
      // a task stored with the claim goes: its replay entry then answers nothing, and a retry runs
      if (start) await this.store.removeTasks([taskId]).catch(() => undefined);
      await this.live.drop(taskId);
      await this.claims.abandon(key).catch(() => undefined);
      throw error;
    }
    const size = contextSize(claimed, message.taskId ? 0 : 1);
    // a new task may put the context over its limits at once; a continued one is measured after its turn
    if (!message.taskId)
      await this.endings
        .applyLimits(key, size, this.live.stored(taskId))
        .catch((error: unknown) => this.limitsFailed(key, error));
    const turn = this.runner.run(key, received, { request: params.request, unseen, keptAt: claimed.keptAt });
    const accepted = this.live.get(taskId) as Task;
    // set below in this same tick: the callback runs once the task settled, always later
    const held: { hold?: ClaimHold } = {};
    const settled = whenSettled({ live: this.live, events: this.events }, taskId, turn).then(async (task) => {
      const save = (release?: ClaimRelease) =>
        this.saveSettled(taskId, { answers: replay, ...(release ? { release } : {}) });
      // the turn normally ends with its answer: the answer's write then also frees the context
      if (held.hold && (await endsSoon(turn))) await held.hold.releaseIn(save);
      else await save();
      return this.live.get(taskId) ?? task;
    });
    this.replays.remember(replay, settled);
    const hold = this.claims.hold(key, Promise.allSettled([turn, settled]), () =>
      this.afterTurn(key, taskId, size),
    );
    held.hold = hold;
    const done = answerWhenFree(settled, turn, hold.released);
    return { task: accepted, done, replayed: false, unsubscribe };
  }

  /** The caller's task: the copy of a turn running here, else the stored one. */
  async getTask(id: string, caller: string, historyLength?: number): Promise<Task> {
    return withHistory((await this.ownedTask(id, caller)).task, historyLength);
  }

  /** the task as this process last changed it (a send's answer right after acceptance) */
  current(id: string): Task | undefined {
    return this.live.get(id);
  }

  /** the caller's task, undefined when missing or another caller's (push configs) */
  async owned(id: string, caller: string): Promise<Task | undefined> {
    return (await this.ownedOrUndefined(id, caller))?.task;
  }

  /**
   * Cancels a task that is running or waiting for input, and the flow in the dialogue: a running turn
   * is not waited for (the task is canceled at once; the flow is cancelled once the turn is over).
   */
  async cancelTask(id: string, caller: string): Promise<Task> {
    const stored = await this.ownedTask(id, caller);
    return this.cancels.cancel(stored, this.conversationOf(caller, stored.task.contextId));
  }

  /** writes a task whose state settled and tells the other processes (in the same write when the store can) */
  private async saveSettled(id: string, options?: SaveOptions): Promise<void> {
    const announce = this.store.announcesSettled === true;
    await this.live.save(id, announce ? { ...options, announce } : options);
    this.settledHere(id, announce);
  }

  /**
   * A task's settled state is stored: the other processes hear it (unless its write told them), and a
   * terminal task's timeout timer goes (a timer a message, each held until its deadline, an hour by default).
   */
  private settledHere(id: string, announced: boolean): void {
    const task = this.live.get(id);
    if (task && TERMINAL_STATES.has(task.status.state)) this.sweeper.unwatch([id]);
    if (!announced) this.options.signals?.settled(id);
  }

  /** The task now and its next events; refused for a task that will change no more. */
  async subscribe(
    id: string,
    caller: string,
    listener: TaskListener,
  ): Promise<{ task: Task; unsubscribe: () => void }> {
    const { task } = await this.ownedTask(id, caller);
    if (TERMINAL_STATES.has(task.status.state))
      throw new A2aError({
        reason: 'UNSUPPORTED_OPERATION',
        message: `Task ${id} is ${task.status.state}; there is nothing more to subscribe to.`,
        metadata: { taskId: id },
      });
    return { task, unsubscribe: this.events.subscribe(id, listener) };
  }

  /** The caller's own tasks, newest status first. */
  listTasks(params: ListParams): Promise<TaskList> {
    return listOwnTasks(this.store, (id) => this.live.get(id), params);
  }

  /** what the task store holds, for /metrics */
  stats(): Promise<TaskStoreStats> {
    return this.store.stats();
  }

  /** Stops the timers (server shutdown); claims still held lapse by themselves. */
  close(): void {
    this.sweeper.close();
    this.claims.close();
  }

  private async ownedOrUndefined(id: string, caller: string, openTasksAsClaimed?: readonly StoredTask[]) {
    const claimed = openTasksAsClaimed?.find(({ task }) => task.id === id);
    const stored = this.live.stored(id) ?? claimed ?? (await this.store.getTask(id));
    return stored && stored.owner === caller ? stored : undefined;
  }

  /** the caller's task: another caller's is as unknown as a missing one */
  private async ownedTask(id: string, caller: string): Promise<StoredTask> {
    const stored = await this.ownedOrUndefined(id, caller);
    if (!stored) throw taskNotFound(id);
    return stored;
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

  private continueTask(existing: StoredTask, received: A2aMessage): void {
    const task = this.live.hold(existing);
    this.live.publish({ kind: 'task', task: { ...task, history: [...task.history, received] } });
  }

  /** A new task, as accepted: held here, announced once its context is claimed. */
  private accept(
    context: ContextIdentity,
    message: A2aMessage,
    replay: AcceptedTask['replay'],
  ): AcceptedTask {
    const taskId = message.taskId as string;
    const seconds = this.options.settings.taskTimeoutSeconds;
    const deadline = seconds > 0 ? this.now() + seconds * 1000 : undefined;
    this.live.hold(acceptedTask(context, { ...message, taskId }, this.runner.timestamp(), deadline));
    return { task: this.live.stored(taskId) as StoredTask, ...(replay ? { replay } : {}) };
  }

  /** Starts the accepted task: the context's earlier tasks still waiting for input are superseded. */
  private async startTask(claimed: Extract<ClaimResult, { kind: 'claimed' }>, taskId: string): Promise<void> {
    await this.endings.supersede(claimed, taskId);
    this.live.publish({ kind: 'task', task: this.live.get(taskId) as Task });
    this.sweeper.watch(taskId);
  }

  /**
   * Another process stored a task's settled state: this process's listeners hear it, unless the task
   * is held here. Then its turn runs here, and the signal is late news of an earlier turn (it can
   * arrive after this process claimed the context again): relaying it would end this turn's waits
   * with the state of the one before.
   */
  private relayRemoteSettled(taskId: string): void {
    if (this.live.get(taskId)) return;
    void relaySettled(this.store, this.events, taskId).catch((error: unknown) =>
      this.signalFailed(taskId, error),
    );
  }

  private signalFailed(taskId: string, error: unknown): void {
    this.options.logger.warn({ taskId, error: String(error) }, 'a2a task signal not handled');
  }

  /** the limits apply again after the next turn; the turn itself goes on */
  private limitsFailed(key: string, error: unknown): void {
    this.options.logger.warn({ conversationId: key, error: String(error) }, 'a2a task limits not applied');
  }

  /** after a turn's claim ended: its task is stored as it is, then the retention limits apply */
  private async afterTurn(key: string, taskId: string, size?: KnownContextSize): Promise<void> {
    const task = this.live.stored(taskId);
    await this.live.drop(taskId);
    await this.endings.applyLimits(key, size, task);
  }

  private refuseWhenClosing(): void {
    if (this.options.admission?.isClosing)
      throw new A2aError({
        reason: 'SHUTTING_DOWN',
        message: 'The agent is shutting down and takes no new turns; send the message to another instance.',
      });
  }
}
