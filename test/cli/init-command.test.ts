import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARLEY_VERSION } from '../../src/version.js';
import { runCli } from './cli-harness.js';

const DEFAULT_FILES = [
  '.gitignore',
  'actions/check-order.ts',
  'config.yml',
  'credentials.yml',
  'data/nlu.yml',
  'domain.yml',
  'endpoints.yml',
  'flows/check_order.yml',
  'flows/greet.yml',
  'package.json',
  'tests/check_order.yml',
];

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('parley init', function () {
  let parent: string;
  beforeEach(() => (parent = mkdtempSync(join(tmpdir(), 'parley-init-'))));
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('writes the default template into a new folder, with an ESM package.json depending on parley', async () => {
    const root = join(parent, 'My Shop Bot');
    const run = await runCli(['init', root]);
    expect(run.code, run.stderr).to.equal(0);
    for (const file of DEFAULT_FILES) expect(existsSync(join(root, file)), file).to.equal(true);
    const pkg = readJson(join(root, 'package.json'));
    expect(pkg['name']).to.equal('my-shop-bot');
    expect(pkg['type']).to.equal('module');
    expect(pkg['dependencies']).to.deep.equal({ parley: `^${PARLEY_VERSION}` });
    expect(readFileSync(join(root, 'actions/check-order.ts'), 'utf8')).to.contain(
      "import { defineAction } from 'parley';",
    );
  });

  it('prints the files and the next commands: validate and train, test e2e, run', async () => {
    const root = join(parent, 'bot');
    const run = await runCli(['init', '--no-prompt', '--init-dir', root]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain('  flows/check_order.yml\n');
    const next = run.stdout.slice(run.stdout.indexOf('Next:'));
    const commands = next
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/#.*/, '').trim())
      .filter((line) => line !== '');
    expect(commands.slice(-3)).to.deep.equal([
      'npx parley data validate && npx parley train',
      'npx parley test e2e',
      'npx parley run',
    ]);
    expect(commands[0]).to.match(/^cd \S*bot$/);
  });

  it('writes the banking template: the bundled assistant without the tests that need an LLM', async () => {
    const root = join(parent, 'bank');
    const run = await runCli(['init', root, '--template', 'banking']);
    expect(run.code, run.stderr).to.equal(0);
    for (const file of [
      '.gitignore',
      'domain.yml',
      'flows/transfer_money.yml',
      'actions/bank-data.ts',
      'data/nlu.yml',
    ])
      expect(existsSync(join(root, file)), file).to.equal(true);
    expect(existsSync(join(root, 'tests/happy_paths/transfer_money.yml'))).to.equal(true);
    expect(readFileSync(join(root, 'domain.yml'), 'utf8')).to.equal(readFileSync('domain.yml', 'utf8'));
    for (const leftOut of ['tests/oracle.commands.yml', 'tests/conversation_repair/search.yml'])
      expect(existsSync(join(root, leftOut)), leftOut).to.equal(false);
    expect(readFileSync(join(root, 'actions/transfer-money.ts'), 'utf8')).to.contain("from 'parley'");
  });

  it('refuses to overwrite existing files, lists them, and writes nothing', async () => {
    const root = join(parent, 'bot');
    mkdirSync(join(root, 'flows'), { recursive: true });
    writeFileSync(join(root, 'domain.yml'), 'mine\n');
    writeFileSync(join(root, 'flows/greet.yml'), 'mine too\n');
    const run = await runCli(['init', root]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('2 files').and.contain('  domain.yml\n').and.contain('  flows/greet.yml\n');
    expect(run.stderr).to.contain('--force');
    expect(readFileSync(join(root, 'domain.yml'), 'utf8')).to.equal('mine\n');
    expect(existsSync(join(root, 'config.yml'))).to.equal(false);
    expect(existsSync(join(root, 'package.json'))).to.equal(false);
  });

  it('overwrites them with --force', async () => {
    const root = join(parent, 'bot');
    mkdirSync(root);
    writeFileSync(join(root, 'domain.yml'), 'mine\n');
    const run = await runCli(['init', root, '--force']);
    expect(run.code, run.stderr).to.equal(0);
    expect(readFileSync(join(root, 'domain.yml'), 'utf8')).to.contain('utter_ask_order_number');
  });

  it('keeps an existing package.json and adds what the actions need (npm init, then npm install parley)', async () => {
    const root = join(parent, 'bot');
    mkdirSync(root);
    const npmInit = {
      name: 'bot',
      version: '1.0.0',
      scripts: { test: 'echo "Error: no test specified" && exit 1', lint: 'eslint .' },
      type: 'commonjs',
      dependencies: { parley: 'file:../parley-0.1.0.tgz' },
    };
    writeFileSync(join(root, 'package.json'), JSON.stringify(npmInit));
    const run = await runCli(['init', root]);
    expect(run.code, run.stderr).to.equal(0);
    const pkg = readJson(join(root, 'package.json'));
    expect(pkg['type']).to.equal('module');
    expect(pkg['version']).to.equal('1.0.0');
    expect(pkg['dependencies']).to.deep.equal({ parley: 'file:../parley-0.1.0.tgz' });
    expect(pkg['scripts']).to.include({ test: 'parley test e2e', lint: 'eslint .' });
    expect(run.stdout).to.contain('package.json (updated: "type": "module" (was "commonjs")');
  });

  it('refuses a package.json that does not read, unless --force', async () => {
    const root = join(parent, 'bot');
    mkdirSync(root);
    writeFileSync(join(root, 'package.json'), '{ not json');
    const refused = await runCli(['init', root]);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain('package.json (it is not valid JSON');
    const forced = await runCli(['init', root, '--force']);
    expect(forced.code, forced.stderr).to.equal(0);
    expect(readJson(join(root, 'package.json'))['type']).to.equal('module');
  });

  it('refuses a DIR that is a file, and an unknown template', async () => {
    const file = join(parent, 'file');
    writeFileSync(file, '');
    const notFolder = await runCli(['init', file]);
    expect(notFolder.code).to.equal(1);
    expect(notFolder.stderr).to.contain('is not a folder');
    const unknown = await runCli(['init', join(parent, 'x'), '--template', 'tutorial']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('default, banking');
  });
});
