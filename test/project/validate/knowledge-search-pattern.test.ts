import { expect } from 'chai';
import { join } from 'node:path';
import type { Diagnostic } from '../../../src/core/errors.js';
import { validateProject } from '../../../src/project/validate/index.js';
import { writeInlineProject } from '../../support/inline-project.js';

const DOMAIN = `
  responses:
    utter_hi:
      - text: hi
    utter_sorry:
      - text: I cannot look that up.
`;

const GREET = `
    greet:
      description: say hi
      steps:
        - action: utter_hi
`;

const WITH_POLICY = `recipe: default.v1
language: en
assistant_id: knowledge-test
policies:
  - name: FlowPolicy
  - name: EnterpriseSearchPolicy
    vector_store:
      source: ./docs
`;

const DOCS = { 'docs/delivery.txt': 'Delivery takes three days.\n' };

function searchWarnings(flows: string, config = WITH_POLICY): { root: string; found: Diagnostic[] } {
  const root = writeInlineProject({ domain: DOMAIN, flows: `flows:\n${GREET}${flows}`, config, files: DOCS });
  const { diagnostics } = validateProject({ project: root });
  return { root, found: diagnostics.filter((item) => item.code === 'KNOWLEDGE_SEARCH_NOT_TRIGGERED') };
}

describe('EnterpriseSearchPolicy with a pattern_search that never searches', () => {
  it("warns at the policy when Rasa's default pattern_search (utter_no_knowledge_base) is in place", () => {
    const { root, found } = searchWarnings('');
    expect(found).to.have.length(1);
    const [warning] = found;
    expect(warning).to.include({ severity: 'warning', file: join(root, 'config.yml'), line: 6 });
    expect(warning?.message)
      .to.contain("Rasa's default pattern_search")
      .and.contain('utter_no_knowledge_base')
      .and.contain('never runs action_trigger_search');
    expect(warning?.hint).to.contain('- action: action_trigger_search');
  });

  it("warns at the project's override when it runs other actions only", () => {
    const { root, found } = searchWarnings(`
    pattern_search:
      description: knowledge questions
      steps:
        - action: utter_sorry
`);
    expect(found).to.have.length(1);
    expect(found[0]).to.include({ file: join(root, 'data', 'flows.yml'), flowId: 'pattern_search' });
    expect(found[0]?.message).to.contain('the pattern_search of the project');
  });

  it('says nothing when the override runs action_trigger_search, itself or through a called flow', () => {
    expect(
      searchWarnings(`
    pattern_search:
      description: knowledge questions
      steps:
        - action: action_trigger_search
`).found,
    ).to.deep.equal([]);
    expect(
      searchWarnings(`
    pattern_search:
      description: knowledge questions
      steps:
        - call: search_documents
    search_documents:
      description: searches the documents
      if: False
      steps:
        - action: action_trigger_search
`).found,
    ).to.deep.equal([]);
  });

  it('says nothing without the policy: pattern_search answering utter_no_knowledge_base is then intended', () => {
    expect(searchWarnings('', 'recipe: default.v1\nlanguage: en\nassistant_id: x\n').found).to.deep.equal([]);
  });
});
