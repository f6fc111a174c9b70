import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { CliIo } from '../io.js';
import { newPackageJson, packageNameFor, planPackageJson } from './package-json.js';
import type { PackageJsonPlan } from './package-json.js';
import { templateFiles } from './templates.js';
import type { TemplateFile, TemplateName } from './templates.js';

export interface InitOptions {
  readonly dir: string;
  readonly template: TemplateName;
  readonly force: boolean;
}

const EXIT_OK = 0;
const EXIT_REFUSED = 1;
const MAX_DIR_LENGTH = 4096;

/** Writes the template into the folder; returns the exit code. */
export function runInit(io: CliIo, options: InitOptions): number {
  const root = resolve(options.dir);
  const problem = folderProblem(options.dir, root);
  if (problem) {
    io.stderr(`parley init: ${problem}\n`);
    return EXIT_REFUSED;
  }
  const files = templateFiles(options.template);
  const packageJson = planPackageJson(readIfFile(join(root, 'package.json')), packageNameFor(basename(root)));
  const refusal = refusalOf(root, files, packageJson, options.force);
  if (refusal) {
    io.stderr(refusal);
    return EXIT_REFUSED;
  }
  for (const file of files) {
    const target = join(root, file.target);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file.source, target);
  }
  const packageLine = writePackageJson(root, packageJson);
  io.stdout(summary(options, root, files, packageLine));
  return EXIT_OK;
}

function folderProblem(dir: string, root: string): string | undefined {
  if (dir.length > MAX_DIR_LENGTH) return `the folder name is longer than ${MAX_DIR_LENGTH} characters.`;
  if (existsSync(root) && !statSync(root).isDirectory()) return `${dir} exists and is not a folder.`;
  return undefined;
}

/** The message when files are in the way (nothing is written then), or undefined. */
function refusalOf(
  root: string,
  files: readonly TemplateFile[],
  packageJson: PackageJsonPlan,
  force: boolean,
): string | undefined {
  if (force) return undefined;
  const existing = files.map((file) => file.target).filter((target) => existsSync(join(root, target)));
  const lines = existing.map((target) => `  ${target}\n`);
  if (packageJson.kind === 'unreadable') lines.push(`  package.json (${packageJson.reason})\n`);
  if (lines.length === 0) return undefined;
  return (
    `parley init: ${lines.length} file${lines.length === 1 ? '' : 's'} in ${root} would be overwritten:\n` +
    `${lines.join('')}Nothing was written. Choose an empty folder (parley init <dir>), or run again ` +
    `with --force to overwrite ${lines.length === 1 ? 'it' : 'them'}.\n`
  );
}

/** Writes the planned package.json; an unreadable one is only met here with --force. */
function writePackageJson(root: string, plan: PackageJsonPlan): string {
  const path = join(root, 'package.json');
  switch (plan.kind) {
    case 'create':
    case 'update':
      writeFileSync(path, plan.text);
      return plan.kind === 'create' ? 'package.json' : `package.json (updated: ${plan.changes.join(', ')})`;
    case 'keep':
      return 'package.json (kept as it is)';
    case 'unreadable':
      writeFileSync(path, newPackageJson(packageNameFor(basename(root))));
      return 'package.json (replaced: the old one did not read)';
  }
}

function summary(
  options: InitOptions,
  root: string,
  files: readonly TemplateFile[],
  packageLine: string,
): string {
  const where = relative(process.cwd(), root) || '.';
  const listed = [...files.map((file) => file.target), packageLine].map((line) => `  ${line}\n`).join('');
  const cd = where === '.' ? '' : `  cd ${quoted(where)}\n`;
  return (
    `Created a Parley assistant from the ${options.template} template in ${root}:\n${listed}\n` +
    installNote(root) +
    `Next:\n${cd}` +
    '  npx parley data validate && npx parley train   # check the assistant, train its NLU model\n' +
    '  npx parley test e2e                             # run the conversation tests in tests/\n' +
    '  npx parley run                                  # serve it: REST channel on http://localhost:5005\n'
  );
}

/** Custom actions import 'parley': say so when it does not resolve from the new project. */
function installNote(root: string): string {
  try {
    createRequire(join(root, 'package.json')).resolve('parley');
    return '';
  } catch {
    return (
      "The custom actions import 'parley', which is not installed where they can find it: run\n" +
      '`npm install parley` (or `npm install <path to a parley tarball>`) in the new folder first.\n\n'
    );
  }
}

function quoted(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

function readIfFile(path: string): string | undefined {
  return existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
}
