import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectCommand, inspectorUrl } from '../../src/cli/inspect-command.js';
import { dedent } from '../support/inline-assistant.js';
import { waitFor } from '../support/timing.js';
import { DOMAIN, FLOWS, NLU } from '../server/api-support.js';

function writeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-inspect-cli-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'domain.yml'), dedent(DOMAIN));
  writeFileSync(join(root, 'data', 'flows.yml'), dedent(FLOWS));
  writeFileSync(join(root, 'data', 'nlu.yml'), dedent(NLU));
  writeFileSync(join(root, 'config.yml'), 'recipe: default.v1\nlanguage: en\nassistant_id: inspect-cli\n');
  return root;
}

describe('parley inspect', function () {
  this.timeout(60_000);

  it('serves the assistant with the HTTP API and prints the inspector URL with the token', async () => {
    let stdout = '';
    let exitCode = -1;
    const signals = new EventEmitter();
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stdout += text),
      setExitCode: (code: number) => void (exitCode = code),
    };
    const finished = inspectCommand(io, signals).parseAsync(
      [
        ...['--project', writeProject(), '--port', '0', '-i', '127.0.0.1', '--log-level', 'error'],
        ...['--auth-token', 'tok en', '--no-browser'],
      ],
      { from: 'user' },
    );
    await waitFor(() => /Inspector: (\S+)/.test(stdout) || exitCode >= 0, 'parley inspect to start', 50_000);
    try {
      const url = (/Inspector: (\S+)/.exec(stdout) as RegExpExecArray)[1] as string;
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/inspect\?token=tok%20en$/);
      expect(stdout).to.contain('http api: on (auth: token)');
      const page = await fetch(url);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.contain('Parley inspector');
      expect((await fetch(url.replace(/\?.*/, ''))).status).to.equal(401);
    } finally {
      signals.emit('SIGTERM');
      await finished;
    }
    expect(exitCode).to.equal(0);
  });

  it('prints a local URL for a server on every interface', () => {
    expect(inspectorUrl('http://0.0.0.0:5005', undefined)).to.equal('http://localhost:5005/inspect');
    expect(inspectorUrl('https://bot.example:443', 'a&b')).to.equal(
      'https://bot.example:443/inspect?token=a%26b',
    );
  });
});
