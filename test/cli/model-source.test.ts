import { expect } from 'chai';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { listModels } from '../../src/cli/model-archive.js';
import { loadOrTrainModel } from '../../src/cli/model-source.js';
import { executeTestE2E } from '../../src/cli/run-test-e2e.js';
import type { CliIo } from '../../src/cli/io.js';
import { AppError } from '../../src/core/errors.js';
import { loadProject } from '../../src/project/load-project.js';
import { copyFixture, recordingLogger, runCli, savedPath } from './cli-harness.js';

const SILENT_IO: CliIo = { stdout() {}, stderr() {}, setExitCode() {} };

describe('the model parley test e2e (and parley run) use', function () {
  this.timeout(60_000);
  let fixture: ReturnType<typeof copyFixture>;
  const models = () => listModels(join(fixture.root, 'models'));
  const e2e = (model: { path?: string }, logger = recordingLogger()) =>
    executeTestE2E(SILENT_IO, {
      location: { project: fixture.root },
      projectRoot: fixture.root,
      paths: [],
      failFast: false,
      deterministicOnly: false,
      quiet: true,
      logger,
      model,
    });

  beforeEach(() => (fixture = copyFixture('nlu-small')));
  afterEach(() => fixture.dispose());

  it('is the trained model of the same project files: test e2e trains nothing and writes nothing', async () => {
    const trained = savedPath((await runCli(['train', '-p', fixture.root])).stdout);
    const written = statSync(trained).mtimeMs;
    const run = await runCli(['test', 'e2e', '-p', fixture.root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.contain('0 failed, 3 passed');
    expect(run.stderr).not.to.contain('Training').and.not.to.contain('trained');
    expect(models()).to.deep.equal([trained]);
    expect(statSync(trained).mtimeMs).to.equal(written);

    const logger = recordingLogger();
    const outcome = await e2e({}, logger);
    expect(outcome.model).to.deep.equal({ path: trained, trainedNow: false });
    expect(logger.messages).to.include('model loaded').and.not.to.include('model trained');
  });

  it('is trained first and kept under models/ when none matches; the next run uses it', async () => {
    const run = await runCli(['test', 'e2e', '-p', fixture.root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    const [trained] = models();
    expect(trained).to.be.a('string');
    expect(run.stderr).to.contain(`No model matched the project files; trained ${trained}`);
    expect(run.stderr).to.contain('Training: intent classifier (1 member)');

    const outcome = await e2e({});
    expect(outcome.model).to.deep.equal({ path: trained, trainedNow: false });
    expect(outcome.exitCode).to.equal(0);
  });

  it('when trained by test e2e for a DIETClassifier config, says that Parley replaced DIET', async () => {
    fixture.edit('config.yml', (text) => text.replace('LogisticRegressionClassifier', 'DIETClassifier'));
    const run = await runCli(['test', 'e2e', '-p', fixture.root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    // the words of the compatibility table that `parley data validate` uses, once
    const notes = run.stderr.split('\n').filter((line) => line.startsWith('Note: DIETClassifier'));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.contain(
      'DIETClassifier is not run; in its place: Parley’s offline intent classifier',
    );
    expect(run.stderr).to.contain('Training: intent classifier (4 members)');
  });

  it('is not a model of other project files: a changed nlu.yml trains a new one', async () => {
    const first = savedPath((await runCli(['train', '-p', fixture.root])).stdout);
    fixture.edit('data/nlu.yml', (text) => text.replace('- hiya\n', '- hiya\n      - howdy\n'));
    const outcome = await e2e({});
    expect(outcome.model?.trainedNow).to.equal(true);
    expect(outcome.model?.path).not.to.equal(first);
    expect(models()).to.have.length(2);
  });

  it('is the one -m names, a file or the newest in a folder, even from other files (with a warning)', async () => {
    const out = join(fixture.root, 'other');
    const trained = savedPath((await runCli(['train', '-p', fixture.root, '--out', out])).stdout);
    fixture.edit('data/nlu.yml', (text) => text.replace('- hiya\n', '- hiya\n      - howdy\n'));
    for (const path of [trained, out]) {
      const logger = recordingLogger();
      const outcome = await e2e({ path }, logger);
      expect(outcome.model).to.deep.equal({ path: trained, trainedNow: false });
      expect(outcome.exitCode).to.equal(0);
      expect(logger.messages.join('\n')).to.contain('the model was trained from other project files');
    }
    expect(models()).to.deep.equal([]);
  });

  it('is MODEL_NOT_FOUND when -m names nothing, and when none matches and training is not allowed', async () => {
    const run = await runCli(['test', 'e2e', '-p', fixture.root, '-m', join(fixture.root, 'nowhere.tar.gz')]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('nowhere.tar.gz: no such model file or folder.');

    const { project } = loadProject({ project: fixture.root });
    expect(() => loadOrTrainModel({ project, logger: recordingLogger(), train: false }))
      .to.throw(AppError, /No model in .*models was trained from the current project files/)
      .with.property('code', 'MODEL_NOT_FOUND');
  });

  it('is refused when it has no NLU but the project needs it (trained for an LLM generator)', async () => {
    const original = { config: '' };
    fixture.edit('config.yml', (text) => {
      original.config = text;
      // an LLM generator alone (with NLUCommandAdapter beside it the project would be hybrid, with NLU)
      return text
        .replace('pipeline:\n', 'pipeline:\n  - name: CompactLLMCommandGenerator\n')
        .replace(/^\s*- name: NLUCommandAdapter\n/m, '');
    });
    const llmModel = savedPath((await runCli(['train', '-p', fixture.root])).stdout);
    fixture.edit('config.yml', () => original.config);
    // the CLI's own logger would print the expected fingerprint warning into the test output
    const level = process.env['LOG_LEVEL'];
    process.env['LOG_LEVEL'] = 'error';
    const run = await runCli(['test', 'e2e', '-p', fixture.root, '-m', llmModel]).finally(() => {
      if (level === undefined) delete process.env['LOG_LEVEL'];
      else process.env['LOG_LEVEL'] = level;
    });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('it was trained for an LLM command generator and has no NLU');
  });
});
