import type { RequestHandler } from 'express';
import type { InputChannel } from '../../channels/channel.js';
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { EntityValue } from '../../core/events/types.js';
import type { Agent } from '../../runtime/agent.js';
import type { Logger } from '../../runtime/logger.js';
import type { ApiAuth } from '../auth.js';

/**
 * What an intent with entities means as commands in a conversation's state (Rasa's NLU command
 * adapter: the flow whose nlu_trigger names the intent, slots filled by NLU mappings). The CLI passes
 * understanding's `commandsFromNlu`; the server may not import understanding itself.
 */
export type IntentCommands = (
  nlu: { readonly intent: string; readonly entities: readonly EntityValue[] },
  engine: EngineContext,
  state: TrackerState,
) => Command[];

/** The model a server runs, for `GET /status` (Rasa's `model_file` and `model_id`). */
export interface ModelInfo {
  readonly file: string | null;
  readonly id: string | null;
}

export interface HttpApiOptions {
  readonly agent: Agent;
  readonly auth: ApiAuth;
  readonly logger: Logger;
  readonly intentCommands: IntentCommands;
  /** the domain as Rasa's `Domain.as_dict()` writes it (`GET /domain`) */
  readonly domainJson: Readonly<Record<string, unknown>>;
  /** channels whose output `output_channel` may name (callback, socket.io) */
  readonly channels?: readonly InputChannel[];
  readonly model?: ModelInfo;
  /** Parley's own fields added to `GET /status` (understanding, stores, ...) */
  readonly status?: Readonly<Record<string, unknown>>;
  /**
   * Runs the turns the API drives (trigger_intent) through the server's turn gate: counted in flight
   * for a graceful shutdown and in the metrics, refused once the server is shutting down.
   */
  readonly turns?: TurnTracker;
}

export interface TurnTracker {
  /** `request`: the HTTP request that carried the turn (its log lines then carry the request's id) */
  track<T>(channel: string, conversationId: string, turn: () => Promise<T>, request?: object): Promise<T>;
}

/** What every route group receives: the options and the auth guard built from them. */
export interface ApiContext extends HttpApiOptions {
  readonly guard: RequestHandler;
  readonly channels: readonly InputChannel[];
}
