import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/core/errors.js';
import { runCli } from './cli-harness.js';

const SYNTAX = 'test/fixtures/first-contact/yaml-syntax';
const MINIMAL = 'test/fixtures/valid-minimal';

function diagnosticsOf(stdout: string): Diagnostic[] {
  return (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;
}

describe('parley data validate with files that do not parse', function () {
  this.timeout(30_000);

  it('reports the syntax error of each broken file once, with its line shown under it', async () => {
    const run = await runCli(['data', 'validate', '-p', SYNTAX]);
    expect(run.code).to.equal(1);
    // domain.yml: the quote opened on line 7 is never closed (the parser only notices at the end)
    expect(run.stdout).to.contain(
      `${SYNTAX}/domain.yml:7:13 error YAML_SYNTAX Missing closing "quote.\n` +
        '    7 |     - text: "What is your name?\n' +
        '      |             ^\n',
    );
    expect(run.stdout).to.contain(`${SYNTAX}/data/goodbye.yml:4:1 error YAML_SYNTAX `);
    expect(run.stdout).to.contain('    4 |    steps:\n');
  });

  it('still checks the other files and lists what they have wrong', async () => {
    const diagnostics = diagnosticsOf(
      (await runCli(['data', 'validate', '-p', SYNTAX, '--format', 'json'])).stdout,
    );
    const codes = diagnostics.map((item) => `${item.file.slice(SYNTAX.length + 1)} ${item.code}`);
    expect(codes).to.deep.equal([
      'config.yml CONFIG_IGNORED_KEY',
      'data/flows.yml FLOW_MISSING_DESCRIPTION',
      'data/goodbye.yml CHECKS_SKIPPED',
      'data/goodbye.yml YAML_SYNTAX',
      'domain.yml YAML_SYNTAX',
    ]);
  });

  it('leaves out what other files would say for want of the broken files, in one note', async () => {
    const diagnostics = diagnosticsOf(
      (await runCli(['data', 'validate', '-p', SYNTAX, '--format', 'json'])).stdout,
    );
    // a repeated key after the syntax error, the slot, the responses and the linked flow they declare
    for (const code of ['YAML_DUPLICATE_KEY', 'COLLECT_UNKNOWN_SLOT', 'ACTION_UNKNOWN', 'LINK_UNKNOWN_FLOW'])
      expect(diagnostics.map((item) => item.code)).to.not.include(code);
    const note = diagnostics.find((item) => item.code === 'CHECKS_SKIPPED');
    expect(note?.severity).to.equal('info');
    expect(note?.message).to.contain('domain.yml').and.contain('goodbye.yml');
  });
});

describe('a path flag naming nothing', function () {
  this.timeout(60_000);
  let parent: string;
  before(() => (parent = mkdtempSync(join(tmpdir(), 'parley-flags-'))));
  after(() => rmSync(parent, { recursive: true, force: true }));

  for (const flag of ['-d', '--domain', '-c', '--config', '--data', '--endpoints', '--credentials']) {
    it(`${flag} is one PATH_NOT_FOUND naming the flag and the path`, async () => {
      const missing = join(parent, 'domian.yml');
      const run = await runCli(['data', 'validate', '-p', MINIMAL, flag, missing, '--format', 'json']);
      expect(run.code).to.equal(1);
      const diagnostics = diagnosticsOf(run.stdout);
      const errors = diagnostics.filter((item) => item.severity !== 'info');
      expect(errors.map((item) => item.code)).to.deep.equal(['PATH_NOT_FOUND']);
      const long = flag === '-d' ? '--domain' : flag === '-c' ? '--config' : flag;
      expect(errors[0]?.message).to.equal(`${long} ${missing}: no such file or folder.`);
      expect(errors[0]?.hint).to.contain(long);
    });
  }

  it('says when the path was meant inside the project: paths are relative to the current folder', async () => {
    // the tests run in the repository, which has no data/flows.yml; the fixture project has one
    const run = await runCli(['data', 'validate', '-p', MINIMAL, '--data', 'data/flows.yml']);
    expect(run.stdout).to.contain('error PATH_NOT_FOUND --data data/flows.yml: no such file or folder.');
    expect(run.stdout).to.contain(`did you mean ${MINIMAL}/data/flows.yml?`);
  });

  it('train refuses it the same way and trains nothing', async () => {
    const run = await runCli(['train', '-p', MINIMAL, '--domain', join(parent, 'none.yml'), '--out', parent]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`--domain ${join(parent, 'none.yml')}: no such file or folder.`);
    expect(run.stderr).to.not.contain('COLLECT_UNKNOWN_SLOT');
  });

  it('test e2e names a test path that is not there, instead of finding no test cases', async () => {
    const run = await runCli(['test', 'e2e', '-p', MINIMAL, join(parent, 'tsets')]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(
      `error PATH_NOT_FOUND test path ${join(parent, 'tsets')}: no such file or folder.`,
    );
    expect(run.stdout).to.not.contain('no test cases found');
  });

  it('-m names the flag of a model that is not there', async () => {
    const run = await runCli(['test', 'e2e', '-p', MINIMAL, '-m', join(parent, 'nope.tar.gz')]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`-m/--model ${join(parent, 'nope.tar.gz')}: no such model file or folder.`);
  });
});
