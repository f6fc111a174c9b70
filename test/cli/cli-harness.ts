import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';

// The CLI imports a command's modules with import() when the command runs (`parley data validate`
// loads src/project/validate). Mocha loads the test files through require, so that import evaluates a
// second copy of those modules, as ES modules. Loading the copy here, before the first test, keeps its
// load-time code out of any one test's coverage: Stryker would credit all of it to whichever test first
// runs the command, and score the module-level constants of src/core as that test's survivors.
before(async () => {
  await import('../../src/project/validate/index.js');
});

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real CLI entry with captured output (argv as a user types it, after `parley`). */
export async function runCli(args: readonly string[], options: { tty?: boolean } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'parley', ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    setExitCode: () => undefined,
    stderrIsTTY: options.tty ?? false,
  });
  return { code, stdout, stderr };
}

/** A fresh copy of a fixture project in a temporary folder, removed by `dispose`. */
export function copyFixture(name: string): {
  root: string;
  edit(file: string, edit: (text: string) => string): void;
  dispose(): void;
} {
  const parent = mkdtempSync(join(tmpdir(), 'parley-train-'));
  const root = join(parent, name);
  cpSync(join('test', 'fixtures', name), root, { recursive: true });
  return {
    root,
    edit: (file, edit) => writeFileSync(join(root, file), edit(readFileSync(join(root, file), 'utf8'))),
    dispose: () => rmSync(parent, { recursive: true, force: true }),
  };
}

export { recordingLogger } from '../support/recording-logger.js';

/** The path in "... saved at '<path>'." */
export function savedPath(stdout: string): string {
  const match = /saved at '([^']+)'/.exec(stdout) ?? /stored at '([^']+)'/.exec(stdout);
  if (!match?.[1]) throw new Error(`no model path in: ${stdout}`);
  return match[1];
}
