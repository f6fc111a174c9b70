/**
 * Rasa's tracker JSON (`DialogueStateTracker.current_state`): what `GET /conversations/{id}/tracker`
 * returns and what the action server receives (with verbosity `ALL`).
 */
import { assertNever } from '../errors.js';
import type { Stack } from '../stack/frames.js';
import { appliedEvents } from './applied-events.js';
import { foldEvents } from './fold-events.js';
import { isPlainObject } from './json-value.js';
import type { EventParseError } from './parse-event.js';
import { parseEvents } from './parse-event.js';
import type { LatestAction, SlotValues, TrackerState } from './tracker-state.js';
import { createTrackerState } from './tracker-state.js';
import type { Event, ParseData, UserUttered } from './types.js';

/** Which events the JSON carries: all, those after the latest `restart`, the applied ones, or none. */
export type EventVerbosity = 'ALL' | 'AFTER_RESTART' | 'APPLIED' | 'NONE';

export type EmptyObject = Readonly<Record<string, never>>;

/** The latest user message's parse data with `text`, `message_id` and `metadata` filled in as Rasa does. */
export type LatestMessageJson = ParseData & {
  readonly text: string | null;
  readonly message_id: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
};

export interface TrackerJson {
  readonly sender_id: string;
  readonly slots: SlotValues;
  readonly latest_message: LatestMessageJson | null;
  readonly latest_event_time: number | null;
  readonly followup_action: string | null;
  readonly paused: boolean;
  readonly stack: Stack;
  readonly events: readonly Event[] | null;
  readonly latest_input_channel: string | null;
  readonly active_loop: { readonly name: string } | EmptyObject;
  readonly latest_action: LatestAction | EmptyObject;
  readonly latest_action_name: string | null;
}

/** `events` must be the log `state` was folded from. */
export function trackerToJson(
  state: TrackerState,
  events: readonly Event[],
  options: { readonly verbosity: EventVerbosity },
): TrackerJson {
  return {
    sender_id: state.senderId,
    slots: state.slots,
    latest_message: latestMessageJson(state.latestMessage),
    latest_event_time: state.latestEventTime ?? null,
    followup_action: state.followupAction,
    paused: state.paused,
    stack: state.stack,
    events: eventsFor(events, options.verbosity),
    latest_input_channel: state.latestInputChannel,
    active_loop: state.activeLoop === null ? {} : { name: state.activeLoop },
    latest_action: state.latestAction ?? {},
    latest_action_name: state.latestActionName ?? null,
  };
}

function latestMessageJson(message: UserUttered | undefined): LatestMessageJson | null {
  if (message === undefined) return null;
  return {
    text: message.text,
    message_id: message.message_id ?? null,
    metadata: message.metadata ?? {},
    ...message.parse_data,
  };
}

function eventsFor(events: readonly Event[], verbosity: EventVerbosity): readonly Event[] | null {
  switch (verbosity) {
    case 'ALL':
      return events;
    case 'AFTER_RESTART':
      return events.slice(indexAfterLatestRestart(events));
    case 'APPLIED':
      return appliedEvents(events);
    case 'NONE':
      return null;
    default:
      return assertNever(verbosity, 'event verbosity');
  }
}

function indexAfterLatestRestart(events: readonly Event[]): number {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    if (events[index]?.event === 'restart') return index + 1;
  }
  return 0;
}

export type TrackerFromJsonResult =
  | { readonly ok: true; readonly state: TrackerState; readonly events: Event[] }
  | { readonly ok: false; readonly errors: readonly EventParseError[] };

/**
 * The reverse of `trackerToJson`: parses the JSON's events and folds them. Gives back the same state
 * when the JSON was written with verbosity `ALL` (other verbosities leave events out).
 */
export function trackerFromJson(
  raw: unknown,
  options: {
    readonly initialSlots: SlotValues;
    readonly now: number;
    readonly sharedSlots?: readonly string[];
  },
): TrackerFromJsonResult {
  if (!isPlainObject(raw) || typeof raw.sender_id !== 'string') {
    return { ok: false, errors: [{ index: -1, error: 'a tracker needs a string "sender_id"' }] };
  }
  const parsed = parseEvents(raw.events ?? [], options.now);
  if (!parsed.ok) return parsed;
  const init = createTrackerState({
    senderId: raw.sender_id,
    initialSlots: options.initialSlots,
    ...(options.sharedSlots ? { sharedSlots: options.sharedSlots } : {}),
  });
  return { ok: true, state: foldEvents(init, parsed.events), events: parsed.events };
}
