import { expect } from 'chai';
import { validateProject } from '../../src/project/validate/index.js';
import { writeInlineProject } from '../support/inline-project.js';

const DOMAIN = `
  slots:
    city:
      type: text
  responses:
    utter_ask_city:
      - text: Which city?
`;

function callProblems(step: string): { code: string; message: string }[] {
  const flows = `
    flows:
      weather:
        description: tell the weather
        steps:
${step}
  `;
  const root = writeInlineProject({ domain: DOMAIN, flows });
  return validateProject({ project: root })
    .diagnostics.filter((diagnostic) => diagnostic.code === 'CALL_UNKNOWN_FLOW')
    .map(({ code, message }) => ({ code, message }));
}

describe('call steps that name something other than a flow', () => {
  it('says that an MCP tool call (Rasa 3.14) is not supported, rather than "no flow"', () => {
    const problems = callProblems(`
          - call: get_weather
            mcp_server: weather_api
            mapping:
              input:
                - param: city
                  slot: city
              output:
                - slot: city
                  value: result.city`);
    expect(problems).to.have.length(1);
    expect(problems[0]?.message).to.contain("the MCP tool 'get_weather'");
    expect(problems[0]?.message).to.contain('not supported');
  });

  it('says that a sub-agent call with exit_if is not supported', () => {
    const problems = callProblems(`
          - call: travel_agent
            exit_if:
              - slots.city is not null`);
    expect(problems[0]?.message).to.contain("the sub-agent 'travel_agent'");
  });

  it('keeps the plain message for a call of a flow that does not exist', () => {
    const problems = callProblems(`
          - call: missing_flow`);
    expect(problems[0]?.message).to.equal("Flow 'weather' calls 'missing_flow', which is no flow.");
  });
});
