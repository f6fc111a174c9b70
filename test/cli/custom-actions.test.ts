/**
 * Custom actions a Rasa author brings: `action_endpoint.actions_module` names where Parley loads its
 * TypeScript actions (a dotted path, default `actions`), and declared custom actions nothing runs are
 * said once by `parley data validate` and once at `parley run` start-up instead of failing each call.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import type { InlineProjectFiles } from '../support/inline-project.js';
import { writeInlineProject } from '../support/inline-project.js';
import { recordingLogger } from '../support/recording-logger.js';
import type { RecordingLogger } from '../support/recording-logger.js';
import { runCli } from './cli-harness.js';

const DOMAIN = `
  version: "3.1"
  slots:
    amount:
      type: float
  actions:
    - action_transfer
    - action_check_balance
    - validate_amount
    - action_session_start
    - utter_done
  responses:
    utter_done:
      - text: done
    utter_ask_amount:
      - text: How much?
`;

const FLOWS = `
  flows:
    check:
      description: checks the balance
      nlu_trigger: [{intent: check}]
      steps:
        - action: action_check_balance
        - action: utter_done
`;

const PYTHON_ACTIONS = {
  'actions/__init__.py': '',
  'actions/actions.py': 'from rasa_sdk import Action\n',
};

/** an in-process action saying `text` */
function tsAction(name: string, text: string): string {
  return `export default { name: '${name}', run: () => ({ responses: [{ text: '${text}' }] }) };\n`;
}

function project(parts: Partial<InlineProjectFiles> = {}): InlineProjectFiles {
  return { domain: DOMAIN, flows: FLOWS, ...parts };
}

const roots: string[] = [];
function write(parts: Partial<InlineProjectFiles> = {}): string {
  const root = writeInlineProject(project(parts));
  roots.push(root);
  return root;
}

interface Reported {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
}

async function validate(root: string): Promise<Reported[]> {
  const run = await runCli(['data', 'validate', '-p', root, '--format', 'json']);
  const output = JSON.parse(run.stdout) as { diagnostics: Reported[] };
  return output.diagnostics.filter((item) => item.code === 'CUSTOM_ACTIONS_NOT_IMPLEMENTED');
}

async function start(root: string, logger: RecordingLogger): Promise<ParleyServer> {
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger,
    trackerStore: new MemoryTrackerStore(),
    lockStore: new MemoryLockStore(),
  });
}

function warningsWithCode(logger: RecordingLogger): { fields: Record<string, unknown>; message: string }[] {
  return logger.warningFields
    .map((fields, index) => ({ fields, message: logger.warnings[index] ?? '' }))
    .filter((item) => item.fields['code'] === 'CUSTOM_ACTIONS_NOT_IMPLEMENTED');
}

async function say(server: ParleyServer, sender: string, message: string): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sender, message }),
  });
  return ((await response.json()) as { text: string }[]).map((item) => item.text);
}

after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('parley data validate: declared custom actions nothing runs', function () {
  this.timeout(30_000);

  it('warns once about a Rasa project whose actions are Python, naming the actions sorted', async () => {
    const root = write({
      endpoints: 'action_endpoint:\n  actions_module: "actions"\n',
      files: PYTHON_ACTIONS,
    });
    const said = await validate(root);
    expect(said).to.have.length(1);
    const [warning] = said;
    expect(warning?.severity).to.equal('warning');
    expect(warning?.file).to.match(/domain\.yml$/);
    expect(warning?.line).to.equal(5);
    // responses and Parley's own action_session_start are not custom actions; a declared validate_<slot> is
    expect(warning?.message).to.contain(
      '3 custom actions are declared but nothing Parley runs provides them ' +
        '(action_check_balance, action_transfer, validate_amount)',
    );
    expect(warning?.message).to.contain("the actions module 'actions' (actions/) holds no TypeScript");
    expect(warning?.message).to.contain('its 2 Python files are not run by Parley');
    expect(warning?.message).to.contain('action_endpoint.url');
  });

  it('says the actions folder does not exist when there is none and no action server', async () => {
    const [warning, ...more] = await validate(write());
    expect(more).to.deep.equal([]);
    expect(warning?.message).to.contain("the actions module 'actions' (actions/) does not exist");
    expect(warning?.message).not.to.contain('Python');
  });

  it('names a single Python module file (actions_module: bot_actions and bot_actions.py)', async () => {
    const root = write({
      endpoints: 'action_endpoint:\n  actions_module: bot_actions\n',
      files: { 'bot_actions.py': 'from rasa_sdk import Action\n' },
    });
    const [warning] = await validate(root);
    expect(warning?.message).to.contain("the actions module 'bot_actions' is bot_actions.py, Python");
    expect(warning?.message).to.contain('TypeScript modules in bot_actions/');
  });

  it('lists at most eight actions and counts the rest', async () => {
    const names = Array.from({ length: 11 }, (_, index) => `action_${String(index).padStart(2, '0')}`);
    const root = write({ domain: `version: "3.1"\nactions: [${names.join(', ')}]\n`, flows: 'flows: {}\n' });
    const [warning] = await validate(root);
    expect(warning?.message).to.contain(
      '(action_00, action_01, action_02, action_03, action_04, action_05, action_06, action_07 and 3 more)',
    );
  });

  it('says nothing when the actions folder has a TypeScript module (what it exports is known at run time)', async () => {
    const root = write({ files: { ...PYTHON_ACTIONS, 'actions/balance.ts': tsAction('action_x', 'x') } });
    expect(await validate(root)).to.deep.equal([]);
  });

  it('says nothing when an action server url is set (it may provide every action)', async () => {
    const root = write({ endpoints: 'action_endpoint:\n  url: http://localhost:5055/webhook\n' });
    expect(await validate(root)).to.deep.equal([]);
  });

  it('ignores the url beside actions_module, as Rasa does (actions_module wins)', async () => {
    const root = write({
      endpoints: 'action_endpoint:\n  actions_module: actions\n  url: http://localhost:5055/webhook\n',
      files: PYTHON_ACTIONS,
    });
    expect(await validate(root)).to.have.length(1);
  });

  it('says nothing when the domain declares no custom action', async () => {
    const root = write({
      domain:
        'version: "3.1"\nactions: [utter_done, action_session_start]\nresponses:\n  utter_done:\n    - text: done\n',
      flows: 'flows: {}\n',
    });
    expect(await validate(root)).to.deep.equal([]);
  });
});

describe('parley run start-up: declared custom actions nothing provides', function () {
  this.timeout(60_000);

  it('logs one structured warning naming the actions of a Python-only project', async () => {
    const logger = recordingLogger();
    const root = write({
      endpoints: 'action_endpoint:\n  actions_module: "actions"\n',
      files: PYTHON_ACTIONS,
    });
    const server = await start(root, logger);
    try {
      const said = warningsWithCode(logger);
      expect(said).to.have.length(1);
      expect(said[0]?.fields).to.deep.include({ count: 3, actions_module: 'actions' });
      expect(said[0]?.fields['actions']).to.deep.equal([
        'action_check_balance',
        'action_transfer',
        'validate_amount',
      ]);
      expect(said[0]?.message).to.contain('3 declared custom actions have no implementation');
      expect(said[0]?.message).to.contain('Python files are not run');
    } finally {
      await server.close();
    }
  });

  it('names only the actions no TypeScript module exports', async () => {
    const logger = recordingLogger();
    const root = write({
      files: {
        ...PYTHON_ACTIONS,
        'actions/balance.ts': tsAction('action_check_balance', 'balance'),
        'actions/more.mjs': tsAction('validate_amount', 'ok'),
      },
    });
    const server = await start(root, logger);
    try {
      const said = warningsWithCode(logger);
      expect(said.map((item) => item.fields['actions'])).to.deep.equal([['action_transfer']]);
      expect(said[0]?.message).to.contain(
        "1 declared custom action has no implementation (action_transfer): no TypeScript or JavaScript module of the actions module 'actions' (actions/) exports it",
      );
    } finally {
      await server.close();
    }
  });

  it('says nothing when TypeScript modules provide every declared action', async () => {
    const logger = recordingLogger();
    const root = write({
      files: {
        'actions/all.ts': [
          tsAction('action_check_balance', 'balance').replace('export default', 'export const a ='),
          tsAction('action_transfer', 'sent').replace('export default', 'export const b ='),
          tsAction('validate_amount', 'ok').replace('export default', 'export const c ='),
        ].join(''),
      },
    });
    const server = await start(root, logger);
    try {
      expect(warningsWithCode(logger)).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });

  it('says nothing with an action server url', async () => {
    const logger = recordingLogger();
    const root = write({ endpoints: 'action_endpoint:\n  url: http://127.0.0.1:9/webhook\n' });
    const server = await start(root, logger);
    try {
      expect(warningsWithCode(logger)).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });
});

describe('action_endpoint.actions_module names where the in-process actions are', function () {
  this.timeout(60_000);

  it('loads the folder a dotted path names (my_pkg.actions = my_pkg/actions/) and runs its action', async () => {
    const logger = recordingLogger();
    const root = write({
      endpoints: 'action_endpoint:\n  actions_module: my_pkg.actions\n',
      files: {
        'my_pkg/actions/balance.ts': tsAction('action_check_balance', 'from my_pkg.actions'),
        // the default folder is not read when actions_module names another one
        'actions/balance.ts': tsAction('action_check_balance', 'from actions/'),
      },
    });
    const server = await start(root, logger);
    try {
      expect((await say(server, 'dotted', '/check')).slice(0, 2)).to.deep.equal([
        'from my_pkg.actions',
        'done',
      ]);
      expect(warningsWithCode(logger).map((item) => item.fields['actions'])).to.deep.equal([
        ['action_transfer', 'validate_amount'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('loads a single module file when the name is a module, not a folder (bot_actions = bot_actions.ts)', async () => {
    const root = write({
      endpoints: 'action_endpoint:\n  actions_module: bot_actions\n',
      files: { 'bot_actions.ts': tsAction('action_check_balance', 'from bot_actions.ts') },
    });
    expect(await validate(root)).to.deep.equal([]);
    const server = await start(root, recordingLogger());
    try {
      expect((await say(server, 'file', '/check')).slice(0, 2)).to.deep.equal([
        'from bot_actions.ts',
        'done',
      ]);
    } finally {
      await server.close();
    }
  });

  it('still loads actions/ when endpoints.yml names no module', async () => {
    const root = write({
      files: { 'actions/balance.ts': tsAction('action_check_balance', 'from actions/') },
    });
    const server = await start(root, recordingLogger());
    try {
      expect((await say(server, 'default', '/check')).slice(0, 2)).to.deep.equal(['from actions/', 'done']);
    } finally {
      await server.close();
    }
  });
});
