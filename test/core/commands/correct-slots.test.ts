import { expect } from 'chai';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import type { Conversation } from '../../support/inline-assistant.js';
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
      city:
        type: text
    responses:
      utter_ask_recipient:
        - text: To whom?
      utter_noted_recipient:
        - text: Noted the recipient.
      utter_ask_amount:
        - text: How much?
      utter_noted_amount:
        - text: Noted the amount.
      utter_ask_confirm:
        - text: Sure?
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
          - action: utter_noted_recipient
          - collect: amount
          - action: utter_noted_amount
          - collect: confirm
          - action: utter_sent
      check_weather:
        description: Tell the weather in a city.
        steps:
          - collect: city
  `,
});

const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });

/** A conversation waiting for the confirmation, with recipient Ann and amount 50. */
async function atConfirmation(): Promise<Conversation> {
  const conversation = await startConversation(assistant);
  await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
  await conversation.send('Ann', [set('recipient', 'Ann')]);
  await conversation.send('50', [set('amount', 50)]);
  return conversation;
}

function correctionContext(events: readonly Event[]): Readonly<Record<string, unknown>> | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === 'pattern_correction')
    ?.metadata;
}

describe('CorrectSlots command', () => {
  it('resets the flow to the collect step of the corrected slot; the steps after it run again', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('make it 70', [set('amount', 70)]);
    expect(correctionContext(events)).to.deep.include({
      reset_flow_id: 'transfer_money',
      reset_step_id: 'transfer_money_2_collect_amount',
      is_reset_only: false,
    });
    expect(slotEvents(events)).to.deep.equal([{ name: 'amount', value: 70 }]);
    expect(utterances(events)).to.deep.equal([
      'utter_corrected_previous_input',
      'utter_noted_amount',
      'utter_ask_confirm',
    ]);
  });

  it('resets to the earliest collect step when several slots are corrected', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('Bob, 70', [set('amount', 70), set('recipient', 'Bob')]);
    expect(correctionContext(events)).to.deep.include({
      reset_step_id: 'transfer_money_0_collect_recipient',
    });
    expect(correctionContext(events)?.['corrected_slots']).to.deep.equal({
      amount: { value: 70, filled_by: 'LLM' },
      recipient: { value: 'Bob', filled_by: 'LLM' },
    });
    expect(utterances(events)).to.deep.equal([
      'utter_corrected_previous_input',
      'utter_noted_recipient',
      'utter_noted_amount',
      'utter_ask_confirm',
    ]);
    expect(await conversation.slots()).to.include({ recipient: 'Bob', amount: 70 });
  });

  it('works the same when the correction comes as a command of its own', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('make it 70', [
      { command: 'correct slot', corrected_slots: [{ name: 'amount', value: '70' }] },
    ]);
    expect(flowsStarted(events)).to.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([{ name: 'amount', value: 70 }]);
    expect(utterances(events)).to.deep.equal([
      'utter_corrected_previous_input',
      'utter_noted_amount',
      'utter_ask_confirm',
    ]);
  });

  it('ignores a correction of a slot no flow on the stack collects', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('Paris', [
      { command: 'correct slot', corrected_slots: [{ name: 'city', value: 'Paris' }] },
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_confirm']);
  });

  it('ignores a correction to the value the slot already has', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('50', [
      { command: 'correct slot', corrected_slots: [{ name: 'amount', value: 50 }] },
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([]);
    expect(utterances(events)).to.deep.equal(['utter_ask_confirm']);
  });

  it('has no step to go back to when the corrected slot is only asked after the current step', async () => {
    const conversation = await startConversation(assistant);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    const events = await conversation.send('make it 70', [
      { command: 'correct slot', corrected_slots: [{ name: 'amount', value: 70 }] },
    ]);
    expect(correctionContext(events)).to.deep.include({
      reset_flow_id: null,
      reset_step_id: null,
      corrected_slots: { amount: { value: 70, filled_by: null } },
      new_slot_values: [70],
    });
    expect(slotEvents(events)).to.deep.equal([{ name: 'amount', value: 70 }]);
    expect(utterances(events)).to.deep.equal(['utter_corrected_previous_input', 'utter_ask_recipient']);
  });

  it('has no step to go back to for a slot asked after the current question, further into the flow too', async () => {
    const threeQuestions = inlineAssistant({
      domain: `
        slots:
          recipient:
            type: text
          amount:
            type: float
          confirm:
            type: bool
        responses:
          utter_ask_recipient:
            - text: To whom?
          utter_ask_amount:
            - text: How much?
          utter_ask_confirm:
            - text: Sure?
      `,
      flows: `
        flows:
          transfer_money:
            description: Send money to someone.
            steps:
              - collect: recipient
              - collect: amount
              - collect: confirm
      `,
    });
    const conversation = await startConversation(threeQuestions);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    await conversation.send('Ann', [set('recipient', 'Ann')]);
    // waiting for the amount (the second step); confirm is asked only after it
    const events = await conversation.send('and yes', [
      { command: 'correct slot', corrected_slots: [{ name: 'confirm', value: true }] },
    ]);
    expect(correctionContext(events)).to.deep.include({ reset_flow_id: null, reset_step_id: null });
    expect(utterances(events)).to.deep.equal(['utter_corrected_previous_input', 'utter_ask_amount']);
  });

  it('lets the flow finish with the corrected value', async () => {
    const conversation = await atConfirmation();
    await conversation.send('make it 70', [set('amount', 70)]);
    const events = await conversation.send('yes', [set('confirm', true)]);
    expect(utterances(events)[0]).to.equal('utter_sent');
    expect(slotEvents(events)).to.deep.include({ name: 'amount', value: null });
  });

  it('ignores the whole correction when one of its slots is collected by no flow on the stack', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('70, in Paris', [
      {
        command: 'correct slot',
        corrected_slots: [
          { name: 'amount', value: 70 },
          { name: 'city', value: 'Paris' },
        ],
      },
    ]);
    expect(flowsStarted(events)).to.not.include('pattern_correction');
    expect(slotEvents(events)).to.deep.equal([]);
    expect(await conversation.slots()).to.include({ amount: 50, city: null });
  });

  it('goes back to the question being asked when it is the one whose answer is corrected', async () => {
    const reasking = inlineAssistant({
      domain: `
        slots:
          recipient:
            type: text
          amount:
            type: float
        responses:
          utter_ask_recipient:
            - text: To whom?
          utter_ask_amount:
            - text: How much?
      `,
      flows: `
        flows:
          transfer_money:
            description: Send money to someone.
            steps:
              - collect: amount
              - collect: recipient
                ask_before_filling: true
      `,
    });
    const conversation = await startConversation(reasking);
    await conversation.send('20 to Ann', [
      { command: 'start flow', flow: 'transfer_money' },
      set('amount', 20),
      set('recipient', 'Ann'),
    ]);
    const events = await conversation.send('Bob', [
      { command: 'correct slot', corrected_slots: [{ name: 'recipient', value: 'Bob' }] },
    ]);
    expect(correctionContext(events)).to.deep.include({
      is_reset_only: true,
      reset_flow_id: 'transfer_money',
      reset_step_id: 'transfer_money_1_collect_recipient',
    });
    expect(utterances(events)).to.deep.equal(['utter_ask_recipient']);
  });
});

describe('CorrectSlots command inside a called flow', () => {
  const calling = inlineAssistant({
    domain: `
      slots:
        recipient:
          type: text
        iban:
          type: text
        amount:
          type: float
      responses:
        utter_ask_recipient:
          - text: To whom?
        utter_ask_iban:
          - text: Which IBAN?
        utter_ask_amount:
          - text: How much?
    `,
    flows: `
      flows:
        transfer_money:
          description: Send money to someone.
          steps:
            - call: ask_payee
            - collect: amount
        ask_payee:
          description: Ask who gets the money and where.
          steps:
            - collect: recipient
            - collect: iban
    `,
  });

  it('goes back to the collect step of the called flow that asked for the slot', async () => {
    const conversation = await startConversation(calling);
    await conversation.send('send money', [{ command: 'start flow', flow: 'transfer_money' }]);
    await conversation.send('Ann', [set('recipient', 'Ann')]);
    const events = await conversation.send('no, to Bob', [set('recipient', 'Bob')]);
    expect(correctionContext(events)).to.deep.include({
      reset_flow_id: 'ask_payee',
      reset_step_id: 'ask_payee_0_collect_recipient',
    });
    expect(utterances(events)).to.deep.equal(['utter_corrected_previous_input', 'utter_ask_iban']);
    expect((await conversation.slots())['recipient']).to.equal('Bob');
  });

  // Rasa's CorrectedSlot carries the SetSlot's extractor; action_correct_flow_slot sets the slot with it
  it("keeps who filled the corrected value: a button's payload stays CommandPayloadReader's", async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('/SetSlots(amount=70)');
    expect(correctionContext(events)?.['corrected_slots']).to.deep.equal({
      amount: { value: 70, filled_by: 'CommandPayloadReader' },
    });
    const slot = events.find((event) => event.event === 'slot' && event.name === 'amount');
    expect(slot).to.deep.include({ value: 70, metadata: { filled_by: 'CommandPayloadReader' } });
  });

  it('marks a correction from the LLM as filled by the LLM', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('make it 70', [set('amount', 70)]);
    const slot = events.find((event) => event.event === 'slot' && event.name === 'amount');
    expect(slot?.metadata).to.deep.equal({ filled_by: 'LLM' });
  });

  it("reads a CorrectSlots command's filled_by, and sets a slot with none without one", async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('make it 70, Bob', [
      {
        command: 'correct slot',
        corrected_slots: [
          { name: 'amount', value: 70, filled_by: 'NLU' },
          { name: 'recipient', value: 'Bob' },
        ],
      },
    ]);
    const slots = events.filter((event) => event.event === 'slot');
    expect(slots.map((event) => [event.name, event.metadata])).to.deep.equal([
      ['amount', { filled_by: 'NLU' }],
      ['recipient', undefined],
    ]);
  });
});
