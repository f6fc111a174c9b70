/**
 * The shell examples of README.md and docs/*.md run as written (doc-blocks.ts says how they are read):
 *
 * - `curl` examples go, through the real curl, to a real `parley run` of the bundled assistant started
 *   here (a copy in a temporary folder: its SQLite tracker store, A2A on, loopback, a free port). Only
 *   `localhost:5005` is rewritten to that port, and `TASK_ID` / `CONTEXT_ID` become the `result.id` /
 *   `result.contextId` of the previous answer (the docs tell the reader to do the same). Each must get a
 *   2xx answer, and the JSON the doc shows after it must match the answer (shapeMismatches).
 * - `parley …` examples (and `npx <a tool of node_modules>`) run through `sh` with bin/parley.js, in a
 *   second copy of the bundled assistant (`path/to/assistant` is that copy too), in document order, and
 *   must exit 0; a `console` block's output must be what the command prints (hex ids aside).
 * - `cd DIR` (or `mkdir DIR && cd DIR`) moves the examples after it, in the same doc, into that folder
 *   under the copy (docs/quickstart.md makes a new assistant there with `parley init`, which imports
 *   'parley' through node_modules/parley of the temporary folder, a link to this repository).
 * - What cannot run here is in SKIPPED, with the reason. Any other command fails this test: a new
 *   example either runs or is listed there on purpose.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parleyRun } from '../a2a/replica-support.js';
import { readExamples, shapeMismatches, shellWords } from './doc-blocks.js';
import type { DocExample } from './doc-blocks.js';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'parley.js');

interface Skip {
  /** a stable part of the command (or a pattern for the whole of it) */
  readonly match: string | RegExp;
  readonly reason: string;
  /** only in this doc */
  readonly file?: string;
}

const SKIPPED: readonly Skip[] = [
  { match: 'npm install && npm start', reason: 'installs from the registry, then serves until stopped' },
  { match: /^npm test\b/, reason: 'the whole suite (minutes), this file included' },
  { match: 'npm run test:corpus', reason: 'needs the third-party corpus projects, not in this repository' },
  {
    match: /^npx parley test e2e\s*(#.*)?$/,
    file: 'README.md',
    reason:
      'exits 1 on the bundled assistant, as the README says: three repair tests expect LLM commands; ' +
      'the --command-oracle example runs every test',
  },
  {
    match: /^npm (init -y|install (parley|\S+\.tgz))$/,
    reason:
      'installs Parley from the registry or a tarball; test/cli/init-package.test.ts installs `npm pack` of ' +
      'this repository so and runs the quickstart on it',
  },
  { match: 'nlu evaluate --train data.csv', reason: "data.csv and test.csv stand for the reader's own data" },
  { match: 'OPENAI_BASE_URL=', reason: 'needs an OpenAI-compatible LLM server, and serves until stopped' },
  { match: 'parley run', reason: 'serves until stopped (the curl examples run against `parley run`)' },
  {
    match: /^docker /,
    reason:
      'builds or runs a container image, and no image can be pulled here (test/docs/dockerfile.test.ts checks the Dockerfile)',
  },
  {
    match: 'examples/a2a-client/',
    reason: 'test/docs/a2a-client-examples.test.ts runs these clients against a server it starts',
  },
  {
    match: 'Authorization: Bearer',
    reason: 'needs a server with a2a_server.auth and a token from your identity provider',
  },
  {
    match: 'pushNotificationConfig/set',
    reason: 'needs push_notifications_enabled and a public receiver; the bundled assistant has push off',
  },
  {
    match: /^npx parley shell\s*(#.*)?$/,
    reason: 'waits for a terminal; the piped `parley shell` example runs',
  },
];

function skipOf(example: DocExample): Skip | undefined {
  const { command } = example;
  return SKIPPED.find(
    (skip) =>
      (skip.file === undefined || skip.file === example.file) &&
      (typeof skip.match === 'string' ? command.includes(skip.match) : skip.match.test(command)),
  );
}

/** `cd DIR` or `mkdir [-p] DIR && cd DIR`: the folder, relative; undefined for any other command. */
function folderChange(command: string): string | undefined {
  const change = /^(?:mkdir (?:-p )?([\w.-]+) && )?cd ([\w./-]+)$/.exec(command);
  if (!change?.[2] || (change[1] !== undefined && change[1] !== change[2])) return undefined;
  return change[2];
}

/** What a copy of the bundled assistant needs to load, train, test and run its custom actions. */
const ASSISTANT_FILES = [
  'package.json',
  'config.yml',
  'domain.yml',
  'endpoints.yml',
  'credentials.yml',
  'flows',
  'data',
  'actions',
  'tests',
];

function copyAssistant(to: string): void {
  mkdirSync(to, { recursive: true });
  for (const file of ASSISTANT_FILES) cpSync(join(ROOT, file), join(to, file), { recursive: true });
  // actions/*.ts import 'parley': the copied package.json names the package, whose exports are in dist/
  symlinkSync(join(ROOT, 'dist'), join(to, 'dist'));
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'));
}

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program (its own process group, killed whole at the deadline) and collects its output. */
function run(file: string, args: readonly string[], cwd: string, deadlineMs = 50_000): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_') || key === 'LOG_LEVEL') delete env[key];
  const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), deadlineMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `parley` and `npx <tool>` as the command words a reader types, made to run without the registry. */
function runnable(command: string): string | undefined {
  const word = /(^|[|;&]\s*)(npx\s+)?([\w.-]+)(?=\s|$)/g;
  let runs = false;
  const rewritten = command.replace(word, (whole, before: string, npx: string | undefined, name: string) => {
    if (name === 'parley') {
      runs = true;
      return `${before}node "${BIN}"`;
    }
    if (!npx) return whole;
    const local = join(ROOT, 'node_modules', '.bin', name);
    if (!existsSync(local)) throw new Error(`npx ${name} would fetch from the registry: not run`);
    runs = true;
    return `${before}"${local}"`;
  });
  return runs ? rewritten : undefined;
}

const HEX_ID = /\b[0-9a-f]{32}\b/g;

interface TaskIds {
  readonly id?: unknown;
  readonly contextId?: unknown;
}

describe('the shell examples of the README and docs/ run as written', function () {
  this.timeout(60_000);
  const examples = readExamples(ROOT);
  let folder: string;
  let server: { url: string; child: ChildProcess } | undefined;
  /** ids of the last JSON-RPC answer, for the TASK_ID / CONTEXT_ID of the next example */
  const ids: Record<string, string> = {};

  before(async function () {
    this.timeout(120_000);
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
      throw new Error('dist/ is missing: run `npm run build`');
    if (spawnSync('curl', ['--version']).status !== 0)
      throw new Error('curl is needed for the curl examples');
    folder = mkdtempSync(join(tmpdir(), 'parley-doc-examples-'));
    copyAssistant(join(folder, 'server'));
    copyAssistant(join(folder, 'cli'));
    // for assistants the docs create with `parley init` in folders of the copy
    mkdirSync(join(folder, 'node_modules'));
    symlinkSync(ROOT, join(folder, 'node_modules', 'parley'));
    mkdirSync(join(folder, 'cli', 'path', 'to'), { recursive: true });
    symlinkSync(join('..', '..'), join(folder, 'cli', 'path', 'to', 'assistant'));
    // one training for both copies (same files, same fingerprint)
    const trained = await run(
      process.execPath,
      [BIN, 'train', '--quiet', '-p', join(folder, 'server')],
      ROOT,
    );
    expect(trained.code, trained.stderr).to.equal(0);
    cpSync(join(folder, 'server', 'models'), join(folder, 'cli', 'models'), { recursive: true });
    server = await parleyRun(join(folder, 'server'));
  });

  after(async () => {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server?.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function runCurl(example: DocExample): Promise<Ran> {
    const base = new URL(server?.url ?? 'http://127.0.0.1:1');
    const args = shellWords(example.command)
      .slice(1)
      .map((word) =>
        word
          .replace(/\b(?:localhost|127\.0\.0\.1):5005\b/g, base.host)
          .replace(/\b(TASK_ID|CONTEXT_ID)\b/g, (name) => {
            const value = ids[name];
            if (value === undefined) throw new Error(`${name} before any answer gave one`);
            return value;
          }),
      );
    expect(args.join(' '), 'a curl example calls localhost:5005').to.include(base.host);
    // no proxy, and any other host is sent to the test's server: the example never leaves the machine
    const guard = ['--noproxy', '*', '--connect-to', `::${base.host}`, '--max-time', '30'];
    const ran = await run('curl', [...args, ...guard, '--write-out', '\n%{http_code}'], ROOT);
    const lines = ran.stdout.split('\n');
    const status = Number(lines.pop());
    const body = lines.join('\n');
    expect(status, `HTTP status of: ${body}`).to.be.within(200, 299);
    return { ...ran, stdout: body };
  }

  /** the folder the commands of a doc run in, once one of them went there with `cd` */
  const folderOfDoc = new Map<string, string>();

  async function runExample(example: DocExample): Promise<void> {
    let ran: Ran;
    const cwdOfDoc = folderOfDoc.get(example.file) ?? join(folder, 'cli');
    const change = folderChange(example.command);
    if (change !== undefined) {
      mkdirSync(join(cwdOfDoc, change), { recursive: true });
      folderOfDoc.set(example.file, join(cwdOfDoc, change));
      return;
    }
    if (/^curl\s/.test(example.command)) ran = await runCurl(example);
    else {
      const command = runnable(example.command);
      if (command === undefined)
        throw new Error('no way to run this example here: make it run, or add it to SKIPPED with the reason');
      const cwd = /^npx mocha\s/.test(example.command) ? ROOT : cwdOfDoc;
      ran = await run('sh', ['-c', command], cwd);
      expect(ran.code, `exit code; stderr:\n${ran.stderr.slice(-2000)}`).to.equal(0);
    }
    if (example.output) {
      const printed = ran.stdout.replace(/\n$/, '').split('\n');
      const shown = example.output.map((line) => line.replace(HEX_ID, '<id>'));
      expect(printed.map((line) => line.replace(HEX_ID, '<id>'))).to.deep.equal(shown);
    }
    if (example.answer !== undefined) {
      const answer: unknown = JSON.parse(ran.stdout);
      expect(shapeMismatches(example.answer, answer), ran.stdout).to.deep.equal([]);
      // v0.3 answers the task itself, a v1.0 SendMessage `{task: {...}}`
      const outer = (answer as { result?: TaskIds & { task?: TaskIds } }).result;
      const result = outer?.task ?? outer;
      if (typeof result?.id === 'string') ids['TASK_ID'] = result.id;
      if (typeof result?.contextId === 'string') ids['CONTEXT_ID'] = result.contextId;
    }
  }

  for (const example of examples) {
    const title = `${example.file}:${example.line} ${example.command}`;
    const skip = skipOf(example);
    if (skip) it.skip(`${title} (not run: ${skip.reason})`);
    else it(title, () => runExample(example));
  }

  it('finds the examples (curl calls, CLI commands, a console transcript, documented answers)', () => {
    const run = examples.filter((example) => !skipOf(example));
    expect(run.filter((example) => example.command.startsWith('curl')).length).to.be.at.least(4);
    expect(run.filter((example) => example.command.includes('parley')).length).to.be.at.least(8);
    expect(run.filter((example) => example.output).length).to.be.at.least(1);
    expect(run.filter((example) => example.answer !== undefined).length).to.be.at.least(4);
  });

  it('skips only what some example needs skipping', () => {
    const unused = SKIPPED.filter((skip) => !examples.some((example) => skipOf(example) === skip));
    expect(unused.map((skip) => String(skip.match))).to.deep.equal([]);
  });
});
