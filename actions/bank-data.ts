/**
 * Parley Bank's fake core-banking system: a small, deterministic data set that every conversation sees
 * as its own. A conversation reads the shared, frozen original until it changes something (a transfer,
 * a blocked card); then it gets a copy of its own, kept in memory for the life of the process, at most
 * MAX_CHANGED_CUSTOMERS of them (the least recently used is forgotten first, so a server that meets
 * ever new conversation ids does not grow without bound). The actions in this folder read and change
 * it; nothing here talks to a real bank.
 *
 * The demo customer:
 * - checking account $2450.75 and savings account $12800.00;
 * - cards ending in 4821 and 0457 (active) and 7731 (already blocked);
 * - date of birth on file 1988-07-14 (needed to block a card);
 * - four recent checking transactions and none on savings.
 *
 * Special payees, so that every branch of `transfer_money` can be reached on purpose:
 * - `Mallory` is on the fraud watch list: transfers to her fail (`transfer_status: failed`);
 * - `Nowhere Bank` stands for a payee whose bank cannot be reached: the transfer throws
 *   {@link CoreBankingUnavailableError}, which the engine turns into `pattern_internal_error`.
 */

export type AccountType = 'checking' | 'savings';

export interface Transaction {
  readonly date: string;
  readonly account: AccountType;
  readonly description: string;
  /** negative for money going out */
  readonly amount: number;
}

export interface Card {
  readonly lastDigits: string;
  status: 'active' | 'blocked';
  blockReason?: string;
}

export interface BankCustomer {
  readonly dateOfBirth: string;
  readonly balances: Record<AccountType, number>;
  readonly cards: Card[];
  /** newest first */
  readonly transactions: Transaction[];
  nextReference: number;
}

export type TransferStatus = 'completed' | 'insufficient_funds' | 'failed';
export type CardBlockStatus = 'blocked' | 'identity_not_verified' | 'card_not_found';

/** The fake bank's "today": dates of new transactions. */
export const BANK_DATE = '2025-06-10';
export const FRAUD_WATCH_LIST: readonly string[] = ['Mallory'];
export const UNREACHABLE_PAYEE = 'Nowhere Bank';
/** How many transactions `action_list_transactions` shows. */
export const RECENT_TRANSACTIONS_SHOWN = 5;

export class CoreBankingUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoreBankingUnavailableError';
  }
}

function seedCustomer(): BankCustomer {
  return {
    dateOfBirth: '1988-07-14',
    balances: { checking: 2450.75, savings: 12800 },
    cards: [
      { lastDigits: '4821', status: 'active' },
      { lastDigits: '0457', status: 'active' },
      { lastDigits: '7731', status: 'blocked', blockReason: 'lost' },
    ],
    transactions: [
      { date: '2025-06-09', account: 'checking', description: 'Coffee Corner', amount: -4.5 },
      { date: '2025-06-08', account: 'checking', description: 'Green Grocers', amount: -62.3 },
      { date: '2025-06-05', account: 'checking', description: 'Salary ACME Corp', amount: 3200 },
      { date: '2025-06-03', account: 'checking', description: 'City Power & Light', amount: -84.15 },
    ],
    nextReference: 1001,
  };
}

/** How many conversations' changed data sets are kept. */
export const MAX_CHANGED_CUSTOMERS = 10_000;

/** What every conversation reads until it changes something; frozen, so that nothing changes it. */
const ORIGINAL: BankCustomer = deepFreeze(seedCustomer());

/** Conversation id → its changed copy, least recently used first. */
const changed = new Map<string, BankCustomer>();

/** The demo customer as a conversation sees it: its own changed copy, or the untouched original. */
export function customerFor(conversationId: string): Readonly<BankCustomer> {
  const own = changed.get(conversationId);
  if (!own) return ORIGINAL;
  changed.delete(conversationId);
  changed.set(conversationId, own);
  return own;
}

/** The conversation's own copy of the data set, for an action that changes it (made on first use). */
export function customerToChange(conversationId: string): BankCustomer {
  const own = changed.get(conversationId) ?? seedCustomer();
  changed.delete(conversationId);
  changed.set(conversationId, own);
  if (changed.size > MAX_CHANGED_CUSTOMERS) {
    const oldest = changed.keys().next().value;
    if (oldest !== undefined) changed.delete(oldest);
  }
  return own;
}

/** How many conversations have a changed copy (for tests). */
export function changedCustomers(): number {
  return changed.size;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A rasa-sdk `SlotSet` event. */
export function slotSet(name: string, value: unknown): Record<string, unknown> {
  return { event: 'slot', name, value };
}

/** A slot value as trimmed text; null when it is not set. */
export function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/** A slot value as a finite number; null when it is not set or not a number. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value.replace(/[$,\s]/g, ''));
  return Number.isFinite(parsed) ? parsed : null;
}

export function accountTypeOf(value: unknown): AccountType | null {
  const text = textOf(value)?.toLowerCase();
  return text === 'checking' || text === 'savings' ? text : null;
}

/** Rounds to cents, so that balances stay exact after a few transfers. */
function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Sends money from the checking account; throws when the payee's bank cannot be reached. */
export function transfer(
  customer: BankCustomer,
  request: { recipient: string | null; amount: number | null },
): { status: TransferStatus; reference: string | null } {
  const { recipient, amount } = request;
  if (recipient === UNREACHABLE_PAYEE) {
    throw new CoreBankingUnavailableError(`The bank of '${recipient}' cannot be reached.`);
  }
  if (recipient === null || amount === null || amount <= 0 || FRAUD_WATCH_LIST.includes(recipient)) {
    return { status: 'failed', reference: null };
  }
  if (amount > customer.balances.checking) return { status: 'insufficient_funds', reference: null };
  customer.balances.checking = cents(customer.balances.checking - amount);
  customer.transactions.unshift({
    date: BANK_DATE,
    account: 'checking',
    description: `Transfer to ${recipient}`,
    amount: -amount,
  });
  const reference = `PB-${customer.nextReference}`;
  customer.nextReference += 1;
  return { status: 'completed', reference };
}

/** Blocks a card once the date of birth matches the one on file. */
export function blockCard(
  customer: BankCustomer,
  request: { lastDigits: string | null; reason: string | null; dateOfBirth: string | null },
): CardBlockStatus {
  if (request.dateOfBirth !== customer.dateOfBirth) return 'identity_not_verified';
  const card = customer.cards.find((candidate) => candidate.lastDigits === request.lastDigits);
  if (!card) return 'card_not_found';
  card.status = 'blocked';
  if (request.reason !== null) card.blockReason = request.reason;
  return 'blocked';
}

/** The most recent transactions of one account, or of all accounts when none is given. */
export function recentTransactions(customer: BankCustomer, account: AccountType | null): Transaction[] {
  return customer.transactions
    .filter((transaction) => account === null || transaction.account === account)
    .slice(0, RECENT_TRANSACTIONS_SHOWN);
}

export function formatAmount(amount: number): string {
  const sign = amount < 0 ? '-' : '+';
  return `${sign}$${Math.abs(amount).toFixed(2)}`;
}

/** One line per transaction: `- 2025-06-09 Coffee Corner -$4.50`. */
export function summarise(transactions: readonly Transaction[]): string {
  return transactions
    .map(
      (transaction) => `- ${transaction.date} ${transaction.description} ${formatAmount(transaction.amount)}`,
    )
    .join('\n');
}
