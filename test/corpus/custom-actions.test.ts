/**
 * A corpus project as its author brings it: the upstream Python actions (the corpus copies data files
 * only, so a stand-in .py file plays them) are not run, and `parley data validate` says so, naming the
 * declared actions; once TypeScript actions for them sit in actions/, `parley run` starts without the
 * warning.
 */
import { expect } from 'chai';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from '../../src/cli/serve.js';
import { validateProject } from '../../src/project/validate/index.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { describeWithCorpus } from '../support/corpus.js';
import { recordingLogger } from '../support/recording-logger.js';
import { corpusPath } from './projects.js';

describeWithCorpus('rasa-quickstart with its Python actions', function () {
  this.timeout(60_000);
  let parent: string;
  let root: string;

  before(() => {
    parent = mkdtempSync(join(tmpdir(), 'parley-corpus-actions-'));
    root = join(parent, 'rasa-quickstart');
    cpSync(corpusPath('rasa-quickstart'), root, { recursive: true });
    mkdirSync(join(root, 'actions'));
    writeFileSync(join(root, 'actions', '__init__.py'), '');
    writeFileSync(join(root, 'actions', 'add_contact.py'), 'from rasa_sdk import Action\n');
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('validate warns that its three declared actions have no implementation Parley runs', () => {
    const said = validateProject({ project: root }).diagnostics.filter(
      (item) => item.code === 'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
    );
    expect(said).to.have.length(1);
    expect(said[0]?.message).to.contain('(add_contact, list_contacts, remove_contact)');
    expect(said[0]?.message).to.contain('its 2 Python files are not run by Parley');
  });

  it('starts without the warning once TypeScript actions provide them', async () => {
    const stubs = resolve('test/corpus/actions/rasa-quickstart.ts');
    writeFileSync(join(root, 'actions', 'index.ts'), `export { actions } from ${JSON.stringify(stubs)};\n`);
    expect(
      validateProject({ project: root }).diagnostics.filter(
        (item) => item.code === 'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
      ),
    ).to.deep.equal([]);
    const logger = recordingLogger();
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger,
      trackerStore: new MemoryTrackerStore(),
      lockStore: new MemoryLockStore(),
      env: { OPENAI_API_KEY: 'unused' },
    });
    try {
      expect(logger.warningFields.map((fields) => fields['code'])).not.to.include(
        'CUSTOM_ACTIONS_NOT_IMPLEMENTED',
      );
    } finally {
      await server.close();
    }
  });
});
