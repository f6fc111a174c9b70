/**
 * A tracker snapshot as plain JSON and back, for stores that keep snapshots outside the process.
 *
 * A snapshot is only a cache of the fold of the first `eventCount` events, so reading is forgiving in
 * one direction only: anything this build did not write (another format, an older version, a field
 * missing or of the wrong kind) reads as `undefined`, and the store then replays the events instead.
 * The field table below is keyed by every TrackerState field, so a new field does not compile until
 * it has a codec here; a snapshot written before the field existed lacks it and is ignored.
 */
import type { Stack } from '../stack/frames.js';
import type { TrackerSnapshot } from '../ports.js';
import { hasOwn, isPlainObject } from './json-value.js';
import type {
  FlowSlotRecord,
  LatestAction,
  SlotValues,
  StackUpdateFailure,
  TrackerState,
} from './tracker-state.js';
import type { BotUttered, UserUttered } from './types.js';

export const SNAPSHOT_FORMAT = 'parley.tracker-snapshot';
/**
 * Bump when `applyEvent` derives a field differently (not only when a field is added): snapshots of
 * other versions are then ignored, and the next turn of each conversation rebuilds one from its events.
 */
export const SNAPSHOT_VERSION = 3;

export interface SnapshotJson {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: number;
  readonly eventCount: number;
  readonly state: Readonly<Record<string, unknown>>;
}

const INVALID = Symbol('invalid');
type Read<T> = T | typeof INVALID;

interface Codec<T> {
  write(value: T): unknown;
  read(json: unknown): Read<T>;
}

function plain<T>(accepts: (json: unknown) => boolean): Codec<T> {
  // the value is JSON already; `accepts` checks its outer shape (deeper parts come from our own writer)
  return { write: (value) => value, read: (json) => (accepts(json) ? (json as T) : INVALID) };
}

/** `undefined` has no JSON form: it is written as null (fields using this never hold null themselves). */
function optional<T>(inner: Codec<T>): Codec<T | undefined> {
  return {
    write: (value) => (value === undefined ? null : inner.write(value)),
    read: (json) => (json === null ? undefined : inner.read(json)),
  };
}

function nullable<T>(inner: Codec<T>): Codec<T | null> {
  return {
    write: (value) => (value === null ? null : inner.write(value)),
    read: (json) => (json === null ? null : inner.read(json)),
  };
}

const isString = (json: unknown): boolean => typeof json === 'string';
const isCount = (json: unknown): boolean => Number.isInteger(json) && (json as number) >= 0;

const string = plain<string>(isString);
const count = plain<number>(isCount);
const number = plain<number>((json) => typeof json === 'number' && Number.isFinite(json));
const boolean = plain<boolean>((json) => typeof json === 'boolean');
const record = plain<SlotValues>(isPlainObject);
const names = plain<readonly string[]>((json) => Array.isArray(json) && json.every(isString));
const stringRecord = plain<Readonly<Record<string, string>>>(
  (json) => isPlainObject(json) && Object.values(json).every(isString),
);
const stack = plain<Stack>((json) => Array.isArray(json) && json.every(isPlainObject));
const userEvent = plain<UserUttered>((json) => isPlainObject(json) && json['event'] === 'user');
const latestAction = plain<LatestAction>(isPlainObject);
const botEvents = plain<readonly BotUttered[]>(
  (json) => Array.isArray(json) && json.every((item) => isPlainObject(item) && item['event'] === 'bot'),
);
const messages = plain<TrackerState['recentMessages']>(
  (json) =>
    Array.isArray(json) &&
    json.every(
      (item) =>
        isPlainObject(item) &&
        (item['event'] === 'user' || (item['event'] === 'bot' && Array.isArray(item['buttons']))),
    ),
);
const failures = plain<readonly StackUpdateFailure[]>(
  (json) => Array.isArray(json) && json.every(isPlainObject),
);

/** A Map as its entries, in insertion order (which the map's iteration order depends on). */
const stackHistory: Codec<ReadonlyMap<string, Stack>> = {
  write: (value) => [...value.entries()],
  read: (json) => {
    if (!Array.isArray(json)) return INVALID;
    const entries: [string, Stack][] = [];
    for (const entry of json as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 2) return INVALID;
      const [key, value] = entry as [unknown, unknown];
      const frames = stack.read(value);
      if (typeof key !== 'string' || frames === INVALID) return INVALID;
      entries.push([key, frames]);
    }
    return new Map(entries);
  },
};

const FIELDS: { readonly [K in keyof TrackerState]-?: Codec<TrackerState[K]> } = {
  senderId: string,
  initialSlots: record,
  sharedSlots: names,
  slots: record,
  slotFilledBy: stringRecord,
  stack,
  stackHistory,
  latestMessage: optional(userEvent),
  latestAction: optional(latestAction),
  latestActionName: optional(string),
  followupAction: nullable(string),
  paused: boolean,
  activeLoop: nullable(string),
  latestInputChannel: nullable(string),
  latestEventTime: optional(number),
  eventCount: count,
  sessionStartIndex: count,
  afterRestartIndex: count,
  lastBotTurn: botEvents,
  previousBotTurn: botEvents,
  recentMessages: messages,
  stackUpdateFailures: failures,
  flowSlots: plain<FlowSlotRecord>(
    (json) =>
      isPlainObject(json) &&
      Array.isArray(json['sinceUserMessage']) &&
      isPlainObject(json['running']) &&
      (json['lastCompleted'] === null || isPlainObject(json['lastCompleted'])),
  ),
};

const FIELD_NAMES = Object.keys(FIELDS) as (keyof TrackerState)[];

export function snapshotToJson(snapshot: TrackerSnapshot): SnapshotJson {
  const state: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) {
    const codec = FIELDS[name] as Codec<unknown>;
    state[name] = codec.write(snapshot.state[name]);
  }
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, eventCount: snapshot.eventCount, state };
}

/** The snapshot, or undefined when `json` is not a snapshot this build wrote (replay the events then). */
export function snapshotFromJson(json: unknown): TrackerSnapshot | undefined {
  if (!isPlainObject(json) || json['format'] !== SNAPSHOT_FORMAT || json['version'] !== SNAPSHOT_VERSION)
    return undefined;
  const { eventCount, state: rawState } = json;
  if (!isCount(eventCount) || !isPlainObject(rawState)) return undefined;
  if (Object.keys(rawState).length !== FIELD_NAMES.length) return undefined;
  const state: Record<string, unknown> = {};
  for (const name of FIELD_NAMES) {
    if (!hasOwn(rawState, name)) return undefined;
    const value = (FIELDS[name] as Codec<unknown>).read(rawState[name]);
    if (value === INVALID) return undefined;
    state[name] = value;
  }
  const restored = state as unknown as TrackerState;
  if (restored.eventCount !== eventCount) return undefined;
  return { eventCount: eventCount as number, state: restored };
}
