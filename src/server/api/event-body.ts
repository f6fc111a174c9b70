import { isPlainObject } from '../../core/events/json-value.js';
import { parseEvents } from '../../core/events/parse-event.js';
import type { UnstampedEvent } from '../../core/events/types.js';
import { ApiError } from './api-error.js';

/**
 * Events posted to the HTTP API: one event object or a list, each validated; every problem is reported
 * at once with its index. Events sent without a timestamp stay unstamped, so the agent stamps them after
 * any session start it adds (Rasa reads them "after tracker initialization" for the same reason).
 */
export function eventsFromBody(body: unknown): UnstampedEvent[] {
  const list: unknown[] = Array.isArray(body) ? body : [body];
  const parsed = parseEvents(list, 0);
  if (!parsed.ok) {
    const problems = parsed.errors.map((problem) => `event ${problem.index}: ${problem.error}`).join('; ');
    throw new ApiError({
      status: 400,
      reason: 'BadRequest',
      message: `Failed to validate the events format. Error: ${problems}`,
      details: { parameter: '', in: 'body', errors: parsed.errors },
    });
  }
  return parsed.events.map((event, index) => {
    const raw = list[index];
    const stamped = isPlainObject(raw) && raw['timestamp'] !== undefined && raw['timestamp'] !== null;
    if (stamped) return event;
    const { timestamp: _unstamped, ...rest } = event;
    return rest as UnstampedEvent;
  });
}
