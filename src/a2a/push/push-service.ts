/**
 * Push notifications of tasks: the configs set through the JSON-RPC push methods, in memory like the
 * tasks, and their delivery. A config subscribes to its task's events; when the task's state changes
 * at the end of a turn (to input-required, auth-required or a terminal state; `working` updates are
 * the pieces of a turn still running) the task is POSTed to every config of the task, in the shape of
 * the version that set it (spec/a2a.md §2.8): v0.3 the Task (application/json), v1.0 a StreamResponse
 * `{"task": …}` (application/a2a+json), so a receiver gets the whole state, artifacts included, in one
 * request. The config's token goes in `X-A2A-Notification-Token`, its authentication in
 * `Authorization: <scheme> <credentials>`. Deliveries run in the background and never fail the task.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../runtime/logger.js';
import { taskNotFound } from '../a2a-error.js';
import { A2aError } from '../a2a-error.js';
import { V03_CODEC } from '../jsonrpc/v03.js';
import { V1_CODEC } from '../jsonrpc/v1.js';
import type { Task, TaskEvent } from '../tasks/model.js';
import type { TaskEvents } from '../tasks/task-events.js';
import { DEFAULT_PUSH_LIMITS } from '../tasks/task-store.js';
import type { PushLimits, PushPutOutcome, TaskStore } from '../tasks/task-store.js';
import type { PushConfig, PushConfigFields, PushConfigInput } from './push-config.js';
import type { PushDelivery, PushSender } from './push-sender.js';
import type { UrlGuard } from './url-guard.js';

/** What the push service needs of the tasks: the caller's own, and the copy a turn is changing. */
export interface PushTasks {
  /** the caller's task, undefined when missing or another caller's */
  owned(taskId: string, caller: string): Promise<Task | undefined>;
  /** the task as this process last changed it */
  current(taskId: string): Task | undefined;
}

export interface PushServiceOptions {
  /** where the configs live (shared by every process with a SQL store) */
  readonly store: TaskStore;
  readonly tasks: PushTasks;
  /** this process's task events: a turn that ends here notifies the task's configs */
  readonly events: TaskEvents;
  readonly guard: UrlGuard;
  readonly sender: PushSender;
  readonly logger: Logger;
  readonly newId?: () => string;
  /** configs per task, per caller and in all (DEFAULT_PUSH_LIMITS) */
  readonly limits?: PushLimits;
  /** deliveries under way at once; beyond, a notification is dropped (logged) */
  readonly maxInFlight?: number;
}

export const DEFAULT_MAX_DELIVERIES_IN_FLIGHT = 100;

export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

export class PushService {
  private readonly options: PushServiceOptions;
  private readonly limits: PushLimits;
  private readonly maxInFlight: number;
  private readonly pending = new Set<Promise<boolean>>();
  /** aborted when the server shuts down: deliveries under way stop, none start */
  private readonly stopping = new AbortController();

  constructor(options: PushServiceOptions) {
    this.options = options;
    this.limits = options.limits ?? DEFAULT_PUSH_LIMITS;
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_DELIVERIES_IN_FLIGHT;
    options.events.onEvery((event) => this.onEvent(event));
  }

  /** Checks the URL (form, allow-list, resolved addresses) and stores the caller's config for its task. */
  async set(input: PushConfigInput, caller: string): Promise<PushConfig> {
    await this.task(input.taskId, caller);
    const checked = await this.check(input);
    // the task may have been forgotten while the name resolved
    await this.task(input.taskId, caller);
    return this.attach(input.taskId, checked, caller);
  }

  /**
   * Checks a config given with a message, before the message's task exists (`attach` it once the task
   * has its id): a config the server would refuse refuses the message, before any turn runs.
   */
  async check(fields: PushConfigFields): Promise<PushConfigFields> {
    const url = this.options.guard.checkUrl(fields.url);
    await this.options.guard.resolve(url);
    // the URL as parsed (what is delivered to), not as sent: no stray characters are kept or echoed
    return { ...fields, url: url.href };
  }

  /** Stores a checked config for the caller's task; a new one beyond the limits is refused with -32602. */
  async attach(taskId: string, checked: PushConfigFields, caller: string): Promise<PushConfig> {
    const config: PushConfig = { ...checked, taskId, id: checked.id ?? (this.options.newId ?? randomUUID)() };
    const outcome = await this.options.store.putPushConfig(config, caller, this.limits);
    if (outcome.kind !== 'stored') throw refused(outcome, taskId);
    return config;
  }

  /** One of the caller's configs; without an id the task's first (v0.3 clients ask that way). */
  async get(taskId: string, configId: string | undefined, caller: string): Promise<PushConfig> {
    const forTask = await this.list(taskId, caller);
    const found = configId === undefined ? forTask[0] : forTask.find((config) => config.id === configId);
    if (!found)
      throw new A2aError({
        reason: 'TASK_NOT_FOUND',
        message: `Push notification config not found: ${configId ?? '(none set)'} of task ${taskId}`,
        metadata: { taskId, ...(configId !== undefined ? { configId } : {}) },
      });
    return found;
  }

  async list(taskId: string, caller: string): Promise<PushConfig[]> {
    await this.task(taskId, caller);
    const configs = await this.options.store.pushConfigs(taskId);
    return configs.filter((entry) => entry.owner === caller).map((entry) => entry.config);
  }

  /** Idempotent: deleting a config that is not there succeeds (spec/a2a.md §3 #10). */
  async delete(taskId: string, configId: string, caller: string): Promise<void> {
    await this.task(taskId, caller);
    await this.options.store.deletePushConfig(taskId, configId, caller);
  }

  /** how many deliveries are under way */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Stops the deliveries under way and refuses new ones (server shutdown). */
  close(): void {
    this.stopping.abort();
  }

  /** Resolves once the deliveries under way are over (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** the caller's task: another caller's is as unknown as a missing one */
  private async task(id: string, caller: string): Promise<Task> {
    const task = await this.options.tasks.owned(id, caller);
    if (!task) throw taskNotFound(id);
    return task;
  }

  /** runs inside the task's publish: reads the configs in the background, never throws into the turn */
  private onEvent(event: TaskEvent): void {
    if (event.kind !== 'status-update') return;
    if (event.status.state === 'working' || event.status.state === 'submitted') return;
    const task = this.options.tasks.current(event.taskId);
    if (!task || this.stopping.signal.aborted) return;
    this.options.store.pushConfigs(task.id).then(
      (configs) =>
        this.deliverAll(
          task,
          configs.map((entry) => entry.config),
        ),
      (error: unknown) =>
        this.options.logger.error(
          { taskId: task.id, reason: error instanceof Error ? error.message : String(error) },
          'a2a push notification configs could not be read',
        ),
    );
  }

  private deliverAll(task: Task, configs: readonly PushConfig[]): void {
    if (configs.length === 0 || this.stopping.signal.aborted) return;
    // one body per wire version, however many configs the task has
    const bodies = new Map<PushConfig['version'], string>();
    const bodyFor = (version: PushConfig['version']): string => {
      const known = bodies.get(version);
      if (known !== undefined) return known;
      const body = JSON.stringify(
        version === '1.0' ? V1_CODEC.event({ kind: 'task', task }) : V03_CODEC.task(task),
      );
      bodies.set(version, body);
      return body;
    };
    for (const config of configs) {
      // each delivery holds its body until it is over: bounded, so slow receivers cannot pile them up
      if (this.pending.size >= this.maxInFlight) {
        this.options.logger.error(
          { taskId: task.id, configId: config.id, inFlight: this.pending.size },
          'a2a push notification dropped: too many deliveries under way',
        );
        continue;
      }
      // the delivery runs in the background, where a rejection would be unhandled and end the process
      const failed = (error: unknown) => {
        this.options.logger.error(
          {
            taskId: task.id,
            configId: config.id,
            reason: error instanceof Error ? error.message : String(error),
          },
          'a2a push notification failed',
        );
        return false;
      };
      let delivery: Promise<boolean>;
      try {
        delivery = this.options.sender
          .deliver({ ...deliveryFor(config, task, bodyFor), signal: this.stopping.signal })
          .catch(failed);
      } catch (error) {
        failed(error);
        continue;
      }
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
  }
}

function deliveryFor(
  config: PushConfig,
  task: Task,
  bodyFor: (version: PushConfig['version']) => string,
): PushDelivery {
  return {
    url: new URL(config.url),
    headers: headersFor(config),
    body: bodyFor(config.version),
    taskId: task.id,
    configId: config.id,
  };
}

function headersFor(config: PushConfig): Record<string, string> {
  const scheme = config.schemes?.[0];
  return {
    'content-type': config.version === '1.0' ? 'application/a2a+json' : 'application/json',
    ...(config.token !== undefined ? { [NOTIFICATION_TOKEN_HEADER]: config.token } : {}),
    ...(scheme !== undefined && config.credentials !== undefined
      ? { authorization: `${scheme} ${config.credentials}` }
      : {}),
  };
}

function refused(outcome: Exclude<PushPutOutcome, { kind: 'stored' }>, taskId: string): A2aError {
  const messages = {
    perTask: (max: number) => `A task has at most ${max} push notification configs; delete one first.`,
    perCaller: (max: number) => `A caller holds at most ${max} push notification configs; delete one first.`,
    total: (max: number) => `This agent holds its maximum of ${max} push notification configs.`,
  };
  const message =
    outcome.kind === 'taken' ? 'That config id is taken.' : messages[outcome.limit](outcome.max);
  return new A2aError({
    reason: 'INVALID_PARAMS',
    message,
    metadata: { field: 'pushNotificationConfig', taskId },
  });
}
