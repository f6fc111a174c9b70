import { defineAction } from 'parley';
import { accountTypeOf, customerFor, recentTransactions, slotSet, summarise } from './bank-data.js';

/**
 * `recent_transactions`: the latest transactions of the account in `account_type` (all accounts when it
 * is not set); sets `transactions_summary` (one line each, null when there are none) and
 * `transaction_count`.
 */
export const actionListTransactions = defineAction({
  name: 'action_list_transactions',
  run(context) {
    const account = accountTypeOf(context.slot('account_type'));
    const transactions = recentTransactions(customerFor(context.conversationId), account);
    return {
      events: [
        slotSet('transactions_summary', transactions.length > 0 ? summarise(transactions) : null),
        slotSet('transaction_count', transactions.length),
      ],
    };
  },
});
