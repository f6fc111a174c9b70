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

/** Rasa's `agent_stack_frame`: a sub-agent holds the conversation for the call step `step_id` of `flow_id`. */
export interface AgentFrame extends FrameBase {
  readonly type: 'agent';
  readonly agent_id: string;
  readonly state: AgentFrameState;
  readonly metadata: AgentFrameMetadata;
}

export type AgentFrameState = 'waiting_for_input' | 'interrupted';

/** What the conversation with the sub-agent needs between turns; kept in the tracker, so any replica can go on. */
export interface AgentFrameMetadata {
  /** the A2A context and task the sub-agent opened (absent until its first answer) */
  readonly context_id?: string;
  readonly task_id?: string;
  /** the sub-agent's latest answer */
  readonly agent_response?: string;
  /** `message_id` of the user message the sub-agent answered last ('' for none); absent before the first call */
  readonly answered_message_id?: string;
}

export type Frame = UserFlowFrame | PatternFrame | AgentFrame;

export type Stack = readonly Frame[];

export function isUserFrame(frame: Frame): frame is UserFlowFrame {
  return frame.type === 'flow';
}

export function isPatternFrame(frame: Frame): frame is PatternFrame {
  return frame.type !== 'flow' && frame.type !== 'agent';
}

export function isAgentFrame(frame: Frame | undefined): frame is AgentFrame {
  return frame?.type === 'agent';
}
