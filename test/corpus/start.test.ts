/**
 * Every third-party project of the corpus, as a Rasa author brings it: `parley data validate` finds no
 * error, `parley train` makes a model (into a temporary folder: the corpus stays untouched) and
 * `parley run` starts with OPENAI_API_KEY set to anything and answers on its REST channel. What Parley
 * does not run (a channel it does not ship, a rephraser) is said at start-up as a warning, never
 * stops it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { fingerprintProject } from '../../src/cli/model-archive.js';
import { startServer } from '../../src/cli/serve.js';
import { trainModel } from '../../src/cli/train-model.js';
import { validateProject } from '../../src/project/validate/index.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { PARLEY_VERSION } from '../../src/version.js';
import { corpusPath } from './projects.js';
import { describeWithCorpus } from '../support/corpus.js';
import { recordingLogger } from '../support/recording-logger.js';

/** each project, and what Parley must say it skips at start-up */
const ALL_PROJECTS: Readonly<Record<string, readonly string[]>> = {
  'rasa-quickstart': ["credentials.yml: 'rasa' is skipped"],
  'starterpack-retail-banking-en': ["credentials.yml: 'rasa' is skipped"],
  'starterpack-telco-en': ["credentials.yml: 'rasa' is skipped"],
  'starterpack-insurance-en': ["credentials.yml: 'rasa' is skipped"],
  'lakera-agent-security': ["credentials.yml: 'rasa' is skipped"],
  'calm-summit-masterclass': ["credentials.yml: 'browser_audio' is skipped"],
};

describeWithCorpus('every corpus project validates, trains and starts unchanged', function () {
  this.timeout(120_000);
  let folder: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-corpus-start-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const [name, skipped] of Object.entries(ALL_PROJECTS))
    it(`${name}: no validation error, a model, a server that answers`, async () => {
      const root = corpusPath(name);
      const { project, diagnostics } = validateProject({ project: root });
      const errors = diagnostics.filter((item) => item.severity === 'error');
      expect(errors, JSON.stringify(errors, null, 2)).to.deep.equal([]);
      const trained = trainModel({
        project,
        fingerprint: fingerprintProject(project.files, {
          parleyVersion: PARLEY_VERSION,
          rasaVersion: project.assistant.config.rasaVersion,
        }),
        out: join(folder, name),
      });
      const logger = recordingLogger();
      const warnings = logger.warnings;
      const server = await startServer({
        location: { project: root },
        projectRoot: root,
        port: 0,
        host: '127.0.0.1',
        logger,
        trackerStore: new MemoryTrackerStore(),
        lockStore: new MemoryLockStore(),
        modelPath: trained.path,
        env: { OPENAI_API_KEY: 'unused' },
      });
      try {
        expect(server.summary.join('; ')).to.match(/channels: .*rest/);
        const response = await fetch(`${server.baseUrl}/webhooks/rest/`);
        expect(await response.json()).to.deep.equal({ status: 'ok' });
        for (const line of skipped)
          expect(
            warnings.some((warning) => warning.startsWith(line)),
            `${line} in ${warnings.join(' | ')}`,
          ).to.equal(true);
        expect(warnings.filter((warning) => warning.includes('is skipped'))).to.have.length(skipped.length);
      } finally {
        await server.close();
      }
    });
});
