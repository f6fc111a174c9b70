import type { Prediction } from '../core/executor/advance.js';
import type { UnstampedEvent } from '../core/events/types.js';

/**
 * How the turn loop writes an `action` event. Built by assignment, not with conditional spreads
 * (`...(x ? { x } : {})`), which took about 2 % of bench/turn.js's time in V8's slow copy path.
 */

/** Who predicted an action (and Rasa's `hide_rule_turn` for the NLU policies). */
export interface PredictedBy {
  readonly policy: string;
  readonly confidence: number;
  readonly hide_rule_turn?: boolean;
}

/** The flow and step that asked for the action, as the `action` event's metadata. */
export function predictionMetadata(prediction: Prediction): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (prediction.activeFlow) metadata.active_flow = prediction.activeFlow;
  if (prediction.stepId) metadata.step_id = prediction.stepId;
  return metadata;
}

/** `{ event: 'action', name, ...predicted, metadata }`, without an empty metadata. */
export function actionEvent(
  name: string,
  predicted: PredictedBy,
  metadata: Readonly<Record<string, unknown>>,
): UnstampedEvent {
  const event: Record<string, unknown> = { event: 'action', name };
  Object.assign(event, predicted);
  if (hasKeys(metadata)) event.metadata = metadata;
  return event as unknown as UnstampedEvent;
}

export function hasKeys(object: Readonly<Record<string, unknown>>): boolean {
  for (const _key in object) return true;
  return false;
}
