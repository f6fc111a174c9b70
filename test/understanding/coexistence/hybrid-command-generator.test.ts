import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import type { Command } from '../../../src/core/commands/types.js';
import type { TrackerState } from '../../../src/core/events/tracker-state.js';
import { HybridCommandGenerator } from '../../../src/understanding/coexistence/hybrid-command-generator.js';
import type { HybridOptions } from '../../../src/understanding/coexistence/hybrid-command-generator.js';
import { LlmCommandGenerator } from '../../../src/understanding/llm/llm-command-generator.js';
import { OpenAiClient } from '../../../src/understanding/llm/openai-client.js';
import { startFakeOpenAi } from '../../support/fake-openai.js';
import type { FakeOpenAi } from '../../support/fake-openai.js';
import { emptyState, engineFor, stateAfter } from '../llm/helpers.js';
import { scriptedInterpreter, travelAssistant } from './helpers.js';
import type { Scripted } from './helpers.js';

const SCRIPT: Record<string, Scripted> = {
  'book a flight': { intent: 'book_flight', confidence: 0.9 },
  'maybe a flight?': { intent: 'book_flight', confidence: 0.5 },
  'book a flight to Porto': { intent: 'book_flight', entities: [{ entity: 'city', value: 'Porto' }] },
  Lisbon: { intent: 'inform', entities: [{ entity: 'city', value: 'Lisbon' }] },
  'tomorrow please': { intent: 'inform' },
  '/book_flight': { intent: null },
};

const route = (value: boolean): Command => ({ command: 'set slot', name: 'route_session_to_calm', value });

describe('Hybrid understanding: NLUCommandAdapter and an LLM command generator in one pipeline', () => {
  let fake: FakeOpenAi;
  let travel: Assistant;

  before(async () => {
    fake = await startFakeOpenAi();
    travel = travelAssistant();
  });
  after(() => fake.close());

  function generator(options: Partial<HybridOptions> = {}): HybridCommandGenerator {
    const client = new OpenAiClient({
      apiBase: fake.apiBase,
      model: 'fake',
      retryDelayMs: 5,
      timeoutSeconds: 1,
    });
    return new HybridCommandGenerator({
      interpreter: scriptedInterpreter(SCRIPT),
      llm: new LlmCommandGenerator({ client }),
      nluAdapter: true,
      minimizeNumCalls: true,
      ...options,
    });
  }

  async function understand(
    hybrid: HybridCommandGenerator,
    text: string,
    state: TrackerState = emptyState(travel),
  ): Promise<{ commands: readonly Command[]; llmCalls: number }> {
    const before = fake.requests.length;
    const { commands } = await hybrid.understand({ text, state, engine: engineFor(travel) });
    return { commands, llmCalls: fake.requests.length - before };
  }

  it('starts the flow of an nlu_trigger intent above its threshold without asking the LLM (minimize_num_calls)', async () => {
    fake.answer(() => 'start flow check_status');
    const result = await understand(generator(), 'book a flight');
    expect(result.llmCalls).to.equal(0);
    expect(result.commands).to.deep.equal([{ command: 'start flow', flow: 'book_flight' }, route(true)]);
  });

  it('asks the LLM when the trigger intent is below the confidence threshold of the nlu_trigger', async () => {
    fake.answer(() => 'start flow check_status');
    const result = await understand(generator(), 'maybe a flight?');
    expect(result.llmCalls).to.equal(1);
    expect(result.commands).to.deep.equal([{ command: 'start flow', flow: 'check_status' }, route(true)]);
  });

  it('skips the LLM when an NLU slot mapping fills the slot being collected', async () => {
    const state = await stateAfter(travel, [
      { text: 'hi', commands: [route(true), { command: 'start flow', flow: 'book_flight' }] },
    ]);
    fake.answer(() => 'set slot destination Paris');
    const result = await understand(generator(), 'Lisbon', state);
    expect(result.llmCalls).to.equal(0);
    expect(result.commands).to.deep.equal([
      { command: 'set slot', name: 'destination', value: 'Lisbon', extractor: 'NLU' },
    ]);
  });

  it('asks the LLM for a message the adapter does nothing with, and routes the session to CALM', async () => {
    fake.answer(() => 'start flow check_status');
    const result = await understand(generator(), 'where is my plane');
    expect(result.llmCalls).to.equal(1);
    expect(result.commands).to.deep.equal([{ command: 'start flow', flow: 'check_status' }, route(true)]);
  });

  it('with minimize_num_calls false asks the LLM too, and the adapter wins on the same slot and on the flow', async () => {
    fake.answer(() => 'start flow check_status\nset slot destination Paris\nset slot travel_date tomorrow');
    const result = await understand(generator({ minimizeNumCalls: false }), 'book a flight to Porto');
    expect(result.llmCalls).to.equal(1);
    expect(result.commands).to.deep.equal([
      { command: 'start flow', flow: 'book_flight' },
      { command: 'set slot', name: 'destination', value: 'Porto', extractor: 'NLU' },
      route(true),
      { command: 'set slot', name: 'travel_date', value: 'tomorrow', extractor: 'LLM' },
    ]);
  });

  it('keeps the LLM flow start when the adapter only filled a slot (minimize_num_calls false, no flow collecting it)', async () => {
    fake.answer(() => 'start flow check_status');
    const result = await understand(generator({ minimizeNumCalls: false }), 'Lisbon');
    expect(result.llmCalls).to.equal(1);
    expect(result.commands).to.deep.equal([
      { command: 'set slot', name: 'destination', value: 'Lisbon', extractor: 'NLU' },
      { command: 'start flow', flow: 'check_status' },
      route(true),
    ]);
  });

  it('adds no CannotHandle of its own when the LLM says nothing usable but the adapter understood', async () => {
    fake.answer(() => 'I am not sure');
    const result = await understand(generator({ minimizeNumCalls: false }), 'book a flight');
    expect(result.llmCalls).to.equal(1);
    // the LLM generator's own routing SetSlot overlaps the adapter's and is dropped in the merge
    expect(result.commands).to.deep.equal([{ command: 'start flow', flow: 'book_flight' }, route(true)]);
  });

  it('understands direct payloads before anything else: /SetSlots as given, /intent through the adapter', async () => {
    const setSlots = await understand(generator(), '/SetSlots(destination=Oslo)');
    expect(setSlots.llmCalls).to.equal(0);
    expect(setSlots.commands).to.deep.equal([
      { command: 'set slot', name: 'destination', value: 'Oslo', extractor: 'CommandPayloadReader' },
    ]);
    const intent = await understand(generator(), '/book_flight');
    expect(intent.llmCalls).to.equal(0);
    expect(intent.commands).to.deep.equal([{ command: 'start flow', flow: 'book_flight' }, route(true)]);
  });

  it('without an LLM (adapter only) a message nobody understands cannot be handled', async () => {
    const hybrid = new HybridCommandGenerator({
      interpreter: scriptedInterpreter(SCRIPT),
      nluAdapter: true,
      minimizeNumCalls: true,
    });
    const result = await understand(hybrid, 'where is my plane');
    expect(result.commands).to.deep.equal([{ command: 'cannot handle' }]);
  });
});
