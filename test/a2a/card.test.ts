import { AgentCard } from '@a2a-js/sdk';
import { isLegacyAgentCard, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { chooseCardContent, servedCards } from '../../src/a2a/card/agent-cards.js';
import { REPAIR_SKILL_PATTERNS } from '../../src/a2a/card/skills.js';
import { staticCardContent } from '../../src/a2a/card/static-card.js';
import type { ServedCards } from '../../src/a2a/card/types.js';
import { loadA2aServerConfig } from '../../src/a2a/config.js';
import type { Assistant } from '../../src/core/assistant.js';
import { isPatternId } from '../../src/core/flows/types.js';
import { a2aAssistant, loadAssistant, writeA2aProject } from './a2a-project.js';

const ENDPOINT = 'https://bot.example.com/agents/bank';
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function cardsOf(
  assistant: Assistant,
  override: Record<string, unknown> = {},
  root = REPO_ROOT,
): ServedCards {
  const block = { ...(assistant.endpoints['a2a_server'] as object), ...override };
  const loaded = loadA2aServerConfig({ a2a_server: block });
  if (!loaded) throw new Error('a2a_server is off');
  const chosen = chooseCardContent({
    config: loaded.config,
    assistant,
    projectRoot: root,
    fallbackVersion: '9.9.9',
  });
  return servedCards(chosen.content, ENDPOINT);
}

/** The card as ProtoJSON prints it: an empty scope list is left out (`{}`); both spellings parse alike. */
function asProtoJson(card: object): unknown {
  return JSON.parse(JSON.stringify(card).replaceAll('{"list":[]}', '{}'));
}

/** What a v0.3-only client sees: the combined card without the v1.0 interface list. */
function v03Only(card: object): Record<string, unknown> {
  const { supportedInterfaces: _ignored, ...rest } = card as Record<string, unknown>;
  return rest;
}

describe('AgentCard generation', () => {
  const assistant = a2aAssistant();

  it('lists user flows as skills with examples from their NLU trigger intents, leaving out if: False flows', () => {
    const skills = cardsOf(assistant, { include_conversation_repair: false }).combined.skills;
    expect(skills).to.deep.equal([
      {
        id: 'transfer_money',
        name: 'send money',
        description: 'Send money to another person.',
        tags: ['flow'],
        // the training examples without entity markup, at most five
        examples: [
          'send money to Anna',
          'transfer 20 dollars',
          'pay my rent',
          'wire money abroad',
          'move money to a friend',
        ],
      },
      {
        id: 'check_balance',
        name: 'check the balance',
        description: 'Tell the user their balance, once logged in.',
        tags: ['flow', 'guarded'],
      },
    ]);
  });

  it('adds the conversation-repair patterns as skills when include_conversation_repair is on (the default)', () => {
    const skills = cardsOf(assistant).combined.skills;
    expect(skills.map((skill) => skill.id)).to.deep.equal([
      'transfer_money',
      'check_balance',
      ...REPAIR_SKILL_PATTERNS,
    ]);
    const cancel = skills.find((skill) => skill.id === 'pattern_cancel_flow');
    expect(cancel?.tags).to.deep.equal(['pattern', 'conversation_repair']);
    expect(cancel?.description).to.contain('cancels');
    expect(skills.map((skill) => skill.id)).to.not.include('pattern_collect_information');
  });

  it('describes the agent from endpoints.yml: name, description, version, capabilities and modes', () => {
    const { v1, combined } = cardsOf(assistant);
    expect(combined).to.include({
      protocolVersion: '0.3.0',
      name: 'inline-test',
      description: 'A small banking sub-agent.',
      version: '9.9.9',
      url: ENDPOINT,
      preferredTransport: 'JSONRPC',
      supportsAuthenticatedExtendedCard: false,
    });
    expect(combined.capabilities).to.deep.equal({
      streaming: true,
      pushNotifications: false,
      stateTransitionHistory: false,
    });
    expect(combined.defaultInputModes).to.deep.equal(['text/plain', 'application/json']);
    expect(combined.defaultOutputModes).to.deep.equal(['text/plain', 'application/json']);
    expect(combined).to.not.have.property('securitySchemes');
    const interfaces = [
      { url: ENDPOINT, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: ENDPOINT, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ];
    expect(combined.supportedInterfaces).to.deep.equal(interfaces);
    expect(v1.supportedInterfaces).to.deep.equal(interfaces);
    expect(v1).to.not.have.any.keys('url', 'protocolVersion', 'preferredTransport');
    expect(v1.capabilities).to.deep.equal({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
    });
    const named = cardsOf(assistant, { name: 'Bank', version: '2.0.0', push_notifications_enabled: true });
    expect(named.v1).to.include({ name: 'Bank', version: '2.0.0' });
    expect(named.v1.capabilities.pushNotifications).to.equal(true);
    expect(named.combined.capabilities.pushNotifications).to.equal(true);
  });

  it('declares JWT bearer authentication in both shapes when auth is set', () => {
    const { v1, combined } = cardsOf(assistant, { auth: { secret: 'x'.repeat(32) } });
    expect(combined.securitySchemes).to.deep.equal({
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A JWT identifying the calling agent (not the end user).',
      },
    });
    expect(combined.security).to.deep.equal([{ bearer: [] }]);
    expect(v1.securitySchemes).to.deep.equal({
      bearer: {
        httpAuthSecurityScheme: {
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A JWT identifying the calling agent (not the end user).',
        },
      },
    });
    expect(v1.securityRequirements).to.deep.equal([{ schemes: { bearer: { list: [] } } }]);
  });

  it('falls back to one generic skill when no flow can be started by a caller', () => {
    const root = writeA2aProject({
      flows: `
        flows:
          verify_identity:
            if: False
            description: Only started from other flows.
            steps:
              - collect: date_of_birth
      `,
    });
    const { v1 } = cardsOf(loadAssistant(root), { include_conversation_repair: false });
    expect(v1.skills).to.deep.equal([
      {
        id: 'assistant',
        name: 'inline-test',
        description: 'A small banking sub-agent.',
        tags: ['assistant'],
      },
    ]);
  });

  describe('from the bundled assistant', () => {
    const bundled = loadAssistant(REPO_ROOT);

    it('has one skill per user flow, none for the flow guarded with if: False, and its endpoints.yml name', () => {
      const { v1 } = cardsOf(bundled);
      const userFlows = bundled.flows.flows.filter((flow) => !isPatternId(flow.id)).map((flow) => flow.id);
      expect(userFlows).to.include('verify_identity');
      expect(v1.skills.map((skill) => skill.id)).to.deep.equal(
        userFlows.filter((id) => id !== 'verify_identity'),
      );
      expect(v1).to.include({ name: 'Parley Bank', version: '0.1.0' });
      expect(v1.description).to.contain('Retail-banking sub-agent');
      for (const skill of v1.skills) {
        expect(skill.description, skill.id).to.not.equal('');
        expect(skill.examples?.length ?? 0, skill.id).to.be.within(1, 5);
      }
    });

    it('adds the repair patterns (the project’s own pattern_cancel_flow among them) when repair is on', () => {
      const ids = cardsOf(bundled, { include_conversation_repair: true }).v1.skills.map((skill) => skill.id);
      expect(ids.filter(isPatternId)).to.deep.equal(REPAIR_SKILL_PATTERNS);
    });

    it('is read by the official SDK: the v1.0 card round-trips through AgentCard.fromJSON', () => {
      const { v1 } = cardsOf(bundled, {
        auth: { secret: 'x'.repeat(32) },
        include_conversation_repair: true,
      });
      const parsed = AgentCard.fromJSON(v1);
      expect(parsed.supportedInterfaces.map((item) => item.protocolVersion)).to.deep.equal(['1.0', '0.3']);
      expect(parsed.skills.map((skill) => skill.id)).to.deep.equal(v1.skills.map((skill) => skill.id));
      expect(parsed.securitySchemes['bearer']?.scheme?.$case).to.equal('httpAuthSecurityScheme');
      expect(AgentCard.toJSON(parsed)).to.deep.equal(asProtoJson(v1));
    });

    it('is read by the SDK’s v0.3 parser as a v0.3 card, and as a v1.0 card while it lists supportedInterfaces', () => {
      const { combined } = cardsOf(bundled, { auth: { secret: 'x'.repeat(32) } });
      expect(isLegacyAgentCard(combined)).to.equal(false);
      const legacy = v03Only(combined);
      expect(isLegacyAgentCard(legacy)).to.equal(true);
      const parsed = parseLegacyAgentCard(legacy);
      expect(parsed.name).to.equal('Parley Bank');
      expect(parsed.supportedInterfaces).to.deep.include({
        url: ENDPOINT,
        protocolBinding: 'JSONRPC',
        protocolVersion: '0.3.0',
        tenant: '',
      });
      expect(parsed.skills.map((skill) => skill.id)).to.deep.equal(combined.skills.map((skill) => skill.id));
      expect(parsed.securitySchemes['bearer']?.scheme?.$case).to.equal('httpAuthSecurityScheme');
      expect(parsed.capabilities?.streaming).to.equal(true);
    });
  });

  describe('a static card (agent_card_path)', () => {
    const capabilities = { streaming: true, pushNotifications: false, stateTransitionHistory: false };
    const v03Card = {
      protocolVersion: '0.3.0',
      name: 'Hand-written',
      description: 'Written by hand',
      version: '3.0.0',
      url: 'http://stale.example.com',
      preferredTransport: 'JSONRPC',
      provider: { organization: 'Example', url: 'https://example.com' },
      capabilities: { streaming: false, pushNotifications: true, extensions: [{ uri: 'urn:x' }] },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
      security: [{ key: [] }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [
        { id: 'faq', name: 'FAQ', description: 'Answers questions', tags: ['faq'], security: [{ key: [] }] },
      ],
      signatures: [{ protected: 'x', signature: 'y' }],
    };

    it('keeps what it says, except the endpoint, the server’s capabilities and the stale signatures', () => {
      const result = staticCardContent(v03Card, capabilities);
      expect(result.problems).to.deep.equal([]);
      expect(result.warnings).to.have.length(1);
      const { combined, v1 } = servedCards(result.content!, ENDPOINT);
      expect(combined).to.include({ name: 'Hand-written', version: '3.0.0', url: ENDPOINT });
      expect(combined).to.not.have.property('signatures');
      expect(combined.capabilities).to.deep.equal({ ...capabilities, extensions: [{ uri: 'urn:x' }] });
      expect(combined.securitySchemes).to.deep.equal(v03Card.securitySchemes);
      expect(v1.securitySchemes).to.deep.equal({
        key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
      });
      expect(v1.skills[0]?.securityRequirements).to.deep.equal([{ schemes: { key: { list: [] } } }]);
      expect(AgentCard.toJSON(AgentCard.fromJSON(v1))).to.deep.equal(asProtoJson(v1));
    });

    it('reads a card written in the v1.0 shape too', () => {
      const v1Written = {
        name: 'V1',
        description: 'v1 card',
        version: '1.0.0',
        supportedInterfaces: [{ url: 'http://old', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: {},
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } } },
        securityRequirements: [{ schemes: { bearer: { list: ['a2a'] } } }],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['application/json'],
        skills: [{ id: 's', name: 'S', description: 'does s', tags: [] }],
      };
      const result = staticCardContent(v1Written, capabilities);
      const { combined, v1 } = servedCards(result.content!, ENDPOINT);
      expect(combined.securitySchemes).to.deep.equal({
        bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
      });
      expect(combined.security).to.deep.equal([{ bearer: ['a2a'] }]);
      expect(v1.securitySchemes).to.deep.equal(v1Written.securitySchemes);
      expect(v1.securityRequirements).to.deep.equal(v1Written.securityRequirements);
      expect(v1.supportedInterfaces[0]?.url).to.equal(ENDPOINT);
    });

    it('lists what makes a file no AgentCard', () => {
      const result = staticCardContent(
        { name: 'x', skills: [{ id: 'a' }], securitySchemes: { k: { type: 'magic' } } },
        capabilities,
      );
      expect(result.content).to.equal(undefined);
      expect(result.problems.map((problem) => problem.message)).to.have.members([
        "has no 'description' (non-empty text)",
        "has no 'version' (non-empty text)",
        'skills[0] has no name, description',
        'securitySchemes.k is not a security scheme',
      ]);
      expect(new Set(result.problems.map((problem) => problem.code))).to.deep.equal(
        new Set(['A2A_AGENT_CARD_INVALID']),
      );
      expect(staticCardContent([], capabilities).problems[0]?.message).to.equal('is not a JSON object');
    });
  });
});
