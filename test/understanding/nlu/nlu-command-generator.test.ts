import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { TrackerState } from '../../../src/core/events/tracker-state.js';
import type { Understanding } from '../../../src/core/ports.js';
import type { ExtractedEntity } from '../../../src/understanding/nlu/entities/types.js';
import type {
  IntentPrediction,
  NluThresholds,
} from '../../../src/understanding/nlu/nlu-command-generator.js';
import {
  FLOW_INTENT_PREFIX,
  NluCommandGenerator,
} from '../../../src/understanding/nlu/nlu-command-generator.js';
import { inlineAssistant } from '../../support/inline-assistant.js';
import { emptyState, engineFor, setSlot, startFlow, stateAfter } from '../llm/helpers.js';

/**
 * The offline command generator on its own: what the classifier predicts and the extractors find is
 * scripted per message, so each test shows which commands one reading of a message becomes.
 */
const ASSISTANT = inlineAssistant({
  domain: `
    version: "3.1"
    intents: [transfer, mood_great]
    entities: [amount, days, city, person]
    slots:
      destination: {type: text, mappings: [{type: from_llm}]}
      nights:
        type: float
        mappings: [{type: from_entity, entity: days}, {type: from_llm}]
      amount: {type: float, mappings: [{type: from_entity, entity: amount}]}
      happy: {type: bool, mappings: [{type: from_intent, intent: mood_great, value: true}]}
      arrival: {type: text, mappings: [{type: from_entity, entity: city, role: to}]}
      teammate: {type: text, mappings: [{type: from_entity, entity: person, group: "1"}]}
    responses:
      utter_ask_destination: [{text: Where to?}]
      utter_ask_nights: [{text: How many nights?}]
      utter_ask_amount: [{text: How much?}]
      utter_ask_happy: [{text: Are you happy?}]
      utter_ask_arrival: [{text: Arriving where?}]
      utter_ask_teammate: [{text: Who?}]
      utter_done: [{text: Done.}]
  `,
  flows: `
    flows:
      book_trip:
        description: book a trip
        steps:
          - collect: destination
          - collect: nights
          - action: utter_done
      send_money:
        description: send money
        nlu_trigger:
          - intent: transfer
        steps:
          - collect: amount
          - action: utter_done
      check_weather:
        description: tell the weather forecast
        steps:
          - action: utter_done
      rate_mood:
        description: ask how the user feels
        steps:
          - collect: happy
          - collect: arrival
          - collect: teammate
          - action: utter_done
  `,
});

interface Reading {
  readonly intent?: string | null;
  readonly confidence?: number;
  readonly ranking?: IntentPrediction['ranking'];
  readonly entities?: readonly ExtractedEntity[];
}

/** the classifier's reading of each message; any other message is read as nothing in particular */
function generator(readings: Record<string, Reading>, thresholds?: Partial<NluThresholds>) {
  return new NluCommandGenerator({
    interpreter: {
      interpret: (text) => {
        const reading = readings[text] ?? {};
        return {
          prediction: {
            intent: reading.intent ?? null,
            confidence: reading.confidence ?? 0.2,
            ranking: reading.ranking ?? [],
          },
          entities: reading.entities ?? [],
        };
      },
    },
    ...(thresholds ? { thresholds } : {}),
  });
}

function entity(
  name: string,
  value: unknown,
  text: string,
  span: string,
  extra: Partial<ExtractedEntity> = {},
) {
  const start = text.indexOf(span);
  return {
    entity: name,
    value,
    start,
    end: start + span.length,
    confidence: 1,
    extractor: 'RegexEntityExtractor' as const,
    ...extra,
  };
}

const flow = (id: string): string => `${FLOW_INTENT_PREFIX}${id}`;

async function understand(
  text: string,
  readings: Record<string, Reading>,
  state: TrackerState = emptyState(ASSISTANT),
  thresholds?: Partial<NluThresholds>,
): Promise<Understanding> {
  return generator(readings, thresholds).understand({ text, state, engine: engineFor(ASSISTANT) });
}

async function commands(
  text: string,
  readings: Record<string, Reading>,
  state?: TrackerState,
  thresholds?: Partial<NluThresholds>,
): Promise<readonly Command[]> {
  return (await understand(text, readings, state, thresholds)).commands;
}

/** the conversation while the flow asks its first question (`destination`, `amount` or `happy`) */
const asking = (flowId: string, ...before: Command[]) =>
  stateAfter(ASSISTANT, [{ text: '', commands: [startFlow(flowId), ...before] }]);

describe('offline NLU command generator: the message', () => {
  it('an empty message (or only slashes and spaces) is Rasa’s empty-input error', async () => {
    for (const text of ['', '   ', '/', '/ ']) {
      expect(await understand(text, {}), JSON.stringify(text)).to.deep.equal({
        commands: [{ command: 'error', error_type: 'rasa_internal_error_user_input_empty' }],
        // Rasa's _sanitize_message strips a slash message's leading slashes and white space
        parseData: {
          text: text.startsWith('/') ? '' : text,
          intent: { name: null, confidence: 0 },
          entities: [],
        },
      });
    }
  });

  it('a message over 420 characters is Rasa’s too-long error; 420 are understood', async () => {
    const long = 'a'.repeat(421);
    expect(await understand(long, {})).to.deep.equal({
      commands: [
        {
          command: 'error',
          error_type: 'rasa_internal_error_user_input_too_long',
          info: { max_characters: 420 },
        },
      ],
      parseData: { text: long, intent: { name: null, confidence: 0 }, entities: [] },
    });
    const longest = 'a'.repeat(420);
    expect(
      await commands(longest, { [longest]: { intent: flow('check_weather'), confidence: 0.9 } }),
    ).to.deep.equal([startFlow('check_weather')]);
  });

  it('leading slashes of a message that is no payload are dropped; slashes inside the text stay', async () => {
    const readings = {
      'what is the weather': { intent: flow('check_weather'), confidence: 0.9 },
      'sunny and/or rainy': { intent: flow('check_weather'), confidence: 0.9 },
    };
    expect(await commands('//what is the weather', readings)).to.deep.equal([startFlow('check_weather')]);
    expect(await commands('sunny and/or rainy', readings)).to.deep.equal([startFlow('check_weather')]);
  });

  it('reports the classifier’s reading as the parse data of the message as Rasa sanitises it (no leading slash)', async () => {
    const text = '/send 20 to Anna';
    const amount = entity('amount', 20, 'send 20 to Anna', '20', { role: 'sum' });
    const understood = await understand(text, {
      'send 20 to Anna': {
        intent: 'transfer',
        confidence: 0.8,
        ranking: [
          { intent: 'transfer', confidence: 0.8 },
          { intent: 'mood_great', confidence: 0.1 },
        ],
        entities: [amount],
      },
    });
    expect(understood.parseData).to.deep.equal({
      text: 'send 20 to Anna',
      intent: { name: 'transfer', confidence: 0.8 },
      entities: [amount],
      intent_ranking: [
        { name: 'transfer', confidence: 0.8 },
        { name: 'mood_great', confidence: 0.1 },
      ],
    });
  });
});

describe('offline NLU command generator: intents and thresholds', () => {
  it('an intent triggers its flow from the intent threshold (0.4) on; below it nothing is understood', async () => {
    expect(
      await commands('send money', { 'send money': { intent: 'transfer', confidence: 0.4 } }),
    ).to.deep.equal([startFlow('send_money')]);
    expect(
      await commands('send money', { 'send money': { intent: 'transfer', confidence: 0.39 } }),
    ).to.deep.equal([{ command: 'cannot handle' }]);
  });

  it('takes its thresholds from the options', async () => {
    const readings = { 'send money': { intent: 'transfer', confidence: 0.7 } };
    expect(await commands('send money', readings, undefined, { intent: 0.8 })).to.deep.equal([
      { command: 'cannot handle' },
    ]);
    expect(await commands('send money', readings, undefined, { flowDescription: 0.9 })).to.deep.equal([
      startFlow('send_money'),
    ]);
  });

  it('a flow’s description starts it alone from the intent threshold when no question is pending', async () => {
    const at = (confidence: number) => ({ 'weather please': { intent: flow('check_weather'), confidence } });
    expect(await commands('weather please', at(0.4))).to.deep.equal([startFlow('check_weather')]);
    expect(await commands('weather please', at(0.39))).to.deep.equal([{ command: 'cannot handle' }]);
    // a description of no flow of the assistant starts nothing
    expect(
      await commands('weather please', { 'weather please': { intent: flow('gone'), confidence: 0.9 } }),
    ).to.deep.equal([{ command: 'cannot handle' }]);
  });

  it('with a question pending a description needs the stricter flow threshold (0.6) to win over the answer', async () => {
    const state = await asking('book_trip');
    const text = 'what is the weather going to be';
    const at = (confidence: number) => ({ [text]: { intent: flow('check_weather'), confidence } });
    expect(await commands(text, at(0.6), state)).to.deep.equal([startFlow('check_weather')]);
    expect(await commands(text, at(0.5), state)).to.deep.equal([
      { command: 'set slot', name: 'destination', value: text, extractor: 'LLM' },
    ]);
    // a question is no answer; below the flow threshold it starts nothing either
    const question = 'and the weather?';
    expect(
      await commands(question, { [question]: { intent: flow('check_weather'), confidence: 0.5 } }, state),
    ).to.deep.equal([{ command: 'cannot handle' }]);
  });

  it('a repair intent stands alone: entities it mentions are not meant as values', async () => {
    const text = 'forget the 20';
    expect(
      await commands(text, {
        [text]: { intent: 'parley_cancel', confidence: 0.9, entities: [entity('amount', 20, text, '20')] },
      }),
    ).to.deep.equal([{ command: 'cancel flow' }]);
  });
});

describe('offline NLU command generator: slots from intents and entities', () => {
  it('an intent-mapped value answers only the slot being asked', async () => {
    const readings = { 'I feel great': { intent: 'mood_great', confidence: 0.9 } };
    expect(await commands('I feel great', readings)).to.deep.equal([{ command: 'cannot handle' }]);
    expect(await commands('I feel great', readings, await asking('rate_mood'))).to.deep.equal([
      { command: 'set slot', name: 'happy', value: true, extractor: 'NLU' },
    ]);
  });

  it('an entity fills its slot without a question, with the entity’s role and group', async () => {
    const text = 'fly to Rome with Bo';
    const readings = {
      [text]: {
        entities: [
          entity('city', 'Rome', text, 'Rome', { role: 'to' }),
          entity('person', 'Bo', text, 'Bo', { group: '1' }),
          entity('amount', 3, text, 'with'),
        ],
      },
    };
    expect(await commands(text, readings)).to.deep.equal([
      { command: 'set slot', name: 'amount', value: 3, extractor: 'NLU' },
      { command: 'set slot', name: 'arrival', value: 'Rome', extractor: 'NLU' },
      { command: 'set slot', name: 'teammate', value: 'Bo', extractor: 'NLU' },
    ]);
  });

  it('an entity answering the asked slot keeps a flow request beside it; an answer in words does not', async () => {
    const state = await asking('book_trip', setSlot('destination', 'Lisbon'));
    const text = '3 nights, and send money';
    const byEntity = await commands(
      text,
      { [text]: { intent: 'transfer', confidence: 0.5, entities: [entity('days', 3, text, '3')] } },
      state,
    );
    expect(byEntity).to.deep.equal([
      { command: 'set slot', name: 'nights', value: 3, extractor: 'LLM' },
      startFlow('send_money'),
    ]);
    const words = await commands(
      'Lisbon',
      { Lisbon: { intent: 'transfer', confidence: 0.5 } },
      await asking('book_trip'),
    );
    expect(words).to.deep.equal([
      { command: 'set slot', name: 'destination', value: 'Lisbon', extractor: 'LLM' },
    ]);
  });

  it('an entity for the slot being asked answers it, beside a request for the flow that asks', async () => {
    const text = '50 please, and send money';
    expect(
      await commands(
        text,
        { [text]: { intent: 'transfer', confidence: 0.5, entities: [entity('amount', 50, text, '50')] } },
        await asking('send_money'),
      ),
    ).to.deep.equal([
      { command: 'set slot', name: 'amount', value: 50, extractor: 'NLU' },
      startFlow('send_money'),
    ]);
  });

  it('a slot with an LLM mapping is filled as the LLM would; the answer of a number in words too', async () => {
    const state = await asking('book_trip', setSlot('destination', 'Lisbon'));
    expect(await commands('3', {}, state)).to.deep.equal([
      { command: 'set slot', name: 'nights', value: 3, extractor: 'LLM' },
    ]);
  });

  it('another slot’s entity in a longer reply is a correction, not the answer to a free-text question', async () => {
    const text = 'make that 50 dollars';
    expect(
      await commands(
        text,
        { [text]: { entities: [entity('amount', 50, text, '50')] } },
        await asking('book_trip'),
      ),
    ).to.deep.equal([{ command: 'set slot', name: 'amount', value: 50, extractor: 'NLU' }]);
  });
});

describe('offline NLU command generator: an answer against another reading', () => {
  it('a flow intent below the flow threshold does not outweigh a long answer in words', async () => {
    const text = 'somewhere I can send money from';
    expect(
      await commands(text, { [text]: { intent: 'transfer', confidence: 0.5 } }, await asking('book_trip')),
    ).to.deep.equal([{ command: 'set slot', name: 'destination', value: text, extractor: 'LLM' }]);
  });

  it('a confident description of the running flow is no other flow: the reply answers', async () => {
    const text = 'I would like to book a trip to Lisbon';
    const answered = await commands(
      text,
      { [text]: { intent: flow('book_trip'), confidence: 0.9 } },
      await asking('book_trip'),
    );
    expect(answered).to.have.length(1);
    expect(answered[0]).to.deep.include({ command: 'set slot', name: 'destination', extractor: 'LLM' });
  });

  it('a confident repair intent outweighs a long free-text reply; a weak one does not', async () => {
    const text = 'tell me something funny about cats';
    const state = await asking('book_trip');
    expect(
      await commands(text, { [text]: { intent: 'parley_chitchat', confidence: 0.9 } }, state),
    ).to.deep.equal([{ command: 'chitchat' }]);
    expect(
      await commands(text, { [text]: { intent: 'parley_chitchat', confidence: 0.5 } }, state),
    ).to.deep.equal([{ command: 'set slot', name: 'destination', value: text, extractor: 'LLM' }]);
  });

  it('a confident non-answer does not stop a number read from a longer reply', async () => {
    const state = await asking('book_trip', setSlot('destination', 'Lisbon'));
    const text = 'I think about 3 or so';
    expect(
      await commands(text, { [text]: { intent: 'parley_chitchat', confidence: 0.9 } }, state),
    ).to.deep.equal([{ command: 'set slot', name: 'nights', value: 3, extractor: 'LLM' }]);
  });
});
