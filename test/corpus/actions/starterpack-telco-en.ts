/**
 * Stubs of the starterpack-telco-en custom actions (`actions/actions_*.py` upstream), reading
 * `csvs/customers.csv` and `csvs/billing.csv` (dates month-first, `MM/DD/YYYY`, one bill per month on
 * the 1st). The upstream waits (`asyncio.sleep` of 3 and 10 seconds) are left out.
 */
import { defineAction } from '../../../src/actions/custom/in-process.js';
import type { ActionContext, ActionResult, InProcessAction } from '../../../src/actions/custom/in-process.js';
import { lazy, pythonInt, pythonStr, readCorpusCsv, slotSet, twoDecimals } from './support.js';

const PROJECT = 'starterpack-telco-en';
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The network speed the stub measures when no `network_speed_override` is set (see the options). */
export const DEFAULT_NETWORK_SPEED = 75;

interface Bill {
  readonly customerId: number;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly amount: number;
  readonly source: string;
}

const bills = lazy(() =>
  readCorpusCsv(PROJECT, 'csvs', 'billing.csv').map((row): Bill => {
    const [month, day, year] = (row['date'] ?? '').split('/').map(Number);
    return {
      customerId: Number(row['customer_id']),
      year: year ?? NaN,
      month: month ?? NaN,
      day: day ?? NaN,
      amount: Number(row['amount']),
      source: row['source'] ?? '',
    };
  }),
);

const customers = lazy(() => readCorpusCsv(PROJECT, 'csvs', 'customers.csv'));

export interface TelcoActionOptions {
  /**
   * The year the bill actions put after the month. Upstream uses the current year, but the CSV holds
   * 2026 bills only, so the default is the year of the newest bill in `csvs/billing.csv` (2026): the
   * tests then find the January and February bills whatever today's date is.
   */
  readonly billYear?: number;
  /**
   * The speed test result when the `network_speed_override` slot is unset (upstream:
   * `random.randint(10, 140)`). Default: always {@link DEFAULT_NETWORK_SPEED} (75 Mbps, the middle of
   * the upstream range, which takes the "slow" branch, `< 100`).
   */
  readonly measureSpeed?: () => number;
}

/** A fresh set of the telco actions. */
export function createTelcoActions(options: TelcoActionOptions = {}): InProcessAction[] {
  const billYear = (): number => options.billYear ?? Math.max(...bills().map((bill) => bill.year));
  const measureSpeed = options.measureSpeed ?? (() => DEFAULT_NETWORK_SPEED);
  return [
    defineAction({ name: 'action_session_start', run: () => ({}) }),
    defineAction({ name: 'action_sleep_few_sec', run: () => ({}) }),
    defineAction({ name: 'action_get_customer_info', run: getCustomerInfo }),
    defineAction({ name: 'action_verify_bill_by_date', run: (context) => verifyBill(context, billYear()) }),
    defineAction({ name: 'action_recap_bill', run: (context) => recapBill(context, billYear()) }),
    defineAction({
      name: 'actions_run_speed_test',
      run(context) {
        const override = context.slot('network_speed_override');
        const speed = override === null ? measureSpeed() : pythonInt(override);
        if (speed === undefined)
          throw new Error(`network_speed_override ${JSON.stringify(override)} is no int`);
        return {
          responses: [{ text: 'Thank you for waiting... ✅ ' }],
          events: [slotSet('network_speed', speed)],
        };
      },
    }),
  ];
}

function say(text: string): ActionResult {
  return { responses: [{ text }] };
}

function getCustomerInfo(context: ActionContext): ActionResult {
  const customerId = context.slot('customer_id');
  if (customerId === null) return say('Customer ID not provided.');
  const id = pythonInt(customerId);
  if (id === undefined) return say('Invalid customer ID format.');
  const customer = customers().find((row) => Number(row['customer_id']) === id);
  if (!customer) return say('No customer found with this ID.');
  return { events: [slotSet('customer_first_name', customer['first_name'] ?? null)] };
}

/** Upstream `text_to_date`: `datetime.strptime(f"{month} {year}", "%B %Y")` (month names in any case). */
function monthNumber(month: unknown): number | undefined {
  const index = MONTHS.findIndex((name) => name.toLowerCase() === pythonStr(month).trim().toLowerCase());
  return index < 0 ? undefined : index + 1;
}

function customerBills(customerId: number): Bill[] {
  return bills().filter((bill) => bill.customerId === customerId);
}

function verifyBill(context: ActionContext, year: number): ActionResult {
  const billMonth = context.slot('bill_month');
  if (billMonth === null) return say('Please specify the month for the bill you want to check.');
  const month = monthNumber(billMonth);
  const customerId = context.slot('customer_id');
  if (isFalsy(customerId)) return say("I couldn't find your customer ID. Please provide it.");
  if (month === undefined) return say('Please specify the date for the bill you want to check.');
  const id = pythonInt(customerId);
  if (id === undefined) throw new Error(`customer_id ${JSON.stringify(customerId)} is no int`);
  const all = customerBills(id);
  const bill = all.find((item) => item.year === year && item.month === month && item.day === 1);
  if (!bill) return say(`No bill found for ${year}-${pad(month)}-01.`);
  const average = all.reduce((sum, item) => sum + item.amount, 0) / all.length;
  const difference = bill.amount - average;
  const text =
    `Your bill for ${pythonStr(billMonth)} ${year} is $${twoDecimals(bill.amount)}. \n` +
    `The average of your past bills is $${twoDecimals(average)}. \n` +
    `This bill is ${difference > 0 ? 'higher' : 'lower'} than your average by $${twoDecimals(Math.abs(difference))}.`;
  return {
    responses: [{ text }],
    events: [
      slotSet('bill_amount', truncate(bill.amount)),
      slotSet('average_bill', truncate(average)),
      slotSet('difference', truncate(difference)),
    ],
  };
}

function recapBill(context: ActionContext, year: number): ActionResult {
  const customerId = context.slot('customer_id');
  const month = monthNumber(context.slot('bill_month'));
  if (isFalsy(customerId)) return say('I need your customer ID to fetch your bill recap.');
  if (month === undefined) return say('I need a date to fetch your bill recap. Can you provide one?');
  const id = pythonInt(customerId);
  if (id === undefined) return say('Invalid customer ID format.');
  const all = customerBills(id);
  if (all.length === 0) return say(`No transactions found for customer ${id} on ${pad(month)}/01/${year}.`);
  const lines = all.map(
    (bill) =>
      `${MONTHS[bill.month - 1]?.slice(0, 3)}. ${bill.day}, ${bill.year} | $${twoDecimals(bill.amount)} | ${bill.source}`,
  );
  return { responses: [{ text: 'Here is a summary of your costs:' }, { text: lines.join('\n') }] };
}

/** Python's `not value` for a slot value. */
function isFalsy(value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === 0 || value === false;
}

/** Python's `int(x)` of a float (towards zero, and never -0). */
function truncate(value: number): number {
  return Math.trunc(value) || 0;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

export const actions: InProcessAction[] = createTelcoActions();
