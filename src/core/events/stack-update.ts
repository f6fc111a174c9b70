/**
 * The dialogue stack lives in the event log as `stack` events whose `update` is a JSON Patch (as a
 * string) against the previous stack (spec §7.1). These functions write and read such updates.
 */
import { AppError } from '../errors.js';
import type { Frame, Stack } from '../stack/frames.js';
import type { JsonPatchOperation } from './patch-operation.js';
import { applyPatch, diffPatch } from './json-patch.js';
import { isPlainObject } from './json-value.js';
import { parsePatchText } from './parse-patch.js';
import type { DialogueStackUpdated, UnstampedEvent } from './types.js';

export type UnstampedStackUpdate = Extract<UnstampedEvent, { event: 'stack' }>;

export type StackUpdateResult =
  | { readonly ok: true; readonly stack: Stack }
  | { readonly ok: false; readonly stack: Stack; readonly error: string };

const USER_FRAME_TYPES = new Set(['regular', 'interrupt', 'link', 'call']);

/**
 * The update written last, with the stack it produced. The engine applies every update it writes right
 * away, so remembering this one pair skips re-parsing and re-applying its own patch (a pure memo: the
 * same stack object and update text always give the same result).
 */
let lastWritten: { readonly before: Stack; readonly update: string; readonly after: Stack } | undefined;

/** Frames keep their position → per-field `replace`s; otherwise removes/adds at the end. */
export function stackPatch(before: Stack, after: Stack): JsonPatchOperation[] {
  return diffPatch(before, after, { identityKey: 'frame_id' });
}

/** The `stack` event that turns `before` into `after`, or undefined when nothing changed. */
export function stackUpdateEvent(
  before: Stack,
  after: Stack,
  timestamp: number,
): DialogueStackUpdated | undefined;
export function stackUpdateEvent(before: Stack, after: Stack): UnstampedStackUpdate | undefined;
export function stackUpdateEvent(
  before: Stack,
  after: Stack,
  timestamp?: number,
): DialogueStackUpdated | UnstampedStackUpdate | undefined {
  const patch = stackPatch(before, after);
  if (patch.length === 0) return undefined;
  const update = JSON.stringify(patch);
  lastWritten = { before, update, after };
  return timestamp === undefined ? { event: 'stack', update } : { event: 'stack', update, timestamp };
}

/**
 * Applies a `stack` event's update. Tolerant: an update that is not a valid patch, does not apply, or
 * yields something that is not a stack leaves the stack unchanged and says why.
 */
export function applyStackUpdate(stack: Stack, update: string): StackUpdateResult {
  if (lastWritten && lastWritten.before === stack && lastWritten.update === update) {
    return { ok: true, stack: lastWritten.after };
  }
  try {
    const patched = applyPatch(stack, parsePatchText(update));
    const problem = stackProblem(patched);
    if (problem !== undefined) return { ok: false, stack, error: problem };
    return { ok: true, stack: patched as Stack };
  } catch (error) {
    if (error instanceof AppError && error.code === 'JSON_PATCH_INVALID') {
      return { ok: false, stack, error: error.message };
    }
    throw error;
  }
}

function stackProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'the patched stack is not a list';
  for (const [index, frame] of value.entries()) {
    const problem = frameProblem(frame);
    if (problem !== undefined) return `stack frame ${index} ${problem}`;
  }
  return undefined;
}

function frameProblem(frame: unknown): string | undefined {
  if (!isPlainObject(frame)) return 'is not an object';
  for (const key of ['frame_id', 'flow_id', 'step_id', 'type'] satisfies (keyof Frame)[]) {
    if (typeof frame[key] !== 'string') return `has no string "${key}"`;
  }
  const type = frame.type as string;
  if (type === 'flow') {
    return USER_FRAME_TYPES.has(String(frame.frame_type)) ? undefined : 'has an unknown "frame_type"';
  }
  return type.startsWith('pattern_') ? undefined : `has an unknown type "${type}"`;
}
