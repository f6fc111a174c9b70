/**
 * docs/custom-actions.md says that an assistant with Parley installed as a dependency writes
 * `import { defineAction } from 'parley'`, and needs a package.json with `"type": "module"`. Here the
 * bundled assistant's actions are rewritten that way, in a folder whose node_modules holds Parley (this
 * repository, built), and its balance tests run through the real CLI.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'parley.js');
const ENGINE_IMPORT = "from '../src/actions/custom/in-process.js'";

describe("custom actions that import defineAction from 'parley'", function () {
  this.timeout(120_000);
  let folder: string;

  before(() => {
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build`');
    folder = mkdtempSync(join(tmpdir(), 'parley-actions-package-'));
    for (const file of [
      'config.yml',
      'domain.yml',
      'endpoints.yml',
      'credentials.yml',
      'flows',
      'data',
      'actions',
      'tests',
    ])
      cpSync(join(ROOT, file), join(folder, file), { recursive: true });
    mkdirSync(join(folder, 'node_modules'));
    symlinkSync(ROOT, join(folder, 'node_modules', 'parley'));
    writeFileSync(join(folder, 'package.json'), '{"type": "module", "private": true}\n');
    for (const file of readdirSync(join(folder, 'actions')).filter((name) => name.endsWith('.ts'))) {
      const path = join(folder, 'actions', file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(ENGINE_IMPORT, "from 'parley'"));
    }
  });

  after(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('load and run: the balance tests pass', () => {
    const rewritten = readdirSync(join(folder, 'actions')).filter((file) =>
      readFileSync(join(folder, 'actions', file), 'utf8').includes("from 'parley'"),
    );
    expect(rewritten).to.have.length(4);
    const ran = spawnSync(
      process.execPath,
      [BIN, 'test', 'e2e', '-q', 'tests/happy_paths/check_balance.yml'],
      {
        cwd: folder,
        encoding: 'utf8',
        timeout: 100_000,
      },
    );
    expect(ran.status, `${ran.stdout}\n${ran.stderr}`).to.equal(0);
    expect(ran.stdout).to.include('===== 0 failed, 3 passed =====');
  });
});
