import { expect } from 'chai';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateProject } from '../../src/project/validate/index.js';
import { dedent } from '../support/inline-assistant.js';

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'parley-coexistence-'));
  mkdirSync(join(root, 'data'));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), dedent(text));
  return root;
}

const FLOWS = `
  flows:
    hello:
      description: Say hello.
      steps:
        - action: utter_hello
`;

describe('Validation of a coexistence project', () => {
  it('reports a router without its entries and a missing routing slot, and warns of domain forms', () => {
    const root = project({
      'config.yml': `
        recipe: default.v1
        assistant_id: coexist
        pipeline:
          - name: IntentBasedRouter
            calm_entry:
              sticky: [hello]
          - name: NLUCommandAdapter
      `,
      'domain.yml': `
        responses:
          utter_hello:
            - text: Hello
        forms:
          booking_form:
            required_slots: []
      `,
      'data/flows.yml': FLOWS,
      'data/stories.yml': `
        stories:
          - story: hello
            steps:
              - intent: greet
              - action: utter_helo
      `,
    });
    const { diagnostics } = validateProject({ project: root });
    const codes = diagnostics.map((item) => item.code);
    const unknown = diagnostics
      .filter((item) => item.code === 'STORY_UNKNOWN_NAME')
      .map((item) => item.message);
    expect(unknown).to.deep.equal([
      "'hello' names the intent 'greet', which the domain does not declare.",
      "'hello' names the action 'utter_helo', which the domain does not declare.",
    ]);
    expect(codes.filter((code) => code === 'COEXISTENCE_ROUTER_CONFIG')).to.have.length(2);
    expect(codes).to.include('COEXISTENCE_ROUTING_SLOT');
    const forms = diagnostics.find((item) => item.code === 'FORMS_NOT_RUN');
    expect(forms?.severity).to.equal('warning');
    expect(forms?.message).to.contain('booking_form');
  });

  it('accepts an LLMBasedRouter with its CALM description and the bool routing slot', () => {
    const root = project({
      'config.yml': `
        recipe: default.v1
        assistant_id: coexist
        pipeline:
          - name: LLMBasedRouter
            calm_entry:
              sticky: says hello
      `,
      'domain.yml': `
        slots:
          route_session_to_calm:
            type: bool
            influence_conversation: false
        responses:
          utter_hello:
            - text: Hello
      `,
      'data/flows.yml': FLOWS,
    });
    const { diagnostics } = validateProject({ project: root });
    expect(diagnostics.filter((item) => item.code.startsWith('COEXISTENCE'))).to.deep.equal([]);
  });
});
