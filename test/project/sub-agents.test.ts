import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateProject } from '../../src/project/validate/index.js';
import { writeInlineProject } from '../support/inline-project.js';

const DOMAIN = `
  slots:
    city:
      type: text
`;

const FLOWS = `
  flows:
    weather:
      description: tell the weather
      steps:
        - call: weather_agent
`;

function diagnosticsOf(files: Record<string, string>, flows = FLOWS): { code: string; message: string }[] {
  const root = writeInlineProject({ domain: DOMAIN, flows, files });
  return validateProject({ project: root })
    .diagnostics.filter((diagnostic) => diagnostic.severity === 'error')
    .map(({ code, message }) => ({ code, message }));
}

const VALID = [
  'agent:',
  '  name: weather_agent',
  '  protocol: A2A',
  '  description: Tells the weather.',
  'configuration:',
  '  agent_card: https://agents.example.com/.well-known/agent-card.json',
  '  auth:',
  '    token: ${WEATHER_TOKEN}',
].join('\n');

describe('sub-agents of sub_agents/<folder>/config.yml', () => {
  it('accepts an A2A agent and a call of it by its agent.name (not the folder name)', () => {
    expect(diagnosticsOf({ 'sub_agents/weather/config.yml': VALID })).to.deep.equal([]);
  });

  it('reads an agent card given as a file relative to the project folder', () => {
    const config = VALID.replace(/agent_card: .*/, 'agent_card: sub_agents/weather/card.json');
    expect(
      diagnosticsOf({ 'sub_agents/weather/config.yml': config, 'sub_agents/weather/card.json': '{}' }),
    ).to.deep.equal([]);
  });

  it('reports every problem of a config at once', () => {
    const config = [
      'agent:',
      '  name: weather_agent',
      '  protocol: carrier-pigeon',
      '  colour: blue',
      'configuration:',
      '  agent_card: ftp://example.com/card.json',
      '  timeout: -1',
    ].join('\n');
    const found = diagnosticsOf({ 'sub_agents/weather/config.yml': config });
    expect(found.map((problem) => problem.code)).to.include.members(['SUB_AGENT_CONFIG_INVALID']);
    const messages = found.map((problem) => problem.message).join('\n');
    expect(messages).to.contain("'agent.colour' is not a sub-agent setting");
    expect(messages).to.contain("'agent.description' is required");
    expect(messages).to.contain("must be a2a (or rasa), not 'carrier-pigeon'");
    expect(messages).to.contain('must be http:// or https://');
    expect(messages).to.contain("'configuration.timeout' must be a number above 0");
    // the agent is not loaded, so the call names nothing known
    expect(messages).to.contain("calls 'weather_agent', which is no flow and no sub-agent");
  });

  it('refuses ReAct agents (protocol rasa, the default) with what to do instead', () => {
    const config = VALID.replace('  protocol: A2A\n', '');
    const found = diagnosticsOf({ 'sub_agents/weather/config.yml': config });
    const refusal = found.find((problem) => problem.code === 'SUB_AGENT_PROTOCOL_UNSUPPORTED');
    expect(refusal?.message).to.contain('protocol: a2a');
  });

  it('reports a missing card file, a name used twice and an agent named like a flow', () => {
    const missingCard = VALID.replace(/agent_card: .*/, 'agent_card: nowhere/card.json');
    expect(diagnosticsOf({ 'sub_agents/weather/config.yml': missingCard }).map((p) => p.code)).to.include(
      'SUB_AGENT_CARD_NOT_FOUND',
    );
    const twice = diagnosticsOf({ 'sub_agents/a/config.yml': VALID, 'sub_agents/b/config.yml': VALID });
    expect(twice.map((problem) => problem.code)).to.deep.equal(['SUB_AGENT_NAME_CONFLICT']);
    const flowNamed = VALID.replace('name: weather_agent', 'name: weather');
    const clash = diagnosticsOf(
      { 'sub_agents/weather/config.yml': flowNamed },
      FLOWS.replace('call: weather_agent', 'action: utter_x'),
    );
    expect(clash.map((problem) => problem.code)).to.include('SUB_AGENT_NAME_CONFLICT');
  });

  it('refuses exit_if on a call of an A2A agent', () => {
    const flows = `${FLOWS}          exit_if:\n            - slots.city is not null\n`;
    const found = diagnosticsOf({ 'sub_agents/weather/config.yml': VALID }, flows);
    expect(found.map((problem) => problem.code)).to.deep.equal(['SUB_AGENT_EXIT_IF_UNSUPPORTED']);
  });

  it('ignores folders without a config.yml and loose files', () => {
    const root = writeInlineProject({
      domain: DOMAIN,
      flows: FLOWS.replace('call: weather_agent', 'action: utter_x'),
      files: { 'sub_agents/empty/notes.txt': 'x' },
    });
    writeFileSync(join(root, 'sub_agents', 'README.md'), 'agents live here');
    const found = validateProject({ project: root }).diagnostics.filter((item) =>
      item.code.startsWith('SUB_AGENT'),
    );
    expect(found).to.deep.equal([]);
  });
});
