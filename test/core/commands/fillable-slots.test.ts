import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import type { Command } from '../../../src/core/commands/types.js';
import {
  inlineAssistant,
  slotEvents,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

// Rasa's "slot was not asked for" rule. Each test builds its own assistant: the slots patterns collect
// are worked out once per assistant.
function assistant(): Assistant {
  return inlineAssistant({
    domain: `
      slots:
        recipient:
          type: text
        amount:
          type: float
        reference:
          type: text
        city:
          type: text
      responses:
        utter_ask_recipient:
          - text: To whom?
        utter_ask_amount:
          - text: How much?
        utter_ask_reference:
          - text: Which reference?
        utter_ask_city:
          - text: Which city?
        utter_sent:
          - text: Sent.
    `,
    flows: `
      flows:
        transfer_money:
          description: Send money to someone.
          steps:
            - call: ask_recipient
            - collect: amount
            - collect: reference
              ask_before_filling: true
            - action: utter_sent
        ask_recipient:
          description: Ask who gets the money.
          steps:
            - collect: recipient
        check_weather:
          description: Tell the weather in a city.
          steps:
            - collect: city
    `,
  });
}

const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });
const startTransfer: Command = { command: 'start flow', flow: 'transfer_money' };

describe('which slots a SetSlot may fill', () => {
  it('inside a called flow, also the slots its caller collects later', async () => {
    const conversation = await startConversation(assistant());
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Ann, 50', [set('recipient', 'Ann'), set('amount', 50)]);
    expect(slotEvents(events)).to.deep.include.members([
      { name: 'recipient', value: 'Ann' },
      { name: 'amount', value: 50 },
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_reference']);
  });

  it('not a slot the active flow collects with ask_before_filling, before its question', async () => {
    const conversation = await startConversation(assistant());
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Ann, ref X1', [set('recipient', 'Ann'), set('reference', 'X1')]);
    expect(slotEvents(events)).to.deep.equal([{ name: 'recipient', value: 'Ann' }]);
    expect(utterances(events)).to.deep.equal(['utter_ask_amount']);
  });

  it('not a slot only a flow that is not running collects', async () => {
    const conversation = await startConversation(assistant());
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Ann in Paris', [set('recipient', 'Ann'), set('city', 'Paris')]);
    expect(slotEvents(events)).to.deep.equal([{ name: 'recipient', value: 'Ann' }]);
  });

  it('slots the patterns collect, but not one they ask before filling', async () => {
    const conversation = await startConversation(assistant());
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Ann', [
      set('recipient', 'Ann'),
      set('continue_interrupted_flow_confirmation', true),
      set('csat_score', 'satisfied'),
    ]);
    expect(slotEvents(events)).to.have.deep.members([
      { name: 'recipient', value: 'Ann' },
      { name: 'continue_interrupted_flow_confirmation', value: true },
    ]);
  });
});
