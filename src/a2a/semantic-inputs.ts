/** What the A2A semantic handler is built with and the params and results of its calls. */
import type { CommandGenerator } from '../core/ports.js';
import type { Agent } from '../runtime/agent.js';
import type { Logger } from '../runtime/logger.js';
import type { A2aByteLimits } from './config.js';
import type { A2aMessage, Task } from './tasks/model.js';
import type { TaskSignals } from './tasks/task-signals.js';
import type { TaskStore } from './tasks/task-store.js';
import type { TurnAdmission } from './turn-admission.js';

export interface SemanticSettings {
  readonly includeConversationRepair: boolean;
  /** 0: never */
  readonly taskTimeoutSeconds: number;
  readonly messageCacheTtlSeconds: number;
  /** 0: no cap */
  readonly maxContexts: number;
  /** Rasa's mapping: the contextId is the conversation's sender id as it is */
  readonly contextIdAsSenderId?: boolean;
  readonly limits?: Partial<A2aByteLimits>;
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
  /** where tasks, contexts, replay entries and push configs live (memory, or SQL shared by processes) */
  readonly store: TaskStore;
  /** this process, as its context claims name it (a random id by default) */
  readonly holder?: string;
  /** how long a context claim holds without renewal (DEFAULT_CLAIM_LEASE_MS) */
  readonly claimLeaseMs?: number;
  /** what the processes sharing the store tell each other (none: one process) */
  readonly signals?: TaskSignals;
  /** how often the store is swept for overdue tasks (DEFAULT_SWEEP_INTERVAL_MS) */
  readonly sweepIntervalMs?: number;
}

export interface SendParams {
  readonly message: A2aMessage;
  /** the calling agent (caller.ts) */
  readonly caller: string;
  /** the HTTP request that carried the message: its turn's log lines carry the request's id */
  readonly request?: object;
  /** told the task's id once the message is accepted, before its task is announced or its turn runs */
  readonly beforeRun?: (taskId: string) => void | Promise<void>;
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
  readonly caller: string;
  readonly contextId?: string;
  readonly state?: Task['status']['state'];
  readonly pageSize: number;
  readonly pageToken?: string;
  readonly historyLength?: number;
  readonly statusAfter?: number;
  readonly includeArtifacts: boolean;
}
