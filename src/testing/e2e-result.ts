import type { E2EAssertion, E2ETestCase, E2ETestFile } from './e2e-model.js';

/** Why a test case failed. Lines are 1-based lines of the test file. */
export type E2EFailure =
  /** a test case in the step format: some bot/utter/slot lines were not met */
  | {
      readonly kind: 'steps';
      readonly line: number;
      /** what the first mismatch is about */
      readonly message: string;
      readonly mismatches: readonly { readonly line: number; readonly message: string }[];
      /** Rasa's diff: `  ` same, `- ` actual, `+ ` expected */
      readonly difference: readonly string[];
      /** the events of the turn of the first mismatch */
      readonly transcript: readonly string[];
    }
  /** a test case in the assertion format: the first assertion that failed */
  | {
      readonly kind: 'assertion';
      readonly line: number;
      readonly message: string;
      readonly assertion: E2EAssertion;
      /** the events the assertion was checked against */
      readonly transcript: readonly string[];
    }
  /** the test could not run to its end: engine error, unknown fixture or metadata, oracle mismatch */
  | {
      readonly kind: 'error';
      readonly line: number;
      readonly message: string;
      readonly transcript: readonly string[];
    };

export interface E2EResult {
  readonly file: E2ETestFile;
  readonly testCase: E2ETestCase;
  readonly passed: boolean;
  /** checked by assertions (some user step has `assertions`) rather than by bot/utter/slot lines */
  readonly usesAssertions: boolean;
  readonly failure?: E2EFailure;
}
