/**
 * Rasa's `applied_events`: the events that still count after `rewind` and `undo` removed the ones
 * they revert.
 *  - `undo` (ActionReverted) removes back to and including the latest `action` event (any action,
 *    as Rasa does; the undoing action's own `action` event is logged before its events, so that is
 *    usually the one removed).
 *  - `rewind` (UserUtteranceReverted) removes back to and including the latest `user` event, then
 *    back to and including the `action` event before it (the `action_listen` that preceded it).
 *  - `restart` and `session_started` are barriers: reverting never reaches past them, and Rasa's list
 *    starts after the latest one.
 * Not reproduced: Rasa's pruning of repeated legacy form (`active_loop`) executions; CALM has no forms.
 */
import type { Event } from './types.js';

interface Replay {
  /** the surviving events of the whole log, barriers included (what re-folding the state needs) */
  readonly kept: readonly Event[];
  /** index in `kept` just after the latest barrier */
  readonly barrier: number;
}

export function appliedEvents(events: readonly Event[]): Event[] {
  const { kept, barrier } = replay(events);
  return kept.slice(barrier);
}

/**
 * Every event of the log that was not reverted, including those before the latest restart or session
 * start. Folding these gives the same state as folding the log, which is how `applyEvents` handles a
 * `rewind`/`undo` (a session start does not clear the stack, so Rasa's shorter list would not do).
 */
export function eventsWithoutReverted(events: readonly Event[]): Event[] {
  return [...replay(events).kept];
}

function replay(events: readonly Event[]): Replay {
  const kept: Event[] = [];
  let barrier = 0;
  for (const event of events) {
    if (event.event === 'undo') {
      dropThrough(kept, barrier, 'action');
    } else if (event.event === 'rewind') {
      dropThrough(kept, barrier, 'user');
      dropThrough(kept, barrier, 'action');
    } else {
      kept.push(event);
      if (event.event === 'restart' || event.event === 'session_started') barrier = kept.length;
    }
  }
  return { kept, barrier };
}

/** Pops events (not past `barrier`) until one of type `type` has been popped. */
function dropThrough(kept: Event[], barrier: number, type: Event['event']): void {
  while (kept.length > barrier) {
    const dropped = kept.pop() as Event;
    if (dropped.event === type) return;
  }
}
