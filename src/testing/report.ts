import { ASSERTION_TYPES } from './e2e-model.js';
import type { E2EAssertionType } from './e2e-model.js';
import type { E2EResult } from './e2e-result.js';

export interface ReportOptions {
  /** terminal width for Rasa-style banners; without it banners get five padding characters a side */
  readonly width?: number;
}

export interface AssertionAccuracy {
  readonly type: E2EAssertionType;
  readonly passed: number;
  readonly failed: number;
  /** passed / (passed + failed) */
  readonly accuracy: number;
}

/**
 * The console report of a run, after Rasa's: the failures (diff or failed assertion, then the events),
 * the accuracy per assertion type, the short summary and the closing line.
 */
export function formatReport(results: readonly E2EResult[], options: ReportOptions = {}): string {
  const { width } = options;
  const failed = results.filter((result) => !result.passed);
  const lines: string[] = [];
  if (failed.length > 0) {
    lines.push(pad('FAILURES', '=', width));
    for (const result of failed) lines.push(...formatFailure(result, options), '');
  }
  const accuracy = assertionAccuracy(results);
  if (accuracy.length > 0) {
    lines.push(pad('Accuracy By Assertion Type', '=', width), ...accuracyTable(accuracy), '');
  }
  lines.push(pad('short test summary info', '=', width));
  lines.push(...failed.map((result) => `FAILED ${result.file.path}::${result.testCase.name}`));
  if (results.length === 0) lines.push(pad('no test cases found', '!', width));
  lines.push(closingLine(results));
  return lines.join('\n');
}

/** The details of one failed test case. */
export function formatFailure(result: E2EResult, options: ReportOptions = {}): string[] {
  const { failure, file, testCase } = result;
  const lines = [pad(`'${testCase.name}' in ${file.path}:${testCase.line} failed`, '-', options.width)];
  if (!failure) return lines;
  lines.push(`Mismatch starting at ${file.path}:${failure.line}:`);
  switch (failure.kind) {
    case 'steps':
      lines.push(...failure.difference);
      break;
    case 'assertion':
      lines.push(
        `Assertion type '${failure.assertion.type}' failed with this error message: ${failure.message}`,
      );
      break;
    case 'error':
      lines.push(`Error: ${failure.message}`);
      break;
  }
  if (failure.transcript.length > 0) lines.push('Actual events transcript:', ...failure.transcript);
  return lines;
}

/** `===== 2 failed, 28 passed =====` */
export function closingLine(results: readonly E2EResult[]): string {
  const { passed, failed } = counts(results);
  return `===== ${failed} failed, ${passed} passed =====`;
}

/** `28 passed, 2 failed`, for per-project summaries. */
export function summaryLine(results: readonly E2EResult[]): string {
  const { passed, failed } = counts(results);
  return `${passed} passed, ${failed} failed`;
}

function counts(results: readonly E2EResult[]): { passed: number; failed: number } {
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed };
}

/**
 * Per assertion type, how many assertions held, as Rasa counts them: every assertion of a passed test case;
 * in a failed one, those before the failing assertion and the failing one; test cases that failed for
 * another reason are left out.
 */
export function assertionAccuracy(results: readonly E2EResult[]): AssertionAccuracy[] {
  const tally = new Map<E2EAssertionType, { passed: number; failed: number }>();
  const count = (type: E2EAssertionType, passed: boolean): void => {
    const entry = tally.get(type) ?? { passed: 0, failed: 0 };
    if (passed) entry.passed++;
    else entry.failed++;
    tally.set(type, entry);
  };
  for (const result of results) {
    if (!result.usesAssertions || (result.failure && result.failure.kind !== 'assertion')) continue;
    const failing = result.failure?.kind === 'assertion' ? result.failure.assertion : undefined;
    const assertions = result.testCase.steps.flatMap((step) =>
      step.kind === 'user' ? (step.assertions ?? []) : [],
    );
    for (const assertion of assertions) {
      count(assertion.type, assertion !== failing);
      if (assertion === failing) break;
    }
  }
  return ASSERTION_TYPES.flatMap((type) => {
    const entry = tally.get(type);
    return entry ? [{ type, ...entry, accuracy: entry.passed / (entry.passed + entry.failed) }] : [];
  });
}

function accuracyTable(rows: readonly AssertionAccuracy[]): string[] {
  const header = 'Assertion Type';
  const width = Math.max(header.length, ...rows.map((row) => row.type.length));
  return [
    `${header.padEnd(width)}  Accuracy`,
    ...rows.map((row) => `${row.type.padEnd(width)}  ${(row.accuracy * 100).toFixed(2).padStart(7)}%`),
  ];
}

/** `===== text =====`; with a width, padded to it as Rasa pads to the terminal. */
export function pad(text: string, char = '=', width?: number): string {
  if (width === undefined) return `${char.repeat(5)} ${text} ${char.repeat(5)}`;
  const padding = Math.max(width - 2 - text.length, 6);
  return `${char.repeat(Math.floor(padding / 2))} ${text} ${char.repeat(Math.ceil(padding / 2))}`;
}
