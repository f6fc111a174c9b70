/**
 * Folding an event log into a tracker state. Ordinary events go through `applyEvent` one by one;
 * a `rewind` or `undo` re-folds, from the initial state, the events it leaves applied (Rasa replays
 * its tracker the same way). Only that re-fold looks at the history.
 */
import { AppError } from '../errors.js';
import { applyEvent } from './apply-event.js';
import { eventsWithoutReverted } from './applied-events.js';
import type { TrackerState } from './tracker-state.js';
import { createTrackerState } from './tracker-state.js';
import type { Event } from './types.js';

/** Folds a whole log: `init` must be a fresh state from `createTrackerState`. */
export function foldEvents(init: TrackerState, events: readonly Event[]): TrackerState {
  return applyEvents(init, [], events);
}

/**
 * Applies `newEvents` to `state`, which must be the fold of `priorEvents` (checked by length when a
 * `rewind`/`undo` needs the history). `priorEvents` is only read when such an event appears.
 */
export function applyEvents(
  state: TrackerState,
  priorEvents: readonly Event[],
  newEvents: readonly Event[],
): TrackerState {
  let current = state;
  newEvents.forEach((event, index) => {
    if (event.event === 'rewind' || event.event === 'undo') {
      current = refold(current, priorEvents, newEvents.slice(0, index + 1));
    } else {
      current = applyEvent(current, event);
    }
  });
  return current;
}

function refold(
  state: TrackerState,
  priorEvents: readonly Event[],
  newEvents: readonly Event[],
): TrackerState {
  const expected = state.eventCount - (newEvents.length - 1);
  if (priorEvents.length !== expected) {
    throw new AppError({
      code: 'EVENT_NEEDS_HISTORY',
      message: `the state was folded from ${expected} prior events but ${priorEvents.length} were given`,
      details: { expected, given: priorEvents.length },
    });
  }
  const log = [...priorEvents, ...newEvents];
  const fresh = createTrackerState({
    senderId: state.senderId,
    initialSlots: state.initialSlots,
    sharedSlots: state.sharedSlots,
  });
  const replayed = eventsWithoutReverted(log).reduce(applyEvent, fresh);
  const revert = newEvents[newEvents.length - 1] as Event;
  return {
    ...replayed,
    // facts about the log itself, which reverting does not change
    eventCount: log.length,
    latestEventTime: revert.timestamp,
    sessionStartIndex: state.sessionStartIndex,
    afterRestartIndex: state.afterRestartIndex,
    latestInputChannel: state.latestInputChannel,
    stackUpdateFailures: state.stackUpdateFailures,
  };
}
