import { expect } from 'chai';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readModel } from '../../src/cli/model-archive.js';
import { startServer } from '../../src/cli/serve.js';
import { writeInlineProject } from '../support/inline-project.js';
import { KNOWLEDGE_DOCS, KNOWLEDGE_DOMAIN, knowledgeConfig } from '../support/knowledge-project.js';
import { recordingLogger } from '../support/recording-logger.js';
import { runCli, savedPath } from './cli-harness.js';

const NLU_PIPELINE = `
  - name: WhitespaceTokenizer
  - name: CountVectorsFeaturizer
  - name: CountVectorsFeaturizer
    analyzer: char_wb
    min_ngram: 3
    max_ngram: 5
  - name: LogisticRegressionClassifier
  - name: NLUCommandAdapter`;

/** the shop assistant with an NLU pipeline: questions start pattern_search through its nlu_trigger */
function shopProject(docs: Readonly<Record<string, string>> = KNOWLEDGE_DOCS): string {
  return writeInlineProject({
    domain: `${KNOWLEDGE_DOMAIN}\n  intents:\n    - greet\n    - ask_question\n`,
    flows: `
      flows:
        greet:
          description: The user says hello.
          nlu_trigger:
            - intent: greet
          steps:
            - action: utter_greet
        pattern_search:
          description: Answers questions from the knowledge base.
          name: pattern search
          nlu_trigger:
            - intent: ask_question
          steps:
            - action: action_trigger_search
    `,
    config: knowledgeConfig('vector_store:\n  type: qdrant\n  source: ./docs', NLU_PIPELINE),
    nlu: `
      version: "3.1"
      nlu:
        - intent: greet
          examples: |
            - hi
            - hello
            - hey there
            - good morning
            - good evening
        - intent: ask_question
          examples: |
            - how long does delivery take?
            - do you ship to france?
            - how do I return a bike?
            - when do I get my refund?
            - what does the warranty cover?
            - when is the shop open?
            - can I test ride a bicycle?
            - how much does shipping cost?
    `,
    files: docs,
  });
}

describe('parley train, validate and run with a knowledge base (EnterpriseSearchPolicy)', function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(() => (root = shopProject()));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('indexes the .txt documents into knowledge.json of the model, each passage with its source', async () => {
    const run = await runCli(['train', '-p', root]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.contain('Note: Knowledge base: 11 passages from 4 documents in ./docs.');
    const archive = readModel(savedPath(run.stdout));
    const sources = new Set(archive.knowledge?.chunks.map((chunk) => chunk.source));
    expect([...sources].sort()).to.deep.equal([
      'docs/faq/store.txt',
      'docs/returns.txt',
      'docs/shipping.txt',
      'docs/warranty.txt',
    ]);
    expect(archive.knowledge?.index).to.be.an('object');
  });

  it('trains again when a document changes or is added, not when another kind of file is added', async () => {
    const first = savedPath((await runCli(['train', '-p', root])).stdout);
    writeFileSync(join(root, 'docs', 'notes.md'), '# not a knowledge document\n');
    expect((await runCli(['train', '-p', root])).stdout).to.contain(`Nothing changed`);
    writeFileSync(
      join(root, 'docs', 'shipping.txt'),
      `${KNOWLEDGE_DOCS['docs/shipping.txt']}\nPick-up in Ghent is free.\n`,
    );
    const second = savedPath((await runCli(['train', '-p', root])).stdout);
    expect(readModel(second).metadata.fingerprint).not.to.equal(readModel(first).metadata.fingerprint);
    writeFileSync(
      join(root, 'docs', 'gift-cards.txt'),
      'Gift cards are valid for two years after purchase.\n',
    );
    const third = savedPath((await runCli(['train', '-p', root])).stdout);
    expect(readModel(third).metadata.fingerprint).not.to.equal(readModel(second).metadata.fingerprint);
    expect(
      readModel(third).knowledge?.chunks.some((chunk) => chunk.source === 'docs/gift-cards.txt'),
    ).to.equal(true);
  });

  it('validate warns once that the vector store is replaced, and about a missing document folder', async () => {
    const run = await runCli(['data', 'validate', '-p', root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    const output = run.stdout + run.stderr;
    expect(output.match(/KNOWLEDGE_VECTOR_STORE_REPLACED/gu)).to.have.length(1);
    expect(output).to.contain('qdrant vector store');
    expect(output).not.to.contain('KNOWLEDGE_DOCUMENTS_MISSING');

    rmSync(join(root, 'docs'), { recursive: true });
    const without = await runCli(['data', 'validate', '-p', root]);
    expect(without.code).to.equal(0);
    expect(without.stdout + without.stderr).to.contain('KNOWLEDGE_DOCUMENTS_MISSING');
    expect(without.stdout + without.stderr).to.contain('./docs does not exist');
  });

  it('passes an e2e test whose bot line is the answer, as Rasa e2e tests check search answers', async () => {
    mkdirSync(join(root, 'tests'));
    writeFileSync(
      join(root, 'tests', 'knowledge.yml'),
      [
        'test_cases:',
        '  - test_case: opening hours from the FAQ',
        '    steps:',
        '      - user: when is the shop open?',
        '      - bot: "The shop in Ghent is open Tuesday to Saturday from 10:00 to 18:00. It is closed on Sundays and Mondays."',
        '      - utter: utter_can_do_something_else',
        '',
      ].join('\n'),
    );
    const run = await runCli(['test', 'e2e', '-p', root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.contain('0 failed, 1 passed');
  });

  it('answers a knowledge question over the REST channel with the passage and its source', async () => {
    const logger = recordingLogger();
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger,
      env: {},
    });
    try {
      const say = async (message: string) => {
        const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ sender: 'ann', message }),
        });
        return (await response.json()) as { text?: string }[];
      };
      const replies = await say('how long does international delivery take?');
      expect(replies[0]?.text).to.match(/^We ship to the Netherlands/);
      expect(replies[0]?.text).to.match(/\nSources:\n\[1\] docs\/shipping\.txt$/);
      const refund = await say('when is my refund paid?');
      expect(refund[0]?.text).to.match(/^Refunds are paid to the original payment method/);
      const fallback = logger.warnings.filter((warning) => warning.includes('does not use the qdrant'));
      expect(fallback).to.have.length(1);
    } finally {
      await server.close();
    }
  });
});
