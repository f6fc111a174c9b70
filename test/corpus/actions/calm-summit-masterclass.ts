/**
 * TEST STUBS of the calm-summit-masterclass custom actions (upstream `actions/actions.py`, Python, not
 * copied):
 * - `transaction_search` sets the `text` slot `transactions_list` to a Python list holding one line,
 *   the latest transaction, which `utter_transactions` prints as Python's str() of the list.
 * - `action_session_start` is the upstream override of Rasa's default action (a session start that
 *   also sets the customer's address slots). The domain does not declare it under `actions:`, so Rasa
 *   runs its own default action and never this one; it is here so that the tests can show that.
 * The transaction and the address are made up for the tests.
 */
import { defineAction } from '../../../src/actions/custom/in-process.js';
import type { InProcessAction } from '../../../src/actions/custom/in-process.js';
import { slotSet } from './support.js';

export const LATEST_TRANSACTION = '25$ to Corner Bakery at 3rd March for birthday cake';

export const actions: InProcessAction[] = [
  defineAction({
    name: 'transaction_search',
    run: () => ({ events: [slotSet('transactions_list', [LATEST_TRANSACTION])] }),
  }),
  defineAction({
    name: 'action_session_start',
    run: () => ({
      events: [
        { event: 'session_started' },
        slotSet('address_line_1', '12 Test Street'),
        slotSet('city', 'Testville'),
        { event: 'action', name: 'action_listen' },
      ],
    }),
  }),
];
