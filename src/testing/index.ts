export type {
  ActionExecutedAssertion,
  BotStep,
  BotUtteranceAssertion,
  E2EAssertion,
  E2EAssertionType,
  E2EParseProblem,
  E2EStep,
  E2ETestCase,
  E2ETestFile,
  ExpectedButton,
  FlowEndAssertion,
  FlowIdsOperator,
  FlowStartedAssertion,
  GenerativeAssertion,
  PatternClarificationAssertion,
  SlotAssertion,
  SlotExpectation,
  SlotStep,
  SlotValues,
  StubbedAction,
  UserStep,
  UtterStep,
} from './e2e-model.js';
export { ASSERTION_TYPES, usesAssertions } from './e2e-model.js';
export type { E2EFailure, E2EResult } from './e2e-result.js';
export { parseE2ESections, parseE2ETestFile } from './parse-e2e.js';
export type { E2ESourceText } from './parse-e2e.js';
export { checkAssertion } from './assertions.js';
export type { AssertionOutcome } from './assertions.js';
export { resolveStubs } from './driver.js';
export type {
  ConversationDriver,
  DriverFactory,
  DriverMessage,
  DriverStartOptions,
  StubActions,
} from './driver.js';
export { CommandOracle, normaliseTestPath, parseOracle, readOracleFile } from './oracle.js';
export type { OracleTestEntry, OracleTurn } from './oracle.js';
export { parseFilter, runE2E, selectTestCases } from './run-e2e.js';
export type { RunE2EOptions, SelectedTestCase } from './run-e2e.js';
export { describeCommand, describeEvent, transcriptLines } from './event-lines.js';
export { assertionAccuracy, closingLine, formatFailure, formatReport, pad, summaryLine } from './report.js';
export type { AssertionAccuracy, ReportOptions } from './report.js';
export {
  assertionRecord,
  FAILED_RESULTS_FILE,
  formatResultFile,
  PASSED_RESULTS_FILE,
  resultRecord,
  writeResultFiles,
} from './result-files.js';
export { pyEquals, pyRepr, pyStr, pyTypeName } from './python-values.js';
