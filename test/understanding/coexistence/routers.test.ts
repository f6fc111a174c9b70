import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import type { TrackerState } from '../../../src/core/events/tracker-state.js';
import { messageGoesToNlu } from '../../../src/core/coexistence.js';
import { IntentBasedRouter } from '../../../src/understanding/coexistence/intent-based-router.js';
import { LlmBasedRouter, routerPrompt } from '../../../src/understanding/coexistence/llm-based-router.js';
import type { ClassifiedMessage } from '../../../src/understanding/coexistence/nlu-adapter.js';
import { intentEntries, llmEntries } from '../../../src/understanding/coexistence/router.js';
import type { RouteDecision } from '../../../src/understanding/coexistence/router.js';
import { OpenAiClient } from '../../../src/understanding/llm/openai-client.js';
import { startFakeOpenAi } from '../../support/fake-openai.js';
import type { FakeOpenAi } from '../../support/fake-openai.js';
import { emptyState, engineFor } from '../llm/helpers.js';
import { travelAssistant } from './helpers.js';

const TO_NLU: RouteDecision = {
  commands: [{ command: 'set slot', name: 'route_session_to_calm', value: false }],
  noop: false,
};
const TO_CALM: RouteDecision = { commands: [], noop: false };
const NLU_ONCE: RouteDecision = { commands: [], noop: true };

const message = (intent: string | null, confidence = 0.95): ClassifiedMessage => ({
  intent,
  confidence,
  entities: [],
});

function routedState(assistant: Assistant, value: boolean | null): TrackerState {
  const state = emptyState(assistant);
  return { ...state, slots: { ...state.slots, route_session_to_calm: value } };
}

describe('Coexistence routers', () => {
  let travel: Assistant;
  before(() => {
    travel = travelAssistant();
  });

  describe('IntentBasedRouter', () => {
    const entries = intentEntries({
      calm_entry: { sticky: ['check_status'] },
      nlu_entry: { sticky: ['greet'], non_sticky: ['goodbye'] },
    });
    if (!entries.ok) throw new Error('entries');
    const router = new IntentBasedRouter(entries.entries);
    const route = (
      intent: string | null,
      value: boolean | null = null,
      confidence = 0.95,
    ): Promise<RouteDecision> =>
      router.route({
        text: 'x',
        state: routedState(travel, value),
        engine: engineFor(travel),
        message: message(intent, confidence),
      });

    const table: [string, string | null, number, RouteDecision][] = [
      ['an nlu_entry.sticky intent routes the session to the NLU-based system', 'greet', 0.95, TO_NLU],
      ['an nlu_entry.non_sticky intent hands only this message to it', 'goodbye', 0.95, NLU_ONCE],
      ['a calm_entry.sticky intent goes to CALM', 'check_status', 0.95, TO_CALM],
      ['an nlu_trigger intent above its threshold goes to CALM', 'book_flight', 0.9, TO_CALM],
      [
        'an nlu_trigger intent below its threshold routes to the NLU-based system',
        'book_flight',
        0.5,
        TO_NLU,
      ],
      ['an intent nobody claims routes to the NLU-based system', 'affirm', 0.95, TO_NLU],
      ['no intent at all routes to the NLU-based system', null, 0, TO_NLU],
    ];
    for (const [name, intent, confidence, expected] of table)
      it(name, async () => expect(await route(intent, null, confidence)).to.deep.equal(expected));

    it('keeps a routed session where it is, whatever the intent', async () => {
      expect(await route('greet', true)).to.deep.equal(TO_CALM);
      expect(await route('check_status', false)).to.deep.equal(NLU_ONCE);
    });

    it('needs all three entries, and says which are missing', () => {
      const result = intentEntries({ calm_entry: { sticky: [] } });
      expect(result.ok).to.equal(false);
      if (!result.ok)
        expect(result.problems.join(' ')).to.contain('nlu_entry.sticky').and.contain('nlu_entry.non_sticky');
    });
  });

  describe('LLMBasedRouter', () => {
    let fake: FakeOpenAi;
    before(async () => {
      fake = await startFakeOpenAi();
    });
    after(() => fake.close());

    const entries = llmEntries({ calm_entry: { sticky: 'books flights and checks their status' } });
    if (!entries.ok) throw new Error('entries');
    const router = (): LlmBasedRouter =>
      new LlmBasedRouter({
        entries: entries.entries,
        client: new OpenAiClient({ apiBase: fake.apiBase, model: 'fake', retryDelayMs: 5, maxRetries: 0 }),
      });
    const route = (value: boolean | null = null): Promise<RouteDecision> =>
      router().route({
        text: 'I want to fly',
        state: routedState(travel, value),
        engine: engineFor(travel),
        message: message(null),
      });

    const answers: [string, RouteDecision][] = [
      ['A', TO_CALM],
      [' B\n', NLU_ONCE],
      ['C', TO_NLU],
      ['Assistant A', TO_NLU],
    ];
    for (const [answer, expected] of answers)
      it(`routes an answer of ${JSON.stringify(answer)} as Rasa does`, async () => {
        fake.answer(() => answer);
        expect(await route()).to.deep.equal(expected);
      });

    it('asks with the three descriptions and the message, and routes to the NLU side when the LLM fails', async () => {
      fake.answer(() => ({ status: 500, body: { error: { message: 'down' } } }));
      const before = fake.requests.length;
      expect(await route()).to.deep.equal(TO_NLU);
      const prompt = fake.requests[before]?.prompt ?? '';
      expect(prompt).to.contain('Assistant A: books flights and checks their status');
      expect(prompt).to.contain('Assistant B: handles chitchat');
      expect(prompt).to.contain('Assistant C: handles everything else');
      expect(prompt).to.contain('I want to fly');
      expect(prompt).to.equal(routerPrompt(entries.entries, 'I want to fly'));
    });

    it('does not ask the LLM while the session is routed', async () => {
      const before = fake.requests.length;
      expect(await route(true)).to.deep.equal(TO_CALM);
      expect(await route(false)).to.deep.equal(NLU_ONCE);
      expect(fake.requests.length).to.equal(before);
    });

    it('needs a description of the CALM side', () => {
      expect(llmEntries({}).ok).to.equal(false);
    });
  });

  describe('which system gets the message (Rasa _handle_via_nlu_in_coexistence)', () => {
    it('follows the slot when set, else the router SetSlot, else its Noop, else CALM', () => {
      const domain = travel.domain;
      const slots = (value: boolean | null) => routedState(travel, value).slots;
      expect(messageGoesToNlu(domain, slots(true), { commands: [], noop: true })).to.equal(false);
      expect(messageGoesToNlu(domain, slots(false), { commands: [], noop: false })).to.equal(true);
      expect(messageGoesToNlu(domain, slots(null), TO_NLU)).to.equal(true);
      expect(messageGoesToNlu(domain, slots(null), NLU_ONCE)).to.equal(true);
      expect(messageGoesToNlu(domain, slots(null), TO_CALM)).to.equal(false);
    });
  });
});

describe('Coexistence without a router (the routing slot only)', () => {
  it('routes to CALM when the NLU understanding starts a flow, and when the LLM understands anything', async () => {
    const { withRoutingToCalm } = await import('../../../src/understanding/coexistence/routing-marker.js');
    const { PayloadCommandGenerator } = await import('../../../src/understanding/direct-payloads.js');
    const travel = travelAssistant();
    const input = (text: string) => ({ text, state: emptyState(travel), engine: engineFor(travel) });
    const nlu = withRoutingToCalm(new PayloadCommandGenerator(), 'nlu');
    expect((await nlu.understand(input('/book_flight'))).commands).to.deep.equal([
      { command: 'start flow', flow: 'book_flight' },
      { command: 'set slot', name: 'route_session_to_calm', value: true },
    ]);
    expect((await nlu.understand(input('/SetSlots(destination=Oslo)'))).commands).to.have.length(1);
    const llm = withRoutingToCalm(new PayloadCommandGenerator(), 'llm');
    expect((await llm.understand(input('/SetSlots(destination=Oslo)'))).commands.at(-1)).to.deep.equal({
      command: 'set slot',
      name: 'route_session_to_calm',
      value: true,
    });
  });
});
