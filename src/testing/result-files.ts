import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { E2EAssertion } from './e2e-model.js';
import type { E2EResult } from './e2e-result.js';

export const PASSED_RESULTS_FILE = 'e2e_results_passed.yml';
export const FAILED_RESULTS_FILE = 'e2e_results_failed.yml';

/**
 * Writes `e2e_results_passed.yml` and/or `e2e_results_failed.yml` (only those with results) in Rasa's
 * `test_results:` format; resolves to the paths written.
 */
export async function writeResultFiles(dir: string, results: readonly E2EResult[]): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, passed] of [
    [PASSED_RESULTS_FILE, true],
    [FAILED_RESULTS_FILE, false],
  ] as const) {
    const selected = results.filter((result) => result.passed === passed);
    if (selected.length === 0) continue;
    const path = join(dir, name);
    await writeFile(path, formatResultFile(selected), 'utf8');
    written.push(path);
  }
  return written;
}

/** The YAML text of a results file; like Rasa's, a blank line separates the test results. */
export function formatResultFile(results: readonly E2EResult[]): string {
  const text = stringify({ test_results: results.map(resultRecord) }, { indentSeq: false, lineWidth: 0 });
  return text.replace(/^- name:/gm, '\n- name:');
}

/** One entry of `test_results`. */
export function resultRecord(result: E2EResult): Record<string, unknown> {
  const { failure } = result;
  const record: Record<string, unknown> = {
    name: result.testCase.name,
    pass_status: result.passed,
    expected_steps: result.testCase.steps.map((step) => step.raw),
  };
  if (!failure) return record;
  record.error_path = `${result.file.path}:${failure.line}`;
  switch (failure.kind) {
    case 'steps':
      record.difference = failure.difference;
      break;
    case 'assertion':
      record.assertion_failure = {
        assertion: assertionRecord(failure.assertion),
        error_message: failure.message,
        actual_events_transcript: failure.transcript,
      };
      break;
    case 'error':
      record.error = failure.message;
      break;
  }
  return record;
}

/** An assertion with the field names Rasa writes. */
export function assertionRecord(assertion: E2EAssertion): Record<string, unknown> {
  const fields = ((): Record<string, unknown> => {
    switch (assertion.type) {
      case 'flow_started':
        return {
          flow_id: assertion.flowId ?? null,
          operator: assertion.operator ?? null,
          flow_ids: assertion.flowIds,
        };
      case 'flow_completed':
      case 'flow_cancelled':
        return { flow_id: assertion.flowId, flow_step_id: assertion.flowStepId ?? null };
      case 'pattern_clarification_contains':
        return {
          flow_names: assertion.flowNames,
          operator: assertion.operator ?? null,
          flow_ids: assertion.flowIds,
        };
      case 'action_executed':
        return { action_name: assertion.actionName };
      case 'slot_was_set':
      case 'slot_was_not_set':
        return {
          slots: assertion.slots.map((slot) => ({
            name: slot.name,
            value: slot.hasValue ? slot.value : 'value key is undefined',
            line: slot.line,
          })),
        };
      case 'bot_uttered':
      case 'bot_did_not_utter':
        return {
          utter_name: assertion.utterName ?? null,
          text_matches: assertion.textMatches ?? null,
          buttons: assertion.buttons.map((button) => ({
            title: button.title,
            payload: button.payload ?? null,
          })),
        };
      case 'generative_response_is_relevant':
      case 'generative_response_is_grounded':
        return {
          threshold: assertion.threshold,
          utter_name: assertion.utterName ?? null,
          utter_source: assertion.utterSource ?? null,
          ...(assertion.type === 'generative_response_is_grounded'
            ? { ground_truth: assertion.groundTruth ?? null }
            : {}),
        };
    }
  })();
  return { type: assertion.type, ...fields, line: assertion.line };
}
