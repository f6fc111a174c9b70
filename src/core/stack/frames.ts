/**
 * Dialogue stack frames in Rasa's serialised form (the `stack` of the tracker JSON). A pattern frame's
 * `type` is its pattern id and its extra fields are what `context.*` exposes to templates and conditions.
 */

export type UserFrameType = 'regular' | 'interrupt' | 'link' | 'call';

interface FrameBase {
  readonly frame_id: string;
  readonly flow_id: string;
  readonly step_id: string;
}

export interface UserFlowFrame extends FrameBase {
  readonly type: 'flow';
  readonly frame_type: UserFrameType;
}

export interface PatternFrame extends FrameBase {
  readonly type: `pattern_${string}`;
  readonly [context: string]: unknown;
}

export type Frame = UserFlowFrame | PatternFrame;

export type Stack = readonly Frame[];

export function isUserFrame(frame: Frame): frame is UserFlowFrame {
  return frame.type === 'flow';
}

export function isPatternFrame(frame: Frame): frame is PatternFrame {
  return frame.type !== 'flow';
}
