import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import {
  flowsStarted,
  inlineAssistant,
  slotEvents,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      recipient:
        type: text
      city:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_ask_city:
        - text: Which city?
      utter_hello:
        - text: Hello!
      utter_weather:
        - text: Sunny.
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
      check_weather:
        description: Tell the weather in a city.
        steps:
          - collect: city
          - action: utter_weather
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
  `,
});

const start = (flow: string): Command => ({ command: 'start flow', flow });
const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });

describe('applying a turn of commands', () => {
  it('fills a slot of a flow started in the same turn while another flow is active, whatever the order', async () => {
    for (const commands of [
      [start('check_weather'), set('city', 'Paris')],
      [set('city', 'Paris'), start('check_weather')],
    ]) {
      const conversation = await startConversation(assistant);
      await conversation.send('send money', [start('transfer_money')]);
      const events = await conversation.send('weather in Paris?', commands);
      expect(slotEvents(events)).to.deep.include({ name: 'city', value: 'Paris' });
      expect(utterances(events)[0]).to.equal('utter_weather');
    }
  });

  it('with no active flow, starts the flow first and answers the other requests above it, first one first', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('fees? hello! a human please', [
      { command: 'knowledge' },
      start('greet'),
      { command: 'human handoff' },
    ]);
    // the StartFlow runs first, so its flow is at the bottom; the others end up above it in the order given
    expect(flowsStarted(events).slice(0, 3)).to.deep.equal([
      'pattern_search',
      'pattern_human_handoff',
      'greet',
    ]);
    expect(utterances(events).slice(0, 3)).to.deep.equal([
      'utter_no_knowledge_base',
      'utter_human_handoff_not_available',
      'utter_hello',
    ]);
  });

  it('in an active flow, runs the commands in reverse order, so the first one ends up on top', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [start('transfer_money')]);
    const events = await conversation.send('weather? and a human please', [
      start('check_weather'),
      { command: 'human handoff' },
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_city']);
    const stack = (await conversation.stack()).map((frame) => frame.flow_id);
    expect(stack.indexOf('pattern_human_handoff')).to.be.below(stack.indexOf('check_weather'));
  });
});

const validated = inlineAssistant({
  domain: `
    slots:
      destination:
        type: text
      age:
        type: float
        validation:
          rejections:
            - if: slots.age < 18
              utter: utter_too_young
          refill_utter: utter_ask_age_again
      seats:
        type: float
        validation:
          rejections:
            - if: slots.seats > 4
              utter: utter_too_many_seats
    responses:
      utter_ask_destination:
        - text: Where to?
      utter_ask_age:
        - text: How old are you?
      utter_ask_age_again:
        - text: Please give an age of 18 or more.
      utter_too_young:
        - text: You must be 18.
      utter_ask_seats:
        - text: How many seats?
      utter_too_many_seats:
        - text: At most 4 seats.
      utter_booked:
        - text: Booked.
  `,
  flows: `
    flows:
      book_trip:
        description: Book a trip.
        steps:
          - collect: destination
          - collect: age
          - collect: seats
          - action: utter_booked
  `,
});

function validationContext(events: readonly Event[]): Readonly<Record<string, unknown>> | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === 'pattern_validate_slot')
    ?.metadata;
}

describe('slot validation from the domain (pattern_validate_slot)', () => {
  it('checks a slot set by a command against its rejections, and asks again with its refill response', async () => {
    const conversation = await startConversation(validated);
    await conversation.send('book a trip', [start('book_trip')]);
    const events = await conversation.send('Rome, I am 12', [set('destination', 'Rome'), set('age', 12)]);
    expect(validationContext(events)).to.deep.include({
      validate: 'age',
      refill_utter: 'utter_ask_age_again',
      refill_action: 'action_ask_age',
      rejections: [{ if: 'slots.age < 18', utter: 'utter_too_young' }],
    });
    expect(utterances(events)).to.deep.equal(['utter_too_young', 'utter_ask_age_again']);
    expect((await conversation.slots())['age']).to.equal(null);
    const next = await conversation.send('20', [set('age', 20)]);
    expect(utterances(next)).to.deep.equal(['utter_ask_seats']);
  });

  it("asks again with the slot's own question when it has no refill response", async () => {
    const conversation = await startConversation(validated);
    await conversation.send('book a trip', [start('book_trip')]);
    const events = await conversation.send('Rome, 6 seats', [set('destination', 'Rome'), set('seats', 6)]);
    expect(validationContext(events)).to.deep.include({ validate: 'seats', refill_utter: 'utter_ask_seats' });
    expect(utterances(events)).to.deep.equal(['utter_too_many_seats', 'utter_ask_seats']);
  });

  it('lets a valid value through, and does not validate slots without rules', async () => {
    const conversation = await startConversation(validated);
    await conversation.send('book a trip', [start('book_trip')]);
    const events = await conversation.send('Rome, I am 30', [set('destination', 'Rome'), set('age', 30)]);
    expect(flowsStarted(events).filter((flow) => flow === 'pattern_validate_slot')).to.have.length(1);
    expect(validationContext(events)).to.deep.include({ validate: 'age' });
    expect(utterances(events)).to.deep.equal(['utter_ask_seats']);
    expect(await conversation.slots()).to.include({ destination: 'Rome', age: 30 });
  });
});
