import type { SourceRef } from '../errors.js';
import type { ConditionAst } from './conditions/ast.js';

/**
 * A condition as written in YAML (`if:` of a branch, a flow guard or a rejection). Conditions that
 * contain Jinja (`slots.{{context.collect}} is not null`) are rendered against the frame context before
 * they are parsed, so only template-free conditions carry a parsed `ast` from load time.
 */
export interface Condition {
  readonly text: string;
  readonly ast: ConditionAst | undefined;
  readonly isTemplate: boolean;
  readonly source?: SourceRef;
}

/** Where a step goes next. Branch lists end in an `else` (a branch without a condition). */
export type NextLink =
  | { readonly kind: 'end' }
  | { readonly kind: 'step'; readonly target: string }
  | { readonly kind: 'branches'; readonly branches: readonly Branch[] }
  | { readonly kind: 'none' };

export interface Branch {
  /** undefined for the `else` branch */
  readonly condition: Condition | undefined;
  /** a step id, `END`, or `START` */
  readonly target: string;
  readonly source?: SourceRef;
}

export interface Rejection {
  readonly condition: Condition;
  readonly utter: string;
}

interface StepBase {
  readonly id: string;
  /** true when the author wrote `id:`; false for Rasa's generated `{flow}_{idx}_{kind}` ids */
  readonly hasCustomId: boolean;
  readonly next: NextLink;
  readonly description?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly source?: SourceRef;
}

export interface ActionStep extends StepBase {
  readonly kind: 'action';
  /** May contain Jinja over the frame context, rendered when the step runs. */
  readonly action: string;
}

export interface CollectStep extends StepBase {
  readonly kind: 'collect';
  readonly collect: string;
  readonly utter: string;
  readonly collectAction: string;
  readonly askBeforeFilling: boolean;
  readonly resetAfterFlowEnds: boolean;
  readonly rejections: readonly Rejection[];
  readonly forceSlotFilling: boolean;
}

export interface SetSlotsStep extends StepBase {
  readonly kind: 'set_slots';
  readonly slots: readonly { readonly name: string; readonly value: unknown }[];
}

export interface LinkStep extends StepBase {
  readonly kind: 'link';
  readonly link: string;
}

/** `mapping.input` of an MCP tool call: the tool's argument `param` takes the value of `slot` */
export interface ToolInput {
  readonly param: string;
  readonly slot: string;
}

/** `mapping.output`: `slot` is set to `value`, a Jinja expression over the tool's `result` */
export interface ToolOutput {
  readonly slot: string;
  readonly value: string;
}

/** A call step that calls a tool of an MCP server (`call: <tool>` with `mcp_server` and `mapping`). */
export interface ToolCall {
  readonly server: string;
  readonly input: readonly ToolInput[];
  readonly output: readonly ToolOutput[];
}

export interface CallStep extends StepBase {
  readonly kind: 'call';
  readonly call: string;
  /** what Rasa 3.14 calls besides flows: an MCP tool (`mcp_server`) or a sub-agent (`exit_if`) */
  readonly callee?: 'mcp_tool' | 'agent';
  /** the tool call when `callee` is `mcp_tool` and the mapping is whole */
  readonly tool?: ToolCall;
  /** `exit_if` conditions as written (Rasa's ReAct task agents; Parley refuses them) */
  readonly exitIf?: readonly string[];
}

export interface NoopStep extends StepBase {
  readonly kind: 'noop';
}

export type Step = ActionStep | CollectStep | SetSlotsStep | LinkStep | CallStep | NoopStep;
export type StepKind = Step['kind'];

export interface NluTrigger {
  readonly intent: string;
  readonly confidenceThreshold: number;
}

export interface Flow {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly guard: Condition | undefined;
  readonly alwaysIncludeInPrompt: boolean;
  readonly nluTriggers: readonly NluTrigger[];
  readonly persistedSlots: readonly string[];
  readonly runPatternCompleted: boolean;
  /** Every step of the flow, nested branch steps included, in Rasa's depth-first order. */
  readonly steps: readonly Step[];
  readonly firstStepId: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** true for flows that ship with the engine (default patterns) rather than the project */
  readonly isDefault: boolean;
  readonly source?: SourceRef;
}

export const START_STEP = 'START';
export const END_STEP = 'END';
export const CONTINUE_STEP_PREFIX = 'NEXT:';
export const PATTERN_PREFIX = 'pattern_';

export function isPatternId(flowId: string): boolean {
  return flowId.startsWith(PATTERN_PREFIX);
}
