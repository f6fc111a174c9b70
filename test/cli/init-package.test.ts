/**
 * Parley as a user gets it: `npm pack` of this repository, installed into a folder outside it (an
 * `npm init`-style package.json, then `npm install <tarball>` from the npm cache, or the registry if the
 * cache lacks something), and the assistant `parley init` writes there, with its custom action
 * importing `defineAction` from 'parley', goes through validate, train, test e2e and one REST turn,
 * all run by the installed package's bin.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parley, restTurn, runProgram, startParley } from '../support/parley-process.js';

const ROOT = process.cwd();
const SQLITE_ADDON = join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

describe('the packed package, installed outside the repository', function () {
  this.timeout(600_000);
  let parent: string;
  let app: string;
  let bin: string;

  before(async function () {
    if (spawnSync('npm', ['--version']).status !== 0) {
      console.log('    (skipped: npm is not installed)');
      this.skip();
    }
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
      throw new Error('dist/ is missing: run `npm run build`');
    parent = mkdtempSync(join(tmpdir(), 'parley-package-'));
    // dist/ is built already: pack it as it is (the prepare script would build it again)
    const packed = await runProgram(
      'npm',
      ['pack', '--ignore-scripts', '--pack-destination', parent],
      ROOT,
      120_000,
    );
    expect(packed.code, packed.output).to.equal(0);
    const tarball = join(parent, `parley-${(await import('../../src/version.js')).PARLEY_VERSION}.tgz`);
    expect(existsSync(tarball), packed.output).to.equal(true);
    app = join(parent, 'my-assistant');
    mkdirSync(app);
    const npmInit = { name: 'my-assistant', version: '1.0.0', main: 'index.js', type: 'commonjs' };
    writeFileSync(join(app, 'package.json'), JSON.stringify(npmInit, null, 2));
    // Install scripts are skipped: better-sqlite3 would compile SQLite for minutes on a shared machine;
    // its addon is taken from this repository's node_modules instead (same Node, same platform).
    const installed = await runProgram(
      'npm',
      ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      app,
      420_000,
    );
    expect(installed.code, installed.output).to.equal(0);
    const addon = join(app, 'node_modules', SQLITE_ADDON);
    mkdirSync(join(addon, '..'), { recursive: true });
    copyFileSync(join(ROOT, 'node_modules', SQLITE_ADDON), addon);
    bin = join(app, 'node_modules', 'parley', 'bin', 'parley.js');
  });
  after(() => parent && rmSync(parent, { recursive: true, force: true }));

  it('init, validate, train, test e2e and a REST turn answered by the custom action', async () => {
    for (const args of [['init'], ['data', 'validate'], ['train'], ['test', 'e2e']]) {
      const ran = await parley(args, app, bin);
      expect(ran.code, `parley ${args.join(' ')}:\n${ran.output}`).to.equal(0);
    }
    const server = await startParley(app, bin);
    try {
      await restTurn(server.url, 'packed', '/check_order');
      const answer = await restTurn(server.url, 'packed', '/SetSlots(order_number=67890)');
      expect(answer[0]).to.equal('Order 67890 is delivered.');
    } finally {
      await server.stop();
    }
  });
});
