import { shallowCopy } from './json-value.js';
import type { Event, UnstampedEvent } from './types.js';

/**
 * A copy of the event with `timestamp` set to `now` unless it has one, its keys in the order
 * `{ ...event, timestamp }` gives them. Not a spread: at a site that sees every kind of event, V8
 * takes its slow copy path (about three times as long on Node 20; see shallowCopy).
 */
export function stampEvent(event: UnstampedEvent | Event, now: number): Event {
  const stamped: { timestamp?: number } = shallowCopy(event);
  stamped.timestamp = event.timestamp ?? now;
  return stamped as Event;
}
