/**
 * docs/troubleshooting.md quotes the messages Parley prints. Each scenario here makes the real CLI
 * print one, on a copy of the bundled assistant, and the line must be in the page as printed (only the
 * parts that differ from run to run, a port or a temporary folder, are put back to what the page
 * shows). When a message changes, this fails and the page is updated with it.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyBundledAssistant } from '../support/bundled-assistant.js';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'parley.js');
const PAGE = readFileSync(join(ROOT, 'docs', 'troubleshooting.md'), 'utf8');

function parley(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_') || key === 'LOG_LEVEL') delete env[key];
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The printed lines, a JSON log line of an error as its message (`msg`); info and warnings are left out. */
function plainLines(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    if (!line.startsWith('{')) return [line];
    const entry = JSON.parse(line) as { msg?: unknown; level?: unknown };
    return typeof entry.msg === 'string' && Number(entry.level) >= 50 ? [entry.msg] : [];
  });
}

function expectQuoted(lines: readonly string[]): void {
  expect(lines.length, 'the command printed something').to.be.greaterThan(0);
  if (process.env['TROUBLESHOOTING_DUMP'])
    for (const line of lines)
      if (!PAGE.includes(line)) appendFileSync(process.env['TROUBLESHOOTING_DUMP'], `${line}\n`);
  for (const line of lines) expect(PAGE, `docs/troubleshooting.md quotes: ${line}`).to.include(line);
}

describe('docs/troubleshooting.md quotes what Parley prints', function () {
  this.timeout(120_000);
  let folder: string;
  let bank: string;

  /** a copy of the bundled assistant with its trained model, changed by `change` */
  function variant(name: string, change: (root: string) => void): string {
    const root = join(folder, name);
    copyBundledAssistant(root);
    cpSync(join(bank, 'models'), join(root, 'models'), { recursive: true });
    change(root);
    return root;
  }

  function edit(root: string, file: string, change: (text: string) => string): void {
    writeFileSync(join(root, file), change(readFileSync(join(root, file), 'utf8')));
  }

  before(async function () {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
      throw new Error('dist/ is missing: run `npm run build`');
    folder = mkdtempSync(join(tmpdir(), 'parley-troubleshooting-'));
    bank = join(folder, 'bank');
    copyBundledAssistant(bank);
    const trained = await parley(['train', '--quiet'], bank);
    expect(trained.code, trained.stderr).to.equal(0);
  });

  after(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const ran = await parley(['run', '-p', String(port), '-i', '127.0.0.1'], bank);
      expect(ran.code).to.equal(1);
      expectQuoted(
        plainLines(ran.stderr).map((line) =>
          line.replaceAll(`:${port}`, ':5077').replaceAll(`port ${port}`, 'port 5077'),
        ),
      );
    } finally {
      blocker.close();
    }
  });

  it('-p given a folder, and a project folder that does not exist', async () => {
    expectQuoted(plainLines((await parley(['run', '-p', 'my-bot'], bank)).stderr));
    const missing = join(folder, 'nope');
    const ran = await parley(['run', '--project', missing], bank);
    expectQuoted(plainLines(ran.stderr).map((line) => line.replaceAll(missing, '/tmp/nope')));
  });

  it('a model that is missing, a folder without one, a damaged one', async () => {
    expectQuoted(plainLines((await parley(['run', '-m', '/tmp/nonexistent-model.tar.gz'], bank)).stderr));
    const models = join(folder, 'models');
    mkdirSync(models);
    expectQuoted(
      plainLines((await parley(['run', '-m', models], bank)).stderr).map((line) =>
        line.replaceAll(models, '/tmp/models'),
      ),
    );
    writeFileSync(join(models, 'bad.tar.gz'), 'bad\n');
    const bad = await parley(['run', '-m', join(models, 'bad.tar.gz')], bank);
    expectQuoted(plainLines(bad.stderr).map((line) => line.replaceAll(models, '/tmp/models')));
  });

  it('PostgreSQL that cannot be reached', async () => {
    const root = variant('postgres', (at) =>
      edit(
        at,
        'endpoints.yml',
        (text) =>
          `${text}tracker_store:\n  type: SQL\n  dialect: "postgresql"\n  url: "127.0.0.1"\n  port: 1\n  username: postgres\n  db: parley\n`,
      ),
    );
    const ran = await parley(['run', '-p', '0', '-i', '127.0.0.1'], root);
    expect(ran.code).to.equal(1);
    expectQuoted(plainLines(ran.stderr));
  });

  it('an LLM command generator without an LLM, and with an unset key', async () => {
    const enableLlm = (text: string): string =>
      text
        .replace('# - name: CompactLLMCommandGenerator', '- name: CompactLLMCommandGenerator')
        .replace('#   llm:', '  llm:')
        .replace('#     model_group: openai_llm', '    model_group: openai_llm')
        .replace('#   flow_retrieval:', '  flow_retrieval:')
        .replace('#     active: false', '    active: false');
    const noGroup = variant('llm', (at) => edit(at, 'config.yml', enableLlm));
    expectQuoted(plainLines((await parley(['run', '-p', '0'], noGroup)).stderr));
    const noKey = variant('llm-key', (at) => {
      edit(at, 'config.yml', enableLlm);
      edit(
        at,
        'endpoints.yml',
        (text) =>
          `${text}model_groups:\n  - id: openai_llm\n    models:\n      - provider: openai\n        model: gpt-4o-mini\n        api_key: \${OPENAI_API_KEY}\n`,
      );
    });
    const ran = await parley(['run', '-p', '0'], noKey);
    const unset = plainLines(ran.stderr).filter((line) => line.startsWith('Environment variable'));
    expect(unset).to.have.length(1);
    expectQuoted(unset);
  });

  it('the A2A session guardrail', async () => {
    const root = variant('session', (at) =>
      edit(at, 'domain.yml', (text) =>
        text.replace('start_session_after_expiry: false', 'start_session_after_expiry: true'),
      ),
    );
    const ran = await parley(['run', '-p', '0'], root);
    expect(ran.code).to.equal(1);
    expectQuoted(plainLines(ran.stderr));
  });

  it('the e2e tests that need an LLM', async () => {
    const ran = await parley(['test', 'e2e', '-q', 'tests/conversation_repair'], bank);
    expect(ran.code).to.equal(1);
    const summary = ran.stdout.slice(ran.stdout.indexOf('===== short test summary info ====='));
    expectQuoted(plainLines(summary));
  });
});
