import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main.js';
import { SYNTHETIC } from './synthetic.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function parley(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'parley', ...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    setExitCode: () => undefined,
  });
  return { code, stdout, stderr };
}

describe('parley nlu evaluate', () => {
  let dir = '';
  const path = (name: string) => join(dir, name);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-nlu-'));
    const rows = SYNTHETIC.map((example) => `"${example.text}",${example.intent}`);
    writeFileSync(path('train.csv'), ['text,category', ...rows].join('\n'));
    writeFileSync(
      path('test.csv'),
      [
        'text,category',
        'hello friend,greet',
        'how much do I have in my account,check_balance',
        'send 10 pounds to Sam,transfer_money',
        'see you tomorrow,goodbye',
        'what is the tallest mountain on earth,oos',
        'recommend a recipe for lasagne,oos',
      ].join('\n'),
    );
    const yaml = ['version: "3.1"', 'nlu:'];
    for (const intent of new Set(SYNTHETIC.map((example) => example.intent))) {
      yaml.push(`- intent: ${intent}`, '  examples: |');
      for (const example of SYNTHETIC.filter((e) => e.intent === intent)) yaml.push(`    - ${example.text}`);
    }
    writeFileSync(path('nlu.yml'), yaml.join('\n'));
    writeFileSync(
      path('config.yml'),
      [
        'pipeline:',
        '  - name: LogisticRegressionClassifier',
        '  - name: FallbackClassifier',
        '    threshold: 0.45',
      ].join('\n'),
    );
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports accuracy, macro-F1, out-of-scope scores, latency, training time and size as JSON', async () => {
    const run = await parley(
      'nlu',
      'evaluate',
      '--train',
      path('train.csv'),
      '--test',
      path('test.csv'),
      '--format',
      'json',
    );
    expect(run.code, run.stderr).to.equal(0);
    const report: unknown = JSON.parse(run.stdout);
    expect(report).to.have.keys([
      'train',
      'test',
      'pipeline',
      'trainExamples',
      'testExamples',
      'intents',
      'accuracy',
      'intentAccuracy',
      'macroF1',
      'outOfScope',
      'thresholdCurve',
      'latencyMs',
      'trainingSeconds',
      'modelBytes',
    ]);
    expect(report).to.include({ pipeline: 'default', trainExamples: 32, testExamples: 6, intents: 4 });
    expect(report).to.have.nested.property('outOfScope.examples', 2);
    expect(report).to.have.nested.property('thresholdCurve').with.length(9);
    expect(report).to.have.nested.property('latencyMs.p99').that.is.a('number');
    expect(report).to.have.property('intentAccuracy', 1);
  });

  it("trains from nlu.yml with the project's pipeline and prints a text report", async () => {
    const run = await parley(
      'nlu',
      'evaluate',
      '--train',
      path('nlu.yml'),
      '--test',
      path('test.csv'),
      '-p',
      dir,
    );
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain(`pipeline: ${path('config.yml')}`);
    expect(run.stdout).to.match(/accuracy +\d+\.\d\d %/);
    expect(run.stdout).to.match(/out of scope +recall \d+\.\d\d %, precision/);
    expect(run.stdout).to.match(/latency +p50 [\d.]+ ms, p99 [\d.]+ ms/);
  });

  it('without out-of-scope test examples, reports no out-of-scope scores', async () => {
    const run = await parley(
      'nlu',
      'evaluate',
      '--train',
      path('train.csv'),
      '--test',
      path('train.csv'),
      '--format',
      'json',
      '--threshold',
      '0',
    );
    const report = JSON.parse(run.stdout) as {
      outOfScope: unknown;
      thresholdCurve: unknown;
      accuracy: number;
    };
    expect(report.outOfScope).to.equal(null);
    expect(report.thresholdCurve).to.equal(null);
    expect(report.accuracy).to.equal(1);
  });

  it('exits 1 with a message when a data file is missing', async () => {
    const run = await parley('nlu', 'evaluate', '--train', path('missing.csv'), '--test', path('test.csv'));
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('missing.csv: no such file');
  });
});
