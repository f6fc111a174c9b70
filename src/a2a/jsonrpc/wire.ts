/** What a wire version translates between its JSON and the semantic handler's model. */
import type { A2aMessage, Task, TaskEvent, TaskState } from '../tasks/model.js';
import type { PushConfigFields } from '../push/push-config.js';
import type { WireVersion } from './errors.js';

export interface SendRequest {
  readonly message: A2aMessage;
  readonly blocking: boolean;
  readonly historyLength: number | undefined;
  /** a push notification config given with the message, for its task */
  readonly pushConfig?: PushConfigFields;
}

export interface TaskQuery {
  readonly id: string;
  readonly historyLength: number | undefined;
}

export interface ListRequest {
  readonly contextId?: string;
  readonly state?: TaskState;
  readonly pageSize: number;
  readonly pageToken?: string;
  readonly historyLength?: number;
  readonly statusAfter?: number;
  readonly includeArtifacts: boolean;
}

export interface WireCodec {
  readonly version: WireVersion;
  sendRequest(params: unknown): SendRequest;
  taskQuery(params: unknown): TaskQuery;
  taskId(params: unknown): string;
  /** the result of a send: v0.3 the bare task, v1.0 `{task}` */
  sendResult(task: Task): unknown;
  task(task: Task): unknown;
  event(event: TaskEvent): unknown;
}
