/**
 * The @a2a-js/sdk client examples of docs/a2a-cookbook.md (examples/a2a-client/) run as a reader runs
 * them, `npx tsx examples/a2a-client/<file>.ts <base URL>`, against a real `parley run` of a copy of the
 * bundled assistant, and print what the cookbook says they print.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startParley } from '../support/parley-process.js';
import { copyBundledAssistant } from '../support/bundled-assistant.js';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

function runExample(
  file: string,
  base: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(TSX, [file, base], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What both clients print after their `protocol:` line: the same dialogue over either wire. */
const TOUR = [
  'card: Parley Bank, skills: block_card, check_balance, contact_support, goodbye, greet, help, recent_transactions, thank_you, transfer_money',
  'send: TASK_STATE_INPUT_REQUIRED awaiting=amount | How much would you like to send to Alice?',
  'stream: task, status TASK_STATE_WORKING, status TASK_STATE_WORKING, status TASK_STATE_INPUT_REQUIRED',
  "get: TASK_STATE_INPUT_REQUIRED awaiting=transfer_confirmation | Please confirm: send $50.0 to Alice? 1. Yes, send it 2. No, don't send",
  "cancel: TASK_STATE_CANCELED | Okay, I'll stop send money. / Sure, what would you like me to help you with?",
  'send: TASK_STATE_COMPLETED | Your savings account holds $12800.',
  'completed_flow: check_balance {"account_type":"savings","account_balance":12800}',
];

describe('the A2A client examples (examples/a2a-client) against parley run', function () {
  this.timeout(120_000);
  let folder: string;
  let server: { url: string; stop(): Promise<void> } | undefined;

  before(async function () {
    if (!existsSync(join('dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build`');
    folder = mkdtempSync(join(tmpdir(), 'parley-a2a-examples-'));
    copyBundledAssistant(folder);
    server = await startParley(folder);
  });

  after(async () => {
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  for (const [file, protocol] of [
    ['examples/a2a-client/v1.ts', '1.0'],
    ['examples/a2a-client/v03.ts', '0.3'],
  ] as const) {
    it(`${file} sends, streams, gets and cancels over A2A v${protocol}`, async () => {
      const ran = await runExample(file, server?.url ?? '');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(ran.stdout.trimEnd().split('\n')).to.deep.equal([`protocol: ${protocol}`, ...TOUR]);
    });
  }
});
