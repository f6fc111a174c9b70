import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
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
      amount:
        type: float
      confirm:
        type: bool
      account:
        type: categorical
        values:
          - Checking
          - Savings
      city:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_ask_amount:
        - text: How much?
      utter_ask_confirm:
        - text: Sure?
      utter_ask_account:
        - text: Which account?
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
          - collect: recipient
          - collect: amount
          - collect: account
          - collect: confirm
          - action: utter_sent
      check_weather:
        description: Tell the weather in a city.
        steps:
          - collect: city
  `,
});

const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });
const startTransfer: Command = { command: 'start flow', flow: 'transfer_money' };

describe('SetSlot command', () => {
  it('fills the slot being asked for, marked as filled by the LLM, and the flow moves on', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('to Ann', [set('recipient', 'Ann')]);
    const slot = events.find((event) => event.event === 'slot' && event.name === 'recipient');
    expect(slot).to.deep.include({ value: 'Ann' });
    expect(slot?.metadata).to.include({ filled_by: 'LLM' });
    expect(utterances(events)).to.deep.equal(['utter_ask_amount']);
  });

  it('coerces values to the slot type: float, categorical (domain casing) and bool', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    await conversation.send('to Ann', [set('recipient', 'Ann')]);
    expect(slotEvents(await conversation.send('50', [set('amount', '50')]))).to.deep.equal([
      { name: 'amount', value: 50 },
    ]);
    expect(slotEvents(await conversation.send('savings', [set('account', 'savings')]))).to.deep.equal([
      { name: 'account', value: 'Savings' },
    ]);
    const last = await conversation.send('yes', [set('confirm', 'yes')]);
    expect(slotEvents(last)[0]).to.deep.equal({ name: 'confirm', value: true });
    expect(utterances(last)[0]).to.equal('utter_sent');
  });

  it('drops a slot that is not asked for (not collected by the active flow) and asks again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Paris', [set('city', 'Paris')]);
    expect(slotEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
    expect((await conversation.slots())['city']).to.equal(null);
  });

  it('fills ahead of time a slot that the active flow collects later, so that question is skipped', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Ann, 50', [set('recipient', 'Ann'), set('amount', 50)]);
    expect(slotEvents(events)).to.have.deep.members([
      { name: 'recipient', value: 'Ann' },
      { name: 'amount', value: 50 },
    ]);
    expect(utterances(events)).to.deep.equal(['utter_ask_account']);
  });

  it('is accepted for a flow started in the same turn, although commands run in reverse order', async () => {
    for (const commands of [
      [startTransfer, set('amount', '20')],
      [set('amount', '20'), startTransfer],
    ]) {
      const conversation = await startConversation(assistant);
      const events = await conversation.send('send 20', commands);
      expect(slotEvents(events)).to.deep.equal([{ name: 'amount', value: 20 }]);
      expect(flowsStarted(events)[0]).to.equal('transfer_money');
      expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
      const next = await conversation.send('to Ann', [set('recipient', 'Ann')]);
      expect(utterances(next)).to.deep.equal(['utter_ask_account']);
    }
  });

  it('turns a new value for a slot filled earlier into a correction', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    await conversation.send('to Ann', [set('recipient', 'Ann')]);
    const events = await conversation.send('no, to Bob', [set('recipient', 'Bob')]);
    expect(flowsStarted(events)).to.include('pattern_correction');
    expect(utterances(events)).to.include('utter_corrected_previous_input');
    expect(slotEvents(events)).to.deep.include({ name: 'recipient', value: 'Bob' });
    expect((await conversation.slots())['recipient']).to.equal('Bob');
  });

  it('drops a value equal to the one a filled slot already has', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    await conversation.send('to Ann', [set('recipient', 'Ann')]);
    const events = await conversation.send('Ann', [set('recipient', 'Ann')]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_amount']);
  });

  it('turns a slot the domain does not define into cannot handle', async () => {
    const conversation = await startConversation(assistant);
    const events = await conversation.send('x', [set('colour', 'blue')]);
    expect(slotEvents(events)).to.deep.equal([]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    expect(utterances(events)).to.deep.equal(['utter_ask_rephrase']);
  });

  it('fills slots from a /SetSlots button payload', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('/SetSlots(recipient=Ann, amount=12.5)');
    expect(slotEvents(events)).to.have.deep.members([
      { name: 'recipient', value: 'Ann' },
      { name: 'amount', value: 12.5 },
    ]);
    const recipient = events.find((event) => event.event === 'slot' && event.name === 'recipient');
    expect(recipient?.metadata).to.include({ filled_by: 'CommandPayloadReader' });
    expect(utterances(events)).to.deep.equal(['utter_ask_account']);
  });

  it('sets a slot once when the same value comes twice in one turn', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('Ann, I said Ann', [
      set('recipient', 'Ann'),
      set('recipient', 'Ann'),
    ]);
    expect(slotEvents(events)).to.deep.equal([{ name: 'recipient', value: 'Ann' }]);
    expect(utterances(events)).to.deep.equal(['utter_ask_amount']);
  });

  // Rasa's SetSlotCommand skips a slot whose coerced value equals (Python ==) what the slot holds
  it('writes no event for an empty slot set to null, and asks its question again', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    const events = await conversation.send('no idea', [set('recipient', null)]);
    expect(slotEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });

  it('writes one event when the same number comes as text and as a number', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [startTransfer]);
    await conversation.send('to Ann', [set('recipient', 'Ann')]);
    const events = await conversation.send('50, fifty', [set('amount', '50.0'), set('amount', 50)]);
    expect(slotEvents(events)).to.deep.equal([{ name: 'amount', value: 50 }]);
  });
});
