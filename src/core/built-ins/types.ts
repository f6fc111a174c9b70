import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { UnstampedEvent } from '../events/types.js';

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
