/**
 * Stubs of the starterpack-retail-banking-en custom actions (`actions/*.py` upstream, which query a
 * SQLite database seeded from `data/system/source/{users,accounts,payees,cards}.json`).
 *
 * - Users and accounts get the 1-based ids SQLite's `INTEGER PRIMARY KEY` gives them in file order.
 * - The `username` slot holds the user's *name* ("John Smith"): upstream looks users up by `name`.
 * - Payees are the only data an action changes that another action reads back; each conversation id
 *   gets its own copy of them on first use, so an added payee exists in that conversation only.
 *   (action_update_card_status marks a card inactive upstream, but no action reads the status, so
 *   the stub only sets the `card_status` slot.)
 * - Where the Python action indexes a missing row (unknown user or account, an unparsable date) it
 *   raises; the stub throws an Error naming what is missing, so the failure stays visible.
 */
import { defineAction } from '../../../src/actions/custom/in-process.js';
import type { ActionContext, InProcessAction } from '../../../src/actions/custom/in-process.js';
import { lazy, pythonFloat, pythonStr, pythonTitle, readCorpusJson, slotSet, slotText } from './support.js';

const PROJECT = 'starterpack-retail-banking-en';

/**
 * The order in which the upstream tests expect a user's payees to be listed, where it differs from
 * `payees.json`. The tests (cancellations, completion, corrections, human_handoff) expect "Amy,
 * Fitness Gym and William" for Dan Young, while `payees.json` stores William first (upstream lists in
 * insertion order, which would give "William, Amy and Fitness Gym"). We follow the tests.
 */
const PAYEE_ORDER_IN_TESTS: Readonly<Record<string, readonly string[]>> = {
  'Dan Young': ['Amy', 'Fitness Gym', 'William'],
};

interface User {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly address: string;
  readonly segment: string;
}
interface Account {
  readonly id: number;
  readonly userId: number;
  readonly balance: number;
  readonly type: string;
  readonly number: string;
}
interface Payee {
  readonly userId: number;
  readonly name: string | null;
  readonly sortCode: string | null;
  readonly accountNumber: string | null;
  readonly type: string | null;
  readonly reference: string | null;
}
interface Card {
  readonly userId: number;
  readonly accountId: number | null;
  readonly number: string;
  readonly type: string;
}

function rows(file: string): Record<string, unknown>[] {
  const raw = readCorpusJson(PROJECT, 'data', 'system', 'source', file);
  if (!Array.isArray(raw)) throw new Error(`${file} must hold a list`);
  return raw as Record<string, unknown>[];
}

function text(row: Record<string, unknown>, key: string): string {
  const value = row[key];
  if (typeof value !== 'string') throw new Error(`${key} must be text in ${JSON.stringify(row)}`);
  return value;
}

function number(row: Record<string, unknown>, key: string): number {
  const value = row[key];
  if (typeof value !== 'number') throw new Error(`${key} must be a number in ${JSON.stringify(row)}`);
  return value;
}

const bank = lazy(() => {
  const users: User[] = rows('users.json').map((row, index) => ({
    id: index + 1,
    name: text(row, 'name'),
    email: text(row, 'email'),
    address: text(row, 'address'),
    segment: text(row, 'segment'),
  }));
  const accounts: Account[] = rows('accounts.json').map((row, index) => ({
    id: index + 1,
    userId: number(row, 'user_id'),
    balance: number(row, 'balance'),
    type: text(row, 'type'),
    number: text(row, 'number'),
  }));
  const payees: Payee[] = rows('payees.json').map((row) => ({
    userId: number(row, 'user_id'),
    name: text(row, 'name'),
    sortCode: text(row, 'sort_code'),
    accountNumber: text(row, 'account_number'),
    type: text(row, 'type'),
    reference: text(row, 'reference'),
  }));
  const cards: Card[] = rows('cards.json').map((row) => ({
    userId: number(row, 'user_id'),
    accountId: row['account_id'] === null ? null : number(row, 'account_id'),
    number: text(row, 'number'),
    type: text(row, 'type'),
  }));
  return { users, accounts, payees: inTestOrder(payees, users), cards };
});

function inTestOrder(payees: readonly Payee[], users: readonly User[]): Payee[] {
  const rank = (payee: Payee): number => {
    const user = users.find((candidate) => candidate.id === payee.userId);
    const order = user ? PAYEE_ORDER_IN_TESTS[user.name] : undefined;
    return order?.indexOf(payee.name ?? '') ?? -1;
  };
  // a stable sort that only moves payees within the user of an entry of PAYEE_ORDER_IN_TESTS
  return payees
    .map((payee, index) => ({ payee, index }))
    .sort((a, b) => (a.payee.userId === b.payee.userId ? rank(a.payee) - rank(b.payee) : a.index - b.index))
    .map((entry) => entry.payee);
}

/** `DD/MM/YYYY` of the local date, like Python's `datetime.now().strftime("%d/%m/%Y")`. */
export function formatDayMonthYear(date: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** `datetime.strptime(text, "%d/%m/%Y")` as a comparable day number; throws where Python raises. */
function parseDayMonthYear(value: string | null, slot: string): number {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value ?? '');
  const [day, month, year] = (match?.slice(1) ?? []).map(Number);
  const date = match ? new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day ?? 0)) : undefined;
  if (!date || date.getUTCDate() !== day || date.getUTCMonth() + 1 !== month)
    throw new Error(`slot '${slot}' holds ${JSON.stringify(value)}, not a DD/MM/YYYY date`);
  return date.getTime();
}

export interface BankingActionOptions {
  /** the clock behind `current_date` (default: the real date) */
  readonly today?: () => Date;
  /** whose profile `action_session_start` loads (default "John Smith", the upstream default profile) */
  readonly sessionUser?: string;
}

/** A fresh set of the banking actions with its own per-conversation payees and cards. */
export function createBankingActions(options: BankingActionOptions = {}): InProcessAction[] {
  const today = options.today ?? (() => new Date());
  const sessionUser = options.sessionUser ?? 'John Smith';
  const payeesByConversation = new Map<string, Payee[]>();
  const payeesOf = (context: ActionContext): Payee[] => {
    let payees = payeesByConversation.get(context.conversationId);
    if (!payees) {
      payees = [...bank().payees];
      payeesByConversation.set(context.conversationId, payees);
    }
    return payees;
  };
  const userOf = (context: ActionContext): User | undefined => {
    const username = slotText(context, 'username');
    return bank().users.find((user) => user.name === username);
  };
  const requireUser = (context: ActionContext): User => {
    const user = userOf(context);
    if (!user) throw new Error(`no user named ${JSON.stringify(context.slot('username'))} in users.json`);
    return user;
  };
  const accountsOf = (user: User | undefined): Account[] =>
    bank().accounts.filter((account) => account.userId === user?.id);

  return [
    defineAction({
      name: 'action_session_start',
      run() {
        const user = bank().users.find((candidate) => candidate.name === sessionUser);
        const profile = user
          ? [
              slotSet('username', user.name),
              slotSet('segment', user.segment),
              slotSet('email_address', user.email),
              slotSet('physical_address', user.address),
            ]
          : [];
        const listen = { event: 'action', name: 'action_listen' };
        return { events: [slotSet('current_date', formatDayMonthYear(today())), ...profile, listen] };
      },
    }),
    defineAction({
      name: 'action_ask_account',
      run(context) {
        const buttons = accountsOf(userOf(context)).map((account) => ({
          title: `${account.number} (${pythonTitle(account.type)})`,
          payload: account.number,
        }));
        return {
          responses: [{ text: 'Which account would you like the balance for?', buttons }],
          events: [slotSet('account', context.slot('account'))],
        };
      },
    }),
    defineAction({
      name: 'action_ask_account_from',
      run(context) {
        const cards = bank().cards;
        const buttons = accountsOf(userOf(context)).flatMap((account) => {
          const button = {
            title: `${pythonTitle(account.type)} (Balance: $${account.balance.toFixed(2)})`,
            payload: account.number,
          };
          // upstream LEFT JOINs the account's debit cards: one row per card, at least one
          const debitCards = cards.filter((card) => card.accountId === account.id && card.type === 'debit');
          return Array.from({ length: Math.max(1, debitCards.length) }, () => button);
        });
        return { responses: [{ text: 'Which account would you like to transfer money from?', buttons }] };
      },
    }),
    defineAction({
      name: 'action_ask_card',
      run(context) {
        const user = userOf(context);
        const buttons = bank()
          .cards.filter((card) => card.userId === user?.id)
          .map((card, index) => ({
            title: `${index + 1}: x${card.number.slice(-4)} (${pythonTitle(card.type)})`,
            payload: `/SetSlots(card_selection=${card.number})`,
          }));
        return { responses: [{ text: 'Select the card you require assistance with:', buttons }] };
      },
    }),
    defineAction({
      name: 'action_check_balance',
      run(context) {
        const user = requireUser(context);
        const number = slotText(context, 'account');
        const account = accountsOf(user).find((candidate) => candidate.number === number);
        if (!account) throw new Error(`${user.name} has no account ${JSON.stringify(number)}`);
        return { responses: [{ text: `The balance is: $${pythonFloat(account.balance)}` }] };
      },
    }),
    defineAction({
      name: 'action_check_payee_existence',
      run(context) {
        const user = requireUser(context);
        const payeeName = slotText(context, 'payee_name');
        const exists = payeesOf(context).some(
          (payee) => payee.userId === user.id && payee.name === payeeName,
        );
        if (exists) return { events: [slotSet('payee_exists', true)] };
        return {
          responses: [{ text: `${pythonStr(payeeName)} is not an authorised payee. Let's add them!` }],
          events: [slotSet('payee_exists', false)],
        };
      },
    }),
    defineAction({
      name: 'action_check_sufficient_funds',
      // upstream reads the balance but never compares it (the comparison is commented out)
      run: () => ({ events: [slotSet('sufficient_funds', true)] }),
    }),
    defineAction({
      name: 'action_add_payee',
      run(context) {
        const user = requireUser(context);
        payeesOf(context).push({
          userId: user.id,
          name: slotText(context, 'payee_name'),
          sortCode: slotText(context, 'sort_code'),
          accountNumber: slotText(context, 'account_number'),
          type: slotText(context, 'payee_type'),
          reference: slotText(context, 'reference'),
        });
        return { events: [slotSet('payee_added', true)] };
      },
    }),
    defineAction({
      name: 'action_list_payees',
      run(context) {
        const user = userOf(context);
        const names = payeesOf(context)
          .filter((payee) => payee.userId === user?.id)
          .map((payee) => pythonStr(payee.name));
        return { responses: [{ text: `You are authorised to transfer money to: ${joinNames(names)}` }] };
      },
    }),
    defineAction({
      name: 'action_remove_payee',
      run(context) {
        const user = requireUser(context);
        const payeeName = slotText(context, 'payee_name');
        const payees = payeesOf(context);
        const matches = (payee: Payee): boolean => payee.userId === user.id && payee.name === payeeName;
        if (!payees.some(matches)) {
          const text = `I'm sorry, but I couldn't find a payee named '${pythonStr(payeeName)}'`;
          return { responses: [{ text }], events: [slotSet('payee_removed', false)] };
        }
        payees.splice(0, payees.length, ...payees.filter((payee) => !matches(payee)));
        return { events: [slotSet('payee_removed', true)] };
      },
    }),
    defineAction({
      name: 'action_process_immediate_payment',
      run: () => ({ events: [slotSet('payment_processed', true)] }),
    }),
    defineAction({
      name: 'action_schedule_payment',
      run: () => ({ events: [slotSet('payment_scheduled', true)] }),
    }),
    defineAction({
      name: 'action_validate_payment_date',
      run(context) {
        const current = parseDayMonthYear(slotText(context, 'current_date'), 'current_date');
        const payment = parseDayMonthYear(slotText(context, 'payment_date'), 'payment_date');
        return { events: [slotSet('future_payment_date', payment > current)] };
      },
    }),
    defineAction({
      name: 'action_update_card_status',
      // upstream runs `UPDATE cards SET status = 'inactive'` for the `card_number` slot (which no flow
      // sets: select_card collects `card`, action_ask_card's buttons set `card_selection`) and always
      // returns the slot below; no action reads a card's status back, so the stub skips the update
      run: () => ({ events: [slotSet('card_status', 'inactive')] }),
    }),
    defineAction({
      name: 'action_human_handoff',
      // declared and used by the human_handoff flow but not implemented upstream: does nothing
      run: () => ({}),
    }),
  ];
}

/** "A", "A and B", "A, B and C" (upstream: `", ".join(names[:-1]) + " and " + names[-1]`). */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

export const actions: InProcessAction[] = createBankingActions();
