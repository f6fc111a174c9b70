import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { findModel, readModel, readModelMetadata, writeModel } from '../../src/cli/model-archive.js';
import type { ModelArchive } from '../../src/cli/model-archive.js';
import { readTar, writeTar } from '../../src/cli/tar.js';
import { trainModel } from '../../src/cli/train-model.js';
import { AppError } from '../../src/core/errors.js';
import { loadProject } from '../../src/project/load-project.js';
import { nluInterpreter } from '../../src/understanding/nlu/pipeline.js';
import { TRAINED_NLU_VERSION, deserializeTrainedNlu } from '../../src/understanding/nlu/trained-nlu-json.js';
import { copyFixture, runCli } from './cli-harness.js';

const MESSAGES = [
  'hello there',
  'I want a large pizza',
  'order a small one please',
  'good evening!',
  'what is the weather like',
  'large',
  'can I get two pizzas',
  'asdfgh qwerty',
];

function expectModelInvalid(read: () => unknown, reason: RegExp): void {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).code).to.equal('MODEL_INVALID');
    expect((error as AppError).message)
      .to.match(reason)
      .and.to.contain('parley train');
    return;
  }
  expect.fail('expected MODEL_INVALID');
}

describe('the model archive', function () {
  this.timeout(60_000);
  let fixture: ReturnType<typeof copyFixture>;
  let trained: ReturnType<typeof trainModel>;
  const today = () => new Date('2025-03-01T12:00:00Z');

  before(() => {
    fixture = copyFixture('nlu-small');
    // the default ensemble (linear and MLP members, 8-bit weights), so that every part is round-tripped
    fixture.edit('config.yml', (text) => text.replace('LogisticRegressionClassifier', 'DIETClassifier'));
    const { project } = loadProject({ project: fixture.root });
    trained = trainModel({ project, fingerprint: '0123456789abcdef', out: join(fixture.root, 'models') });
  });
  after(() => fixture.dispose());

  const copyWith = (name: string, change: (archive: ModelArchive) => ModelArchive): string => {
    const archive = readModel(trained.path);
    return writeModel(join(fixture.root, 'models'), change(archive), name);
  };

  it('gives the same predictions after a round trip through the file as the model trained in memory', () => {
    const memory = trained.nlu;
    if (!memory) return expect.fail('the fixture trains NLU');
    const loaded = deserializeTrainedNlu(readModel(trained.path).nlu);
    const before = nluInterpreter(memory, today);
    const after = nluInterpreter(loaded, today);
    for (const text of MESSAGES) {
      expect(after.interpret(text), text).to.deep.equal(before.interpret(text));
      expect(loaded.classifier.probabilities(text), text).to.deep.equal(
        memory.classifier.probabilities(text),
      );
    }
  });

  it('is a gzip-compressed tar that the tar program lists, metadata.json first', () => {
    const listing = spawnSync('tar', ['-tzf', trained.path], { encoding: 'utf8' });
    expect(listing.status, listing.stderr).to.equal(0);
    expect(listing.stdout.trim().split('\n')).to.deep.equal([
      'metadata.json',
      'domain.json',
      'flows.json',
      'nlu.json',
    ]);
    expect(readModelMetadata(trained.path)).to.deep.equal(trained.metadata);
  });

  it('refuses a file that is not an archive: MODEL_INVALID, and to train again', () => {
    const path = join(fixture.root, 'models', 'junk.tar.gz');
    writeFileSync(path, 'not a model at all');
    expectModelInvalid(() => readModel(path), /junk\.tar\.gz cannot be used: it is not a gzip file/);
    expectModelInvalid(() => readModelMetadata(path), /not a gzip-compressed tar archive/);
  });

  it('refuses a truncated archive', () => {
    const path = join(fixture.root, 'models', 'truncated.tar.gz');
    const tar = gunzipSync(readFileSync(trained.path));
    writeFileSync(path, gzipSync(tar.subarray(0, tar.length - 5000)));
    expectModelInvalid(() => readModel(path), /not a tar archive \(the tar stream is truncated\)/);
  });

  it('refuses an archive of another format version', () => {
    const path = copyWith('future', (archive) => ({
      ...archive,
      metadata: { ...archive.metadata, version: 2 as 1 },
    }));
    expectModelInvalid(() => readModelMetadata(path), /archive format 2; this Parley reads format 1/);
  });

  it('refuses an archive whose classifier weights are damaged', () => {
    const path = copyWith('damaged', (archive) => {
      const nlu = archive.nlu;
      if (!nlu) throw new Error('no NLU');
      const bytes = Buffer.from(nlu.classifier, 'base64');
      return { ...archive, nlu: { ...nlu, classifier: bytes.subarray(0, 64).toString('base64') } };
    });
    expectModelInvalid(() => deserializeTrainedNlu(readModel(path).nlu, path), /its NLU part is damaged/);
  });

  it('refuses NLU of another version', () => {
    const nlu = readModel(trained.path).nlu;
    expectModelInvalid(
      () => deserializeTrainedNlu({ ...nlu, version: 7 }),
      new RegExp(`NLU part has format version 7; this Parley reads version ${TRAINED_NLU_VERSION}`),
    );
  });

  it('is passed over when damaged while looking for a model of the same inputs', () => {
    const folder = join(fixture.root, 'scan');
    const good = writeModel(folder, readModel(trained.path));
    writeFileSync(join(folder, 'zzz-newer-but-broken.tar.gz'), 'broken');
    expect(findModel(folder, trained.metadata.fingerprint)).to.equal(good);
    expect(findModel(folder, 'ffffffffffffffff')).to.equal(undefined);
  });

  it('reads back what the tar writer wrote, and reads a prefix entry by entry', () => {
    const entries = [
      { name: 'a.json', data: Buffer.from('{"a":1}') },
      { name: 'b.bin', data: new Uint8Array(1000).fill(7) },
    ];
    const tar = writeTar(entries, 1_700_000_000);
    expect(readTar(tar).map((entry) => [entry.name, Buffer.from(entry.data)])).to.deep.equal(
      entries.map((entry) => [entry.name, Buffer.from(entry.data)]),
    );
    expect(readTar(tar.subarray(0, 1100), { partial: true }).map((entry) => entry.name)).to.deep.equal([
      'a.json',
    ]);
  });

  it('makes `parley test e2e -m` fail with exit 1 and the reason when the archive is corrupt', async () => {
    const path = join(fixture.root, 'models', 'corrupt.tar.gz');
    writeFileSync(path, gzipSync(Buffer.from('garbage'.repeat(200))));
    const run = await runCli(['test', 'e2e', '-p', fixture.root, '-m', path]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`parley: ${path} cannot be used: it is not a tar archive`);
    expect(run.stdout).not.to.contain('passed');
  });
});
