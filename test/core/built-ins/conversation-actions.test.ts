import { expect } from 'chai';
import type { Event } from '../../../src/core/events/types.js';
import { inlineAssistant } from '../../support/inline-assistant.js';
import {
  T0,
  executed,
  flowFrame,
  patternOf,
  runAction,
  summary,
  userWithIntent,
  withStacks,
} from './run-action.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      age:
        type: float
      size:
        type: categorical
        values: [small, large]
      subscribed:
        type: bool
      toppings:
        type: list
      city:
        type: text
    responses:
      utter_ask_age:
        - text: How old are you?
      utter_ask_size:
        - text: Which size?
      utter_ask_subscribed:
        - text: Subscribed?
      utter_ask_city:
        - text: Which city?
      utter_too_young:
        - text: You must be 18.
      utter_only_berlin:
        - text: We only deliver in Berlin.
  `,
  flows: `
    flows:
      order:
        description: Order something.
        steps:
          - collect: age
          - collect: size
          - collect: subscribed
          - collect: city
  `,
});

const slot = (name: string, value: unknown): Event => ({ event: 'slot', timestamp: T0, name, value });
const bot = (text: string): Event => ({
  event: 'bot',
  timestamp: T0,
  text,
  data: {},
  metadata: { utter_action: `utter_${text}` },
});

describe('built-in actions of the conversation', () => {
  describe('action_hangup, action_trigger_search and action_trigger_chitchat', () => {
    it('action_hangup ends the session', async () => {
      expect(summary(await runAction(assistant, 'action_hangup', []))).to.deep.equal(['session_ended']);
    });

    it('without a knowledge base or an IntentlessPolicy they say they cannot help, in Rasa’s default words', async () => {
      const search = await runAction(assistant, 'action_trigger_search', []);
      expect(search.map((event) => event.event === 'bot' && event.metadata?.['utter_action'])).to.deep.equal([
        'utter_no_knowledge_base',
      ]);
      expect(summary(await runAction(assistant, 'action_trigger_chitchat', []))).to.deep.equal([
        'bot:Sorry, that is not something I have been trained to help with.',
      ]);
    });
  });

  describe('action_send_text (Rasa’s create_bot_utterance)', () => {
    const sent = async (message: unknown): Promise<Event | undefined> =>
      (await runAction(assistant, 'action_send_text', [], { metadata: { message } }))[0] as Event | undefined;

    it('keeps the extra keys of the message as the bot message’s metadata, and an image as its attachment', async () => {
      const message = await sent({ text: 'Look', image: 'https://x.test/a.png', source: 'docs' });
      expect(message).to.deep.include({ text: 'Look', metadata: { source: 'docs' } });
      expect(message?.event === 'bot' ? message.data : undefined).to.deep.include({
        image: 'https://x.test/a.png',
        attachment: 'https://x.test/a.png',
        buttons: null,
      });
    });

    it('sends a message without text as no text, and anything that is not a message as an empty text', async () => {
      expect(await sent({ custom: { card: 1 } })).to.deep.include({ text: null, metadata: {} });
      for (const odd of [null, 'just a string', ['a']])
        expect(await sent(odd)).to.deep.include({ text: '', metadata: {} });
    });
  });

  describe('action_repeat_bot_messages', () => {
    it('repeats what the bot said since the user’s message, or else in the turn before', async () => {
      const before = [bot('one'), executed('action_listen'), userWithIntent('repeat')];
      expect(summary(await runAction(assistant, 'action_repeat_bot_messages', before))).to.deep.equal([
        'bot:one',
      ]);
      const after = [...before, bot('two')];
      expect(summary(await runAction(assistant, 'action_repeat_bot_messages', after))).to.deep.equal([
        'bot:two',
      ]);
    });
  });

  describe('action_run_slot_rejections', () => {
    const collecting = (name: string, rejections: readonly object[] = []): Event[] =>
      withStacks([
        flowFrame('F', 'order', `collect_${name}`),
        patternOf('C', 'pattern_collect_information', { collect: name, rejections }),
      ]);

    it('rejects a value of the wrong type with the type’s response, naming the value', async () => {
      const events = await runAction(assistant, 'action_run_slot_rejections', [
        ...collecting('age'),
        slot('age', 'old'),
      ]);
      expect(summary(events)).to.deep.equal([
        'slot:age=null',
        'bot:Sorry, `old` does not look like a valid number. Please answer with a number.',
      ]);
    });

    it('stores the value in the slot’s type when it can be converted', async () => {
      const age = await runAction(assistant, 'action_run_slot_rejections', [
        ...collecting('age'),
        slot('age', '42'),
      ]);
      expect(summary(age)).to.deep.equal(['slot:age=42']);
      // a list slot is never collected, but a value set for it can be validated (pattern_validate_slot)
      const toppings = await runAction(assistant, 'action_run_slot_rejections', [
        ...withStacks([patternOf('V', 'pattern_validate_slot', { validate: 'toppings' })]),
        slot('toppings', 'ham'),
      ]);
      expect(summary(toppings)).to.deep.equal(['slot:toppings=["ham"]']);
    });

    it('accepts a value of the right type that no rejection matches, without any event', async () => {
      const rejections = [{ if: 'slots.age < 18', utter: 'utter_too_young' }];
      const events = await runAction(assistant, 'action_run_slot_rejections', [
        ...collecting('age', rejections),
        slot('age', 30),
      ]);
      expect(events).to.deep.equal([]);
    });

    it('checks the slot pattern_validate_slot validates too', async () => {
      const validating = withStacks([
        flowFrame('F', 'order', 'collect_age'),
        patternOf('V', 'pattern_validate_slot', {
          validate: 'city',
          rejections: [{ if: 'slots.city != "Berlin"', utter: 'utter_only_berlin' }],
        }),
      ]);
      const events = await runAction(assistant, 'action_run_slot_rejections', [
        ...validating,
        slot('city', 'Rome'),
      ]);
      expect(summary(events)).to.deep.equal(['slot:city=null', 'bot:We only deliver in Berlin.']);
    });

    it('does nothing while the slot is empty, for an undeclared slot, or outside a collect step', async () => {
      const rejections = [{ if: 'slots.city != "Berlin"', utter: 'utter_only_berlin' }];
      expect(
        await runAction(assistant, 'action_run_slot_rejections', collecting('city', rejections)),
      ).to.deep.equal([]);
      expect(
        await runAction(assistant, 'action_run_slot_rejections', [
          ...collecting('mystery', rejections),
          slot('mystery', 'x'),
        ]),
      ).to.deep.equal([]);
      expect(
        await runAction(assistant, 'action_run_slot_rejections', [
          ...withStacks([flowFrame('F', 'order', 'collect_city')]),
          slot('city', 'Rome'),
        ]),
      ).to.deep.equal([]);
    });

    it('answers a rejection whose condition cannot be read with the internal error response', async () => {
      const rejections = [{ if: 'slots.age > {{context.minimum}}', utter: 'utter_too_young' }];
      const events = await runAction(assistant, 'action_run_slot_rejections', [
        ...collecting('age', rejections),
        slot('age', 30),
      ]);
      expect(summary(events)).to.deep.equal([
        'slot:age=null',
        'bot:Sorry, something went wrong on my side. Please try again in a few minutes.',
      ]);
    });
  });
});
