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
import type { TaskStore } from '../tasks/task-store.js';
import type { PushConfig, PushConfigInput } from './push-config.js';
import type { PushSender } from './push-sender.js';
import type { UrlGuard } from './url-guard.js';

export interface PushServiceOptions {
  readonly store: TaskStore;
  readonly guard: UrlGuard;
  readonly sender: PushSender;
  readonly logger: Logger;
  readonly newId?: () => string;
}

export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

export class PushService {
  private readonly options: PushServiceOptions;
  /** task id → config id → config */
  private readonly configs = new Map<string, Map<string, PushConfig>>();
  private readonly subscriptions = new Map<string, () => void>();
  private readonly pending = new Set<Promise<boolean>>();

  constructor(options: PushServiceOptions) {
    this.options = options;
  }

  /** Checks the URL (form, allow-list, resolved addresses) and stores the config for the task. */
  async set(input: PushConfigInput): Promise<PushConfig> {
    this.task(input.taskId);
    const url = this.options.guard.checkUrl(input.url);
    await this.options.guard.resolve(url);
    const config: PushConfig = { ...input, id: input.id ?? (this.options.newId ?? randomUUID)() };
    let forTask = this.configs.get(input.taskId);
    if (!forTask) {
      forTask = new Map();
      this.configs.set(input.taskId, forTask);
    }
    forTask.set(config.id, config);
    if (!this.subscriptions.has(input.taskId))
      this.subscriptions.set(
        input.taskId,
        this.options.store.subscribe(input.taskId, (event) => this.onEvent(event)),
      );
    return config;
  }

  /** One config; without an id the task's first (v0.3 clients ask that way). */
  get(taskId: string, configId: string | undefined): PushConfig {
    this.task(taskId);
    const forTask = [...(this.configs.get(taskId)?.values() ?? [])];
    const found = configId === undefined ? forTask[0] : forTask.find((config) => config.id === configId);
    if (!found)
      throw new A2aError({
        reason: 'TASK_NOT_FOUND',
        message: `Push notification config not found: ${configId ?? '(none set)'} of task ${taskId}`,
        metadata: { taskId, ...(configId !== undefined ? { configId } : {}) },
      });
    return found;
  }

  list(taskId: string): PushConfig[] {
    this.task(taskId);
    return [...(this.configs.get(taskId)?.values() ?? [])];
  }

  /** Idempotent: deleting a config that is not there succeeds (spec/a2a.md §3 #10). */
  delete(taskId: string, configId: string): void {
    this.task(taskId);
    const forTask = this.configs.get(taskId);
    forTask?.delete(configId);
    if (forTask && forTask.size === 0) {
      this.configs.delete(taskId);
      this.subscriptions.get(taskId)?.();
      this.subscriptions.delete(taskId);
    }
  }

  /** Resolves once the deliveries under way are over (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private task(id: string): Task {
    const task = this.options.store.get(id);
    if (!task) throw taskNotFound(id);
    return task;
  }

  private onEvent(event: TaskEvent): void {
    if (event.kind !== 'status-update') return;
    if (event.status.state === 'working' || event.status.state === 'submitted') return;
    const task = this.options.store.get(event.taskId);
    if (!task) return;
    for (const config of this.configs.get(task.id)?.values() ?? []) {
      const delivery = this.options.sender.deliver({
        url: new URL(config.url),
        headers: headersFor(config),
        body: JSON.stringify(
          config.version === '1.0' ? V1_CODEC.event({ kind: 'task', task }) : V03_CODEC.task(task),
        ),
        taskId: task.id,
        configId: config.id,
      });
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
  }
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
