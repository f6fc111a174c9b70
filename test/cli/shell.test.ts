import { expect } from 'chai';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { writeProject } from '../server/observability-project.js';

const PROJECT = {
  domain: `
    version: "3.1"
    slots:
      account:
        type: categorical
        values: [checking, savings]
        mappings: [{type: from_llm}]
    responses:
      utter_greet:
        - text: Hello!
      utter_ask_account:
        - text: Which account?
          buttons:
            - {title: Checking, payload: "/SetSlots(account=checking)"}
            - {title: Savings, payload: "/SetSlots(account=savings)"}
      utter_done:
        - text: "Your {account} balance is $100."
  `,
  flows: `
    flows:
      balance:
        description: show a balance
        nlu_trigger: [{intent: balance}]
        steps:
          - collect: account
          - action: utter_done
  `,
};

/** pattern_cannot_handle's answer (the default patterns) */
const NOT_UNDERSTOOD = "Sorry, I didn't quite get that. Could you say it in a different way?";

/** Runs `parley shell` with the given lines typed (then end of input) and captured output. */
async function shell(args: readonly string[], typed: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'parley', 'shell', ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    setExitCode: () => undefined,
    stdin: Readable.from(typed.map((line) => `${line}\n`)),
  });
  return { code, stdout, stderr };
}

describe('parley shell', function () {
  this.timeout(60_000);
  const root = writeProject(PROJECT);

  it('shows buttons as numbered choices and sends the payload of the number typed', async () => {
    const run = await shell(['--project', root], ['/balance', '2']);
    expect(run.stderr).not.to.include('could not be processed');
    expect(run.code).to.equal(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).to.match(/^Bot loaded\. Conversation id [0-9a-f]{32}\./);
    expect(lines.slice(1)).to.deep.equal([
      'Which account?',
      '1: Checking (/SetSlots(account=checking))',
      '2: Savings (/SetSlots(account=savings))',
      'Your savings balance is $100.',
      'Sure, what would you like me to help you with?',
      '',
    ]);
  });

  it('sends a number as text when the last turn offered no buttons, and stops at /stop', async () => {
    const run = await shell(['--project', root], ['2', '/stop', '/balance']);
    expect(run.code).to.equal(0);
    expect(run.stdout.split('\n').slice(1)).to.deep.equal([NOT_UNDERSTOOD, '']);
  });

  it('passes /restart-style payloads through to the assistant', async () => {
    const run = await shell(['--project', root], ['/balance', '/restart', '1']);
    expect(run.code).to.equal(0);
    // the restart ends the flow and says nothing; "1" is then no button any more but plain text
    expect(run.stdout.split('\n').slice(4)).to.deep.equal([NOT_UNDERSTOOD, '']);
  });

  it('keeps offering the buttons of the latest question', async () => {
    const run = await shell(['--project', root], ['/balance', 'hello there', '1']);
    expect(run.stdout.split('\n').slice(4)).to.deep.equal([
      NOT_UNDERSTOOD,
      'Which account?',
      '1: Checking (/SetSlots(account=checking))',
      '2: Savings (/SetSlots(account=savings))',
      'Your checking balance is $100.',
      'Sure, what would you like me to help you with?',
      '',
    ]);
  });

  it('continues a stored conversation with --conversation-id, its buttons still numbered', async () => {
    // no tracker_store in endpoints.yml: conversations are kept in the project's SQLite file
    const first = await shell(['--project', root, '--conversation-id', 'shell-kept'], ['/balance']);
    expect(first.stdout).to.include('Which account?');
    const second = await shell(['--project', root, '--conversation-id', 'shell-kept'], ['2']);
    expect(second.code).to.equal(0);
    const lines = second.stdout.split('\n');
    expect(lines[0]).to.match(/^Bot loaded\. Continuing conversation shell-kept \(\d+ events\)\./);
    expect(lines.slice(1)).to.deep.equal([
      'Your savings balance is $100.',
      'Sure, what would you like me to help you with?',
      '',
    ]);
  });

  it('refuses a project with errors, listing them, with exit code 1', async () => {
    const broken = writeProject({ ...PROJECT, flows: 'flows:\n  balance:\n    steps: []\n' });
    const run = await shell(['--project', broken], ['hello']);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/error/i);
    expect(run.stdout).not.to.include('Bot loaded');
  });
});
