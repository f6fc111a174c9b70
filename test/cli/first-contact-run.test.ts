import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import { asStartUpError } from '../../src/cli/start-up-failure.js';
import { errorCodeOf } from '../../src/core/error-kinds.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { recordingLogger } from '../support/recording-logger.js';

const BIN = 'bin/parley.js';

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI; with `stopWhen`, sends SIGTERM once stdout matches it. */
async function parley(args: readonly string[], stopWhen?: RegExp): Promise<Ran> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let stopping = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // once: a second SIGTERM finds no handler and ends the process at once, before its last log lines
    if (stopping || !stopWhen?.test(stdout)) return;
    stopping = true;
    child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': the child's last stderr lines may still be in the pipe when it exits
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function holdPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('parley run: first-contact failures', function () {
  this.timeout(120_000);
  let parent: string;
  let root: string;
  let held: Server;
  let port: number;
  before(async () => {
    if (!existsSync('dist/cli/main.js')) throw new Error('dist/ is missing: run `npm run build` first');
    parent = mkdtempSync(join(tmpdir(), 'parley-first-'));
    root = join(parent, 'assistant');
    cpSync('test/fixtures/valid-minimal', root, { recursive: true });
    held = await holdPort();
    port = (held.address() as AddressInfo).port;
  });
  after(() => {
    held.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('a port in use is one fatal PORT_IN_USE log line, before any training, and exit 1', async () => {
    const run = await parley(['run', '--project', root, '-i', '127.0.0.1', '--port', String(port)]);
    expect(run.code).to.equal(1);
    const lines = logLines(run.stderr);
    expect(lines).to.have.lengthOf(1);
    expect(lines[0]).to.include({
      level: 60,
      code: 'PORT_IN_USE',
      msg: `port ${port} is in use: stop the other process or pass --port`,
    });
    expect(lines[0]).to.not.have.property('stack');
    expect(existsSync(join(root, 'models')), 'a model was trained').to.equal(false);
    expect(run.stdout).to.equal('');
  });

  it('with --debug the fatal line carries the stack', async () => {
    const run = await parley([
      'run',
      '--project',
      root,
      '-i',
      '127.0.0.1',
      '--port',
      String(port),
      '--debug',
    ]);
    const fatal = logLines(run.stderr).find((line) => line['level'] === 60);
    expect(fatal?.['code']).to.equal('PORT_IN_USE');
    expect(fatal?.['stack']).to.be.a('string');
  });

  it('a port taken between the check and the listen is the same PORT_IN_USE', async () => {
    const failure = await startServer({
      location: { project: root },
      projectRoot: root,
      port,
      host: '127.0.0.1',
      logger: recordingLogger(),
      trackerStore: new MemoryTrackerStore(),
      lockStore: new MemoryLockStore(),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as NodeJS.ErrnoException).code).to.equal('EADDRINUSE');
    expect(errorCodeOf(asStartUpError(failure, port))).to.equal('PORT_IN_USE');
  });

  it('a project with errors is one error line per diagnostic and a fatal PROJECT_INVALID', async () => {
    const broken = join(parent, 'broken');
    cpSync('test/fixtures/valid-minimal', broken, { recursive: true });
    writeFileSync(
      join(broken, 'data', 'flows.yml'),
      'flows:\n  greet:\n    description: hi\n    stesp: []\n',
    );
    const run = await parley(['run', '--project', broken, '-i', '127.0.0.1', '--port', '0']);
    expect(run.code).to.equal(1);
    const lines = logLines(run.stderr);
    expect(lines.map((line) => [line['level'], line['code']])).to.deep.equal([
      [50, 'FLOW_EMPTY'],
      [60, 'PROJECT_INVALID'],
    ]);
    expect(lines[0]).to.include({ file: join(broken, 'data', 'flows.yml'), line: 4 });
    expect(run.stderr).to.not.match(/^\s+at /m);
  });

  it('without endpoints.yml, one info line says the A2A server is off and which stores are used', async () => {
    const run = await parley(['run', '--project', root, '-i', '127.0.0.1', '--port', '0'], /up and running/);
    expect(run.stdout).to.contain('Parley server is up and running');
    const said = logLines(run.stderr).filter((line) => String(line['msg']).startsWith('no endpoints.yml'));
    expect(said, run.stderr).to.have.lengthOf(1);
    expect(said[0]?.['level']).to.equal(30);
    expect(String(said[0]?.['msg'])).to.contain('the A2A server is off').and.contain('`a2a_server:` block');
    expect(String(said[0]?.['trackerStore'])).to.contain('sqlite');
  });
});
