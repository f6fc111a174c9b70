import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { renderResponse } from '../../../src/actions/responses/index.js';
import type { Domain, ResponseTemplate } from '../../../src/core/domain/types.js';
import { loadProject } from '../../../src/project/load-project.js';
import { fixed } from './helpers.js';

// The engine's own default responses, as the project loader reads them from default-patterns.yml.
const PROJECT = fileURLToPath(new URL('../../fixtures/valid-minimal', import.meta.url));

describe('rendering the default responses from a loaded project', () => {
  let domain: Domain;

  before(() => {
    domain = loadProject({ project: PROJECT }, { env: {} }).project.assistant.domain;
  });

  function template(name: string): ResponseTemplate {
    const found = domain.responses.get(name);
    if (found === undefined) throw new Error(`${name} is not in the domain`);
    return found;
  }

  it('fills utter_flow_cancelled_rasa from the frame context', () => {
    const rendered = renderResponse(template('utter_flow_cancelled_rasa'), {
      slots: {},
      context: { canceled_name: 'transfer money' },
      random: fixed(0),
    });
    expect(rendered?.message.text).to.equal("Okay, I'll stop transfer money.");
    expect(rendered?.message.metadata).to.include({ utter_action: 'utter_flow_cancelled_rasa' });
    expect(rendered?.message.metadata['metadata']).to.include({ template: 'jinja' });
    expect(rendered?.warnings).to.deep.equal([]);
  });

  it('fills utter_boolean_slot_rejection from the value kwarg', () => {
    const rendered = renderResponse(template('utter_boolean_slot_rejection'), {
      slots: {},
      context: {},
      kwargs: { value: 'perhaps' },
      random: fixed(0),
    });
    expect(rendered?.message.text).to.contain('`perhaps`');
    expect(rendered?.message.text).to.not.contain('{{');
  });

  it("fills the project's own {slot} response", () => {
    const rendered = renderResponse(template('utter_greet'), {
      slots: { name: 'Ann' },
      context: {},
      random: fixed(0),
    });
    expect(rendered?.message.text).to.equal('Hello, Ann!');
  });
});
