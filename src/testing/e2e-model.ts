/**
 * End-to-end test files (`rasa test e2e`) as typed values. Lines are 1-based positions in the test file,
 * kept so that failures point at the step or assertion that failed, as Rasa does.
 */

export type SlotValues = Readonly<Record<string, unknown>>;

/** What a stubbed custom action returns instead of calling the action server. */
export interface StubbedAction {
  readonly events: readonly unknown[];
  readonly responses: readonly unknown[];
}

export interface E2EParseProblem {
  readonly line: number;
  readonly message: string;
}

export interface E2ETestFile {
  /** the path as it was read (shown in reports) */
  readonly path: string;
  /** named slot presets: `fixtures: [{premium: [{tier: gold}]}]` */
  readonly fixtures: ReadonlyMap<string, SlotValues>;
  /** named user-message metadata */
  readonly metadata: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** key = action name, or `<test_case>::<action>` for one test case */
  readonly stubCustomActions: ReadonlyMap<string, StubbedAction>;
  readonly testCases: readonly E2ETestCase[];
  /** parts of the file that could not be read; a test case with a problem is left out */
  readonly problems: readonly E2EParseProblem[];
}

export interface E2ETestCase {
  readonly name: string;
  readonly line: number;
  readonly fixtures: readonly string[];
  readonly metadata?: string;
  readonly steps: readonly E2EStep[];
}

interface StepBase {
  readonly line: number;
  /** the step as written, for result files */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface UserStep extends StepBase {
  readonly kind: 'user';
  /** stripped of surrounding whitespace, as Rasa does */
  readonly text: string;
  readonly metadata?: string;
  /** present (possibly empty) when the step uses the assertion format */
  readonly assertions?: readonly E2EAssertion[];
  readonly assertionOrderEnabled: boolean;
}

export interface BotStep extends StepBase {
  readonly kind: 'bot';
  readonly text: string;
}

export interface UtterStep extends StepBase {
  readonly kind: 'utter';
  readonly name: string;
}

export interface SlotStep extends StepBase {
  readonly kind: 'slot_was_set' | 'slot_was_not_set';
  readonly slots: readonly SlotExpectation[];
}

export type E2EStep = UserStep | BotStep | UtterStep | SlotStep;

/** A slot named in a step or assertion; without `value` any value matches. */
export interface SlotExpectation {
  readonly name: string;
  readonly line: number;
  readonly hasValue: boolean;
  readonly value?: unknown;
}

export type FlowIdsOperator = 'any' | 'all';

interface AssertionBase {
  readonly line: number;
}

export interface FlowStartedAssertion extends AssertionBase {
  readonly type: 'flow_started';
  /** the deprecated single-id form `flow_started: <id>` */
  readonly flowId?: string;
  readonly operator?: FlowIdsOperator;
  readonly flowIds: readonly string[];
}

export interface FlowEndAssertion extends AssertionBase {
  readonly type: 'flow_completed' | 'flow_cancelled';
  readonly flowId: string;
  readonly flowStepId?: string;
}

export interface PatternClarificationAssertion extends AssertionBase {
  readonly type: 'pattern_clarification_contains';
  /** the deprecated list form: the flow names offered, compared as a set */
  readonly flowNames: readonly string[];
  readonly operator?: FlowIdsOperator;
  readonly flowIds: readonly string[];
}

export interface ActionExecutedAssertion extends AssertionBase {
  readonly type: 'action_executed';
  readonly actionName: string;
}

export interface SlotAssertion extends AssertionBase {
  readonly type: 'slot_was_set' | 'slot_was_not_set';
  readonly slots: readonly SlotExpectation[];
}

export interface ExpectedButton {
  readonly title: string;
  readonly payload?: string;
}

export interface BotUtteranceAssertion extends AssertionBase {
  readonly type: 'bot_uttered' | 'bot_did_not_utter';
  readonly utterName?: string;
  /** a regular expression searched in the bot's text */
  readonly textMatches?: string;
  readonly buttons: readonly ExpectedButton[];
}

/** Judged by an LLM in Rasa; kept so that reports name them, reported as needing a judge. */
export interface GenerativeAssertion extends AssertionBase {
  readonly type: 'generative_response_is_relevant' | 'generative_response_is_grounded';
  readonly threshold: number;
  readonly utterName?: string;
  readonly utterSource?: string;
  readonly groundTruth?: string;
}

export type E2EAssertion =
  | FlowStartedAssertion
  | FlowEndAssertion
  | PatternClarificationAssertion
  | ActionExecutedAssertion
  | SlotAssertion
  | BotUtteranceAssertion
  | GenerativeAssertion;

export type E2EAssertionType = E2EAssertion['type'];

/** Rasa's order, used for the accuracy table. */
export const ASSERTION_TYPES: readonly E2EAssertionType[] = [
  'flow_started',
  'flow_completed',
  'flow_cancelled',
  'pattern_clarification_contains',
  'action_executed',
  'slot_was_set',
  'slot_was_not_set',
  'bot_uttered',
  'bot_did_not_utter',
  'generative_response_is_relevant',
  'generative_response_is_grounded',
];

/** A test case is checked by its assertions when any user step has an `assertions` key (Rasa's rule). */
export function usesAssertions(testCase: E2ETestCase): boolean {
  return testCase.steps.some((step) => step.kind === 'user' && step.assertions !== undefined);
}
