/**
 * The A2A objects the semantic handler works with, independent of the wire version. They follow the
 * v0.3 JSON shapes (`kind` tags, lower-case states) because those are the richer of the two spellings;
 * jsonrpc/v03.ts and jsonrpc/v1.ts translate them to and from each wire.
 */

export type TaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'auth-required'
  | 'completed'
  | 'canceled'
  | 'failed'
  | 'rejected';

/** no further message may change a task in one of these states */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  'completed',
  'canceled',
  'failed',
  'rejected',
]);

/** the agent waits for the client; a blocking send returns and a stream closes */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set(['input-required', 'auth-required']);

export type Metadata = Readonly<Record<string, unknown>>;

export type Part =
  | { readonly kind: 'text'; readonly text: string; readonly metadata?: Metadata }
  | { readonly kind: 'data'; readonly data: unknown; readonly metadata?: Metadata }
  | {
      readonly kind: 'file';
      readonly file: {
        readonly uri?: string;
        readonly bytes?: string;
        readonly mimeType?: string;
        readonly name?: string;
      };
      readonly metadata?: Metadata;
    };

export interface A2aMessage {
  readonly messageId: string;
  readonly role: 'user' | 'agent';
  readonly parts: readonly Part[];
  readonly contextId?: string;
  readonly taskId?: string;
  readonly referenceTaskIds?: readonly string[];
  readonly metadata?: Metadata;
}

export interface TaskStatus {
  readonly state: TaskState;
  readonly message?: A2aMessage;
  /** ISO 8601 */
  readonly timestamp: string;
}

export interface Artifact {
  readonly artifactId: string;
  readonly name?: string;
  readonly description?: string;
  readonly parts: readonly Part[];
  readonly metadata?: Metadata;
}

export interface Task {
  readonly id: string;
  readonly contextId: string;
  readonly status: TaskStatus;
  readonly history: readonly A2aMessage[];
  readonly artifacts: readonly Artifact[];
  readonly metadata?: Metadata;
}

export interface StatusUpdate {
  readonly kind: 'status-update';
  readonly taskId: string;
  readonly contextId: string;
  readonly status: TaskStatus;
  /** the last event of the task's stream (terminal or interrupted state) */
  readonly final: boolean;
}

export interface ArtifactUpdate {
  readonly kind: 'artifact-update';
  readonly taskId: string;
  readonly contextId: string;
  readonly artifact: Artifact;
  readonly append: boolean;
  readonly lastChunk: boolean;
}

/** What a stream or a subscriber sees: the task first, then its updates. */
export type TaskEvent = { readonly kind: 'task'; readonly task: Task } | StatusUpdate | ArtifactUpdate;

/** `historyLength`: undefined keeps the whole history, 0 omits it, N keeps the N most recent. */
export function withHistory(task: Task, historyLength: number | undefined): Task {
  if (historyLength === undefined) return task;
  return { ...task, history: historyLength === 0 ? [] : task.history.slice(-historyLength) };
}
