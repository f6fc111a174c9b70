import { expect } from 'chai';
import type { ActionContext, ActionResult, InProcessAction } from '../../src/actions/custom/in-process.js';
import { BUILT_IN_ACTIONS } from '../../src/core/domain/built-in-actions.js';
import { parseEvents } from '../../src/core/events/parse-event.js';
import { loadProject } from '../../src/project/load-project.js';
import { parseCsv } from './actions/csv.js';
import { createQuickstartActions } from './actions/rasa-quickstart.js';
import { actions as insuranceActions } from './actions/starterpack-insurance-en.js';
import { createBankingActions, formatDayMonthYear } from './actions/starterpack-retail-banking-en.js';
import { createTelcoActions } from './actions/starterpack-telco-en.js';
import { corpusPath } from './actions/support.js';
import { describeWithCorpus } from '../support/corpus.js';

function contextOf(slots: Record<string, unknown>, conversationId = 'conversation-1'): ActionContext {
  return {
    conversationId,
    slots,
    latestMessage: undefined,
    stack: [],
    events: async () => [],
    slot: (name) => slots[name] ?? null,
  };
}

async function run(
  actions: readonly InProcessAction[],
  name: string,
  slots: Record<string, unknown> = {},
  conversationId?: string,
): Promise<ActionResult> {
  const action = actions.find((candidate) => candidate.name === name);
  if (!action) throw new Error(`no stub named ${name}`);
  const result = await action.run(contextOf(slots, conversationId));
  const parsed = parseEvents(result.events ?? [], 0);
  expect(parsed.ok, `${name} returns events Parley accepts: ${JSON.stringify(parsed)}`).to.equal(true);
  return result;
}

const slot = (name: string, value: unknown): Record<string, unknown> => ({ event: 'slot', name, value });
const texts = (result: ActionResult): unknown[] => (result.responses ?? []).map((response) => response.text);

// These check test helpers only: the stand-ins for the corpus projects' Python custom actions, which the
// corpus replays run. No Parley code is under test here beyond the event parser reading their output.
describeWithCorpus('test helpers only: the corpus projects’ stub actions', () => {
  describe('the CSV reader', () => {
    it('reads quoted fields, CRLF line ends and a last line without a line end, keeping spaces', () => {
      expect(parseCsv('a,b\r\n"x, ""y""", z\r\n1,')).to.deep.equal([
        { a: 'x, "y"', b: ' z' },
        { a: '1', b: '' },
      ]);
    });
  });

  describe('cover every custom action of each project', () => {
    const projects = {
      'rasa-quickstart': createQuickstartActions(),
      'starterpack-retail-banking-en': createBankingActions(),
      'starterpack-telco-en': createTelcoActions(),
      'starterpack-insurance-en': insuranceActions,
    };
    for (const [project, actions] of Object.entries(projects)) {
      it(`stubs the actions ${project} declares or runs from a flow`, () => {
        const { project: loaded } = loadProject({ project: corpusPath(project) });
        const { domain, flows } = loaded.assistant;
        const used = new Set([
          ...domain.actions.keys(),
          ...flows.flows.flatMap((flow) =>
            flow.steps.flatMap((step) => (step.kind === 'action' ? [step.action] : [])),
          ),
        ]);
        // utter_*, Jinja names in the default patterns, and built-ins the project does not override
        const custom = [...used].filter(
          (name) =>
            !name.startsWith('utter_') &&
            !name.includes('{{') &&
            (!BUILT_IN_ACTIONS.includes(name) || domain.actions.has(name)),
        );
        const stubbed = actions.map((action) => action.name);
        const unstubbed = custom.filter(
          (name) => !stubbed.includes(name) && name !== 'action_default_fallback',
        );
        expect(unstubbed).to.deep.equal([]);
        const unused = stubbed.filter((name) => !used.has(name) && name !== 'action_session_start');
        expect(unused).to.deep.equal([]);
      });
    }
  });

  describe('rasa-quickstart', () => {
    it('lists the seeded contacts of db/contacts.json as "- Name (@handle) " lines', async () => {
      const result = await run(createQuickstartActions(), 'list_contacts');
      expect(result.events).to.deep.equal([slot('contacts_list', '- Joe (@JoeMyers) \n- Mary (@MaryLu) \n')]);
    });

    it('adds a contact to the conversation that added it and to no other', async () => {
      const actions = createQuickstartActions();
      const added = await run(actions, 'add_contact', {
        add_contact_name: 'Bart',
        add_contact_handle: '@barts',
      });
      expect(added.events).to.deep.equal([slot('return_value', 'success')]);
      const same = await run(actions, 'list_contacts');
      expect(same.events?.[0]?.['value']).to.equal(
        '- Joe (@JoeMyers) \n- Mary (@MaryLu) \n- Bart (@barts) \n',
      );
      const other = await run(actions, 'list_contacts', {}, 'conversation-2');
      expect(other.events?.[0]?.['value']).to.equal('- Joe (@JoeMyers) \n- Mary (@MaryLu) \n');
    });

    it('reports an existing handle and missing data when adding', async () => {
      const actions = createQuickstartActions();
      const existing = await run(actions, 'add_contact', {
        add_contact_name: 'M',
        add_contact_handle: '@MaryLu',
      });
      expect(existing.events).to.deep.equal([slot('return_value', 'already_exists')]);
      const missing = await run(actions, 'add_contact', { add_contact_handle: '@x' });
      expect(missing.events).to.deep.equal([slot('return_value', 'data_not_present')]);
    });

    it('removes @MaryLu once, naming her, then no longer finds her; no contacts left lists null', async () => {
      const actions = createQuickstartActions();
      const removed = await run(actions, 'remove_contact', { remove_contact_handle: '@MaryLu' });
      expect(removed.events).to.deep.equal([
        slot('return_value', 'success'),
        slot('remove_contact_name', 'Mary'),
      ]);
      const again = await run(actions, 'remove_contact', { remove_contact_handle: '@MaryLu' });
      expect(again.events).to.deep.equal([slot('return_value', 'not_found')]);
      await run(actions, 'remove_contact', { remove_contact_handle: '@JoeMyers' });
      expect((await run(actions, 'list_contacts')).events).to.deep.equal([slot('contacts_list', null)]);
      const noHandle = await run(actions, 'remove_contact');
      expect(noHandle.events).to.deep.equal([slot('return_value', 'missing_handle')]);
    });
  });

  describe('starterpack-retail-banking-en', () => {
    const john = { username: 'John Smith' };

    it('starts a session with the date of the injected clock and the John Smith profile, then listens', async () => {
      const actions = createBankingActions({ today: () => new Date(2025, 0, 5) });
      const result = await run(actions, 'action_session_start');
      expect(result.events).to.deep.equal([
        slot('current_date', '05/01/2025'),
        slot('username', 'John Smith'),
        slot('segment', 'Corporate'),
        slot('email_address', 'john.smith@example.com'),
        slot('physical_address', '1 Psychohistorical Way, Trantor Square, London, SW1A 1AA'),
        { event: 'action', name: 'action_listen' },
      ]);
      expect(result.responses ?? []).to.deep.equal([]);
      expect(formatDayMonthYear(new Date(2026, 11, 31))).to.equal('31/12/2026');
    });

    it('lists payees with the texts the tests expect for all three profiles', async () => {
      const actions = createBankingActions();
      const list = async (username: string) => texts(await run(actions, 'action_list_payees', { username }));
      expect(await list('John Smith')).to.deep.equal([
        'You are authorised to transfer money to: Robert, James and Food Market',
      ]);
      expect(await list('Mary Brown')).to.deep.equal([
        'You are authorised to transfer money to: Richard, Susan and Electric Company',
      ]);
      expect(await list('Dan Young')).to.deep.equal([
        'You are authorised to transfer money to: Amy, Fitness Gym and William',
      ]);
    });

    it('joins two names with "and" and one name alone after removals, per conversation', async () => {
      const actions = createBankingActions();
      const remove = (payee_name: string) => run(actions, 'action_remove_payee', { ...john, payee_name });
      expect((await remove('James')).events).to.deep.equal([slot('payee_removed', true)]);
      expect(texts(await run(actions, 'action_list_payees', john))).to.deep.equal([
        'You are authorised to transfer money to: Robert and Food Market',
      ]);
      await remove('Robert');
      expect(texts(await run(actions, 'action_list_payees', john))).to.deep.equal([
        'You are authorised to transfer money to: Food Market',
      ]);
      expect(texts(await run(actions, 'action_list_payees', john, 'conversation-2'))).to.deep.equal([
        'You are authorised to transfer money to: Robert, James and Food Market',
      ]);
    });

    it('says it cannot find a payee it cannot remove', async () => {
      const result = await run(createBankingActions(), 'action_remove_payee', {
        ...john,
        payee_name: 'Brad',
      });
      expect(result.events).to.deep.equal([slot('payee_removed', false)]);
      expect(texts(result)).to.deep.equal(["I'm sorry, but I couldn't find a payee named 'Brad'"]);
    });

    it('checks payee existence, and an added payee exists for the rest of that conversation', async () => {
      const actions = createBankingActions();
      const mary = { username: 'Mary Brown', payee_name: 'Brad' };
      const before = await run(actions, 'action_check_payee_existence', mary);
      expect(before.events).to.deep.equal([slot('payee_exists', false)]);
      expect(texts(before)).to.deep.equal(["Brad is not an authorised payee. Let's add them!"]);
      const added = await run(actions, 'action_add_payee', {
        ...mary,
        account_number: '123456',
        payee_type: 'person',
        reference: 'Facebook Marketplace',
      });
      expect(added.events).to.deep.equal([slot('payee_added', true)]);
      const after = await run(actions, 'action_check_payee_existence', mary);
      expect(after.events).to.deep.equal([slot('payee_exists', true)]);
      expect(texts(after)).to.deep.equal([]);
      expect(texts(await run(actions, 'action_list_payees', mary))).to.deep.equal([
        'You are authorised to transfer money to: Richard, Susan, Electric Company and Brad',
      ]);
      const elsewhere = await run(actions, 'action_check_payee_existence', mary, 'conversation-2');
      expect(elsewhere.events).to.deep.equal([slot('payee_exists', false)]);
    });

    it('says the balance of the chosen account as Python prints a float, setting no slot', async () => {
      const actions = createBankingActions();
      const savings = await run(actions, 'action_check_balance', { ...john, account: '12345678' });
      expect(texts(savings)).to.deep.equal(['The balance is: $10123.45']);
      expect(savings.events ?? []).to.deep.equal([]);
      const current = await run(actions, 'action_check_balance', { ...john, account: '23456789' });
      expect(texts(current)).to.deep.equal(['The balance is: $4923.67']);
    });

    it('fails like upstream for an unknown user or an account of someone else', async () => {
      const actions = createBankingActions();
      let failure: unknown;
      await run(actions, 'action_check_balance', { ...john, account: '34567890' }).catch((error: unknown) => {
        failure = error;
      });
      expect(String(failure)).to.match(/no account "34567890"/);
      failure = undefined;
      await run(actions, 'action_add_payee', { username: 'Hari Seldon' }).catch((error: unknown) => {
        failure = error;
      });
      expect(String(failure)).to.match(/no user named "Hari Seldon"/);
    });

    it("asks for an account with one button per account of the user, re-setting 'account'", async () => {
      const result = await run(createBankingActions(), 'action_ask_account', { username: 'Mary Brown' });
      expect(result.responses).to.deep.equal([
        {
          text: 'Which account would you like the balance for?',
          buttons: [
            { title: '34567890 (Current)', payload: '34567890' },
            { title: '45678901 (Savings)', payload: '45678901' },
            { title: '56789012 (Business)', payload: '56789012' },
          ],
        },
      ]);
      expect(result.events).to.deep.equal([slot('account', null)]);
    });

    it('asks for the account to transfer from with balances to two decimals', async () => {
      const result = await run(createBankingActions(), 'action_ask_account_from', { username: 'Dan Young' });
      expect(result.responses).to.deep.equal([
        {
          text: 'Which account would you like to transfer money from?',
          buttons: [
            { title: 'Savings (Balance: $20245.67)', payload: '67890123' },
            { title: 'Current (Balance: $8034.12)', payload: '78901234' },
          ],
        },
      ]);
      expect(result.events ?? []).to.deep.equal([]);
    });

    it('asks for a card with /SetSlots(card_selection=...) buttons', async () => {
      const result = await run(createBankingActions(), 'action_ask_card', john);
      expect(result.responses).to.deep.equal([
        {
          text: 'Select the card you require assistance with:',
          buttons: [
            { title: '1: x4444 (Debit)', payload: '/SetSlots(card_selection=1111222233334444)' },
            { title: '2: x5678 (Debit)', payload: '/SetSlots(card_selection=1234567812345678)' },
            { title: '3: x8888 (Credit)', payload: '/SetSlots(card_selection=5555666677778888)' },
          ],
        },
      ]);
    });

    it('compares the payment date with current_date, both DD/MM/YYYY', async () => {
      const actions = createBankingActions();
      const validate = async (payment_date: string) =>
        (await run(actions, 'action_validate_payment_date', { current_date: '01/01/2025', payment_date }))
          .events;
      expect(await validate('12/12/2025')).to.deep.equal([slot('future_payment_date', true)]);
      expect(await validate('01/01/2025')).to.deep.equal([slot('future_payment_date', false)]);
      expect(await validate('31/12/2024')).to.deep.equal([slot('future_payment_date', false)]);
      expect(await validate('2/1/2025')).to.deep.equal([slot('future_payment_date', true)]);
      let failure: unknown;
      await validate('12-12-2025').catch((error: unknown) => {
        failure = error;
      });
      expect(String(failure)).to.match(/not a DD\/MM\/YYYY date/);
    });

    it('sets the fixed outcomes of funds, payments, card status, and nothing for the human handoff', async () => {
      const actions = createBankingActions();
      const outcome = async (name: string) =>
        (await run(actions, name, { ...john, card: '5555666677778888' })).events;
      expect(await outcome('action_check_sufficient_funds')).to.deep.equal([slot('sufficient_funds', true)]);
      expect(await outcome('action_process_immediate_payment')).to.deep.equal([
        slot('payment_processed', true),
      ]);
      expect(await outcome('action_schedule_payment')).to.deep.equal([slot('payment_scheduled', true)]);
      expect(await outcome('action_update_card_status')).to.deep.equal([slot('card_status', 'inactive')]);
      expect(await run(actions, 'action_human_handoff')).to.deep.equal({});
    });
  });

  describe('starterpack-telco-en', () => {
    it('sets customer_first_name from customers.csv, or explains why not', async () => {
      const actions = createTelcoActions();
      const info = async (customer_id: unknown) => run(actions, 'action_get_customer_info', { customer_id });
      expect((await info('124')).events).to.deep.equal([slot('customer_first_name', 'Lionel')]);
      expect((await info(123)).events).to.deep.equal([slot('customer_first_name', 'Serena')]);
      expect(texts(await info('999'))).to.deep.equal(['No customer found with this ID.']);
      expect(texts(await info('abc'))).to.deep.equal(['Invalid customer ID format.']);
      expect(texts(await info(null))).to.deep.equal(['Customer ID not provided.']);
    });

    it('explains the January bill of customer 124 (the billing test fixture) against the average', async () => {
      const result = await run(createTelcoActions(), 'action_verify_bill_by_date', {
        customer_id: '124',
        bill_month: 'January',
      });
      expect(texts(result)).to.deep.equal([
        'Your bill for January 2026 is $53.00. \nThe average of your past bills is $53.00. \n' +
          'This bill is lower than your average by $0.00.',
      ]);
      expect(result.events).to.deep.equal([
        slot('bill_amount', 53),
        slot('average_bill', 53),
        slot('difference', 0),
      ]);
    });

    it("explains customer 123's (the initial value) bills, truncating the slots like int()", async () => {
      const actions = createTelcoActions();
      const february = await run(actions, 'action_verify_bill_by_date', {
        customer_id: 123,
        bill_month: 'February',
      });
      expect(texts(february)).to.deep.equal([
        'Your bill for February 2026 is $55.00. \nThe average of your past bills is $88.50. \n' +
          'This bill is lower than your average by $33.50.',
      ]);
      expect(february.events).to.deep.equal([
        slot('bill_amount', 55),
        slot('average_bill', 88),
        slot('difference', -33),
      ]);
      const january = await run(actions, 'action_verify_bill_by_date', {
        customer_id: 123,
        bill_month: 'january',
      });
      expect(january.events).to.deep.equal([
        slot('bill_amount', 150),
        slot('average_bill', 88),
        slot('difference', 62),
      ]);
    });

    it('finds no bill for another year or month, and asks for a missing month', async () => {
      const in2025 = createTelcoActions({ billYear: 2025 });
      const slots = { customer_id: '124', bill_month: 'January' };
      const none = await run(in2025, 'action_verify_bill_by_date', slots);
      expect(texts(none)).to.deep.equal(['No bill found for 2025-01-01.']);
      expect(none.events ?? []).to.deep.equal([]);
      const april = await run(createTelcoActions(), 'action_verify_bill_by_date', {
        ...slots,
        bill_month: 'April',
      });
      expect(texts(april)).to.deep.equal(['No bill found for 2026-04-01.']);
      const noMonth = await run(createTelcoActions(), 'action_verify_bill_by_date', { customer_id: '124' });
      expect(texts(noMonth)).to.deep.equal(['Please specify the month for the bill you want to check.']);
    });

    it('recaps every bill of the customer, one line each', async () => {
      const result = await run(createTelcoActions(), 'action_recap_bill', {
        customer_id: '123',
        bill_month: 'January',
      });
      expect(texts(result)).to.deep.equal([
        'Here is a summary of your costs:',
        'Jan. 1, 2026 | $150.50 | Internet\nFeb. 1, 2026 | $55.00 | Internet\nMar. 1, 2026 | $60.00 | Internet',
      ]);
    });

    it('runs the speed test without waiting, honouring network_speed_override', async () => {
      const actions = createTelcoActions();
      const slow = await run(actions, 'actions_run_speed_test', { network_speed_override: 50 });
      expect(texts(slow)).to.deep.equal(['Thank you for waiting... ✅ ']);
      expect(slow.events).to.deep.equal([slot('network_speed', 50)]);
      const ok = await run(actions, 'actions_run_speed_test', { network_speed_override: '120' });
      expect(ok.events).to.deep.equal([slot('network_speed', 120)]);
      const measured = await run(actions, 'actions_run_speed_test');
      expect(measured.events).to.deep.equal([slot('network_speed', 75)]);
      const injected = createTelcoActions({ measureSpeed: () => 130 });
      expect((await run(injected, 'actions_run_speed_test')).events).to.deep.equal([
        slot('network_speed', 130),
      ]);
    });

    it('sleeps and starts sessions without events or messages', async () => {
      const actions = createTelcoActions();
      expect(await run(actions, 'action_sleep_few_sec')).to.deep.equal({});
      expect(await run(actions, 'action_session_start')).to.deep.equal({});
    });
  });

  describe('starterpack-insurance-en', () => {
    const customer = { customer_id: 123 };

    it('sets customer_first_name for the initial customer id', async () => {
      const result = await run(insuranceActions, 'action_get_customer_info', customer);
      expect(result.events).to.deep.equal([slot('customer_first_name', 'Serena')]);
      const unknown = await run(insuranceActions, 'action_get_customer_info', { customer_id: '999' });
      expect(texts(unknown)).to.deep.equal(['No customer found with this ID.']);
    });

    it('lists the policies with pandas-style numbers and expiry dates', async () => {
      const result = await run(insuranceActions, 'action_list_policies', customer);
      expect(texts(result)).to.deep.equal([
        'Here are all your available policies:\n\n🏠 Homeowner (9738812)\n - Expires on: 01/01/2020' +
          '\n🚗 Car (9738813)\n - Expires on: 01/01/2026',
      ]);
    });

    it('asks for the policy with utter_select_policy_name and two-slot /SetSlots buttons', async () => {
      const result = await run(insuranceActions, 'action_ask_policy_num', customer);
      expect(result.responses).to.deep.equal([
        {
          response: 'utter_select_policy_name',
          buttons: [
            { title: 'Homeowner (9738812)', payload: '/SetSlots(policy_name=Homeowner, policy_num=9738812)' },
            { title: 'Car (9738813)', payload: '/SetSlots(policy_name=Car, policy_num=9738813)' },
          ],
        },
      ]);
      const none = await run(insuranceActions, 'action_ask_policy_num', { customer_id: '999' });
      expect(texts(none)).to.deep.equal(['No policies found.']);
    });

    it('reads the claim status and sets the adjustor date ten days after the claim', async () => {
      const status = async (claim_number: string) =>
        run(insuranceActions, 'action_check_claim_status', { ...customer, claim_number });
      expect((await status('CLAIM1234')).events).to.deep.equal([
        slot('claim_status', 0),
        slot('adjustor_date', '01/11/2025'),
      ]);
      expect((await status('CLAIM1236')).events).to.deep.equal([
        slot('claim_status', 2),
        slot('adjustor_date', '06/17/2025'),
      ]);
      expect((await status('CLAIM1238')).events).to.deep.equal([
        slot('claim_status', 4),
        slot('adjustor_date', '05/17/2025'),
      ]);
      const missing = await status('CLAIM9999');
      expect(missing.events).to.deep.equal([slot('claim_status', 5)]);
      expect(texts(missing)).to.deep.equal(['No claim could be found with the provided claim number']);
    });

    it('summarises car and home claims from the slots', async () => {
      const claim = {
        policy_num: '9738813',
        claim_description: 'Someone rear-ended me at a traffic light',
        incident_date: '12/25/2024',
        incident_time: 'Around 3pm',
        incident_location: 'Times square',
        additional_claim_info: 'John Doe, 454554',
      };
      const car = await run(insuranceActions, 'action_claim_summary', { ...claim, policy_name: 'Car' });
      expect(texts(car)).to.deep.equal([
        'Here is a summary of your claim:\n- Policy # 9738813\n- Car insurance\n' +
          '- Description: Someone rear-ended me at a traffic light\n - Date: 12/25/2024\n - Time: Around 3pm\n' +
          ' - Location: Times square\n- Additional information: John Doe, 454554 ',
      ]);
      const home = await run(insuranceActions, 'action_claim_summary', {
        policy_num: '9738812',
        policy_name: 'Homeowner',
        claim_description: 'There is a leak in my roof',
        incident_date: '12/25/2024',
      });
      expect(texts(home)).to.deep.equal([
        'Here is a summary of your claim:\n- Policy # 9738812\n- Homeowner insurance\n' +
          '- Description: There is a leak in my roof\n - Date: 12/25/2024\n - Additional information: None ',
      ]);
      const other = await run(insuranceActions, 'action_claim_summary', { policy_name: 'Boat' });
      expect(texts(other)).to.deep.equal(['Your policy type is unsuported at the moment.']);
    });

    it('shows policies with premium and limit', async () => {
      const result = await run(insuranceActions, 'action_view_policies', { customer_id: '124' });
      expect(texts(result)).to.deep.equal([
        'Here are all your available policies:\n' +
          '\n🏠 Homeowner:\n - Expires on: 01/01/2021.\n - Premium: $12000, limit: $600000' +
          '\n🚗 Car:\n - Expires on: 01/01/2028.\n - Premium: $1800, limit: $78000',
      ]);
      const noId = await run(insuranceActions, 'action_view_policies');
      expect(texts(noId)).to.deep.equal([
        "I don't have your customer ID. Please provide your customer ID to view your policies.",
      ]);
    });
  });
});
