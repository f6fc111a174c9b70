import { defineAction } from 'parley';
import { blockCard, customerToChange, slotSet, textOf } from './bank-data.js';

/**
 * `block_card`: after `verify_identity` collected the date of birth, blocks the card ending in
 * `card_last_digits` and sets `card_block_status` (blocked / identity_not_verified / card_not_found).
 */
export const actionBlockCard = defineAction({
  name: 'action_block_card',
  run(context) {
    const status = blockCard(customerToChange(context.conversationId), {
      lastDigits: textOf(context.slot('card_last_digits')),
      reason: textOf(context.slot('block_reason')),
      dateOfBirth: textOf(context.slot('date_of_birth')),
    });
    return { events: [slotSet('card_block_status', status)] };
  },
});
