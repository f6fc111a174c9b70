/**
 * Rasa's coexistence routers decide, once per routing session, whether CALM or the NLU-based system
 * answers. Their config (`calm_entry`, `nlu_entry`) is read here, with every problem reported at once.
 */
import type { Command } from '../../core/commands/types.js';
import type { EngineContext } from '../../core/engine-context.js';
import type { TrackerState } from '../../core/events/tracker-state.js';
import type { ClassifiedMessage } from './nlu-adapter.js';

/** The router's commands (a SetSlot of the routing slot, or none), and whether it issued Rasa's Noop. */
export interface RouteDecision {
  readonly commands: readonly Command[];
  readonly noop: boolean;
}

export interface RouterInput {
  readonly text: string;
  readonly state: TrackerState;
  readonly engine: EngineContext;
  readonly message: ClassifiedMessage;
}

export interface CoexistenceRouter {
  readonly name: 'IntentBasedRouter' | 'LLMBasedRouter';
  route(input: RouterInput): Promise<RouteDecision>;
}

export const TO_CALM: RouteDecision = { commands: [], noop: false };
export const NLU_THIS_TURN: RouteDecision = { commands: [], noop: true };

export { intentEntries, llmEntries, ROUTER_NAMES } from '../../core/coexistence-config.js';
export type { EntryConfig, EntryResult } from '../../core/coexistence-config.js';
