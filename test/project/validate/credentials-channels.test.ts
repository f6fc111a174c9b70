import { expect } from 'chai';
import { join } from 'node:path';
import { BUILT_IN_CHANNELS } from '../../../src/channels/built-ins.js';
import { SHIPPED_CHANNEL_NAMES } from '../../../src/core/channel-names.js';
import type { Diagnostic } from '../../../src/core/errors.js';
import { validateProject } from '../../../src/project/validate/index.js';
import { runCli } from '../../cli/cli-harness.js';
import { writeInlineProject } from '../../support/inline-project.js';
import type { InlineProjectFiles } from '../../support/inline-project.js';

// `parley data validate` loads the validator with import() (the CLI loads its commands lazily). Under mocha
// that is a second, ES module, instance of the validator and of all it imports, apart from the one this
// file's imports load. Loading it before any test runs lets Stryker count its module-level code as load
// time, rather than as coverage of the test below (which made every such mutant of src/core a survivor).
before(async () => {
  await import('../../../src/project/validate/index.js');
});

const DOMAIN = 'responses:\n  utter_hi:\n    - text: hi\n';
const FLOWS = 'flows:\n  greet:\n    description: say hi\n    steps:\n      - action: utter_hi\n';

function project(files: Partial<InlineProjectFiles>): string {
  return writeInlineProject({ domain: DOMAIN, flows: FLOWS, ...files });
}

function unknownChannels(root: string): Diagnostic[] {
  return validateProject({ project: root }).diagnostics.filter(
    (item) => item.code === 'CREDENTIALS_UNKNOWN_CHANNEL',
  );
}

describe('credentials.yml channel names at validate', () => {
  it('warns about a misspelt channel at its line, suggesting the channel it stands for', () => {
    const root = project({ credentials: 'rest:\nsocketi0:\n  user_message_evt: user_uttered\n' });
    const found = unknownChannels(root);
    expect(found).to.have.length(1);
    expect(found[0]).to.include({
      severity: 'warning',
      file: join(root, 'credentials.yml'),
      line: 2,
      column: 1,
      hint: "did you mean 'socketio'?",
    });
    expect(found[0]?.message)
      .to.contain("'socketi0' is not a channel Parley ships (rest, callback, socketio)")
      .and.contain('`parley run` skips it');
  });

  it('gives the general hint when no known channel is close', () => {
    const [warning] = unknownChannels(project({ credentials: 'whatsapp_business:\n' }));
    expect(warning?.hint).to.contain('module path');
    expect(warning?.hint).to.not.contain('did you mean');
  });

  it("says nothing about Parley's channels, Rasa's, module paths and modules of the project", () => {
    const root = project({
      credentials:
        'rest:\ncallback:\n  url: http://localhost:5034/bot\nsocketio:\nrasa:\nslack:\n  slack_token: x\n' +
        'addons.my_channel.MyInput:\nmychannel:\n',
      files: { 'mychannel.ts': 'export default {};\n' },
    });
    expect(unknownChannels(root)).to.deep.equal([]);
  });

  it('is printed by parley data validate, next to a misspelt endpoints.yml section', async () => {
    const root = project({ credentials: 'socketi0:\n', endpoints: 'tracker_stor:\n  type: sql\n' });
    const run = await runCli(['data', 'validate', '-p', root]);
    const output = run.stdout + run.stderr;
    expect(run.code, output).to.equal(0);
    expect(output)
      .to.contain('warning CREDENTIALS_UNKNOWN_CHANNEL')
      .and.contain("did you mean 'socketio'?")
      .and.contain('warning ENDPOINTS_IGNORED_KEY')
      .and.contain("did you mean 'tracker_store'?");
  });
});

describe('the channel names shared by validation and the server', () => {
  it('are exactly the channels the server ships, each factory under its own name', () => {
    expect([...BUILT_IN_CHANNELS.keys()]).to.deep.equal([...SHIPPED_CHANNEL_NAMES]);
    for (const [name, factory] of BUILT_IN_CHANNELS) expect(factory.name).to.equal(name);
  });
});
