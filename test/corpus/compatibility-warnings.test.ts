/**
 * What `parley data validate` says each corpus project uses that Parley does not run: the rephraser of
 * five of them and one custom command-generator prompt, each said once (not once per response marked
 * `rephrase: true`), and nothing about the supported CALM parts they all use.
 */
import { expect } from 'chai';
import type { DiagnosticCode } from '../../src/core/diagnostic-codes.js';
import { validateProject } from '../../src/project/validate/index.js';
import { describeWithCorpus } from '../support/corpus.js';
import { corpusPath } from './projects.js';

const NOT_RUN: readonly DiagnosticCode[] = [
  'CONFIG_COMPONENT_REPLACED',
  'CONFIG_COMPONENT_IGNORED',
  'CONFIG_COMPONENT_UNKNOWN',
  'CONFIG_COMPONENT_UNSUPPORTED',
  'CONFIG_CUSTOM_PROMPT',
  'NLG_REPHRASER_NOT_RUN',
  'ENV_VAR_QUOTED',
];

const EXPECTED: Readonly<Record<string, readonly DiagnosticCode[]>> = {
  'rasa-quickstart': [],
  'starterpack-retail-banking-en': ['NLG_REPHRASER_NOT_RUN'],
  'starterpack-telco-en': ['NLG_REPHRASER_NOT_RUN'],
  'starterpack-insurance-en': ['NLG_REPHRASER_NOT_RUN'],
  'lakera-agent-security': ['CONFIG_CUSTOM_PROMPT', 'NLG_REPHRASER_NOT_RUN'],
  'calm-summit-masterclass': ['NLG_REPHRASER_NOT_RUN'],
};

describeWithCorpus('what each corpus project uses that Parley does not run', function () {
  this.timeout(60_000);

  for (const [name, expected] of Object.entries(EXPECTED))
    it(`${name}: ${expected.length === 0 ? 'nothing' : `${expected.join(', ')}, once each`}`, () => {
      const { diagnostics } = validateProject({ project: corpusPath(name) });
      const said = diagnostics.filter((item) => NOT_RUN.includes(item.code));
      expect(said.map((item) => item.code).sort()).to.deep.equal([...expected].sort());
      for (const item of said) expect(item.severity).to.equal('warning');
    });
});
