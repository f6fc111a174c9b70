import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startServer } from '../../src/cli/serve.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeInlineProject } from '../support/inline-project.js';
import { recordingLogger } from '../support/recording-logger.js';

describe('parley run says at start-up what validate warns about', function () {
  this.timeout(60_000);

  it('logs one structured warning per cause, with the code validate gives it', async () => {
    const root = writeInlineProject({
      domain: `
        version: "3.1"
        responses:
          utter_hi:
            - text: hi
              metadata:
                rephrase: true
          utter_bye:
            - text: bye
              metadata:
                rephrase: true
      `,
      flows: 'flows:\n  hi:\n    description: says hi\n    steps:\n      - action: utter_hi\n',
      config: `
        recipe: default.v1
        language: en
        assistant_id: start-up
        pipeline:
          - name: WhitespaceTokenizer
          - name: DIETClassifier
        policies:
          - name: FlowPolicy
          - name: TEDPolicy
      `,
      endpoints: 'nlg:\n  type: rephrase\n',
    });
    const logger = recordingLogger();
    const fields: Record<string, unknown>[] = [];
    const warn = logger.warn;
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: {
        ...logger,
        warn: (entry, message) => {
          fields.push(entry);
          warn(entry, message);
        },
      },
      trackerStore: new MemoryTrackerStore(),
      lockStore: new MemoryLockStore(),
    });
    try {
      const said = fields.filter((entry) => entry['code'] !== undefined);
      // nothing else says it again (the NLG and LLM set-up used to warn on their own)
      expect(logger.warnings.filter((message) => message.includes('not run'))).to.have.length(4);
      expect(said.map((entry) => entry['code'])).to.deep.equal([
        'CONFIG_COMPONENT_REPLACED',
        'CONFIG_COMPONENT_REPLACED',
        'CONFIG_COMPONENT_REPLACED',
        'NLG_REPHRASER_NOT_RUN',
      ]);
      const messages = logger.warnings.filter((message) => message.includes('not run'));
      for (const [index, name] of [
        'WhitespaceTokenizer',
        'DIETClassifier',
        'TEDPolicy',
        'rephraser',
      ].entries())
        expect(messages[index]).to.contain(name);
      expect(said[3]).to.include({ line: 2 });
      expect(String(said[3]?.['file'])).to.match(/endpoints\.yml$/);
      expect(logger.warnings[3]).to.contain('2 of the project');
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('logs every other validation warning too: a misspelled config key, an endpoints section not run', async () => {
    const root = writeInlineProject({
      domain: 'responses:\n  utter_hi:\n    - text: hi\n',
      flows: 'flows:\n  hi:\n    description: says hi\n    steps:\n      - action: utter_hi\n',
      config:
        'recipe: default.v1\nlanguage: en\nassistant_id: start-up\npipline:\n  - name: NLUCommandAdapter\n',
      endpoints: 'tracing:\n  type: jaeger\n',
    });
    const logger = recordingLogger();
    const codes: unknown[] = [];
    const warn = logger.warn;
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: { ...logger, warn: (entry, message) => (codes.push(entry['code']), warn(entry, message)) },
      trackerStore: new MemoryTrackerStore(),
      lockStore: new MemoryLockStore(),
    });
    try {
      expect(codes).to.include.members(['CONFIG_IGNORED_KEY', 'ENDPOINTS_SECTION_NOT_RUN']);
      expect(codes.filter((code) => code === 'ENDPOINTS_SECTION_NOT_RUN')).to.have.length(1);
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
