import { parseEvent } from '../../core/events/parse-event.js';
import type { Event } from '../../core/events/types.js';

/** Rasa's `SetSlotExtractor.CUSTOM`: the `filled_by` of slots set by a custom action. */
export const FILLED_BY_CUSTOM = 'CUSTOM';

/**
 * One message a custom action asked the bot to send (rasa-sdk `dispatcher.utter_message`), as the
 * server sent it. `response` (legacy: `template`) names a domain response to render with the other
 * keys as template variables; every key beyond the known ones is such a variable.
 */
export interface ActionResponse {
  readonly text?: string | null;
  readonly response?: string | null;
  readonly template?: string | null;
  readonly buttons?: readonly unknown[] | null;
  readonly image?: string | null;
  readonly custom?: unknown;
  readonly attachment?: unknown;
  readonly elements?: unknown;
  readonly quick_replies?: unknown;
  readonly json_message?: unknown;
  readonly [key: string]: unknown;
}

export interface ActionServerResult {
  /** validated and stamped; SlotSet events carry `filled_by` */
  readonly events: Event[];
  readonly responses: ActionResponse[];
}

/** The name of the domain response an action response asks for (`response`, or legacy `template`). */
export function responseName(response: ActionResponse): string | undefined {
  const name = response.response ?? response.template;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** An empty body or JSON `null` is "no events" (rasa-sdk answers `null` when `next_action` is missing). */
export function decodeBody(text: string): Checked<unknown> {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'the body is not valid JSON' };
  }
}

/** Checks a decoded 2xx body against Rasa's action response schema and parses its events. */
export function validateResult(body: unknown, now: number): Checked<ActionServerResult> {
  if (body === null) return { ok: true, value: { events: [], responses: [] } };
  if (!isRecord(body)) return { ok: false, error: 'the body must be a JSON object' };
  const rawEvents = body['events'] ?? [];
  const rawResponses = body['responses'] ?? [];
  if (!Array.isArray(rawEvents)) return { ok: false, error: "'events' must be a list" };
  if (!Array.isArray(rawResponses)) return { ok: false, error: "'responses' must be a list" };
  const events: Event[] = [];
  for (const [index, raw] of rawEvents.entries()) {
    const parsed = parseEvent(raw, now);
    if (!parsed.ok) return { ok: false, error: `events[${index}] is not a valid event: ${parsed.error}` };
    events.push(withFilledBy(parsed.event));
  }
  const responses: ActionResponse[] = [];
  for (const [index, raw] of rawResponses.entries()) {
    if (!isRecord(raw)) return { ok: false, error: `responses[${index}] must be an object` };
    responses.push(raw);
  }
  return { ok: true, value: { events, responses } };
}

/** Rasa's RemoteAction marks slots set by a custom action: `filled_by: "CUSTOM"` unless already set. */
function withFilledBy(event: Event): Event {
  if (event.event !== 'slot') return event;
  const filledBy: unknown = (event as { readonly filled_by?: unknown }).filled_by;
  if (filledBy !== undefined && filledBy !== null) return event;
  return Object.assign({}, event, { filled_by: FILLED_BY_CUSTOM });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
