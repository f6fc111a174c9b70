import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import type { Command } from '../../../src/core/commands/types.js';
import type { Event } from '../../../src/core/events/types.js';
import type { Conversation } from '../../support/inline-assistant.js';
import {
  inlineAssistant,
  slotEvents,
  startConversation,
  utterances,
} from '../../support/inline-assistant.js';

// Rasa's CorrectSlotsCommand.are_all_slots_reset_only: a correction is "reset only" when every collect
// step (of any flow) that fills a corrected slot has ask_before_filling. pattern_correction then says
// nothing (`if: not context.is_reset_only`) and the rewound collect step asks the question again.

const DOMAIN = `
  slots:
    guests:
      type: float
    date:
      type: text
    confirm:
      type: bool
  responses:
    utter_ask_guests:
      - text: For how many?
    utter_noted_guests:
      - text: Noted the guests.
    utter_ask_date:
      - text: Which day?
    utter_ask_confirm:
      - text: Book it?
    utter_booked:
      - text: Booked.
`;

const BOOK_TABLE = `
    book_table:
      description: Book a table.
      steps:
        - collect: guests
          ask_before_filling: true
        - action: utter_noted_guests
        - collect: date
        - collect: confirm
        - action: utter_booked
`;

const assistant = inlineAssistant({ domain: DOMAIN, flows: `flows:${BOOK_TABLE}` });

/** The same booking flow, plus a flow (never started here) that collects `guests` without asking first. */
const CHANGE_BOOKING = `
    change_booking:
      description: Change the number of guests of a booking.
      steps:
        - collect: guests
`;
const assistantWithPlainCollectElsewhere = inlineAssistant({
  domain: DOMAIN,
  flows: `flows:${BOOK_TABLE}${CHANGE_BOOKING}`,
});

const set = (name: string, value: unknown): Command => ({ command: 'set slot', name, value });
const correct = (...slots: [string, unknown][]): Command => ({
  command: 'correct slot',
  corrected_slots: slots.map(([name, value]) => ({ name, value })),
});

/** A booking of 4 guests on friday, waiting for the confirmation. */
async function atConfirmation(of: Assistant = assistant): Promise<Conversation> {
  const conversation = await startConversation(of);
  await conversation.send('book a table', [{ command: 'start flow', flow: 'book_table' }]);
  await conversation.send('4', [set('guests', 4)]);
  await conversation.send('friday', [set('date', 'friday')]);
  return conversation;
}

function correctionContext(events: readonly Event[]): Readonly<Record<string, unknown>> | undefined {
  return events.find((event) => event.event === 'flow_started' && event.flow_id === 'pattern_correction')
    ?.metadata;
}

describe('CorrectSlots command: the reset-only rule of ask_before_filling slots', () => {
  it('makes a correction of an ask_before_filling slot reset only: no confirmation, the question again', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('6 people', [correct(['guests', 6])]);
    expect(correctionContext(events)).to.deep.include({
      is_reset_only: true,
      corrected_slots: { guests: { value: 6, filled_by: null } },
      reset_step_id: 'book_table_0_collect_guests',
    });
    expect(utterances(events)).to.deep.equal(['utter_ask_guests']);
    // action_correct_flow_slot sets the value, the rewound ask_before_filling collect clears it to ask
    expect(slotEvents(events)).to.deep.equal([
      { name: 'guests', value: 6 },
      { name: 'guests', value: null },
    ]);
  });

  it('makes a mixed correction (one ask_before_filling slot, one not) a real correction', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('6 on saturday', [correct(['guests', 6], ['date', 'saturday'])]);
    expect(correctionContext(events)).to.deep.include({
      is_reset_only: false,
      corrected_slots: {
        guests: { value: 6, filled_by: null },
        date: { value: 'saturday', filled_by: null },
      },
      reset_step_id: 'book_table_0_collect_guests',
    });
    expect(utterances(events)).to.deep.equal(['utter_corrected_previous_input', 'utter_ask_guests']);
    const answered = await conversation.send('6', [set('guests', 6)]);
    expect(utterances(answered)).to.deep.equal(['utter_noted_guests', 'utter_ask_confirm']);
    expect(await conversation.slots()).to.include({ guests: 6, date: 'saturday' });
  });

  it('decides the same whichever order the mixed correction lists its slots in', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('saturday, 6', [correct(['date', 'saturday'], ['guests', 6])]);
    expect(correctionContext(events)).to.deep.include({ is_reset_only: false });
    expect(utterances(events)).to.deep.equal(['utter_corrected_previous_input', 'utter_ask_guests']);
  });

  it('judges only the slots whose value changes: an unchanged plain slot beside it keeps it reset only', async () => {
    const conversation = await atConfirmation();
    const events = await conversation.send('6 on friday', [correct(['guests', 6], ['date', 'friday'])]);
    expect(correctionContext(events)).to.deep.include({
      is_reset_only: true,
      corrected_slots: { guests: { value: 6, filled_by: null } },
    });
    expect(utterances(events)).to.deep.equal(['utter_ask_guests']);
  });

  it('is a real correction when another flow, not on the stack, collects the slot without asking first', async () => {
    const conversation = await atConfirmation(assistantWithPlainCollectElsewhere);
    const events = await conversation.send('6 people', [correct(['guests', 6])]);
    expect(correctionContext(events)).to.deep.include({
      is_reset_only: false,
      reset_step_id: 'book_table_0_collect_guests',
    });
    expect(utterances(events)).to.deep.equal(['utter_corrected_previous_input', 'utter_ask_guests']);
  });
});
