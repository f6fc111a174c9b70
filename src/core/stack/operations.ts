import type { Frame, PatternFrame, Stack, UserFlowFrame, UserFrameType } from './frames.js';
import { isUserFrame } from './frames.js';
import { mergedCopy, shallowCopy } from '../events/json-value.js';

export function topFrame(stack: Stack): Frame | undefined {
  return stack[stack.length - 1];
}

export function push(stack: Stack, frame: Frame): Stack {
  return [...stack, frame];
}

export function pop(stack: Stack): Stack {
  return stack.slice(0, -1);
}

/** Inserts a frame just below the top frame (how `link` schedules the linked flow). */
export function pushBelowTop(stack: Stack, frame: Frame): Stack {
  if (stack.length === 0) return [frame];
  return [...stack.slice(0, -1), frame, stack[stack.length - 1] as Frame];
}

export function replaceAt(stack: Stack, index: number, frame: Frame): Stack {
  return stack.map((existing, position) => (position === index ? frame : existing));
}

export function withStepId<F extends Frame>(frame: F, stepId: string): F {
  const moved: { step_id: string } = shallowCopy(frame);
  moved.step_id = stepId;
  return moved as F;
}

/** The index of the topmost user flow frame; call frames are skipped unless asked for (Rasa's default). */
export function topUserFrameIndex(stack: Stack, options: { includeCallFrames?: boolean } = {}): number {
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const frame = stack[index] as Frame;
    if (!isUserFrame(frame)) continue;
    if (frame.frame_type === 'call' && !options.includeCallFrames) continue;
    return index;
  }
  return -1;
}

export function topUserFrame(
  stack: Stack,
  options: { includeCallFrames?: boolean } = {},
): UserFlowFrame | undefined {
  const index = topUserFrameIndex(stack, options);
  return index === -1 ? undefined : (stack[index] as UserFlowFrame);
}

/** The topmost frame of a given pattern, if that pattern is on the stack. */
export function findPattern(stack: Stack, patternId: string): PatternFrame | undefined {
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const frame = stack[index] as Frame;
    if (frame.type === patternId) return frame as PatternFrame;
  }
  return undefined;
}

export function userFrame(options: {
  frameId: string;
  flowId: string;
  frameType: UserFrameType;
  stepId?: string;
}): UserFlowFrame {
  return {
    frame_id: options.frameId,
    flow_id: options.flowId,
    step_id: options.stepId ?? 'START',
    frame_type: options.frameType,
    type: 'flow',
  };
}

export function patternFrame(options: {
  frameId: string;
  patternId: string;
  context?: Readonly<Record<string, unknown>>;
}): PatternFrame {
  // the context's fields first, as `{ ...context, frame_id, ... }` writes them
  const frame: Record<string, unknown> = options.context ? shallowCopy(options.context) : {};
  frame.frame_id = options.frameId;
  frame.flow_id = options.patternId;
  frame.step_id = 'START';
  frame.type = options.patternId;
  return frame as unknown as PatternFrame;
}

/**
 * Moves the frames of a flow to the top (Rasa's move_frames_to_top): the other frames keep their order;
 * then every regular user frame becomes an interrupt, and the bottom-most user frame becomes regular.
 */
export function moveFramesToTop(stack: Stack, frameIds: ReadonlySet<string>): Stack {
  const moved = stack.filter((frame) => frameIds.has(frame.frame_id));
  const rest = stack.filter((frame) => !frameIds.has(frame.frame_id));
  const reordered = [...rest, ...moved].map((frame) =>
    isUserFrame(frame) && frame.frame_type === 'regular'
      ? { ...frame, frame_type: 'interrupt' as const }
      : frame,
  );
  const firstUser = reordered.findIndex((frame) => isUserFrame(frame) && frame.frame_type === 'interrupt');
  return firstUser === -1
    ? reordered
    : reordered.map((frame, index) =>
        index === firstUser ? { ...frame, frame_type: 'regular' as const } : frame,
      );
}

/** The frame as the `context` of templates and conditions: its serialised fields. */
export function frameContext(frame: Frame | undefined): Readonly<Record<string, unknown>> {
  return frame ? (shallowCopy(frame) as Readonly<Record<string, unknown>>) : {};
}

/** One field of a frame's context (`context.collect`, `context.canceled_frames`, ...). */
export function contextValue(frame: Frame | undefined, key: string): unknown {
  return frame ? (frame as unknown as Readonly<Record<string, unknown>>)[key] : undefined;
}

/**
 * The `context` templates and responses see: the top frame's fields, and for a collect pattern also the
 * fields of the frame below it (Rasa's CollectInformation frame context), so a question asked on behalf
 * of another pattern can use that pattern's context (`{{context.interrupted_flow_options}}`).
 */
export function currentContext(stack: Stack): Readonly<Record<string, unknown>> {
  const top = topFrame(stack);
  if (!top) return {};
  const below = stack[stack.length - 2];
  return top.type === 'pattern_collect_information' && below
    ? mergedCopy(below, top)
    : (top as Readonly<Record<string, unknown>>);
}
