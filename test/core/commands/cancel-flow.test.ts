import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import {
  flowEvents,
  flowsStarted,
  inlineAssistant,
  slotValues,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      item:
        type: text
      card:
        type: text
    responses:
      utter_ask_item:
        - text: What do you want to order?
      utter_ask_card:
        - text: Your card number?
      utter_ordered:
        - text: Ordered.
  `,
  flows: `
    flows:
      order_food:
        name: order food
        description: Order something to eat.
        steps:
          - collect: item
          - call: pay
          - action: utter_ordered
      pay:
        name: payment
        description: Take a card payment.
        if: False
        steps:
          - collect: card
  `,
});

const cancel: Command = { command: 'cancel flow' };
const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });

function cancelPatternContext(events: readonly Event[]): Readonly<Record<string, unknown>> | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === 'pattern_cancel_flow')
    ?.metadata;
}

describe('CancelFlow command', () => {
  it('cancels the active flow through pattern_cancel_flow and resets the slots it collected', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [{ command: 'start flow', flow: 'order_food' }]);
    await conversation.send('pizza', [set('item', 'pizza')]);
    const events = await conversation.send('stop', [cancel]);
    expect(events.find((event) => event.event === 'flow_cancelled')).to.include({ flow_id: 'pay' });
    expect(flowsStarted(events)[0]).to.equal('pattern_cancel_flow');
    expect(utterances(events)[0]).to.equal('utter_flow_cancelled_rasa');
    expect(utterances(events)).to.not.include('utter_ordered');
    expect(slotValues(events, 'item')).to.deep.equal([null]);
    expect((await conversation.stack()).filter((frame) => frame.type === 'flow')).to.deep.equal([]);
  });

  it('cancelling a called flow cancels its caller too', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [{ command: 'start flow', flow: 'order_food' }]);
    await conversation.send('pizza', [set('item', 'pizza')]);
    const stackBefore = (await conversation.state()).stack;
    const events = await conversation.send('stop', [cancel]);
    const context = cancelPatternContext(events);
    expect(context).to.include({ canceled_name: 'payment' });
    const frameIds = stackBefore.map((frame) => frame.frame_id);
    expect(context?.['canceled_frames']).to.have.members(frameIds);
    const completed = flowEvents(events).filter((line) => line.startsWith('flow_completed'));
    expect(completed).to.include.members(['flow_completed pay', 'flow_completed order_food']);
    const userFlows = (await conversation.stack()).filter((frame) => frame.type === 'flow');
    expect(userFlows).to.deep.equal([]);
  });

  it('names the cancelled flow by its readable name in the pattern context', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [{ command: 'start flow', flow: 'order_food' }]);
    const events = await conversation.send('stop', [cancel]);
    expect(cancelPatternContext(events)).to.include({ canceled_name: 'order food' });
    expect(events.find((event) => event.event === 'flow_cancelled')).to.include({
      flow_id: 'order_food',
      step_id: 'order_food_0_collect_item',
    });
  });

  it('becomes cannot handle when no flow is active', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('stop', [cancel]);
    expect(events.some((event) => event.event === 'flow_cancelled')).to.equal(false);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    expect(utterances(events)).to.deep.equal(['utter_ask_rephrase']);
  });

  it('cancels only once when the command comes twice', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('order', [{ command: 'start flow', flow: 'order_food' }]);
    const events = await conversation.send('stop stop', [cancel, cancel]);
    expect(events.filter((event) => event.event === 'flow_cancelled')).to.have.length(1);
    expect(utterances(events).filter((name) => name === 'utter_flow_cancelled_rasa')).to.have.length(1);
  });
});
