/** Events and the tracker: the event union, the reducer, JSON Patch for the stack, parsing and tracker JSON. */
export type * from './types.js';
export type { JsonPatchOperation, DiffOptions } from './json-patch.js';
export { applyPatch, diffPatch, valueAt } from './json-patch.js';
export { parsePatch, parsePatchText } from './parse-patch.js';
export { parsePointer, formatPointer, escapeToken } from './json-pointer.js';
export { jsonEqual } from './json-value.js';
export type { StackUpdateResult, UnstampedStackUpdate } from './stack-update.js';
export { stackPatch, stackUpdateEvent, applyStackUpdate } from './stack-update.js';
export type {
  TrackerState,
  CreateTrackerStateOptions,
  LatestAction,
  SlotValues,
  StackUpdateFailure,
} from './tracker-state.js';
export { createTrackerState, stackHistoryKey, latestStackAt } from './tracker-state.js';
export { applyEvent } from './apply-event.js';
export { appliedEvents, eventsWithoutReverted } from './applied-events.js';
export { applyEvents, foldEvents } from './fold-events.js';
export type { ParseEventResult, ParseEventsResult, EventParseError } from './parse-event.js';
export { parseEvent, parseEvents, isEventType } from './parse-event.js';
export type {
  EventVerbosity,
  TrackerJson,
  LatestMessageJson,
  EmptyObject,
  TrackerFromJsonResult,
} from './tracker-json.js';
export { trackerToJson, trackerFromJson } from './tracker-json.js';
