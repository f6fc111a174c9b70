import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-harness.js';

/** A project folder that is not there is one PATH_NOT_FOUND naming it, not a list of missing files. */
describe('a project folder that does not exist', function () {
  this.timeout(60_000);
  let parent: string;
  let folder: string;
  before(() => {
    parent = mkdtempSync(join(tmpdir(), 'parley-missing-'));
    folder = join(parent, 'nonexistent');
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  for (const command of [
    ['data', 'validate', '-p'],
    ['train', '-p'],
  ]) {
    it(`${command.slice(0, -1).join(' ')} reports one PATH_NOT_FOUND error naming the folder`, async () => {
      const run = await runCli([...command, folder]);
      const output = run.stdout + run.stderr;
      expect(run.code, output).to.not.equal(0);
      expect(output).to.contain(`error PATH_NOT_FOUND The project folder '${folder}' does not exist.`);
      for (const code of ['CONFIG_MISSING', 'DOMAIN_MISSING', 'FLOWS_MISSING'])
        expect(output, code).to.not.contain(code);
      expect(output).to.contain('1 error, 0 warnings');
      // nothing was created where the project was expected (no model, no tracker database)
      expect(existsSync(folder)).to.equal(false);
    });
  }

  // parley run logs a failed start as JSON lines (docs/operations.md): the same one error, then the end
  it('run logs one PATH_NOT_FOUND error naming the folder, then a fatal PROJECT_INVALID', async () => {
    const run = await runCli(['run', '--project', folder, '--port', '0']);
    expect(run.code).to.equal(1);
    const lines = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['code'])).to.deep.equal(['PATH_NOT_FOUND', 'PROJECT_INVALID']);
    expect(lines[0]?.['msg']).to.equal(`The project folder '${folder}' does not exist.`);
    expect(existsSync(folder)).to.equal(false);
  });
});
