import { defineAction } from 'parley';
import { customerToChange, numberOf, slotSet, textOf, transfer } from './bank-data.js';

/**
 * `transfer_money`'s `make_transfer` step: sends `amount` to `recipient` from the checking account and
 * sets `transfer_status` (completed / insufficient_funds / failed) and `transfer_reference`.
 */
export const actionTransferMoney = defineAction({
  name: 'action_transfer_money',
  run(context) {
    const result = transfer(customerToChange(context.conversationId), {
      recipient: textOf(context.slot('recipient')),
      amount: numberOf(context.slot('amount')),
    });
    return {
      events: [slotSet('transfer_status', result.status), slotSet('transfer_reference', result.reference)],
    };
  },
});
