import type { Domain } from './domain/types.js';
import type { FlowList } from './flows/flow-list.js';

/** Behaviours that changed between Rasa versions; the project picks them in config.yml. */
export interface EngineOptions {
  /** 3.7-3.13 resumed an interrupted flow at once (with utter_flow_continue_interrupted); newer ones ask. */
  readonly resumeInterruptedFlowsAtOnce: boolean;
  /** the step budget of one prediction loop; exceeding it raises pattern_internal_error */
  readonly maxStepsPerPrediction: number;
  /** with an IntentlessPolicy, chitchat is answered by action_trigger_chitchat instead of cannot-handle */
  readonly hasIntentlessPolicy: boolean;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  resumeInterruptedFlowsAtOnce: false,
  maxStepsPerPrediction: 250,
  hasIntentlessPolicy: false,
};

/**
 * Everything the pure core needs from outside: the assistant, the clock and an id source. Passing
 * them in makes a turn replay exactly.
 */
export interface EngineContext {
  readonly flows: FlowList;
  readonly domain: Domain;
  /** seconds since the epoch, for event timestamps */
  readonly now: number;
  /** a fresh 8-character frame id */
  readonly newFrameId: () => string;
  readonly options: EngineOptions;
}
