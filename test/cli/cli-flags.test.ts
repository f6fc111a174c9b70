import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { addLoggingOptions, requestedLogLevel } from '../../src/cli/common-options.js';
import type { LoggingFlags } from '../../src/cli/common-options.js';
import { buildProgram } from '../../src/cli/main.js';
import { KNOWN_RASA_VERSIONS } from '../../src/core/patterns/rasa-versions.js';
import { writeInlineProject } from '../support/inline-project.js';
import { copyFixture, runCli, savedPath } from './cli-harness.js';

const QUIET_PROJECT = {
  domain: 'version: "3.1"\nresponses:\n  utter_hi:\n    - text: hi\n',
  flows: 'flows:\n  hi:\n    description: says hi\n    steps:\n      - action: utter_hi\n',
};

describe('CLI habits from Rasa', function () {
  this.timeout(60_000);
  const roots: string[] = [];
  const project = (files: Partial<typeof QUIET_PROJECT> & { config?: string } = {}) => {
    const root = writeInlineProject({ ...QUIET_PROJECT, ...files });
    roots.push(root);
    return root;
  };
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  describe('parley data validate --fail-on-warnings', () => {
    const withWarning = () =>
      project({
        config: 'recipe: default.v1\nlanguage: en\nassistant_id: w\npolicies:\n  - name: TEDPolicy\n',
      });

    it('exits 1 when there are warnings only with the flag', async () => {
      const root = withWarning();
      const plain = await runCli(['data', 'validate', '-p', root]);
      expect(plain.code, plain.stdout).to.equal(0);
      expect(plain.stdout).to.contain('CONFIG_COMPONENT_REPLACED').and.contain('0 errors, 1 warning');
      const strict = await runCli(['data', 'validate', '-p', root, '--fail-on-warnings']);
      expect(strict.code).to.equal(1);
      expect(strict.stdout).to.equal(plain.stdout);
    });

    it('exits 0 with the flag when there is nothing to say', async () => {
      const run = await runCli(['data', 'validate', '-p', project(), '--fail-on-warnings']);
      expect(run.code, run.stdout).to.equal(0);
      expect(run.stdout).to.equal('0 errors, 0 warnings\n');
    });
  });

  describe('--rasa-version', () => {
    for (const command of [
      ['train'],
      ['data', 'validate'],
      ['validate'],
      ['test', 'e2e'],
      ['run'],
      ['shell'],
    ])
      it(`${command.join(' ')} refuses a version Parley does not know, listing the known ones`, async () => {
        const run = await runCli([...command, '--rasa-version', '3.6']);
        expect(run.code).to.equal(2);
        expect(run.stderr)
          .to.contain("'3.6' is not a Rasa version Parley knows")
          .and.contain(KNOWN_RASA_VERSIONS.join(', '));
      });

    it('says that CALM starts at Rasa 3.7 when the version is older (a Rasa 2 project)', async () => {
      const run = await runCli(['data', 'validate', '-p', project(), '--rasa-version', '2.8']);
      expect(run.code).to.equal(2);
      expect(run.stderr)
        .to.contain("'2.8' is not a Rasa version Parley knows")
        .and.contain('Rasa 2.8 predates CALM, which starts at Rasa Pro 3.7')
        .and.contain(KNOWN_RASA_VERSIONS.join(', '));
      const newer = await runCli(['data', 'validate', '-p', project(), '--rasa-version', '3.99']);
      expect(newer.stderr).to.contain("'3.99' is not a Rasa version").and.not.contain('predates CALM');
    });

    it('accepts a known one, patch releases included', async () => {
      const run = await runCli(['data', 'validate', '-p', project(), '--rasa-version', '3.13.9']);
      expect(run.code, run.stderr + run.stdout).to.equal(0);
    });
  });

  describe('parley train --skip-validation and --fail-on-validation-warnings', () => {
    let fixture: ReturnType<typeof copyFixture>;
    beforeEach(() => (fixture = copyFixture('nlu-small')));
    afterEach(() => fixture.dispose());

    it('trains a project that only the validation rules refuse, when asked to skip them', async () => {
      fixture.edit('data/flows.yml', (text) => text.replace('action: utter_greet', 'action: utter_nowhere'));
      const refused = await runCli(['train', '-p', fixture.root]);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.contain('ACTION_UNKNOWN');
      const skipped = await runCli(['train', '-p', fixture.root, '--skip-validation']);
      expect(skipped.code, skipped.stderr).to.equal(0);
      expect(skipped.stderr).not.to.contain('ACTION_UNKNOWN');
      expect(existsSync(savedPath(skipped.stdout))).to.equal(true);
    });

    it('still refuses files that do not load, validation skipped or not', async () => {
      fixture.edit('data/flows.yml', (text) => text.replace('flows:', 'flows: [unclosed'));
      const run = await runCli(['train', '-p', fixture.root, '--skip-validation']);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.contain('YAML_SYNTAX').and.contain('nothing was trained');
      expect(existsSync(join(fixture.root, 'models'))).to.equal(false);
    });

    it('refuses to train on warnings with --fail-on-validation-warnings', async () => {
      // nlu-small lists WhitespaceTokenizer and CountVectorsFeaturizer, which Parley replaces
      const run = await runCli(['train', '-p', fixture.root, '--fail-on-validation-warnings']);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.contain('CONFIG_COMPONENT_REPLACED').and.contain('nothing was trained');
      expect(existsSync(join(fixture.root, 'models'))).to.equal(false);
    });
  });

  describe('-p is the port of parley run, as in Rasa', () => {
    it('says a folder given to -p belongs to --project', async () => {
      const root = project();
      const run = await runCli(['run', '-p', root]);
      expect(run.code).to.equal(2);
      expect(run.stderr)
        .to.contain(`-p/--port must be a port number, not '${root}'`)
        .and.contain(`--project ${root}`);
    });

    it('says a number out of range is no port, without talking about --project', async () => {
      const run = await runCli(['run', '--project', project(), '-p', '70000']);
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain('from 0 to 65535').and.not.contain('--project');
    });

    it('parley shell has no port: a number given to -p that is no folder is explained', async () => {
      const run = await runCli(['shell', '-p', '5005']);
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain("no assistant folder '5005'").and.contain('serves no port');
    });
  });

  describe('-v, -vv/--debug and --quiet', () => {
    const levelOf = (argv: string[]): string | undefined => {
      let level: string | undefined = 'unset';
      const command = addLoggingOptions(new Command('x').exitOverride()).action(
        (flags: LoggingFlags) => void (level = requestedLogLevel(flags)),
      );
      command.parse(['node', 'x', ...argv]);
      return level;
    };

    it('map onto pino levels as Rasa maps them onto Python logging levels', () => {
      expect(levelOf([])).to.equal(undefined);
      expect(levelOf(['-v'])).to.equal('info');
      expect(levelOf(['--verbose'])).to.equal('info');
      expect(levelOf(['-vv'])).to.equal('debug');
      expect(levelOf(['--debug'])).to.equal('debug');
      expect(levelOf(['--quiet'])).to.equal('warn');
      expect(levelOf(['--quiet', '-v'])).to.equal('info');
      expect(levelOf(['-vv', '--log-level', 'error'])).to.equal('error');
      expect(levelOf(['--log-level', 'WARNING'])).to.equal('WARNING');
    });

    it('refuse a --log-level that names no level, listing the names', async () => {
      for (const command of [['run'], ['shell'], ['test', 'e2e']]) {
        const run = await runCli([...command, '--log-level', 'loud']);
        expect(run.code, command.join(' ')).to.equal(2);
        expect(run.stderr).to.contain("'loud' is not a log level").and.contain('warning, error, critical');
      }
    });

    it('are taken by every command that logs', () => {
      const program = buildProgram({
        stdout: () => undefined,
        stderr: () => undefined,
        setExitCode: () => undefined,
      });
      const find = (path: string[]) =>
        path.reduce<Command | undefined>(
          (command, name) => command?.commands.find((child) => child.name() === name),
          program,
        );
      for (const path of [['run'], ['shell'], ['test', 'e2e']]) {
        const flags = find(path)?.options.map((option) => option.long);
        expect(flags, path.join(' ')).to.include.members(['--log-level', '--verbose', '--debug', '--quiet']);
      }
    });
  });

  describe('-v, --debug and --quiet on the commands that print a report (data validate, train)', () => {
    const withNote = () =>
      project({
        domain: `
          version: "3.1"
          slots:
            confirmed:
              type: text
          responses:
            utter_ask_confirmed:
              - text: Sure?
                buttons:
                  - title: Yes
                    payload: "yes"
        `,
        flows: 'flows:\n  confirm:\n    description: confirm\n    steps:\n      - collect: confirmed\n',
        config: 'recipe: default.v1\nlanguage: en\nassistant_id: q\npolicies:\n  - name: TEDPolicy\n',
      });

    it('validate --quiet lists errors and warnings but not notes, and still counts every one', async () => {
      const root = withNote();
      const plain = await runCli(['data', 'validate', '-p', root]);
      expect(plain.stdout).to.contain('info BUTTON_FREE_FORM_PAYLOAD');
      const quiet = await runCli(['data', 'validate', '-p', root, '--quiet']);
      expect(quiet.code).to.equal(0);
      expect(quiet.stdout).not.to.contain('BUTTON_FREE_FORM_PAYLOAD');
      expect(quiet.stdout).to.contain('warning CONFIG_COMPONENT_REPLACED');
      expect(quiet.stdout.trimEnd().split('\n').at(-1)).to.equal('0 errors, 1 warning, 1 info');
    });

    it('validate and train accept -v, -vv and --debug as Rasa does, printing the full report', async () => {
      const root = withNote();
      const plain = await runCli(['data', 'validate', '-p', root]);
      for (const flag of ['-v', '-vv', '--verbose', '--debug']) {
        const run = await runCli(['data', 'validate', '-p', root, flag]);
        expect(run.code, flag).to.equal(0);
        expect(run.stdout, flag).to.equal(plain.stdout);
      }
      const train = await runCli(['train', '-p', root, '-v', '--out', join(root, 'models-v')]);
      expect(train.code, train.stderr).to.equal(0);
      expect(train.stderr).to.contain('Trained the NLU pipeline');
    });

    it('train --quiet prints the warnings and the saved model, no notes and no timing', async () => {
      const root = withNote();
      const run = await runCli(['train', '-p', root, '--quiet']);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stderr).to.contain('CONFIG_COMPONENT_REPLACED');
      expect(run.stderr).not.to.contain('BUTTON_FREE_FORM_PAYLOAD');
      expect(run.stderr).not.to.contain('Trained the NLU pipeline');
      expect(existsSync(savedPath(run.stdout))).to.equal(true);
    });
  });
});
