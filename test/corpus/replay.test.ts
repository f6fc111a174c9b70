import { expect } from 'chai';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { resolve } from 'node:path';
import { executeTestE2E } from '../../src/cli/run-test-e2e.js';
import { CORPUS_PROJECTS, corpusPath } from './projects.js';
import { describeWithCorpus } from '../support/corpus.js';

/**
 * Cases the oracle marks deterministic that still fail, each with the reason (see the issue notes):
 * - card_blocking no3: the oracle corrects `card` (an ask_before_filling slot) to null; by Rasa's
 *   are_all_slots_reset_only rule that is a reset-only correction, which does not utter
 *   utter_corrected_previous_input, yet the test expects it (twice). We keep Rasa's rule.
 */
const KNOWN_FAILURES = new Set(['starterpack-retail-banking-en::card_blocking - Happy paths no3']);

const silent = { stdout: () => undefined, stderr: () => undefined, setExitCode: () => undefined };

describeWithCorpus('corpus e2e replays with the command oracles and stub actions', function () {
  this.timeout(120_000);
  for (const project of CORPUS_PROJECTS) {
    it(`${project.name}: every deterministic case passes`, async () => {
      const root = corpusPath(project.name);
      const outcome = await executeTestE2E(silent, {
        location: { project: root },
        projectRoot: resolve(root),
        paths: [],
        oracle: corpusPath(`oracles/${project.name}.commands.yml`),
        actions: `test/corpus/actions/${project.name}.ts`,
        ...(project.rasaVersion ? { rasaVersion: project.rasaVersion } : {}),
        failFast: false,
        deterministicOnly: true,
        quiet: true,
        logger: SILENT_LOGGER,
      });
      const failed = outcome.results
        .filter((result) => !result.passed)
        .map((result) => `${project.name}::${result.testCase.name}`)
        .filter((name) => !KNOWN_FAILURES.has(name));
      expect(outcome.results.length).to.be.greaterThan(0);
      expect(failed).to.deep.equal([]);
    });
  }
});
