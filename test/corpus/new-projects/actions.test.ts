/**
 * Test helpers only: the branches of the test stubs for the two newer corpus projects that their e2e
 * cases do not reach: the fallbacks of the upstream `except Exception` and the research action without
 * an API key. No Parley code is under test here.
 */
import { expect } from 'chai';
import type { ActionContext, InProcessAction } from '../../../src/actions/custom/in-process.js';
import { actions as calmActions, LATEST_TRANSACTION } from '../actions/calm-summit-masterclass.js';
import { cannedWebSearch, createLakeraActions } from '../actions/lakera-agent-security.js';

function context(slots: Record<string, unknown>): ActionContext {
  return {
    conversationId: 'c1',
    slots,
    latestMessage: undefined,
    stack: [],
    events: async () => [],
    slot: (name) => slots[name] ?? null,
  };
}

async function events(actions: readonly InProcessAction[], name: string, slots: Record<string, unknown>) {
  const action = actions.find((candidate) => candidate.name === name);
  if (!action) throw new Error(`no stub ${name}`);
  return (await action.run(context(slots))).events;
}

const slot = (name: string, value: unknown) => ({ event: 'slot', name, value });

describe('test helpers only: the stubs of the lakera-agent-security actions', () => {
  const lakera = createLakeraActions({ search: cannedWebSearch });

  it('finds nothing when new_or_used is missing (Python fails on None.lower())', async () => {
    const found = await events(lakera, 'action_search_cars', { car_type: 'sedan', price_range_max: 90000 });
    expect(found).to.deep.equal([slot('chosen_car_model', null)]);
  });

  it('excludes models by keyword and prefers the model named', async () => {
    const base = { car_type: 'sedan', new_or_used: 'any', price_range_max: 90000, car_model: 'any' };
    const excluded = await events(lakera, 'action_search_cars', { ...base, exclude_keywords: 'honda' });
    expect(excluded?.[0]).to.deep.equal(slot('chosen_car_model', '2022 Toyota Camry'));
    const named = await events(lakera, 'action_search_cars', { ...base, car_model: 'Honda Civic 2024' });
    expect(named?.[0]).to.deep.equal(slot('chosen_car_model', '2024 Honda Civic'));
  });

  it('sets no payment for a loan term that is no whole number, and zero payments for an unknown term', async () => {
    const broken = await events(lakera, 'action_provide_financing_options', {
      car_price: 1000,
      loan_term: 'soon',
    });
    expect(broken).to.deep.equal([slot('loan_monthly_payment', null)]);
    const unknown = await events(lakera, 'action_provide_financing_options', {
      car_price: 1000,
      loan_term: '12',
    });
    expect(unknown).to.deep.equal([
      slot('loan_monthly_payment', 0),
      slot('loan_total_interest', 0),
      slot('loan_principal_financed', 1000),
    ]);
  });

  it('researches with the query plus " pricing estimate", and without an API key says so', async () => {
    const found = await events(lakera, 'action_research_cars', { research_query: 'civic' });
    expect(found?.[1]).to.deep.include({ name: 'research_answer' });
    expect(String((found?.[1] as { value?: unknown }).value)).to.match(/Honda Civic/);
    const withoutKey = await events(createLakeraActions(), 'action_research_cars', {});
    expect(withoutKey).to.deep.equal([
      slot('research_results', null),
      slot('research_answer', 'TAVILY_API_KEY environment variable not set'),
    ]);
  });
});

describe('test helpers only: the stubs of the calm-summit-masterclass actions', () => {
  it('lists the latest transaction as a one-item list', async () => {
    expect(await events(calmActions, 'transaction_search', {})).to.deep.equal([
      slot('transactions_list', [LATEST_TRANSACTION]),
    ]);
  });
});
