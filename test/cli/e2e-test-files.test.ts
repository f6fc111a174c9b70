import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeInlineProject } from '../support/inline-project.js';
import { runCli } from './cli-harness.js';

// An assistant driven by payloads only, with one good test file next to broken and empty ones.
const PROJECT = {
  domain: `
    intents:
      - choose
    slots:
      plan:
        type: text
    responses:
      utter_ask_plan:
        - text: Which plan?
      utter_done:
        - text: Done.
  `,
  flows: `
    flows:
      choose_plan:
        description: choose a plan
        nlu_trigger:
          - intent: choose
        steps:
          - collect: plan
          - action: utter_done
  `,
  files: {
    'tests/good.yml': [
      'test_cases:',
      '  - test_case: choose_gold',
      '    steps:',
      '      - user: /choose',
      '      - utter: utter_ask_plan',
      '      - user: /SetSlots(plan=gold)',
      '      - utter: utter_done',
      '',
    ].join('\n'),
    'tests/broken.yml': 'test_cases:\n  - test_case: half\n    steps:\n  - user: "unclosed\n',
    'tests/empty.yml': '# test cases to come\n',
  },
};

describe('e2e test files never block the other commands', function () {
  this.timeout(60_000);
  let root: string;
  before(() => (root = writeInlineProject(PROJECT)));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('parley data validate exits 0 and warns about the broken test file only', async () => {
    const run = await runCli(['data', 'validate', '-p', root]);
    expect(run.code, run.stdout).to.equal(0);
    const lines = run.stdout.split('\n').filter((line) => !line.startsWith(' ') && line.trim() !== '');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(/tests\/broken\.yml:\d+:\d+ warning E2E_TEST_FILE_INVALID .*\(YAML_SYNTAX\)$/);
    expect(lines[1]).to.equal('0 errors, 1 warning');
  });

  it('parley train trains past it (a warning), into the folder given', async () => {
    const out = mkdtempSync(join(tmpdir(), 'parley-e2e-files-model-'));
    try {
      const run = await runCli(['train', '-p', root, '--out', out]);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(run.stderr).to.match(/tests\/broken\.yml:\d+:\d+ warning E2E_TEST_FILE_INVALID /);
      expect(readdirSync(out).filter((name) => name.endsWith('.tar.gz'))).to.have.length(1);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('parley run serves past it, answering on REST', async () => {
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: new MemoryTrackerStore(),
      lockStore: new MemoryLockStore(),
    });
    try {
      const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: 'u1', message: '/choose' }),
      });
      expect(await response.json()).to.deep.equal([{ recipient_id: 'u1', text: 'Which plan?' }]);
    } finally {
      await server.close();
    }
  });

  it('parley test e2e reports the broken file as an error, runs the good one and fails', async () => {
    const run = await runCli(['test', 'e2e', '-p', root]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/tests\/broken\.yml:\d+:\d+ error E2E_TEST_FILE_INVALID .*\(YAML_SYNTAX\)\n/);
    expect(run.stderr).not.to.contain('empty.yml');
    expect(run.stdout).to.contain('0 failed, 1 passed');
  });

  it('parley test e2e reports a broken file given by path outside tests/ as its parser reads it', async () => {
    writeFileSync(join(root, 'other.yml'), 'test_cases:\n  - test_case: d\n    steps:\n      - usr: hi\n');
    const run = await runCli(['test', 'e2e', '-p', root, join(root, 'other.yml')]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/other\.yml:4:1 error E2E_SCHEMA /);
  });

  it('parley test e2e passes once the broken file is gone; the comment-only file is skipped', async () => {
    rmSync(`${root}/tests/broken.yml`);
    const run = await runCli(['test', 'e2e', '-p', root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.contain('0 failed, 1 passed');
    expect(run.stderr).not.to.contain('empty.yml');
  });
});
