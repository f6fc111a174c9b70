import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../src/cli/run-command.js';
import { dedent } from '../support/inline-assistant.js';
import { waitFor } from '../support/timing.js';
import { DOMAIN, FLOWS, NLU } from './api-support.js';

function writeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-api-cli-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'domain.yml'), dedent(DOMAIN));
  writeFileSync(join(root, 'data', 'flows.yml'), dedent(FLOWS));
  writeFileSync(join(root, 'data', 'nlu.yml'), dedent(NLU));
  writeFileSync(join(root, 'config.yml'), 'recipe: default.v1\nlanguage: en\nassistant_id: api-cli\n');
  return root;
}

/** `parley run` in-process: resolves with its base URL once up; `stop` sends SIGTERM and waits for the exit. */
async function run(
  args: string[],
): Promise<{ baseUrl: string; stop: () => Promise<number>; stdout: () => string }> {
  let stdout = '';
  let exitCode = -1;
  const signals = new EventEmitter();
  const io = {
    stdout: (text: string) => void (stdout += text),
    stderr: (text: string) => void (stdout += text),
    setExitCode: (code: number) => void (exitCode = code),
  };
  const finished = runCommand(io, signals).parseAsync(
    ['--project', writeProject(), '--port', '0', '-i', '127.0.0.1', '--log-level', 'error', ...args],
    { from: 'user' },
  );
  await waitFor(() => /running at (\S+) /.test(stdout) || exitCode >= 0, 'parley run to start', 50_000);
  if (exitCode >= 0) throw new Error(`parley run did not start: ${stdout}`);
  const baseUrl = (/running at (\S+) /.exec(stdout) as RegExpExecArray)[1] as string;
  return {
    baseUrl,
    stdout: () => stdout,
    stop: async () => {
      signals.emit('SIGTERM');
      await finished;
      return exitCode;
    },
  };
}

describe('parley run: HTTP API flags', function () {
  this.timeout(60_000);
  const saved = { AUTH_TOKEN: process.env['AUTH_TOKEN'], JWT_SECRET: process.env['JWT_SECRET'] };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('serves the API with --enable-api, guarded by --auth-token', async () => {
    const server = await run(['--enable-api', '--auth-token', 'cli-token']);
    try {
      expect(server.stdout()).to.contain('http api: on (auth: token)');
      expect((await fetch(`${server.baseUrl}/status`)).status).to.equal(401);
      expect((await fetch(`${server.baseUrl}/status?token=cli-token`)).status).to.equal(200);
    } finally {
      expect(await server.stop()).to.equal(0);
    }
  });

  it('reads AUTH_TOKEN and JWT_SECRET from the environment', async () => {
    process.env['AUTH_TOKEN'] = 'env-token';
    process.env['JWT_SECRET'] = 'env-secret';
    const server = await run(['--enable-api']);
    try {
      expect(server.stdout()).to.contain('http api: on (auth: token + JWT HS256)');
      expect((await fetch(`${server.baseUrl}/status?token=env-token`)).status).to.equal(200);
      expect((await fetch(`${server.baseUrl}/status`)).status).to.equal(401);
    } finally {
      await server.stop();
    }
  });

  it('serves no API routes without --enable-api (only GET / and the channels)', async () => {
    const server = await run(['--auth-token', 'unused']);
    try {
      expect(server.stdout()).to.not.contain('http api');
      expect((await fetch(`${server.baseUrl}/`)).status).to.equal(200);
      expect((await fetch(`${server.baseUrl}/version`)).status).to.equal(404);
      expect((await fetch(`${server.baseUrl}/conversations/ann/tracker?token=unused`)).status).to.equal(404);
    } finally {
      await server.stop();
    }
  });

  it('exits 1 with the reason when the JWT settings are unusable, before training or opening a store', async () => {
    let output = '';
    let code = -1;
    const project = writeProject();
    await runCommand({
      stdout: (text) => void (output += text),
      stderr: (text) => void (output += text),
      setExitCode: (exit) => void (code = exit),
    }).parseAsync(
      [
        ...['--project', project, '--port', '0', '-i', '127.0.0.1', '--log-level', 'error'],
        '--enable-api',
        '--jwt-secret',
        'k',
        '--jwt-method',
        'RS999',
      ],
      { from: 'user' },
    );
    expect(code).to.equal(1);
    expect(output).to.contain("--jwt-method 'RS999' is not supported");
    // no model trained, no SQLite tracker store opened (it would keep the process alive)
    expect(existsSync(join(project, 'models'))).to.equal(false);
    expect(existsSync(join(project, '.parley'))).to.equal(false);
  });
});
