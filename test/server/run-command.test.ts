import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { Command } from 'commander';
import { startServer } from '../../src/cli/serve.js';
import { runCommand } from '../../src/cli/run-command.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeInlineProject } from '../support/inline-project.js';
import { deferred, waitFor } from '../support/timing.js';

const SLOW_ACTION_HOOK = 'parleyTestSlowAction';
/** how long the shutdown lets connections finish once the turns are done: short, to cut early */
const CLOSE_GRACE_MS = 100;

const SLOW_PROJECT = {
  domain: `
    version: "3.1"
    actions: [action_slow]
    responses:
      utter_after:
        - text: after the slow action
  `,
  flows: `
    flows:
      slow:
        description: runs a slow action
        nlu_trigger: [{intent: slow}]
        steps:
          - action: action_slow
          - action: utter_after
  `,
  files: {
    // runs until the test lets it finish (the test and the in-process action share globalThis)
    'actions/slow.ts': [
      'export default {',
      "  name: 'action_slow',",
      '  async run() {',
      `    await (globalThis as Record<string, unknown>)['${SLOW_ACTION_HOOK}']?.();`,
      "    return { responses: [{ text: 'slow action done' }] };",
      '  },',
      '};',
    ].join('\n'),
  },
};

function captureIo() {
  const out = { stdout: '', stderr: '', code: -1 };
  return {
    out,
    io: {
      stdout: (text: string) => void (out.stdout += text),
      stderr: (text: string) => void (out.stderr += text),
      setExitCode: (code: number) => void (out.code = code),
    },
  };
}

async function runCli(argv: string[], signals = new EventEmitter()) {
  const { out, io } = captureIo();
  const program = new Command('parley').exitOverride();
  program.addCommand(runCommand(io, signals));
  const done = program.parseAsync(['node', 'parley', 'run', ...argv]);
  return { out, done, signals };
}

describe('parley run', function () {
  this.timeout(60_000);

  it('finishes the turns in flight on shutdown, then refuses connections', async () => {
    const root = writeInlineProject(SLOW_PROJECT);
    const store = new MemoryTrackerStore();
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: store,
      closeGraceMs: CLOSE_GRACE_MS,
    });
    const entered = deferred();
    const release = deferred();
    const hooks = globalThis as Record<string, unknown>;
    hooks[SLOW_ACTION_HOOK] = () => {
      entered.resolve();
      return release.promise;
    };
    const inFlight = fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ sender: 'slow', message: '/slow' }),
    });
    await entered.promise;
    const closed = server.close();
    // the turn goes on for ten graces: a shutdown that did not wait for it would cut its connection
    await new Promise((resolve) => setTimeout(resolve, 10 * CLOSE_GRACE_MS));
    release.resolve();
    delete hooks[SLOW_ACTION_HOOK];
    const response = await inFlight;
    const messages = (await response.json()) as { text: string }[];
    expect(messages.map((message) => message.text)).to.include.members([
      'slow action done',
      'after the slow action',
    ]);
    await closed;
    const events = await store.loadAll('slow');
    expect(events.at(-1)).to.include({ event: 'action', name: 'action_listen' });
    const refused = await fetch(`${server.baseUrl}/`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });

  it('starts on the given port, prints where it listens, and stops on SIGTERM', async () => {
    const root = writeInlineProject({ ...SLOW_PROJECT, files: {} });
    const listenersBefore = process.listeners('unhandledRejection');
    const { out, done, signals } = await runCli([
      '--project',
      root,
      '--port',
      '0',
      '-i',
      '127.0.0.1',
      '--log-level',
      'error',
    ]);
    await waitFor(
      () => out.stdout.includes('up and running') || out.code >= 0,
      'the server to start (or the command to end)',
      50_000,
    );
    expect(out.stdout).to.match(/Parley server is up and running at http:\/\/127\.0\.0\.1:\d+/);
    expect(out.stdout).to.contain('channels: rest');
    // a stray rejection is logged while serving (it does not end the process), and the hook goes with the server
    const added = process.listeners('unhandledRejection').filter((item) => !listenersBefore.includes(item));
    expect(added).to.have.length(1);
    expect(() => added[0]?.(new Error('stray'), Promise.resolve())).to.not.throw();
    signals.emit('SIGTERM');
    await done;
    expect(out.stdout).to.contain('Parley server stopped.');
    expect(out.code).to.equal(0);
    expect(process.listeners('unhandledRejection')).to.deep.equal(listenersBefore);
  });

  it('stops on a SIGTERM sent the moment it says it is up (a supervisor that reads the line and stops it)', async () => {
    const root = writeInlineProject({ ...SLOW_PROJECT, files: {} });
    const signals = new EventEmitter();
    const { out, io } = captureIo();
    const program = new Command('parley').exitOverride();
    const stopAtOnce = {
      ...io,
      stdout: (text: string) => {
        io.stdout(text);
        if (text.includes('up and running')) signals.emit('SIGTERM');
      },
    };
    program.addCommand(runCommand(stopAtOnce, signals));
    await program.parseAsync([
      'node',
      'parley',
      'run',
      '--project',
      root,
      '--port',
      '0',
      '-i',
      '127.0.0.1',
      '--log-level',
      'error',
    ]);
    expect(out.stdout).to.contain('Parley server stopped.');
    expect(out.code).to.equal(0);
  });

  it('fails fast when config.yml names an LLM command generator and no LLM is configured', async () => {
    const root = writeInlineProject({
      ...SLOW_PROJECT,
      files: {},
      config: `
        recipe: default.v1
        language: en
        assistant_id: llm-test
        pipeline:
          - name: CompactLLMCommandGenerator
            llm:
              model_group: missing-group
      `,
    });
    const { out, done } = await runCli(['--project', root, '--port', '0']);
    await done;
    expect(out.code).to.equal(1);
    expect(out.stderr).to.contain('model_groups');
    expect(out.stderr).to.contain('offline NLU pipeline');
  });

  it('refuses an invalid project, listing its errors, and a bad port', async () => {
    const root = writeInlineProject({
      domain: 'version: "3.1"\n',
      flows: 'flows:\n  broken:\n    description: x\n    steps:\n      - action: utter_missing\n',
    });
    const invalid = await runCli(['--project', root, '--port', '0']);
    await invalid.done;
    expect(invalid.out.code).to.equal(1);
    expect(invalid.out.stderr).to.contain('utter_missing');
    const badPort = await runCli(['--project', root, '--port', 'http']);
    await badPort.done;
    expect(badPort.out.code).to.equal(2);
    expect(badPort.out.stderr).to.contain('--port');
  });
});
