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
    expect(notRun.map(([key]) => key)).to.include.members(['event_broker', 'tracing', 'metrics', 'models']);
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
