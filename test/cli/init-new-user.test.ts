/**
 * The new user's path, through the real CLI (bin/parley.js and dist/): `parley init`, `data validate`,
 * `train`, `test e2e`, `run` and one REST turn, each green, on a folder outside the repository where
 * `parley` resolves as an installed package (node_modules/parley links this repository).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parleyRun } from '../a2a/replica-support.js';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'parley.js');

interface Ran {
  readonly code: number | null;
  readonly output: string;
}

/** `parley <args>` in `cwd`, killed at the deadline. */
export function parley(args: readonly string[], cwd: string, bin = BIN, deadlineMs = 90_000): Promise<Ran> {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_') || key === 'LOG_LEVEL') delete env[key];
  const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** One REST turn: the texts the bot answers. */
export async function restTurn(url: string, sender: string, message: string): Promise<string[]> {
  const response = await fetch(`${url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sender, message }),
    signal: AbortSignal.timeout(20_000),
  });
  expect(response.status).to.equal(200);
  const messages = (await response.json()) as { text?: string }[];
  return messages.map((message) => message.text ?? '');
}

describe('a new assistant outside the repository: init, validate, train, test e2e, run', function () {
  this.timeout(240_000);
  let parent: string;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
      throw new Error('dist/ is missing: run `npm run build`');
    parent = mkdtempSync(join(tmpdir(), 'parley-new-user-'));
    mkdirSync(join(parent, 'node_modules'));
    symlinkSync(ROOT, join(parent, 'node_modules', 'parley'));
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('the default template passes each step, and its custom action answers over REST', async () => {
    const init = await parley(['init', 'shop-bot'], parent);
    expect(init.code, init.output).to.equal(0);
    const app = join(parent, 'shop-bot');
    for (const args of [['data', 'validate'], ['train'], ['test', 'e2e']]) {
      const ran = await parley(args, app);
      expect(ran.code, `parley ${args.join(' ')}:\n${ran.output}`).to.equal(0);
    }
    const server = await parleyRun(app);
    try {
      expect(await restTurn(server.url, 'new-user', '/check_order')).to.deep.equal([
        'What is your order number? It has five digits.',
      ]);
      // the action's answer, then the default pattern_completed question
      const answer = await restTurn(server.url, 'new-user', '/SetSlots(order_number=12345)');
      expect(answer[0]).to.equal('Order 12345 is on its way.');
    } finally {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
  });

  it('the banking template passes its own tests at once', async () => {
    const init = await parley(['init', 'bank', '--template', 'banking'], parent);
    expect(init.code, init.output).to.equal(0);
    const bank = join(parent, 'bank');
    for (const args of [['data', 'validate'], ['train'], ['test', 'e2e', '-q']]) {
      const ran = await parley(args, bank);
      expect(ran.code, `parley ${args.join(' ')}:\n${ran.output.slice(-3000)}`).to.equal(0);
    }
  });
});
