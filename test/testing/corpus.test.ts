import { expect } from 'chai';
import { relative } from 'node:path';
import { loadProject } from '../../src/project/load-project.js';
import type { E2ETestFile } from '../../src/testing/index.js';
import { normaliseTestPath, parseE2ESections, readOracleFile, runE2E } from '../../src/testing/index.js';
import { ScriptedDriverFactory } from './helpers.js';
import { corpusRoot, describeWithCorpus } from '../support/corpus.js';

const CORPUS = `${corpusRoot()}/`;
const PROJECTS = {
  'starterpack-retail-banking-en': { cases: 30, deterministic: 26 },
  'starterpack-telco-en': { cases: 7, deterministic: 6 },
  'starterpack-insurance-en': { cases: 8, deterministic: 7 },
  'rasa-quickstart': { cases: 8, deterministic: 8 },
};

function corpusFiles(project: string): { root: string; files: E2ETestFile[] } {
  const root = `${CORPUS}${project}`;
  const { project: loaded } = loadProject({ project: root });
  return { root, files: parseE2ESections(loaded.tests) };
}

describeWithCorpus('e2e test files of the third-party corpus', () => {
  for (const [project, expected] of Object.entries(PROJECTS)) {
    it(`parses every e2e file of ${project} (${expected.cases} test cases) without a problem`, () => {
      const { files } = corpusFiles(project);
      expect(files.flatMap((file) => file.problems)).to.deep.equal([]);
      expect(files.flatMap((file) => file.testCases)).to.have.length(expected.cases);
      for (const testCase of files.flatMap((file) => file.testCases)) {
        expect(testCase.steps.length, testCase.name).to.be.greaterThan(0);
        expect(testCase.line).to.be.greaterThan(0);
      }
    });

    it(`resolves every entry of the ${project} oracle to a test case and its user turns`, () => {
      const { root, files } = corpusFiles(project);
      const oracle = readOracleFile(`${CORPUS}oracles/${project}.commands.yml`);
      expect(oracle.project).to.equal(project);
      expect(oracle.entries).to.have.length(expected.cases);
      expect(oracle.entries.filter((entry) => entry.deterministicWithOracle)).to.have.length(
        expected.deterministic,
      );
      for (const entry of oracle.entries) {
        const file = files.find(
          (candidate) => normaliseTestPath(relative(root, candidate.path)) === entry.file,
        );
        const testCase = file?.testCases.find((candidate) => candidate.name === entry.testCase);
        expect(testCase, `${entry.file}::${entry.testCase}`).to.not.equal(undefined);
        const userTexts = (testCase?.steps ?? []).flatMap((step) =>
          step.kind === 'user' ? [step.text] : [],
        );
        expect(entry.turns.map((turn) => turn.user.trim())).to.deep.equal(userTexts);
        for (const turn of entry.turns) {
          if ('payload' in turn) expect(turn.user.startsWith('/')).to.equal(true);
        }
      }
    });
  }

  it('reads the telco assertions, fixtures and button lists as written', () => {
    const { files } = corpusFiles('starterpack-telco-en');
    const billing = files.find((file) => file.path.endsWith('billing_test_cases.yml'));
    expect(billing?.fixtures.get('customer_information')).to.deep.equal({ customer_id: '124' });
    const happy = billing?.testCases[0];
    expect(happy?.fixtures).to.deep.equal(['customer_information']);
    const second = happy?.steps[1];
    expect(second?.kind === 'user' && second.assertions?.map((assertion) => assertion.type)).to.deep.equal([
      'slot_was_set',
      'action_executed',
      'bot_uttered',
    ]);
    const uttered = second?.kind === 'user' ? second.assertions?.[2] : undefined;
    expect(uttered).to.deep.include({
      type: 'bot_uttered',
      utterName: 'utter_ask_breakdown_cost',
      buttons: [
        { title: 'Yes, please', payload: '/SetSlots(breakdown_cost=True)' },
        { title: 'No, all good', payload: '/SetSlots(breakdown_cost=False)' },
      ],
    });
    expect(uttered?.line).to.equal(22);
  });

  it('runs the quickstart oracle turns through a driver with the oracle commands', async () => {
    const { root, files } = corpusFiles('rasa-quickstart');
    const oracle = readOracleFile(`${CORPUS}oracles/rasa-quickstart.commands.yml`);
    const factory = new ScriptedDriverFactory({});
    const results = await runE2E({ files, driverFactory: factory, oracle, projectRoot: root });
    expect(results).to.have.length(8);
    const sent = factory.drivers.flatMap((driver) => driver.messages);
    expect(sent.every((message) => message.commands !== undefined)).to.equal(true);
    expect(sent[0]?.commands).to.deep.equal([{ command: 'start flow', flow: 'add_contact' }]);
  });
});
