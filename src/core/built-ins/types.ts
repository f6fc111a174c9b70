import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Event, UnstampedEvent } from '../events/types.js';
import type { ActionRequest } from '../ports.js';

/**
 * What an action does, in order: events to append; responses to utter (rendered by the runtime; an
 * `optional` one is skipped when the assistant has no such response, Rasa's `silent_fail`); and other
 * actions to run in place (resolved by the runtime, so a project's override of that action runs).
 */
export type ActionEffect =
  | { readonly kind: 'event'; readonly event: UnstampedEvent }
  | {
      readonly kind: 'utter';
      readonly response: string;
      readonly kwargs?: Readonly<Record<string, unknown>>;
      readonly optional?: boolean;
    }
  | { readonly kind: 'run'; readonly action: string };

/** What the prediction attached to the action (Rasa's action metadata, e.g. `message` for action_send_text). */
export interface BuiltInInput {
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A built-in action: pure, from the tracker state to effects. */
export type BuiltInAction = (
  state: TrackerState,
  context: EngineContext,
  input: BuiltInInput,
) => ActionEffect[];

/**
 * A built-in that reads the conversation's history (Rasa's `get_last_event_for` and friends): `history`
 * holds the events before this action's own `action` event, as Rasa's tracker does while it runs.
 */
export type HistoryBuiltInAction = (
  state: TrackerState,
  context: EngineContext,
  history: readonly Event[],
) => ActionEffect[];

export function eventEffect(event: UnstampedEvent): ActionEffect {
  return { kind: 'event', event };
}

export function utterEffect(response: string, kwargs?: Readonly<Record<string, unknown>>): ActionEffect {
  return kwargs ? { kind: 'utter', response, kwargs } : { kind: 'utter', response };
}

/** A response uttered only when the assistant defines it (Rasa's ActionBotResponse with silent_fail). */
export function optionalUtterEffect(response: string): ActionEffect {
  return { kind: 'utter', response, optional: true };
}

export function runEffect(action: string): ActionEffect {
  return { kind: 'run', action };
}

/**
 * A built-in action that needs more than the tracker (an index loaded at start-up, an LLM): supplied
 * by the composition root, run by the action runner in place of the pure built-in of the same name.
 */
export type RuntimeBuiltInAction = (request: ActionRequest) => Promise<readonly ActionEffect[]>;
