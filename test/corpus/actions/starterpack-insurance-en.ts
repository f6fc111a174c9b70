/**
 * Stubs of the starterpack-insurance-en custom actions (`actions/*.py` upstream), reading
 * `db/customers.csv`, `db/policies.csv` and `db/claims.csv` (dates month-first, `MM/DD/YYYY`).
 *
 * pandas reads the all-digit columns as integers, so `policy_num` "009738812" shows as 9738812 in the
 * texts and buttons; the tests expect exactly that (`/SetSlots(policy_name=Car, policy_num=9738813)`).
 * The upstream waits (`asyncio.sleep(2)`) are left out. Where the Python action raises (`int()` of a
 * missing or non-numeric customer id) the stub throws.
 */
import { defineAction } from '../../../src/actions/custom/in-process.js';
import type { ActionContext, ActionResult, InProcessAction } from '../../../src/actions/custom/in-process.js';
import type { CsvRecord } from './csv.js';
import { lazy, pythonInt, pythonStr, readCorpusCsv, slotSet, slotText } from './support.js';

const PROJECT = 'starterpack-insurance-en';
const NO_CUSTOMER_ID =
  "I don't have your customer ID. Please provide your customer ID to view your policies.";

/** The claim status meaning "no such claim" (0-4 come from the CSV). */
export const CLAIM_NOT_FOUND = 5;

interface Policy {
  readonly customerId: number;
  readonly type: string;
  readonly number: string;
  readonly expires: string;
  readonly premium: string;
  readonly limit: string;
}

/** An integer column as pandas prints it (leading zeros gone). */
function integer(row: CsvRecord, column: string): string {
  return String(Number.parseInt(row[column] ?? '', 10));
}

const customers = lazy(() => readCorpusCsv(PROJECT, 'db', 'customers.csv'));
const claims = lazy(() => readCorpusCsv(PROJECT, 'db', 'claims.csv'));
const policies = lazy(() =>
  readCorpusCsv(PROJECT, 'db', 'policies.csv').map((row): Policy => ({
    customerId: Number(row['customer_id']),
    type: row['policy_type'] ?? '',
    number: integer(row, 'policy_num'),
    expires: row['expiration_date'] ?? '',
    premium: integer(row, 'premium'),
    limit: integer(row, 'limit'),
  })),
);

function say(text: string): ActionResult {
  return { responses: [{ text }] };
}

/** `int(tracker.get_slot("customer_id"))`, throwing where Python raises. */
function customerIdOf(context: ActionContext): number {
  const value = context.slot('customer_id');
  const id = pythonInt(value);
  if (id === undefined) throw new Error(`customer_id ${JSON.stringify(value)} is no int`);
  return id;
}

function policiesOf(context: ActionContext): Policy[] {
  const id = customerIdOf(context);
  return policies().filter((policy) => policy.customerId === id);
}

function icon(policy: Policy): string {
  return policy.type === 'Homeowner' ? '\n🏠' : '\n🚗';
}

/** `MM/DD/YYYY` plus a number of days, as `datetime.strptime(...) + timedelta(days=...)`. */
export function addDays(date: string, days: number): string {
  const [month, day, year] = date.split('/').map(Number);
  const shifted = new Date(Date.UTC(year ?? NaN, (month ?? NaN) - 1, (day ?? NaN) + days));
  if (Number.isNaN(shifted.getTime())) throw new Error(`${JSON.stringify(date)} is no MM/DD/YYYY date`);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(shifted.getUTCMonth() + 1)}/${pad(shifted.getUTCDate())}/${shifted.getUTCFullYear()}`;
}

function checkClaimStatus(context: ActionContext): ActionResult {
  const notFound = (text: string): ActionResult => ({
    responses: [{ text }],
    events: [slotSet('claim_status', CLAIM_NOT_FOUND)],
  });
  if (context.slot('customer_id') === null) return notFound('Customer ID is required to check claim status');
  const claimId = slotText(context, 'claim_number');
  if (claimId === null) return notFound('Claim number is required to check claim status');
  const id = customerIdOf(context);
  const claim = claims().find((row) => Number(row['customer_id']) === id && row['claim_id'] === claimId);
  if (!claim) return notFound('No claim could be found with the provided claim number');
  return {
    events: [
      slotSet('claim_status', Number.parseInt(claim['claim_status'] ?? '', 10)),
      slotSet('adjustor_date', addDays(claim['claim_date'] ?? '', 10)),
    ],
  };
}

function claimSummary(context: ActionContext): ActionResult {
  const slot = (name: string): string => pythonStr(context.slot(name));
  const head =
    `Here is a summary of your claim:\n- Policy # ${slot('policy_num')}\n- ${slot('policy_name')} insurance\n` +
    `- Description: ${slot('claim_description')}\n - Date: ${slot('incident_date')}\n`;
  const additional = `Additional information: ${slot('additional_claim_info')} `;
  switch (context.slot('policy_name')) {
    case 'Car':
      return say(
        `${head} - Time: ${slot('incident_time')}\n - Location: ${slot('incident_location')}\n- ${additional}`,
      );
    case 'Homeowner':
      return say(`${head} - ${additional}`);
    default:
      return say('Your policy type is unsuported at the moment.');
  }
}

export const actions: InProcessAction[] = [
  defineAction({
    name: 'action_get_customer_info',
    run(context) {
      if (context.slot('customer_id') === null) return say('Customer ID not provided.');
      const id = customerIdOf(context);
      const customer = customers().find((row) => Number(row['customer_id']) === id);
      if (!customer) return say('No customer found with this ID.');
      return { events: [slotSet('customer_first_name', customer['first_name'] ?? null)] };
    },
  }),
  defineAction({
    name: 'action_list_policies',
    run(context) {
      const found = policiesOf(context);
      if (found.length === 0) return say('No policies found.');
      const lines = found.map(
        (policy) => `${icon(policy)} ${policy.type} (${policy.number})\n - Expires on: ${policy.expires}`,
      );
      return say(`Here are all your available policies:\n${lines.join('')}`);
    },
  }),
  defineAction({
    name: 'action_ask_policy_num',
    run(context) {
      if (context.slot('customer_id') === null) return say(NO_CUSTOMER_ID);
      const found = policiesOf(context);
      if (found.length === 0) return say('No policies found.');
      const buttons = found.map((policy) => ({
        title: `${policy.type} (${policy.number})`,
        payload: `/SetSlots(policy_name=${policy.type}, policy_num=${policy.number})`,
      }));
      return { responses: [{ response: 'utter_select_policy_name', buttons }] };
    },
  }),
  defineAction({ name: 'action_check_claim_status', run: checkClaimStatus }),
  defineAction({ name: 'action_claim_summary', run: claimSummary }),
  defineAction({
    name: 'action_view_policies',
    run(context) {
      if (context.slot('customer_id') === null) return say(NO_CUSTOMER_ID);
      const found = policiesOf(context);
      if (found.length === 0) return say('No policies found.');
      const lines = found.map(
        (policy) =>
          `${icon(policy)} ${policy.type}:\n - Expires on: ${policy.expires}.\n - Premium: $${policy.premium}, limit: $${policy.limit}`,
      );
      return say(`Here are all your available policies:\n${lines.join('')}`);
    },
  }),
];
