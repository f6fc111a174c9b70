import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { UnstampedEvent } from '../events/types.js';
import type { ActionRequest } from '../ports.js';

/** What an action does: events to append, and responses to utter (rendered by the runtime), in order. */
export type ActionEffect =
  | { readonly kind: 'event'; readonly event: UnstampedEvent }
  | {
      readonly kind: 'utter';
      readonly response: string;
      readonly kwargs?: Readonly<Record<string, unknown>>;
    };

/** A built-in action: pure, from the tracker state to effects. */
export type BuiltInAction = (state: TrackerState, context: EngineContext) => ActionEffect[];

export function eventEffect(event: UnstampedEvent): ActionEffect {
  return { kind: 'event', event };
}

export function utterEffect(response: string, kwargs?: Readonly<Record<string, unknown>>): ActionEffect {
  return kwargs ? { kind: 'utter', response, kwargs } : { kind: 'utter', response };
}

/**
 * A built-in action that needs more than the tracker (an index loaded at start-up, an LLM): supplied
 * by the composition root, run by the action runner in place of the pure built-in of the same name.
 */
export type RuntimeBuiltInAction = (request: ActionRequest) => Promise<readonly ActionEffect[]>;
