import { expect } from 'chai';
import { validateProject } from '../../src/project/validate/index.js';
import { writeInlineProject } from '../support/inline-project.js';

const DOMAIN = `
  slots:
    city:
      type: text
    temperature:
      type: float
  responses:
    utter_ask_city:
      - text: Which city?
`;

const SERVERS = `
  mcp_servers:
    - name: weather_api
      url: http://127.0.0.1:9/mcp
      type: http
`;

function problems(step: string, endpoints = SERVERS): { code: string; message: string }[] {
  const flows = `
    flows:
      weather:
        description: tell the weather
        steps:
${step}
  `;
  const root = writeInlineProject({ domain: DOMAIN, flows, endpoints });
  return validateProject({ project: root })
    .diagnostics.filter((diagnostic) => diagnostic.severity === 'error')
    .map(({ code, message }) => ({ code, message }));
}

const TOOL_CALL = `
          - call: get_weather
            mcp_server: weather_api
            mapping:
              input:
                - param: city
                  slot: city
              output:
                - slot: temperature
                  value: result.structuredContent.temperature`;

describe('call steps that name something other than a flow', () => {
  it('accepts an MCP tool call on a server of endpoints.yml with domain slots', () => {
    expect(problems(TOOL_CALL)).to.deep.equal([]);
  });

  it('names the unknown server and the servers endpoints.yml lists', () => {
    const found = problems(TOOL_CALL.replace('mcp_server: weather_api', 'mcp_server: wether_api'));
    expect(found).to.deep.equal([
      {
        code: 'MCP_SERVER_UNKNOWN',
        message:
          "Flow 'weather' calls the tool 'get_weather' on the MCP server 'wether_api'; endpoints.yml lists weather_api.",
      },
    ]);
  });

  it('reports every unknown slot and every output expression that does not compile, at once', () => {
    const step = TOOL_CALL.replace('slot: city', 'slot: town').replace(
      'value: result.structuredContent.temperature',
      'value: "{{ result.x }}"',
    );
    const found = problems(`${step}
                - slot: rain
                  value: result.content[0.text`);
    expect(found.map((problem) => problem.code)).to.deep.equal([
      'MCP_MAPPING_UNKNOWN_SLOT',
      'MCP_MAPPING_UNKNOWN_SLOT',
      'MCP_OUTPUT_EXPRESSION_INVALID',
      'MCP_OUTPUT_EXPRESSION_INVALID',
    ]);
    expect(found[0]?.message).to.contain("the slot 'town'");
    expect(found[1]?.message).to.contain("the slot 'rain'");
    expect(found[2]?.message).to.contain('written with {{ }}');
    expect(found[3]?.message).to.contain('does not compile');
  });

  it('refuses a tool call without a whole mapping', () => {
    const found = problems(`
          - call: get_weather
            mcp_server: weather_api
            mapping:
              input: []`);
    expect(found.map((problem) => problem.code)).to.include('MCP_MAPPING_INVALID');
  });

  it('reports every unusable server of mcp_servers', () => {
    const found = problems(
      TOOL_CALL,
      `
      mcp_servers:
        - name: weather_api
          url: ftp://example.com/mcp
          type: stdio
        - name: weather_api
          url: http://127.0.0.1:9/mcp
          type: http
          oauth: {token_url: http://x}
    `,
    );
    expect(found.map((problem) => problem.code)).to.deep.equal([
      'MCP_SERVERS_INVALID',
      'MCP_SERVERS_INVALID',
      'MCP_SERVERS_INVALID',
    ]);
    expect(found.map((problem) => problem.message).join('\n')).to.match(/ftp:.*http:\/\/ or https:\/\//);
    expect(found.map((problem) => problem.message).join('\n')).to.contain("type 'stdio' is not supported");
    expect(found.map((problem) => problem.message).join('\n')).to.contain('OAuth');
  });

  it('says that a sub-agent called with exit_if is not defined in sub_agents/', () => {
    const found = problems(`
          - call: travel_agent
            exit_if:
              - slots.city is not null`);
    expect(found).to.deep.equal([
      {
        code: 'CALL_UNKNOWN_FLOW',
        message: "Flow 'weather' calls the sub-agent 'travel_agent', which sub_agents/ does not define.",
      },
    ]);
  });

  it('keeps the plain message for a call of a flow that does not exist', () => {
    const found = problems(`
          - call: missing_flow`);
    expect(found).to.deep.equal([
      {
        code: 'CALL_UNKNOWN_FLOW',
        message: "Flow 'weather' calls 'missing_flow', which is no flow and no sub-agent of sub_agents/.",
      },
    ]);
  });
});
