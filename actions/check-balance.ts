import { defineAction } from 'parley';
import { accountTypeOf, customerFor, slotSet } from './bank-data.js';

/**
 * `check_balance`: looks up the balance of the account in `account_type` and sets `account_balance`
 * (null when the account is not one the customer has, so the flow says the balance is unavailable).
 */
export const actionCheckBalance = defineAction({
  name: 'action_check_balance',
  run(context) {
    const account = accountTypeOf(context.slot('account_type'));
    const balance = account === null ? null : customerFor(context.conversationId).balances[account];
    return { events: [slotSet('account_balance', balance)] };
  },
});
