import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import {
  flowEvents,
  flowsStarted,
  inlineAssistant,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const start = (flow: string): Command => ({ command: 'start flow', flow });
const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });

const assistant = inlineAssistant({
  domain: `
    slots:
      item:
        type: text
      card:
        type: text
    responses:
      utter_ask_item:
        - text: What would you like?
      utter_ask_card:
        - text: Your card number?
      utter_paid:
        - text: Paid.
      utter_ordered:
        - text: Ordered.
  `,
  flows: `
    flows:
      order_food:
        description: Order something to eat.
        steps:
          - collect: item
          - call: pay
          - action: utter_ordered
      pay:
        description: Take a card payment.
        if: False
        steps:
          - collect: card
          - action: utter_paid
  `,
});

describe('call step', () => {
  it('runs the called flow inline, as a call frame on top of the caller', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [start('order_food')]);
    const events = await conversation.send('pizza', [set('item', 'pizza')]);
    expect(flowsStarted(events)).to.include('pay');
    expect(flowEvents(events)).to.not.include('flow_completed order_food');
    expect(utterances(events)).to.deep.equal(['utter_ask_card']);
    const stack = await conversation.stack();
    expect(stack.map((frame) => frame.flow_id)).to.deep.equal([
      'order_food',
      'pay',
      'pattern_collect_information',
    ]);
    expect(stack[0]).to.include({ step_id: 'order_food_1_call_pay' });
    expect(stack[1]).to.include({ frame_type: 'call' });
  });

  it('continues the caller after the call step, without resetting the called flow slots or offering more help', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [start('order_food')]);
    await conversation.send('pizza', [set('item', 'pizza')]);
    const events = await conversation.send('1234', [set('card', '1234')]);
    const lifecycle = flowEvents(events).filter((line) => !line.includes('pattern_collect'));
    expect(lifecycle.slice(0, 2)).to.deep.equal(['flow_completed pay', 'flow_completed order_food']);
    expect(utterances(events)).to.deep.equal(['utter_paid', 'utter_ordered', 'utter_can_do_something_else']);
    const completedPay = events.findIndex(
      (event) => event.event === 'flow_completed' && event.flow_id === 'pay',
    );
    const resetsBeforeCallerEnds = events
      .slice(
        0,
        events.findIndex((event) => event.event === 'flow_completed' && event.flow_id === 'order_food'),
      )
      .slice(completedPay)
      .filter((event) => event.event === 'slot');
    expect(resetsBeforeCallerEnds).to.deep.equal([]);
  });

  it("resets the called flow's collected slots when the caller ends", async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [start('order_food')]);
    await conversation.send('pizza', [set('item', 'pizza')]);
    const events = await conversation.send('1234', [set('card', '1234')]);
    expect(slotValues(events, 'card')).to.deep.equal(['1234', null]);
    expect(slotValues(events, 'item')).to.deep.equal([null]);
    expect(await conversation.slots()).to.include({ item: null, card: null });
  });

  it("accepts the called flow's slots while the caller is active, so its question is skipped", async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [start('order_food')]);
    const events = await conversation.send('pizza, card 1234', [set('item', 'pizza'), set('card', '1234')]);
    expect(slotValues(events, 'card')[0]).to.equal('1234');
    expect(utterances(events)).to.not.include('utter_ask_card');
    expect(utterances(events).slice(0, 2)).to.deep.equal(['utter_paid', 'utter_ordered']);
  });
});
