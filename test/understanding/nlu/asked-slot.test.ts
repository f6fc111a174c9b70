import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeAgent } from '../../../src/cli/compose.js';
import type { Event } from '../../../src/core/events/types.js';
import type { Agent } from '../../../src/runtime/agent.js';
import type {
  IntentPrediction,
  NluInterpreter,
} from '../../../src/understanding/nlu/nlu-command-generator.js';
import {
  FLOW_INTENT_PREFIX,
  NluCommandGenerator,
} from '../../../src/understanding/nlu/nlu-command-generator.js';
import { nluInterpreter, trainNlu } from '../../../src/understanding/nlu/pipeline.js';
import { isExplicitRepair } from '../../../src/understanding/nlu/repair-markers.js';
import { valueFromButtons } from '../../../src/understanding/nlu/slot-values/button-answer.js';
import { textAnswer } from '../../../src/understanding/nlu/slot-values/text-answer.js';
import { ManualClock, flowsStarted, inlineAssistant, slotValues } from '../../support/inline-assistant.js';

/**
 * An assistant the classifier was not tuned on: what the classifier predicts is scripted per message,
 * so each rule is checked against the lean it must (or must not) override.
 */
const ASSISTANT = inlineAssistant({
  domain: `
    version: "3.1"
    slots:
      destination: {type: text, mappings: [{type: from_llm}]}
      nights: {type: float, mappings: [{type: from_llm}]}
      colour: {type: categorical, values: [blue, red], mappings: [{type: from_llm}]}
      confirm: {type: bool, mappings: [{type: from_llm}]}
    responses:
      utter_ask_destination: [{text: Where are you flying to?}]
      utter_ask_nights: [{text: How long will you stay?}]
      utter_ask_colour: [{text: Which suitcase colour?}]
      utter_ask_confirm:
        - text: Shall I book it?
          buttons:
            - {title: "Yes, book it", payload: "/SetSlots(confirm=true)"}
            - {title: "No, cancel the booking", payload: "/SetSlots(confirm=false)"}
      utter_booked: [{text: Booked.}]
      utter_weather: [{text: Sunny.}]
  `,
  flows: `
    flows:
      book_trip:
        description: book a trip
        steps:
          - collect: destination
          - collect: nights
          - collect: colour
          - collect: confirm
          - action: utter_booked
      check_weather:
        description: tell the weather forecast
        steps:
          - action: utter_weather
  `,
});

type Lean = Partial<IntentPrediction> & { intent: string | null; confidence: number };

class ScriptedInterpreter implements NluInterpreter {
  readonly leans = new Map<string, Lean>();
  interpret(text: string) {
    const lean = this.leans.get(text) ?? { intent: null, confidence: 0.2 };
    return { prediction: { ranking: [], ...lean }, entities: [] };
  }
}

async function tripAt(
  slot: 'destination' | 'nights' | 'colour' | 'confirm',
  interpreter: NluInterpreter & { leans?: Map<string, Lean> } = new ScriptedInterpreter(),
) {
  const agent: Agent = await composeAgent({
    assistant: ASSISTANT,
    projectRoot: mkdtempSync(join(tmpdir(), 'parley-asked-')),
    commandGenerator: new NluCommandGenerator({ interpreter }),
    clock: new ManualClock(),
    random: () => 0,
  });
  const say = async (text: string): Promise<readonly Event[]> =>
    (await agent.handleMessage({ conversationId: 'u', text })).events;
  await agent.handleMessage({
    conversationId: 'u',
    text: '',
    commands: [{ command: 'start flow', flow: 'book_trip' }],
  });
  const answers = { destination: 'Lisbon', nights: '3', colour: 'red' } as const;
  for (const name of ['destination', 'nights', 'colour'] as const) {
    if (name === slot) break;
    await say(answers[name]);
  }
  return { say, leans: interpreter.leans ?? new Map<string, Lean>() };
}

const flow = (name: string): string => `${FLOW_INTENT_PREFIX}${name}`;
describe('offline NLU: an answer to the asked slot wins over the classifier lean', function () {
  this.timeout(20_000);

  it('a one-word city answers a text question even when the classifier says out of scope', async () => {
    const trip = await tripAt('destination');
    trip.leans.set('Porto', { intent: 'parley_out_of_scope', confidence: 0.95 });
    expect(slotValues(await trip.say('Porto'), 'destination')).to.deep.equal(['Porto']);
  });

  it('a text answer is stored without its lead-in, as an LLM would extract it', async () => {
    const trip = await tripAt('destination');
    expect(slotValues(await trip.say("it's Porto"), 'destination')).to.deep.equal(['Porto']);
  });

  it('a reply that sounds like a repair intent but does not name it answers ("I lost it" is no cancel)', async () => {
    const trip = await tripAt('destination');
    trip.leans.set('I lost it', { intent: 'parley_cancel', confidence: 0.7 });
    const events = await trip.say('I lost it');
    expect(slotValues(events, 'destination')).to.deep.equal(['I lost it']);
    expect(flowsStarted(events)).to.not.include('pattern_cancel_flow');
  });

  it('"cancel" to a text question cancels the flow, as Rasa\'s LLM would, not a destination named cancel', async () => {
    const trip = await tripAt('destination');
    trip.leans.set('cancel', { intent: 'parley_cancel', confidence: 0.99 });
    const events = await trip.say('cancel');
    expect(slotValues(events, 'destination')).to.deep.equal([]);
    expect(flowsStarted(events)).to.include('pattern_cancel_flow');
  });

  it('a question is not a text answer', async () => {
    const trip = await tripAt('destination');
    trip.leans.set('how are you?', { intent: 'parley_chitchat', confidence: 0.9 });
    expect(slotValues(await trip.say('how are you?'), 'destination')).to.deep.equal([]);
  });

  it('a confident request for another flow, longer than a short answer, starts that flow', async () => {
    const trip = await tripAt('destination');
    const text = 'what will the weather be like tomorrow';
    trip.leans.set(text, { intent: flow('check_weather'), confidence: 0.9 });
    const events = await trip.say(text);
    expect(flowsStarted(events)).to.include('check_weather');
    expect(slotValues(events, 'destination')).to.deep.equal([]);
  });

  it('a short answer wins even over a confident other flow', async () => {
    const trip = await tripAt('destination');
    trip.leans.set('weather city', { intent: flow('check_weather'), confidence: 0.9 });
    const events = await trip.say('weather city');
    expect(slotValues(events, 'destination')).to.deep.equal(['weather city']);
    expect(flowsStarted(events)).to.not.include('check_weather');
  });

  it('"two weeks" fills a float slot with the number said, the unit being the question\'s', async () => {
    const trip = await tripAt('nights');
    trip.leans.set('two weeks', { intent: 'parley_out_of_scope', confidence: 0.8 });
    expect(slotValues(await trip.say('two weeks'), 'nights')).to.deep.equal([2]);
  });

  it('"the blue one" picks the categorical value while the classifier leans to another flow', async () => {
    const trip = await tripAt('colour');
    trip.leans.set('the blue one', { intent: flow('check_weather'), confidence: 0.5 });
    const events = await trip.say('the blue one');
    expect(slotValues(events, 'colour')).to.deep.equal(['blue']);
    expect(flowsStarted(events)).to.not.include('check_weather');
  });

  it('"no" to a yes/no question is an answer, "stop" is a repair', async () => {
    const first = await tripAt('confirm');
    first.leans.set('no', { intent: 'parley_cancel', confidence: 0.6 });
    // the flow then ends and resets the slot (the null after the answer)
    expect(slotValues(await first.say('no'), 'confirm')[0]).to.equal(false);
    const second = await tripAt('confirm');
    second.leans.set('stop', { intent: 'parley_cancel', confidence: 0.99 });
    const events = await second.say('stop');
    expect(slotValues(events, 'confirm')).to.deep.equal([]);
    expect(flowsStarted(events)).to.include('pattern_cancel_flow');
  });

  it('"yes, please" is a yes even when the classifier hears "human please"', async () => {
    const trip = await tripAt('confirm');
    trip.leans.set('yes, please', { intent: 'parley_human_handoff', confidence: 0.5 });
    expect(slotValues(await trip.say('yes, please'), 'confirm')[0]).to.equal(true);
  });

  it('a button title picked in words wins over the repair word in it', async () => {
    const trip = await tripAt('confirm');
    trip.leans.set('no, cancel the booking', { intent: 'parley_cancel', confidence: 0.95 });
    const events = await trip.say('no, cancel the booking');
    expect(slotValues(events, 'confirm')[0]).to.equal(false);
    expect(flowsStarted(events)).to.not.include('pattern_cancel_flow');
  });

  it('a button title mentioned among other words is no click: the explicit repair wins', async () => {
    const trip = await tripAt('confirm');
    const text = 'stop, I said yes, book it by mistake';
    trip.leans.set(text, { intent: 'parley_cancel', confidence: 0.9 });
    const events = await trip.say(text);
    expect(slotValues(events, 'confirm')).to.deep.equal([]);
    expect(flowsStarted(events)).to.include('pattern_cancel_flow');
  });

  it('asking for a human during a question hands off', async () => {
    const trip = await tripAt('colour');
    trip.leans.set('let me talk to a human', { intent: 'parley_human_handoff', confidence: 0.9 });
    expect(flowsStarted(await trip.say('let me talk to a human'))).to.include('pattern_human_handoff');
  });
});

describe('offline NLU: the readers behind the asked-slot rules', () => {
  it('an explicit repair names the repair; a lean does not', () => {
    expect(isExplicitRepair('parley_cancel', 'please stop')).to.equal(true);
    expect(isExplicitRepair('parley_cancel', 'I lost it')).to.equal(false);
    expect(isExplicitRepair('parley_human_handoff', 'yes, please')).to.equal(false);
    expect(isExplicitRepair('parley_skip_question', 'skip this one')).to.equal(true);
    expect(isExplicitRepair('parley_out_of_scope', 'cancel')).to.equal(false);
  });

  it('a text answer loses its lead-in and politeness, and keeps everything else', () => {
    expect(textAnswer('just Bart')).to.equal('Bart');
    expect(textAnswer('the handle is @JoeMyers')).to.equal('@JoeMyers');
    expect(textAnswer('to Anna')).to.equal('Anna');
    expect(textAnswer('Porto, please')).to.equal('Porto');
    expect(textAnswer('next Tuesday at 10am')).to.equal('next Tuesday at 10am');
    expect(textAnswer('So Young Park')).to.equal('So Young Park');
  });

  it('a reply naming a button takes its payload value; a plain payload is the value itself', () => {
    const buttons = [
      { title: 'Immediate', payload: '/SetSlots(timing=now)' },
      { title: 'Future', payload: '/SetSlots(timing=future)' },
    ];
    expect(valueFromButtons('timing', buttons, 'immediately')).to.deep.equal({ value: 'now', whole: true });
    expect(valueFromButtons('timing', buttons, 'the future one')).to.deep.equal({
      value: 'future',
      whole: false,
    });
    expect(valueFromButtons('timing', buttons, 'whenever')).to.equal(undefined);
    expect(valueFromButtons('other', buttons, 'Future')).to.equal(undefined);
    const plain = [{ title: '12345678 (Savings)', payload: '12345678' }];
    expect(valueFromButtons('account', plain, '12345678 (savings)')).to.deep.equal({
      value: '12345678',
      whole: true,
    });
  });
});

describe('offline NLU: the shipped repair intents do not swallow short answers (trained pipeline)', function () {
  this.timeout(60_000);
  let trained: ReturnType<typeof trainNlu> | undefined;
  const interpreter = (): NluInterpreter =>
    nluInterpreter((trained ??= trainNlu(ASSISTANT)), () => new Date(2026, 0, 1));

  for (const [text, value] of [
    ['no', false],
    ['not now', false],
    ['nope', false],
    ['yes, please', true],
    ['sure', true],
  ] as const) {
    it(`"${text}" answers a yes/no question with ${String(value)}`, async () => {
      const trip = await tripAt('confirm', interpreter());
      expect(slotValues(await trip.say(text), 'confirm')[0]).to.equal(value);
    });
  }

  it('"stop" still cancels', async () => {
    const trip = await tripAt('confirm', interpreter());
    expect(flowsStarted(await trip.say('stop'))).to.include('pattern_cancel_flow');
  });

  it('"I lost it" answers a text question', async () => {
    const trip = await tripAt('destination', interpreter());
    expect(slotValues(await trip.say('I lost it'), 'destination')).to.deep.equal(['I lost it']);
  });
});
