/**
 * The three starter packs configure an EnterpriseSearchPolicy over `./docs`, a folder the corpus did not
 * copy. Rasa would stop their training; Parley trains them without a knowledge base, warns once at
 * validate, and answers a knowledge question with utter_no_knowledge_base.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { readModel } from '../../src/cli/model-archive.js';
import { projectFingerprint } from '../../src/cli/model-source.js';
import { trainModel } from '../../src/cli/train-model.js';
import { validateProject } from '../../src/project/validate/index.js';
import { describeWithCorpus } from '../support/corpus.js';
import { startConversation, utterances } from '../support/inline-assistant.js';
import { corpusPath } from './projects.js';

const STARTER_PACKS = ['starterpack-retail-banking-en', 'starterpack-telco-en', 'starterpack-insurance-en'];

describeWithCorpus('the starter packs’ EnterpriseSearchPolicy without its docs folder', function () {
  this.timeout(60_000);
  let folder: string;
  before(() => (folder = mkdtempSync(join(tmpdir(), 'parley-corpus-knowledge-'))));
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const name of STARTER_PACKS)
    it(`${name}: one warning for the vector store, one for the missing documents; utter_no_knowledge_base`, async () => {
      const { project, diagnostics, hasErrors } = validateProject({ project: corpusPath(name) });
      expect(hasErrors).to.equal(false);
      const codes = diagnostics.map((item) => item.code);
      expect(codes.filter((code) => code === 'KNOWLEDGE_VECTOR_STORE_REPLACED')).to.have.length(1);
      expect(codes.filter((code) => code === 'KNOWLEDGE_DOCUMENTS_MISSING')).to.have.length(1);

      const trained = trainModel({
        project,
        fingerprint: projectFingerprint(project),
        out: join(folder, name),
      });
      expect(trained.knowledge).to.equal(undefined);
      expect(readModel(trained.path).knowledge).to.equal(null);
      expect(trained.metadata.notes.some((note) => note.includes('no .txt documents in ./docs'))).to.equal(
        true,
      );

      const conversation = await startConversation(project.assistant);
      const events = await conversation.send('What are your opening hours?', [{ command: 'knowledge' }]);
      expect(utterances(events)[0]).to.equal('utter_no_knowledge_base');
    });
});
