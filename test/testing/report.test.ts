import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { E2EResult } from '../../src/testing/index.js';
import {
  assertionAccuracy,
  closingLine,
  formatReport,
  pad,
  summaryLine,
  writeResultFiles,
} from '../../src/testing/index.js';
import { bot, flowStarted, run, yaml } from './helpers.js';

const TESTS = yaml`
  test_cases:
    - test_case: greets
      steps:
        - user: hi
        - utter: utter_greet
    - test_case: asks the month
      steps:
        - user: check my bill
          assertions:
            - flow_started: understand_bill
            - bot_uttered:
                utter_name: utter_ask_bill_month
    - test_case: says goodbye
      steps:
        - user: bye
        - utter: utter_goodbye
`;

async function mixedResults(): Promise<E2EResult[]> {
  const replies = {
    hi: [bot('Hello!', 'utter_greet')],
    'check my bill': [flowStarted('understand_bill'), bot('Which month?', 'utter_ask_month')],
    bye: [bot('See you', 'utter_see_you')],
  };
  return (await run(TESTS, { replies })).results;
}

describe('e2e reports', () => {
  it('prints failures the way Rasa does, then the summary and the closing line', async () => {
    const report = formatReport(await mixedResults());
    const path = 'project/tests/cases.yml';
    expect(report.split('\n')).to.deep.equal([
      '===== FAILURES =====',
      `----- 'asks the month' in ${path}:6 failed -----`,
      `Mismatch starting at ${path}:11:`,
      "Assertion type 'bot_uttered' failed with this error message: Bot did not utter 'utter_ask_bill_month' response.",
      'Actual events transcript:',
      'ActionExecuted(action: action_session_start)',
      'SessionStarted()',
      'ActionExecuted(action: action_listen)',
      'UserUttered(text: check my bill)',
      'FlowStarted(flow: understand_bill)',
      'BotUttered(text: Which month?, utter_action: utter_ask_month)',
      'ActionExecuted(action: action_listen)',
      '',
      `----- 'says goodbye' in ${path}:13 failed -----`,
      `Mismatch starting at ${path}:16:`,
      '  user: bye',
      '- bot: utter_see_you',
      '+ bot: utter_goodbye',
      'Actual events transcript:',
      'UserUttered(text: bye)',
      'BotUttered(text: See you, utter_action: utter_see_you)',
      'ActionExecuted(action: action_listen)',
      '',
      '===== Accuracy By Assertion Type =====',
      'Assertion Type  Accuracy',
      'flow_started     100.00%',
      'bot_uttered        0.00%',
      '',
      '===== short test summary info =====',
      `FAILED ${path}::asks the month`,
      `FAILED ${path}::says goodbye`,
      '===== 2 failed, 1 passed =====',
    ]);
  });

  it('gives the closing lines: Rasa style and plain', async () => {
    const results = await mixedResults();
    expect(closingLine(results)).to.equal('===== 2 failed, 1 passed =====');
    expect(summaryLine(results)).to.equal('1 passed, 2 failed');
    expect(closingLine(results.filter((result) => result.passed))).to.equal('===== 0 failed, 1 passed =====');
  });

  it('says when no test case was found', () => {
    expect(formatReport([]).split('\n')).to.deep.equal([
      '===== short test summary info =====',
      '!!!!! no test cases found !!!!!',
      '===== 0 failed, 0 passed =====',
    ]);
  });

  it('pads banners to a terminal width when one is given', () => {
    expect(pad('FAILURES', '=', 20)).to.equal('===== FAILURES =====');
    expect(pad('FAILURES', '=', 21)).to.equal('===== FAILURES ======');
    expect(pad('a long headline', '-', 10)).to.equal('--- a long headline ---');
  });

  it('counts assertion accuracy as Rasa does: up to and including the failing assertion', async () => {
    expect(assertionAccuracy(await mixedResults())).to.deep.equal([
      { type: 'flow_started', passed: 1, failed: 0, accuracy: 1 },
      { type: 'bot_uttered', passed: 0, failed: 1, accuracy: 0 },
    ]);
  });

  it('writes the passed and failed results files in the test_results format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
    try {
      const written = await writeResultFiles(join(dir, 'out'), await mixedResults());
      expect(written).to.deep.equal([
        join(dir, 'out', 'e2e_results_passed.yml'),
        join(dir, 'out', 'e2e_results_failed.yml'),
      ]);
      const passedText = readFileSync(written[0]!, 'utf8');
      expect(passedText.startsWith('test_results:\n\n- name: greets\n')).to.equal(true);
      expect(parse(passedText)).to.deep.equal({
        test_results: [
          { name: 'greets', pass_status: true, expected_steps: [{ user: 'hi' }, { utter: 'utter_greet' }] },
        ],
      });
      const failed = parse(readFileSync(written[1]!, 'utf8')) as { test_results: Record<string, unknown>[] };
      expect(failed.test_results.map((result) => result.name)).to.deep.equal([
        'asks the month',
        'says goodbye',
      ]);
      expect(failed.test_results[0]).to.deep.include({
        pass_status: false,
        error_path: 'project/tests/cases.yml:11',
        assertion_failure: {
          assertion: {
            type: 'bot_uttered',
            utter_name: 'utter_ask_bill_month',
            text_matches: null,
            buttons: [],
            line: 11,
          },
          error_message: "Bot did not utter 'utter_ask_bill_month' response.",
          actual_events_transcript: [
            'ActionExecuted(action: action_session_start)',
            'SessionStarted()',
            'ActionExecuted(action: action_listen)',
            'UserUttered(text: check my bill)',
            'FlowStarted(flow: understand_bill)',
            'BotUttered(text: Which month?, utter_action: utter_ask_month)',
            'ActionExecuted(action: action_listen)',
          ],
        },
      });
      expect(failed.test_results[1]).to.deep.include({
        error_path: 'project/tests/cases.yml:16',
        difference: ['  user: bye', '- bot: utter_see_you', '+ bot: utter_goodbye'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
