import { expect } from 'chai';
import { inlineAssistant, ManualClock, startConversation } from '../support/inline-assistant.js';
import type { Event } from '../../src/core/events/types.js';

const assistant = inlineAssistant({
  domain: `
    session_config:
      carry_over_slots_to_new_session: true
      session_expiration_time: 1
    slots:
      price:
        type: float
        mappings:
          - type: from_llm
    actions:
      - action_quote
    responses:
      utter_ask_price:
        - text: What price?
      utter_price:
        - text: "Total: {price}"
  `,
  flows: `
    flows:
      quote:
        description: Quote a price from the back office.
        steps:
          - action: action_quote
          - action: utter_price
      haggle:
        description: The user names a price.
        steps:
          - collect: price
          - action: utter_price
      show:
        description: Show the price again.
        steps:
          - action: utter_price
      fixed:
        description: A fixed price.
        steps:
          - set_slots:
              - price: 100
          - action: utter_price
  `,
});

const texts = (events: readonly Event[]): (string | null)[] =>
  events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));

const quoteStub = { action_quote: { events: [{ event: 'slot', name: 'price', value: 1200 }] } };

describe('slot values keep the type they were set with', () => {
  it('a float slot a custom action sets to 1200 renders 1200, as Rasa does not coerce on set', async () => {
    const conversation = await startConversation(assistant, { stubs: quoteStub });
    const events = await conversation.send('quote', [{ command: 'start flow', flow: 'quote' }]);
    expect(texts(events)).to.include('Total: 1200');
  });

  it('a float slot a command fills through a collect step renders as a Python float (1200.0)', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('haggle', [{ command: 'start flow', flow: 'haggle' }]);
    const events = await conversation.send('1200', [{ command: 'set slot', name: 'price', value: '1200' }]);
    expect(texts(events)).to.include('Total: 1200.0');
  });

  it('a set_slots step keeps the value as written (100)', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('fixed', [{ command: 'start flow', flow: 'fixed' }]);
    expect(texts(events)).to.include('Total: 100');
  });

  it('a value carried over to a new session keeps who set it, so it still renders as sent', async () => {
    const clock = new ManualClock();
    const conversation = await startConversation(assistant, { stubs: quoteStub, clock });
    await conversation.send('quote', [{ command: 'start flow', flow: 'quote' }]);
    clock.advanceMinutes(5);
    const events = await conversation.send('again', [{ command: 'start flow', flow: 'show' }]);
    expect(events.map((event) => event.event)).to.include('session_started');
    expect(texts(events)).to.include('Total: 1200');
  });
});
