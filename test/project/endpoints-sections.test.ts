import { expect } from 'chai';
import { RASA_ENDPOINT_SECTIONS } from '../../src/project/compatibility/endpoints.js';
import { validateProject } from '../../src/project/validate/index.js';
import { writeInlineProject } from '../support/inline-project.js';

const DOMAIN = `
  responses:
    utter_hi:
      - text: hi
`;
const FLOWS = `
  flows:
    greet:
      description: say hi
      steps:
        - action: utter_hi
`;

function warningsFor(endpoints: string): { code: string; message: string; line?: number }[] {
  const root = writeInlineProject({ domain: DOMAIN, flows: FLOWS, endpoints });
  return validateProject({ project: root })
    .diagnostics.filter((diagnostic) => diagnostic.code === 'ENDPOINTS_SECTION_NOT_RUN')
    .map(({ code, message, line }) => ({ code, message, ...(line === undefined ? {} : { line }) }));
}

describe('endpoints.yml sections Parley does not run', () => {
  const notRun = Object.entries(RASA_ENDPOINT_SECTIONS).filter(([, entry]) => entry.support === 'warned');

  it('covers the sections Rasa acts on and Parley does not', () => {
    expect(notRun.map(([key]) => key)).to.include.members(['tracing', 'metrics', 'models']);
  });

  for (const [key] of notRun) {
    it(`warns once about '${key}', at its line, naming what Parley does instead`, () => {
      const warnings = warningsFor(
        `action_endpoint:\n  url: http://localhost:5055/webhook\n${key}:\n  type: x\n`,
      );
      expect(warnings).to.have.length(1);
      expect(warnings[0]?.message).to.contain(`'${key}'`);
      expect(warnings[0]?.line).to.equal(3);
    });
  }

  it('says nothing about an empty section (Rasa reads it as absent) or a section Parley runs', () => {
    expect(warningsFor('event_broker:\ntracker_store:\n  type: sql\n')).to.deep.equal([]);
  });
});

describe('endpoints.yml top-level keys that name no section', () => {
  const validate = (endpoints: string) =>
    validateProject({ project: writeInlineProject({ domain: DOMAIN, flows: FLOWS, endpoints }) });

  it('warns about a misspelt section at its line, suggesting the section it stands for', () => {
    const result = validate(
      'action_endpoint:\n  url: http://localhost:5055/webhook\ntracker_stor:\n  type: sql\n',
    );
    const ignored = result.diagnostics.filter((diagnostic) => diagnostic.code === 'ENDPOINTS_IGNORED_KEY');
    expect(ignored).to.have.length(1);
    expect(ignored[0]).to.include({ severity: 'warning', line: 3, column: 1 });
    expect(ignored[0]?.message)
      .to.contain("unknown property 'tracker_stor'")
      .and.contain('tracker_store')
      .and.contain('keeps its default');
    expect(ignored[0]?.hint).to.equal("did you mean 'tracker_store'?");
    expect(result.hasErrors).to.equal(false);
    // the store is the default one: the misspelt block is not read as tracker_store
    expect(result.project.assistant.endpoints['tracker_store']).to.equal(undefined);
  });

  it('lists the known sections when the key is like none of them', () => {
    const [ignored] = validate('webhooks:\n  url: http://localhost\n').diagnostics.filter(
      (diagnostic) => diagnostic.code === 'ENDPOINTS_IGNORED_KEY',
    );
    expect(ignored?.message).to.contain("unknown property 'webhooks'").and.contain('action_endpoint, nlg');
    expect(ignored?.hint).to.not.contain('did you mean');
  });

  it("knows every section Rasa reads, Rasa's external `nlu` server included", () => {
    const sections = Object.keys(RASA_ENDPOINT_SECTIONS)
      .map((key) => `${key}:\n`)
      .join('');
    const codes = validate(sections).diagnostics.map((diagnostic) => diagnostic.code);
    expect(codes).to.not.include('ENDPOINTS_IGNORED_KEY');
    expect(validate('nlu:\n  url: http://nlu:5005\n').diagnostics.map((d) => d.code)).to.include(
      'ENDPOINTS_SECTION_NOT_RUN',
    );
  });
});
