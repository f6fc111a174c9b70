import { expect } from 'chai';
import type { Command } from '../../src/core/commands/types.js';
import { intentEntries, llmEntries } from '../../src/core/coexistence-config.js';
import {
  ROUTE_TO_CALM_SLOT,
  hasRoutingSlot,
  messageGoesToNlu,
  nluPoliciesAnswer,
  routeTo,
} from '../../src/core/coexistence.js';
import type { Domain, Slot } from '../../src/core/domain/types.js';

function domainWith(...slotNames: string[]): Domain {
  const slots = new Map(slotNames.map((name) => [name, { name, type: 'bool' } as Slot]));
  return { slots } as Pick<Domain, 'slots'> as Domain;
}

const COEXISTENCE = domainWith('route_session_to_calm', 'name');
const CALM_ONLY = domainWith('name');

const NO_DECISION = { commands: [], noop: false };
const NOOP = { commands: [], noop: true };
const decided = (...commands: Command[]) => ({ commands, noop: false });

describe('coexistence of CALM and the NLU-based system (the route_session_to_calm slot)', () => {
  it('is on when the domain declares the routing slot', () => {
    expect(ROUTE_TO_CALM_SLOT).to.equal('route_session_to_calm');
    expect(hasRoutingSlot(COEXISTENCE)).to.equal(true);
    expect(hasRoutingSlot(CALM_ONLY)).to.equal(false);
  });

  it('lets the NLU-based policies answer only while the slot is not true', () => {
    expect(nluPoliciesAnswer(COEXISTENCE, { route_session_to_calm: true })).to.equal(false);
    expect(nluPoliciesAnswer(COEXISTENCE, { route_session_to_calm: false })).to.equal(true);
    expect(nluPoliciesAnswer(COEXISTENCE, { route_session_to_calm: null })).to.equal(true);
    expect(nluPoliciesAnswer(CALM_ONLY, { route_session_to_calm: false })).to.equal(false);
  });

  describe('which system gets a message', () => {
    it('is always CALM without the routing slot, whatever the router says', () => {
      expect(messageGoesToNlu(CALM_ONLY, {}, NOOP)).to.equal(false);
      expect(messageGoesToNlu(CALM_ONLY, { route_session_to_calm: false }, decided(routeTo(false)))).to.equal(
        false,
      );
    });

    it('follows the slot once the session is routed', () => {
      expect(messageGoesToNlu(COEXISTENCE, { route_session_to_calm: true }, NOOP)).to.equal(false);
      expect(
        messageGoesToNlu(COEXISTENCE, { route_session_to_calm: true }, decided(routeTo(false))),
      ).to.equal(false);
      expect(messageGoesToNlu(COEXISTENCE, { route_session_to_calm: false }, NO_DECISION)).to.equal(true);
      expect(
        messageGoesToNlu(COEXISTENCE, { route_session_to_calm: false }, decided(routeTo(true))),
      ).to.equal(true);
    });

    it("follows the router's SetSlot of the routing slot while the session is not routed", () => {
      for (const slots of [{ route_session_to_calm: null }, {}]) {
        expect(messageGoesToNlu(COEXISTENCE, slots, decided(routeTo(false)))).to.equal(true);
        expect(messageGoesToNlu(COEXISTENCE, slots, { commands: [routeTo(true)], noop: true })).to.equal(
          false,
        );
      }
    });

    it("looks only at the SetSlot of the routing slot among the router's commands", () => {
      const others: Command[] = [
        { command: 'set slot', name: 'name', value: true },
        { command: 'start flow', flow: 'route_session_to_calm' },
      ];
      expect(messageGoesToNlu(COEXISTENCE, {}, decided(...others))).to.equal(false);
      expect(messageGoesToNlu(COEXISTENCE, {}, { commands: others, noop: true })).to.equal(true);
      expect(messageGoesToNlu(COEXISTENCE, {}, decided(...others, routeTo(false)))).to.equal(true);
    });

    it("hands one message to the NLU-based system on the router's Noop, else to CALM", () => {
      expect(messageGoesToNlu(COEXISTENCE, {}, NOOP)).to.equal(true);
      expect(messageGoesToNlu(COEXISTENCE, {}, NO_DECISION)).to.equal(false);
    });
  });

  it('routes with a SetSlot of the routing slot', () => {
    expect(routeTo(true)).to.deep.equal({ command: 'set slot', name: 'route_session_to_calm', value: true });
    expect(routeTo(false)).to.deep.equal({
      command: 'set slot',
      name: 'route_session_to_calm',
      value: false,
    });
  });
});

describe("the coexistence routers' entries in config.yml", () => {
  describe('IntentBasedRouter', () => {
    it('reads calm_entry.sticky, nlu_entry.sticky and nlu_entry.non_sticky as lists of intents', () => {
      expect(
        intentEntries({
          calm_entry: { sticky: ['check_status'] },
          nlu_entry: { sticky: ['greet', 'chitchat'], non_sticky: [] },
        }),
      ).to.deep.equal({
        ok: true,
        entries: { calmSticky: ['check_status'], nluSticky: ['greet', 'chitchat'], nluNonSticky: [] },
      });
    });

    it('reports every missing or malformed list at once, by its key', () => {
      const result = intentEntries({
        calm_entry: ['x'],
        nlu_entry: { sticky: ['greet', 3], non_sticky: 'bye' },
      });
      expect(result).to.deep.equal({
        ok: false,
        problems: [
          'IntentBasedRouter needs calm_entry.sticky: a list of intents (it may be empty).',
          'IntentBasedRouter needs nlu_entry.sticky: a list of intents (it may be empty).',
          'IntentBasedRouter needs nlu_entry.non_sticky: a list of intents (it may be empty).',
        ],
      });
    });

    it('reads an entry left empty in YAML (null) as missing its lists', () => {
      const result = intentEntries({ calm_entry: null, nlu_entry: { sticky: [], non_sticky: [] } });
      expect(result).to.deep.equal({
        ok: false,
        problems: ['IntentBasedRouter needs calm_entry.sticky: a list of intents (it may be empty).'],
      });
    });

    it('reports only the list that is missing', () => {
      const result = intentEntries({ calm_entry: { sticky: [] }, nlu_entry: { sticky: [] } });
      expect(result).to.deep.equal({
        ok: false,
        problems: ['IntentBasedRouter needs nlu_entry.non_sticky: a list of intents (it may be empty).'],
      });
    });
  });

  describe('LLMBasedRouter', () => {
    it("needs calm_entry.sticky and gives nlu_entry Rasa's default descriptions", () => {
      expect(llmEntries({ calm_entry: { sticky: 'books flights' } })).to.deep.equal({
        ok: true,
        entries: {
          calmSticky: 'books flights',
          nluSticky: 'handles everything else',
          nluNonSticky: 'handles chitchat',
        },
      });
    });

    it('reads the descriptions of nlu_entry as written', () => {
      const result = llmEntries({
        calm_entry: { sticky: 'books flights' },
        nlu_entry: { sticky: 'answers questions about hotels', non_sticky: 'says hello' },
      });
      expect(result).to.deep.equal({
        ok: true,
        entries: {
          calmSticky: 'books flights',
          nluSticky: 'answers questions about hotels',
          nluNonSticky: 'says hello',
        },
      });
    });

    it('refuses a missing, blank or non-text calm_entry.sticky', () => {
      for (const options of [
        {},
        { calm_entry: { sticky: '  ' } },
        { calm_entry: { sticky: ['x'] } },
        { calm_entry: 'x' },
      ])
        expect(llmEntries(options), JSON.stringify(options)).to.deep.equal({
          ok: false,
          problems: ['LLMBasedRouter needs calm_entry.sticky: a description of what the CALM part handles.'],
        });
    });

    it('gives an nlu_entry left empty in YAML (null) the default descriptions', () => {
      expect(llmEntries({ calm_entry: { sticky: 'flights' }, nlu_entry: null })).to.deep.equal({
        ok: true,
        entries: {
          calmSticky: 'flights',
          nluSticky: 'handles everything else',
          nluNonSticky: 'handles chitchat',
        },
      });
    });

    it('falls back to the defaults for descriptions that are not text', () => {
      const result = llmEntries({
        calm_entry: { sticky: 'flights' },
        nlu_entry: { sticky: 3, non_sticky: null },
      });
      expect(result).to.deep.equal({
        ok: true,
        entries: {
          calmSticky: 'flights',
          nluSticky: 'handles everything else',
          nluNonSticky: 'handles chitchat',
        },
      });
    });
  });
});
