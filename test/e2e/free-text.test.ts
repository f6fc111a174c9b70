import { expect } from 'chai';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { executeTestE2E } from '../../src/cli/run-test-e2e.js';
import type { TestE2EOutcome } from '../../src/cli/run-test-e2e.js';
import type { CliIo } from '../../src/cli/io.js';

/** Conversations in plain language: understood by the trained offline NLU, without a command oracle. */
const TEST_FOLDER = 'tests/free_text';
const MINIMUM_TEST_CASES = 15;

const SILENT_IO: CliIo = { stdout() {}, stderr() {}, setExitCode() {} };

describe('the bundled Parley Bank assistant in free text (offline NLU, no oracle)', () => {
  let outcome: TestE2EOutcome;

  before(async function () {
    // training the intent classifier and the entity tagger takes a few seconds
    this.timeout(120_000);
    outcome = await executeTestE2E(SILENT_IO, {
      location: { project: '.' },
      projectRoot: process.cwd(),
      paths: [TEST_FOLDER],
      failFast: false,
      deterministicOnly: false,
      quiet: true,
      logger: SILENT_LOGGER,
    });
  });

  it(`passes every e2e conversation in ${TEST_FOLDER} (at least ${MINIMUM_TEST_CASES})`, () => {
    const failing = outcome.results
      .filter((result) => !result.passed)
      .map((result) => `${result.file.path}::${result.testCase.name}: ${result.failure?.message ?? ''}`);
    expect(failing, `failing test cases:\n${failing.join('\n')}`).to.deep.equal([]);
    expect(outcome.results.length, 'test cases run').to.be.at.least(MINIMUM_TEST_CASES);
    expect(outcome.exitCode).to.equal(0);
  });
});
