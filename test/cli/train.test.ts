import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintProject, listModels, readModel } from '../../src/cli/model-archive.js';
import { PARLEY_VERSION } from '../../src/version.js';
import { discoverProjectFiles } from '../../src/project/load/discover.js';
import { deserializeTrainedNlu } from '../../src/understanding/nlu/trained-nlu-json.js';
import { copyFixture, runCli, savedPath } from './cli-harness.js';

describe('parley train', function () {
  this.timeout(60_000);
  let fixture: ReturnType<typeof copyFixture>;
  const models = () => listModels(join(fixture.root, 'models'));

  beforeEach(() => (fixture = copyFixture('nlu-small')));
  afterEach(() => fixture.dispose());

  it('writes a model archive under models/ of the project and prints its path', async () => {
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.code, run.stderr).to.equal(0);
    const path = savedPath(run.stdout);
    expect(models()).to.deep.equal([path]);
    expect(path).to.match(/models\/\d{8}-\d{6}-[0-9a-f]{16}\.tar\.gz$/);
    const archive = readModel(path);
    expect(archive.metadata).to.include({
      format: 'parley-model',
      understanding: 'nlu',
      assistantId: 'nlu-small',
      fingerprint: fingerprintProject(discoverProjectFiles({ project: fixture.root }), {
        parleyVersion: PARLEY_VERSION,
      }),
    });
    expect(archive.compiled.flows).to.be.an('array').that.is.not.empty;
    const nlu = deserializeTrainedNlu(archive.nlu);
    expect(nlu.classifier.predict('I want to order a pizza').intent).to.equal('order_pizza');
  });

  it('skips training when nothing changed, and says where the old model is', async () => {
    const first = savedPath((await runCli(['train', '-p', fixture.root])).stdout);
    const again = await runCli(['train', '-p', fixture.root]);
    expect(again.code).to.equal(0);
    expect(again.stdout).to.equal(`Nothing changed. You can use the old model stored at '${first}'.\n`);
    expect(again.stderr).not.to.contain('Training:');
    expect(models()).to.deep.equal([first]);
  });

  it('trains again when the NLU data changed', async () => {
    const first = savedPath((await runCli(['train', '-p', fixture.root])).stdout);
    fixture.edit('data/nlu.yml', (text) => text.replace('- hiya\n', '- hiya\n      - greetings\n'));
    const again = await runCli(['train', '-p', fixture.root]);
    expect(again.code, again.stderr).to.equal(0);
    const second = savedPath(again.stdout);
    expect(second).not.to.equal(first);
    expect(readModel(second).metadata.fingerprint).not.to.equal(readModel(first).metadata.fingerprint);
    expect(models()).to.have.members([first, second]);
  });

  it('trains again with --force although nothing changed', async () => {
    const first = savedPath((await runCli(['train', '-p', fixture.root])).stdout);
    const forced = await runCli(['train', '-p', fixture.root, '--force', '--fixed-model-name', 'again']);
    expect(forced.code, forced.stderr).to.equal(0);
    expect(forced.stdout).to.contain('trained and saved at');
    expect(models()).to.have.members([first, join(fixture.root, 'models', 'again.tar.gz')]);
  });

  it('writes to --out under --fixed-model-name, and finds that model again by its fingerprint', async () => {
    const out = join(fixture.root, 'elsewhere');
    const run = await runCli(['train', '-p', fixture.root, '--out', out, '--fixed-model-name', 'pizza']);
    expect(savedPath(run.stdout)).to.equal(join(out, 'pizza.tar.gz'));
    const again = await runCli(['train', '-p', fixture.root, '--out', out]);
    expect(again.stdout).to.contain(
      `Nothing changed. You can use the old model stored at '${join(out, 'pizza.tar.gz')}'`,
    );
  });

  it('refuses a project with errors, printing every diagnostic, and trains nothing', async () => {
    fixture.edit('data/flows.yml', (text) => text.replace('action: utter_greet', 'action: utter_nowhere'));
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('utter_nowhere').and.to.contain('nothing was trained');
    expect(existsSync(join(fixture.root, 'models'))).to.equal(false);
  });

  it('accepts DIETClassifier, trains Parley’s ensemble in its place and says so', async () => {
    fixture.edit('config.yml', (text) => text.replace('LogisticRegressionClassifier', 'DIETClassifier'));
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.code, run.stderr).to.equal(0);
    // said once, by the validation that train runs first; the archive keeps the same words as a note
    const said = run.stderr.split('\n').filter((line) => line.includes('DIETClassifier is not run'));
    expect(said).to.have.length(1);
    expect(said[0]).to.contain('warning CONFIG_COMPONENT_REPLACED').and.contain('intent classifier');
    const archive = readModel(savedPath(run.stdout));
    expect(archive.metadata.notes.join(' ')).to.contain('DIETClassifier is not run');
    const members = deserializeTrainedNlu(archive.nlu).classifier.members.map((member) => member.kind);
    expect(members).to.deep.equal(['linear', 'mlp', 'mlp', 'mlp']);
  });

  it('trains the pipeline config.yml names (here a single logistic regression), with no note', async () => {
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.stderr).not.to.contain('Note:');
    const members = deserializeTrainedNlu(readModel(savedPath(run.stdout)).nlu).classifier.members;
    expect(members.map((member) => member.kind)).to.deep.equal(['linear']);
  });

  it('gives a project without NLU components Parley’s default pipeline', async () => {
    fixture.edit('config.yml', (text) => text.replace(/pipeline:[\s\S]*?policies:/, 'policies:'));
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.code, run.stderr).to.equal(0);
    const members = deserializeTrainedNlu(readModel(savedPath(run.stdout)).nlu).classifier.members;
    expect(members.map((member) => member.kind)).to.deep.equal(['linear', 'mlp', 'mlp', 'mlp']);
  });

  it('writes no NLU for a project that understands through an LLM command generator', async () => {
    fixture.edit('config.yml', (text) =>
      text
        .replace('pipeline:\n', 'pipeline:\n  - name: CompactLLMCommandGenerator\n')
        .replace(/^\s*- name: NLUCommandAdapter\n/m, ''),
    );
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.contain('No NLU to train');
    const archive = readModel(savedPath(run.stdout));
    expect(archive.metadata.understanding).to.equal('llm');
    expect(archive.nlu).to.equal(null);
  });

  it('trains the NLU of a hybrid project (NLUCommandAdapter next to an LLM command generator), as Rasa does', async () => {
    fixture.edit('config.yml', (text) =>
      text.replace('pipeline:\n', 'pipeline:\n  - name: CompactLLMCommandGenerator\n'),
    );
    const run = await runCli(['train', '-p', fixture.root]);
    expect(run.code, run.stderr).to.equal(0);
    const archive = readModel(savedPath(run.stdout));
    expect(archive.metadata.understanding).to.equal('hybrid');
    expect(archive.nlu).not.to.equal(null);
    expect(run.stderr).to.contain('Trained the NLU pipeline (hybrid');
    expect(run.stderr).not.to.contain('No NLU to train');
  });

  it('shows progress in place on a terminal and as plain phase lines elsewhere, on stderr only', async () => {
    const plain = await runCli(['train', '-p', fixture.root]);
    expect(plain.stderr).to.contain(
      'Training: word and character n-gram features\nTraining: intent classifier (1 member)\n' +
        'Training: entity extractors\n',
    );
    expect(plain.stderr).not.to.contain('\r');
    const terminal = await runCli(['train', '-p', fixture.root, '--force'], { tty: true });
    const clearLine = '\r\u001b[2K';
    expect(terminal.stderr).to.contain(`${clearLine}Training: intent classifier, member 1 of 1 (linear) … `);
    // cleared before the result lines
    expect(terminal.stderr).to.contain(`${clearLine}Trained the NLU pipeline in `);
    expect(terminal.stderr).not.to.match(/Training: [^\r]*\n/);
    for (const run of [plain, terminal]) expect(run.stdout).not.to.contain('Training');
  });
});
