/**
 * TEST STUBS of the lakera-agent-security custom actions. Upstream they are Python
 * (`rasa_agent/actions/actions.py`, calling the mock services of `shared_apis/`: a car inventory read
 * from JSON, a loan calculator, a customer database, a loan-qualification check, and the Tavily web
 * search); none of that was copied. These TypeScript stand-ins follow the same rules on the slots the
 * flows fill, so that the flows can be driven end to end:
 * - `action_search_cars`: the cheapest car of the inventory that matches type, condition and price
 *   range (max excluded), without an excluded keyword in its model, ranked by how many words of
 *   `car_model` its model shares (`any` matches every model); nothing found (or a failure, e.g. no
 *   `new_or_used`) sets `chosen_car_model` to null.
 * - `action_provide_financing_options`: an amortised loan at 4.5 / 5 / 5.5 / 6 % a year for 36 / 48 /
 *   60 / 72 months; another term gives zero payments; a slot that is no number sets the payment null.
 * - `action_check_loan_qualification`: needs `customer_id` (set by pattern_session_start); denies a
 *   loan above 38 % of the yearly income or one pushing the debt-to-income ratio over 40 % for every
 *   term; otherwise approves and, without a down payment, suggests one.
 * - `action_research_cars`: a search service answering the query plus " pricing estimate"; the
 *   stand-in service knows a few models (no API key: the error Python gives).
 * The inventory and customers below are made up for the tests.
 */
import { defineAction } from '../../../src/actions/custom/in-process.js';
import type { ActionContext, InProcessAction } from '../../../src/actions/custom/in-process.js';
import { pyRepr } from '../../../src/core/flows/conditions/python-str.js';
import { slotSet } from './support.js';

interface Car {
  readonly model: string;
  readonly type: string;
  readonly price: number;
  readonly newOrUsed: 'new' | 'used';
  readonly dealer: string;
  readonly features: readonly string[];
}

export const INVENTORY: readonly Car[] = [
  {
    model: '2024 Honda Civic',
    type: 'sedan',
    price: 26500,
    newOrUsed: 'new',
    dealer: 'Harbor Honda',
    features: ['lane keeping', 'apple carplay'],
  },
  {
    model: '2021 Honda Civic',
    type: 'sedan',
    price: 19500,
    newOrUsed: 'used',
    dealer: 'Second Drive',
    features: ['backup camera'],
  },
  {
    model: '2022 Toyota Camry',
    type: 'sedan',
    price: 23800,
    newOrUsed: 'used',
    dealer: 'Second Drive',
    features: ['hybrid', 'adaptive cruise'],
  },
  {
    model: '2024 Mazda CX-30',
    type: 'compact SUV',
    price: 27900,
    newOrUsed: 'new',
    dealer: 'Hillside Mazda',
    features: ['AWD'],
  },
  {
    model: '2024 Tesla Model 3',
    type: 'EV',
    price: 39900,
    newOrUsed: 'new',
    dealer: 'Tesla Centre',
    features: ['autopilot'],
  },
];

interface Customer {
  readonly creditScore: number;
  readonly annualIncome: number;
  readonly monthlyDebt: number;
  readonly balance: number;
}

/** The customer pattern_session_start logs in (`customer_id: CUST_12345`). */
export const CUSTOMERS: Readonly<Record<string, Customer>> = {
  CUST_12345: { creditScore: 720, annualIncome: 85000, monthlyDebt: 1200, balance: 15000 },
};

const FINANCING_RATES: Readonly<Record<number, number>> = { 36: 4.5, 48: 5, 60: 5.5, 72: 6 };
const QUALIFICATION_TERMS = [36, 48, 60, 72];

interface SearchAnswer {
  readonly answer: string;
  readonly results: readonly { readonly title: string; readonly url: string; readonly content: string }[];
}

/** What the stand-in search service knows: a query naming one of these words gets an answer. */
const RESEARCH: Readonly<Record<string, SearchAnswer>> = {
  suv: {
    answer: 'The Mazda CX-30 and Honda HR-V lead compact SUV reviews, priced from about $25,000.',
    results: [{ title: 'Best compact SUVs', url: 'https://example.org/suv', content: 'CX-30, HR-V' }],
  },
  civic: {
    answer: 'The Honda Civic is rated the best compact sedan, from about $24,000 new.',
    results: [{ title: 'Civic review', url: 'https://example.org/civic', content: 'Civic' }],
  },
};

class PythonError extends Error {}

/** Python's `float(x)` for a slot value. */
function pyFloat(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  throw new PythonError(`could not convert ${pyRepr(value)} to float`);
}

/** Python's `int(x)`: numbers truncate, strings must hold a whole number. */
function pyInt(value: unknown): number {
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  throw new PythonError(`invalid literal for int(): ${pyRepr(value)}`);
}

/** Python's truthiness of a slot value. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && value !== undefined && value !== false && value !== 0 && value !== '';
}

function words(text: unknown): Set<string> {
  return typeof text === 'string' && text !== ''
    ? new Set(text.toLowerCase().split(/\s+/).filter(Boolean))
    : new Set();
}

function overlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  return [...left].filter((word) => right.has(word)).length;
}

function lower(value: unknown): string {
  if (typeof value !== 'string') throw new PythonError(`${pyRepr(value)} has no attribute 'lower'`);
  return value.toLowerCase();
}

function searchCars(context: ActionContext): Car | undefined {
  const carType = context.slot('car_type');
  const newOrUsed = context.slot('new_or_used');
  const min = pyFloat(truthy(context.slot('price_range_min')) ? context.slot('price_range_min') : 0);
  const max = pyFloat(truthy(context.slot('price_range_max')) ? context.slot('price_range_max') : 999999);
  const wanted = words(context.slot('car_model'));
  const excluded = words(context.slot('exclude_keywords'));
  const candidates: { car: Car; score: number }[] = [];
  for (const car of INVENTORY) {
    const typeMatch =
      !truthy(carType) || lower(carType) === 'any' || car.type.toLowerCase().includes(lower(carType));
    const conditionMatch = lower(newOrUsed) === 'any' || lower(newOrUsed) === car.newOrUsed;
    if (!(typeMatch && conditionMatch && min <= car.price && car.price < max)) continue;
    const modelWords = words(car.model);
    if (overlap(excluded, modelWords) > 0) continue;
    const score = wanted.size > 0 && !wanted.has('any') ? overlap(wanted, modelWords) : 0;
    if (wanted.size > 0 && !wanted.has('any') && score === 0) continue;
    candidates.push({ car, score });
  }
  candidates.sort((a, b) => b.score - a.score || a.car.price - b.car.price);
  return candidates[0]?.car;
}

/** Monthly payment of an amortised loan (`rate` in % a year). */
function monthlyPayment(principal: number, rate: number, months: number): number {
  const monthly = rate / 100 / 12;
  if (monthly === 0) return principal / months;
  const growth = (1 + monthly) ** months;
  return (principal * (monthly * growth)) / (growth - 1);
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

function financing(context: ActionContext): Record<string, unknown>[] {
  const price = pyFloat(context.slot('car_price'));
  const term = pyInt(context.slot('loan_term'));
  const downSlot = context.slot('down_payment_amount');
  const down = pyFloat(truthy(downSlot) ? downSlot : 0);
  const rate = FINANCING_RATES[term];
  if (rate === undefined || down < 0 || down > price) {
    // the service answers with an error and zero payments, which the action passes on
    return [
      slotSet('loan_monthly_payment', 0),
      slotSet('loan_total_interest', 0),
      slotSet('loan_principal_financed', price),
    ];
  }
  const principal = price - down;
  const payment = monthlyPayment(principal, rate, term);
  return [
    slotSet('loan_monthly_payment', round2(payment)),
    slotSet('loan_total_interest', round2(payment * term - principal)),
    slotSet('loan_principal_financed', round2(principal)),
  ];
}

function qualification(context: ActionContext): Record<string, unknown>[] {
  const price = pyFloat(context.slot('car_price'));
  const downSlot = context.slot('down_payment_amount');
  const down = truthy(downSlot) ? pyFloat(downSlot) : null;
  const customerId = context.slot('customer_id');
  const customer = typeof customerId === 'string' ? CUSTOMERS[customerId] : undefined;
  if (!customer) return [slotSet('loan_approved', false)];
  const loan = down ? price - down : price;
  const tier =
    customer.creditScore >= 750
      ? 'excellent'
      : customer.creditScore >= 700
        ? 'good'
        : customer.creditScore >= 650
          ? 'fair'
          : 'subprime';
  const rate = { excellent: 3.2, good: 4.1, fair: 6.8, subprime: 12.5 }[tier];
  const monthlyIncome = customer.annualIncome / 12;
  const outcome: Record<string, unknown> = {
    approved: false,
    credit_tier: tier,
    credit_score: customer.creditScore,
    current_debt_to_income: Math.round((customer.monthlyDebt / monthlyIncome) * 1000) / 1000,
    loan_options: [],
    denial_reason: null,
    suggested_down_payment: null,
  };
  const maxLoan = customer.annualIncome * 0.38;
  if (loan > maxLoan) {
    outcome['denial_reason'] =
      `Requested loan amount ($${thousands(loan)}) exceeds maximum based on income ($${thousands(maxLoan)})`;
  } else {
    const options = QUALIFICATION_TERMS.flatMap((term) => {
      const payment = monthlyPayment(loan, rate, term);
      const ratio = (customer.monthlyDebt + payment) / monthlyIncome;
      return ratio <= 0.4
        ? [{ term_months: term, monthly_payment: round2(payment), interest_rate: rate }]
        : [];
    });
    if (options.length > 0) {
      outcome['approved'] = true;
      outcome['loan_options'] = options;
      if (!down && customer.balance > 5000)
        outcome['suggested_down_payment'] = Math.round(Math.min(customer.balance * 0.5, price * 0.2));
    } else {
      outcome['denial_reason'] = 'Debt-to-income ratio too high for available loan terms';
    }
  }
  const names: Record<string, string> = { approved: 'loan_approved' };
  return Object.entries(outcome).map(([key, value]) => slotSet(names[key] ?? key, value));
}

/** Python's `f"{x:,.0f}"`. */
function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function research(context: ActionContext, search: WebSearch | undefined): Record<string, unknown>[] {
  const asked = context.slot('research_query');
  const query = `${typeof asked === 'string' && asked !== '' ? asked : 'recommend a car'} pricing estimate`;
  if (!search)
    return [
      slotSet('research_results', null),
      slotSet('research_answer', 'TAVILY_API_KEY environment variable not set'),
    ];
  const found = search(query);
  return [slotSet('research_results', [...found.results]), slotSet('research_answer', found.answer)];
}

/** The web search `action_research_cars` calls (Tavily upstream). */
export type WebSearch = (query: string) => SearchAnswer;

/** The stand-in search service: an answer for a query naming a model it knows, none otherwise. */
export const cannedWebSearch: WebSearch = (query) => {
  const known = Object.keys(RESEARCH).find((word) => words(query).has(word));
  return known ? (RESEARCH[known] as SearchAnswer) : { answer: 'No specific answer found.', results: [] };
};

/** Python's `except Exception`: the action's fallback events when the body raises. */
function guarded(body: () => Record<string, unknown>[], fallback: Record<string, unknown>[]) {
  try {
    return { events: body() };
  } catch (error) {
    if (error instanceof PythonError) return { events: fallback };
    throw error;
  }
}

/** The four actions; `search` undefined is the upstream action without a TAVILY_API_KEY. */
export function createLakeraActions(options: { search?: WebSearch } = {}): InProcessAction[] {
  return [
    defineAction({
      name: 'action_search_cars',
      run(context) {
        return guarded(() => {
          const car = searchCars(context);
          if (!car) return [slotSet('chosen_car_model', null)];
          return [
            slotSet('chosen_car_model', car.model),
            slotSet('car_price', car.price),
            slotSet('dealer_location', car.dealer),
            slotSet('car_features', pyRepr([...car.features])),
          ];
        }, [slotSet('chosen_car_model', null)]);
      },
    }),
    defineAction({
      name: 'action_provide_financing_options',
      run: (context) => guarded(() => financing(context), [slotSet('loan_monthly_payment', null)]),
    }),
    defineAction({
      name: 'action_check_loan_qualification',
      run: (context) => guarded(() => qualification(context), [slotSet('loan_approved', false)]),
    }),
    defineAction({
      name: 'action_research_cars',
      run: (context) => ({ events: research(context, options.search) }),
    }),
  ];
}

export const actions: InProcessAction[] = createLakeraActions({ search: cannedWebSearch });
