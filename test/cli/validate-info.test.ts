import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { writeInlineProject } from '../support/inline-project.js';
import { runCli } from './cli-harness.js';

// A free-text button payload (`yes`) works in Rasa and here: it is an info, not a warning.
const PROJECT = {
  domain: `
    slots:
      confirmed:
        type: text
    responses:
      utter_ask_confirmed:
        - text: Sure?
          buttons:
            - title: Yes
              payload: "yes"
  `,
  flows: `
    flows:
      confirm:
        description: confirm something
        steps:
          - collect: confirmed
  `,
};

describe('parley data validate with an info', function () {
  this.timeout(30_000);
  let root: string;
  before(() => (root = writeInlineProject(PROJECT)));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('prints it, exits 0 and counts it apart from warnings', async () => {
    const run = await runCli(['data', 'validate', '-p', root]);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/domain\.yml:\d+:\d+ info BUTTON_FREE_FORM_PAYLOAD /);
    expect(run.stdout.trimEnd().split('\n').at(-1)).to.equal('0 errors, 0 warnings, 1 info');
  });

  it('reports it in the JSON format with its own count', async () => {
    const run = await runCli(['data', 'validate', '-p', root, '--format', 'json']);
    expect(run.code).to.equal(0);
    const output = JSON.parse(run.stdout) as { errors: number; warnings: number; info: number };
    expect([output.errors, output.warnings, output.info]).to.deep.equal([0, 0, 1]);
  });
});
