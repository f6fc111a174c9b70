import { expect } from 'chai';
import { join } from 'node:path';
import { readModel } from '../../src/cli/model-archive.js';
import { copyFixture, runCli, savedPath } from './cli-harness.js';

describe('parley on a hybrid NLU + LLM project (test/fixtures/hybrid-travel)', function () {
  this.timeout(120_000);
  let fixture: ReturnType<typeof copyFixture>;
  beforeEach(() => (fixture = copyFixture('hybrid-travel')));
  afterEach(() => fixture.dispose());

  it('validates without an error and trains the NLU into a hybrid model', async () => {
    const validate = await runCli(['data', 'validate', '-p', fixture.root, '--format', 'json']);
    expect(validate.code, validate.stderr + validate.stdout).to.equal(0);
    const { diagnostics } = JSON.parse(validate.stdout) as {
      diagnostics: { code: string; message: string }[];
    };
    // only what Parley runs in place of the NLU components and TEDPolicy: the coexistence set-up is clean
    expect(diagnostics.map((diagnostic) => diagnostic.code)).to.deep.equal([
      'CONFIG_COMPONENT_REPLACED',
      'CONFIG_COMPONENT_REPLACED',
      'CONFIG_COMPONENT_REPLACED',
    ]);
    expect(diagnostics[2]?.message).to.match(/^TEDPolicy is not run/);
    const train = await runCli(['train', '-p', fixture.root]);
    expect(train.code, train.stderr).to.equal(0);
    expect(readModel(savedPath(train.stdout)).metadata.understanding).to.equal('hybrid');
  });

  it('passes its e2e tests of the NLU-based side (rules, stories, routing reset) without calling the LLM', async () => {
    const run = await runCli(['test', 'e2e', '-p', fixture.root, join(fixture.root, 'tests')]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.contain('0 failed, 3 passed');
  });
});
