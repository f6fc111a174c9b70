import { expect } from 'chai';
import type { Command, SlotExtractor } from '../../../src/core/commands/types.js';
import {
  flowsStarted,
  inlineAssistant,
  slotEvents,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

// Rasa's clean_up_slot_command and should_slot_be_set: which extractor may fill which slot, and when a
// SetSlot is an answer, a correction or nothing at all.
const assistant = inlineAssistant({
  domain: `
    entities:
      - city
    slots:
      recipient:
        type: text
      amount:
        type: float
      city:
        type: text
        mappings:
          - type: from_entity
            entity: city
      account_type:
        type: text
        mappings:
          - type: from_llm
          - type: from_entity
            entity: city
      balance:
        type: float
        mappings:
          - type: controlled
      confirm:
        type: bool
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_ask_amount:
        - text: How much?
      utter_ask_city:
        - text: Which city?
      utter_ask_balance:
        - text: Which balance?
      utter_ask_account_type:
        - text: Which account?
      utter_ask_confirm:
        - text: Sure?
      utter_done:
        - text: Done.
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to someone.
        steps:
          - collect: recipient
          - collect: city
          - collect: account_type
          - collect: balance
          - action: utter_done
      confirm_transfer:
        description: Confirm a transfer, asking the recipient again.
        steps:
          - collect: amount
          - collect: recipient
            ask_before_filling: true
          - collect: confirm
  `,
});

const set = (name: string, value: unknown, extractor?: SlotExtractor): Command =>
  extractor ? { command: 'set slot', name, value, extractor } : { command: 'set slot', name, value };
const startTransfer: Command = { command: 'start flow', flow: 'transfer_money' };

async function inTransfer() {
  const conversation = await startConversation(assistant);
  await conversation.send('send money', [startTransfer]);
  return conversation;
}

describe('command cleanup of SetSlot: who may fill a slot', () => {
  it('turns an LLM value for a slot without a from_llm mapping into cannot handle', async () => {
    const conversation = await inTransfer();
    const events = await conversation.send('Paris', [set('city', 'Paris', 'LLM')]);
    expect(slotEvents(events)).to.deep.equal([]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    expect(utterances(events)).to.deep.equal(['utter_ask_rephrase', 'utter_ask_recipient']);
  });

  it('lets NLU fill a slot with an NLU mapping, also when it has a from_llm one', async () => {
    const conversation = await inTransfer();
    const events = await conversation.send('Ann from Paris, savings', [
      set('recipient', 'Ann'),
      set('city', 'Paris', 'NLU'),
      set('account_type', 'savings', 'NLU'),
    ]);
    expect(slotEvents(events)).to.have.deep.members([
      { name: 'recipient', value: 'Ann' },
      { name: 'city', value: 'Paris' },
      { name: 'account_type', value: 'savings' },
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_cannot_handle');
  });

  it('refuses NLU values for slots that only the LLM or only actions fill', async () => {
    for (const name of ['recipient', 'balance']) {
      const conversation = await inTransfer();
      const events = await conversation.send('x', [set(name, 'x', 'NLU')]);
      expect(slotEvents(events), name).to.deep.equal([]);
      expect(flowsStarted(events), name).to.deep.equal(['pattern_cannot_handle']);
    }
  });

  it('refuses an LLM value for a controlled slot, but lets buttons and custom actions set any slot', async () => {
    const conversation = await inTransfer();
    const refused = await conversation.send('balance 5', [set('balance', 5)]);
    expect(flowsStarted(refused)).to.deep.equal(['pattern_cannot_handle']);
    for (const extractor of ['CommandPayloadReader', 'CUSTOM'] as const) {
      const other = await inTransfer();
      const events = await other.send('/SetSlots(balance=5, city=Rome)', [
        set('balance', 5, extractor),
        set('city', 'Rome', extractor),
      ]);
      expect(slotEvents(events), extractor).to.have.deep.members([
        { name: 'balance', value: 5 },
        { name: 'city', value: 'Rome' },
      ]);
      expect(flowsStarted(events), extractor).to.not.include('pattern_cannot_handle');
    }
  });
});

describe('command cleanup of SetSlot: answers and corrections', () => {
  it('takes the answer to an ask_before_filling question about a filled slot as an answer, not a correction', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send 20 to Ann', [
      { command: 'start flow', flow: 'confirm_transfer' },
      set('recipient', 'Ann'),
      set('amount', 20),
    ]);
    // recipient asks before filling: it is asked although it held Ann, and emptied meanwhile
    const events = await conversation.send('Bob', [set('recipient', 'Bob')]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([{ name: 'recipient', value: 'Bob' }]);
    expect(utterances(events)).to.deep.equal(['utter_ask_confirm']);
  });

  it('takes a value for the slot being asked as the answer, even when the slot was set meanwhile', async () => {
    const conversation = await inTransfer();
    // e.g. through the HTTP API while the question is pending
    await conversation.append([{ event: 'slot', name: 'recipient', value: 'Ann' }]);
    const events = await conversation.send('Bob', [set('recipient', 'Bob')]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)[0]).to.deep.equal({ name: 'recipient', value: 'Bob' });
    expect((await conversation.slots())['recipient']).to.equal('Bob');
  });

  it('counts a SetSlot repeating the value a slot holds as nothing, so a CannotHandle with it is answered', async () => {
    const conversation = await inTransfer();
    await conversation.send('Ann', [set('recipient', 'Ann')]);
    const events = await conversation.send('Ann, and what?', [
      set('recipient', 'Ann'),
      { command: 'cannot handle', reason: 'cannot_handle_not_supported' },
    ]);
    expect(flowsStarted(events)).to.deep.equal(['pattern_cannot_handle']);
    expect(utterances(events)).to.deep.equal(['utter_cannot_handle', 'utter_ask_city']);
  });

  it('compares the converted value: "50.0" for a float slot holding 50 is no correction', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send 50', [
      { command: 'start flow', flow: 'confirm_transfer' },
      set('amount', 50),
    ]);
    const events = await conversation.send('50.0', [set('amount', '50.0')]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([]);
  });

  it('corrects a slot named twice in one turn once, with one new value', async () => {
    const conversation = await inTransfer();
    await conversation.send('Ann', [set('recipient', 'Ann')]);
    const events = await conversation.send('Bob, no, Carl', [
      set('recipient', 'Bob'),
      set('recipient', 'Carl'),
    ]);
    const corrections = events.filter(
      (event) => event.event === 'flow_started' && event.flow_id === 'pattern_correction',
    );
    expect(corrections).to.have.length(1);
    expect(Object.keys(corrections[0]?.metadata?.['corrected_slots'] as object)).to.deep.equal(['recipient']);
    expect(corrections[0]?.metadata?.['new_slot_values']).to.have.length(1);
    expect(slotEvents(events).filter((event) => event.name === 'recipient')).to.have.length(1);
  });

  it('accepts the routing decision (route_session_to_calm) whatever its mappings and value', async () => {
    const coexistence = inlineAssistant({
      domain: `
        slots:
          route_session_to_calm:
            type: bool
            influence_conversation: false
            mappings:
              - type: controlled
        responses:
          utter_hello:
            - text: Hello!
      `,
      flows: `
        flows:
          greet:
            description: Say hello.
            steps:
              - action: utter_hello
      `,
    });
    const conversation = await startConversation(coexistence);
    const events = await conversation.send('hi', [
      set('route_session_to_calm', true),
      { command: 'start flow', flow: 'greet' },
    ]);
    expect(slotEvents(events)).to.deep.include({ name: 'route_session_to_calm', value: true });
    expect(flowsStarted(events)).to.not.include('pattern_cannot_handle');
    expect(utterances(events)[0]).to.equal('utter_hello');
  });
});
