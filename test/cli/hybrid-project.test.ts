import { expect } from 'chai';
import { join } from 'node:path';
import { readModel } from '../../src/cli/model-archive.js';
import { copyFixture, runCli, savedPath } from './cli-harness.js';

describe('parley on a hybrid NLU + LLM project (test/fixtures/hybrid-travel)', function () {
  this.timeout(120_000);
  let fixture: ReturnType<typeof copyFixture>;
  beforeEach(() => (fixture = copyFixture('hybrid-travel')));
  afterEach(() => fixture.dispose());

  it('validates without a problem and trains the NLU into a hybrid model', async () => {
    const validate = await runCli(['data', 'validate', '-p', fixture.root]);
    expect(validate.code, validate.stderr + validate.stdout).to.equal(0);
    expect(validate.stdout + validate.stderr).to.contain('0 errors, 0 warnings');
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
