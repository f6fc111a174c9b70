import { expect } from 'chai';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MarkupElement } from '../support/markup.js';
import { allElements, byAttribute, classesOf, parseMarkup, textContent } from '../support/markup.js';
import { copyFixture, runCli } from './cli-harness.js';

// test/fixtures/coverage-bank: its tests send only small amounts, so `check_size->large_warning` and
// `large_warning` are never reached, and check_balance is never started.
const FLOWS_FILE = 'data/flows.yml';

function diagramOf(html: MarkupElement, flowId: string): MarkupElement {
  const svg = allElements(html).find(
    (element) => element.name === 'svg' && element.attributes['data-flow-id'] === flowId,
  );
  if (!svg) throw new Error(`no diagram of ${flowId}`);
  return svg;
}

function classesAt(svg: MarkupElement, attribute: 'data-step-id' | 'data-edge', key: string): string[] {
  const found = byAttribute(svg, attribute).get(key);
  if (found?.length !== 1 || !found[0]) throw new Error(`expected one ${attribute}=${key}`);
  return classesOf(found[0]);
}

describe('parley test e2e --coverage-report', function () {
  this.timeout(120_000);
  let fixture: ReturnType<typeof copyFixture>;
  before(() => (fixture = copyFixture('coverage-bank')));
  after(() => fixture.dispose());

  it('prints per flow the steps reached of all and lists the untested steps and branches', async () => {
    const run = await runCli(['test', 'e2e', '-p', fixture.root, '--coverage-report', '-q']);
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.split('\n');
    const start = lines.indexOf('Flow coverage (passed tests):');
    expect(start, run.stdout).to.be.greaterThan(-1);
    expect(lines.slice(start + 1, start + 8).map((line) => line.replace(/ +/g, ' '))).to.deep.equal([
      'Flow Coverage Steps Missing Branches',
      `${FLOWS_FILE}::transfer_money 83.33% 6 1 3/4`,
      `  untested steps: large_warning (${FLOWS_FILE}:16)`.replace(/ +/g, ' '),
      ' untested branches: check_size->large_warning (if slots.amount > 1000)',
      `${FLOWS_FILE}::check_balance 0.00% 1 1 0/0`,
      ` untested steps: check_balance_0_utter_balance (${FLOWS_FILE}:35)`,
      'Total: 5/7 steps (71.43%), 3/4 branches, 2 flows',
    ]);
    const report = join(fixture.root, 'e2e_coverage_results', 'coverage_report_for_passed_tests.html');
    expect(run.stdout).to.contain(`Coverage report (passed tests) written to ${report}`);
    expect(
      existsSync(join(fixture.root, 'e2e_coverage_results', 'coverage_report_for_failed_tests.html')),
    ).to.equal(false);
  });

  it('writes an HTML report whose diagrams mark the untested branch and step unreached, the rest reached', () => {
    const path = join(fixture.root, 'e2e_coverage_results', 'coverage_report_for_passed_tests.html');
    const html = parseMarkup(readFileSync(path, 'utf8'));
    const transfer = diagramOf(html, 'transfer_money');
    expect(classesAt(transfer, 'data-step-id', 'large_warning')).to.include('unreached');
    expect(classesAt(transfer, 'data-edge', 'check_size->large_warning')).to.include('unreached');
    expect(classesAt(transfer, 'data-edge', 'large_warning->ask_confirmation')).to.include('unreached');
    // check_size is a noop the engine passes without a stack event of its own: inferred from the graph
    for (const step of [
      'START',
      'transfer_money_0_collect_amount',
      'check_size',
      'ask_confirmation',
      'send',
      'cancelled',
      'END',
    ])
      expect(classesAt(transfer, 'data-step-id', step), step).to.include('reached');
    for (const edge of [
      'check_size->ask_confirmation',
      'ask_confirmation->send',
      'ask_confirmation->cancelled',
      'send->END',
      'cancelled->END',
    ])
      expect(classesAt(transfer, 'data-edge', edge), edge).to.include('reached');
    const balance = diagramOf(html, 'check_balance');
    expect(classesAt(balance, 'data-step-id', 'check_balance_0_utter_balance')).to.include('unreached');
    const rows = allElements(html).filter(
      (element) => element.name === 'tr' && element.attributes['data-flow-id'],
    );
    expect(rows.map((row) => row.attributes['data-flow-id'])).to.deep.equal([
      'transfer_money',
      'check_balance',
    ]);
    expect(textContent(rows[0] as MarkupElement))
      .to.contain('83.33%')
      .and.contain('check_size->large_warning');
    expect(allElements(html).some((element) => ['script', 'link', 'img'].includes(element.name))).to.equal(
      false,
    );
  });

  it('reports failed tests apart, into the folder --coverage-output-path names', async () => {
    writeFileSync(
      join(fixture.root, 'tests', 'large.yml'),
      [
        'test_cases:',
        '  - test_case: large transfer expected to be sent at once',
        '    steps:',
        '      - user: /transfer',
        '      - utter: utter_ask_amount',
        '      - user: /SetSlots(amount=5000)',
        '      - utter: utter_transfer_done',
        '',
      ].join('\n'),
    );
    const out = join(fixture.root, 'elsewhere', 'coverage');
    const run = await runCli([
      'test',
      'e2e',
      '-p',
      fixture.root,
      '--coverage-report',
      '--coverage-output-path',
      out,
      '-q',
    ]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.contain('Flow coverage (failed tests):');
    const failed = parseMarkup(readFileSync(join(out, 'coverage_report_for_failed_tests.html'), 'utf8'));
    const transfer = diagramOf(failed, 'transfer_money');
    expect(classesAt(transfer, 'data-step-id', 'large_warning')).to.include('reached');
    expect(classesAt(transfer, 'data-edge', 'check_size->large_warning')).to.include('reached');
    expect(classesAt(transfer, 'data-step-id', 'send')).to.include('unreached');
    const passed = parseMarkup(readFileSync(join(out, 'coverage_report_for_passed_tests.html'), 'utf8'));
    expect(classesAt(diagramOf(passed, 'transfer_money'), 'data-step-id', 'large_warning')).to.include(
      'unreached',
    );
  });

  it('says so and exits 1 when --coverage-output-path is a file, after printing the tables', async () => {
    const file = join(fixture.root, 'a-file');
    writeFileSync(file, 'not a folder');
    const run = await runCli([
      'test',
      'e2e',
      join(fixture.root, 'tests', 'transfers.yml'),
      '-p',
      fixture.root,
      '--coverage-report',
      '--coverage-output-path',
      file,
      '-q',
    ]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.contain('Flow coverage (passed tests):');
    expect(run.stderr).to.contain(
      `parley: --coverage-output-path ${file} is a file, not a folder: no HTML report written.`,
    );
  });
});
