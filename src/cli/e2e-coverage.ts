/**
 * `parley test e2e --coverage-report`: the conversations' events are kept as each test case ends, then
 * read for the flow steps and branches they reached (src/testing/coverage.ts), per passed and per
 * failed tests as in Rasa; the tables go to stdout and an HTML report with a diagram per flow to the
 * coverage folder.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Event } from '../core/events/types.js';
import type { FlowList } from '../core/flows/flow-list.js';
import type { ConversationDriver, DriverFactory, DriverStartOptions } from '../testing/driver.js';
import type { E2ETestCase } from '../testing/e2e-model.js';
import type { E2EResult } from '../testing/e2e-result.js';
import { CoverageRecorder } from '../testing/coverage.js';
import { flowCoverage, formatCoverageText } from '../testing/coverage-summary.js';
import { renderCoverageHtml } from '../testing/coverage-html.js';
import type { CliIo } from './io.js';

/** Passes every call through and keeps each test case's event log when its conversation closes. */
export class TranscriptKeepingFactory implements DriverFactory {
  readonly transcripts = new Map<E2ETestCase, readonly Event[]>();

  constructor(private readonly inner: DriverFactory) {}

  async start(options: DriverStartOptions): Promise<ConversationDriver> {
    const driver = await this.inner.start(options);
    const keep = (): void => void this.transcripts.set(options.testCase, [...driver.transcript()]);
    return {
      sendMessage: (input) => driver.sendMessage(input),
      setSlots: (slots) => driver.setSlots(slots),
      transcript: () => driver.transcript(),
      close: async () => {
        keep();
        await driver.close?.();
      },
    };
  }
}

export interface CoverageReportOptions {
  readonly flows: FlowList;
  readonly projectRoot: string;
  readonly outputDir: string;
  readonly results: readonly E2EResult[];
  readonly transcripts: ReadonlyMap<E2ETestCase, readonly Event[]>;
}

/**
 * Prints the coverage of the passed (and, when some failed, the failed) tests and writes the HTML;
 * false when the output folder is a file (said on stderr; the tables are printed all the same).
 */
export function reportCoverage(io: CliIo, options: CoverageReportOptions): boolean {
  const outputDir = resolve(options.outputDir);
  const writable = !existsSync(outputDir) || statSync(outputDir).isDirectory();
  if (writable) mkdirSync(outputDir, { recursive: true });
  else
    io.stderr(
      `parley: --coverage-output-path ${outputDir} is a file, not a folder: no HTML report written.\n`,
    );
  const groups: [string, string, boolean][] = [
    ['passed tests', 'coverage_report_for_passed_tests.html', true],
    ['failed tests', 'coverage_report_for_failed_tests.html', false],
  ];
  for (const [title, fileName, passed] of groups) {
    const results = options.results.filter((result) => result.passed === passed);
    if (!passed && results.length === 0) continue;
    const recorder = new CoverageRecorder(options.flows);
    for (const result of results) recorder.record(options.transcripts.get(result.testCase) ?? []);
    const rows = options.flows.flows
      .filter((flow) => !flow.isDefault)
      .map((flow) => flowCoverage(flow, recorder.reachOf(flow.id), options.projectRoot));
    io.stdout(`\n${formatCoverageText(title, rows)}`);
    if (!writable) continue;
    const path = join(outputDir, fileName);
    writeFileSync(path, renderCoverageHtml({ title, rows }));
    io.stdout(`Coverage report (${title}) written to ${path}\n`);
  }
  return writable;
}
