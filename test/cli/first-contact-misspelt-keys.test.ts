import { expect } from 'chai';
import type { Diagnostic } from '../../src/core/errors.js';
import { rmSync } from 'node:fs';
import { writeInlineProject } from '../support/inline-project.js';
import { runCli } from './cli-harness.js';

const FIXTURE = 'test/fixtures/first-contact/misspelt-keys';

/** Each misspelt key of the fixture: where it is, the one code it gets and the key it stands for. */
const MISSPELT = [
  { file: 'config.yml', line: 2, code: 'CONFIG_IGNORED_KEY', key: 'languge', meant: 'language' },
  { file: 'domain.yml', line: 2, code: 'DOMAIN_IGNORED_KEY', key: 'respones', meant: 'responses' },
  { file: 'domain.yml', line: 10, code: 'DOMAIN_IGNORED_KEY', key: 'mapings', meant: 'mappings' },
  // not also "maps from the undeclared entity"
  { file: 'domain.yml', line: 16, code: 'DOMAIN_IGNORED_KEY', key: 'entitty', meant: 'entity' },
  // not also RESPONSE_EMPTY, nor a second "unknown property" warning
  { file: 'domain.yml', line: 23, code: 'DOMAIN_SCHEMA', key: 'txt', meant: 'text' },
  {
    file: 'endpoints.yml',
    line: 1,
    code: 'ENDPOINTS_IGNORED_KEY',
    key: 'action_endpoit',
    meant: 'action_endpoint',
  },
  // an open section (extra keys go to the implementation): only a near miss of a key it reads is said
  { file: 'endpoints.yml', line: 4, code: 'ENDPOINTS_KEY_MISSPELT', key: 'tpye', meant: 'type' },
  {
    file: 'endpoints.yml',
    line: 7,
    code: 'A2A_DESCRIPTION_MISSING',
    key: 'descripton',
    meant: 'description',
  },
  // not also FLOW_MISSING_DESCRIPTION
  { file: 'data/flows.yml', line: 3, code: 'FLOWS_SCHEMA', key: 'descripton', meant: 'description' },
  // not also "unknown property 'stesp'"
  { file: 'data/flows.yml', line: 4, code: 'FLOW_EMPTY', key: 'stesp', meant: 'steps' },
  { file: 'data/flows.yml', line: 9, code: 'FLOWS_SCHEMA', key: 'colect', meant: 'collect' },
  { file: 'data/flows.yml', line: 13, code: 'FLOWS_SCHEMA', key: 'thn', meant: 'then' },
] as const;

describe('parley data validate on misspelt keys', function () {
  this.timeout(30_000);
  let diagnostics: readonly Diagnostic[];
  let code: number;
  before(async () => {
    const run = await runCli(['data', 'validate', '-p', FIXTURE, '--format', 'json']);
    code = run.code;
    diagnostics = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  });

  for (const typo of MISSPELT) {
    it(`says '${typo.key}' in ${typo.file} once, as ${typo.code} with "did you mean '${typo.meant}'?"`, () => {
      const here = diagnostics.filter(
        (item) => item.file === `${FIXTURE}/${typo.file}` && item.line === typo.line,
      );
      expect(here.map((item) => item.code)).to.deep.equal([typo.code]);
      expect(`${here[0]?.message} ${here[0]?.hint}`).to.contain(`'${typo.key}'`);
      expect(here[0]?.hint).to.contain(`did you mean '${typo.meant}'?`);
    });
  }

  it('says nothing else: no follow-on errors of the missing keys', () => {
    expect(diagnostics.map((item) => `${item.file}:${item.line} ${item.code}`)).to.have.lengthOf(
      MISSPELT.length,
    );
  });

  it('fails on the keys a place requires (steps, a branch, a response text), not on ignored ones', () => {
    expect(code).to.equal(1);
    const errors = diagnostics.filter((item) => item.severity === 'error').map((item) => item.code);
    expect(errors).to.have.members([
      'FLOWS_SCHEMA',
      'FLOW_EMPTY',
      'FLOWS_SCHEMA',
      'FLOWS_SCHEMA',
      'DOMAIN_SCHEMA',
      'A2A_DESCRIPTION_MISSING',
    ]);
  });
});

describe('parley data validate on a misspelt domain section the flows use', function () {
  this.timeout(30_000);
  let root: string;
  before(() => {
    root = writeInlineProject({
      domain: `
        version: "3.1"
        slots:
          name:
            type: text
        respones:
          utter_ask_name:
            - text: What is your name?
          utter_greet:
            - text: Hello, {name}!
      `,
      flows: `
        flows:
          greet:
            description: Greet the user by name.
            steps:
              - collect: name
              - action: utter_greet
      `,
    });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('is one error at the key, not one at every response the flows use', async () => {
    const run = await runCli(['data', 'validate', '-p', root, '--format', 'json']);
    expect(run.code).to.equal(1);
    const diagnostics = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
    expect(diagnostics.map((item) => [item.code, item.line])).to.deep.equal([['DOMAIN_KEY_MISSPELT', 5]]);
    expect(diagnostics[0]?.message).to.contain("'respones'");
    expect(diagnostics[0]?.hint).to.equal("did you mean 'responses'?");
  });

  it('stays a warning when nothing uses the section', async () => {
    const unused = writeInlineProject({
      domain: 'version: "3.1"\nrespones:\n  utter_hi:\n    - text: Hi!\n',
      flows: 'flows:\n  hi:\n    description: Says hi.\n    steps:\n      - action: action_listen\n',
    });
    try {
      const run = await runCli(['data', 'validate', '-p', unused, '--format', 'json']);
      expect(run.code).to.equal(0);
      const codes = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics.map((d) => d.code);
      expect(codes).to.deep.equal(['DOMAIN_IGNORED_KEY']);
    } finally {
      rmSync(unused, { recursive: true, force: true });
    }
  });
});

describe('parley data validate on a flow name two mappings of a slot share', function () {
  this.timeout(30_000);

  it('names the unknown flow once for the slot, not once per mapping', async () => {
    const root = writeInlineProject({
      domain: `
        version: "3.1"
        intents: [affirm, deny]
        slots:
          confirmed:
            type: bool
            mappings:
              - type: from_intent
                intent: affirm
                value: true
                conditions:
                  - active_flow: tranfser_money
              - type: from_intent
                intent: deny
                value: false
                conditions:
                  - active_flow: tranfser_money
      `,
      flows: 'flows:\n  hi:\n    description: Says hi.\n    steps:\n      - action: action_listen\n',
    });
    try {
      const run = await runCli(['data', 'validate', '-p', root, '--format', 'json']);
      const codes = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics.map((d) => d.code);
      expect(codes).to.deep.equal(['SLOT_MAPPING_UNKNOWN_FLOW']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
