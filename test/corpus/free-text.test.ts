import { expect } from 'chai';
import { resolve } from 'node:path';
import { describeWithCorpus } from '../support/corpus.js';
import { measureFreeText } from '../support/free-text-measure.js';
import type { FreeTextMeasure } from '../support/free-text-measure.js';
import { corpusPath } from './projects.js';

/**
 * Payload-free conversations (test/corpus/free-text/<project>.yml) through Parley's offline
 * understanding on projects it was not tuned on. Floors are the figures measured (docs/nlu.md, "Answers
 * to the asked slot"); every failing case is listed with its reason, so a regression and an improvement
 * both show here.
 */
interface Expectation {
  readonly project: string;
  readonly rasaVersion?: string;
  readonly stubActions: boolean;
  /** answers to the asked slot that fill it as expected, at least */
  readonly filled: number;
  /** answers to the asked slot the cases reached, at least */
  readonly asked: number;
  /** case name → why it fails */
  readonly knownFailures: Readonly<Record<string, string>>;
}

const FLOW_NOT_STARTED = 'the opening request is not recognised (flow start from the description)';

const EXPECTATIONS: readonly Expectation[] = [
  {
    project: 'rasa-quickstart',
    stubActions: true,
    filled: 12,
    asked: 12,
    knownFailures: {
      'user answers with a few words around the value':
        '"please add someone to my contacts" reads as a human handoff ("someone")',
      'user removes a contact and confirms by the button title':
        'the button value "true" fills the text slot, but the flow tests `is not true` (upstream defect)',
      'user lists the contacts and then removes one': `"delete a contact": ${FLOW_NOT_STARTED}`,
    },
  },
  {
    project: 'starterpack-retail-banking-en',
    rasaVersion: '3.13',
    stubActions: true,
    filled: 17,
    asked: 17,
    knownFailures: {
      'user writes the amount in words and declines the payment': `"I need to send some money": ${FLOW_NOT_STARTED}`,
      'user schedules a payment for a later date': `"I want to make a transfer": ${FLOW_NOT_STARTED}`,
      'user blocks a damaged card and keeps it without a new one': `"please freeze my debit card": ${FLOW_NOT_STARTED}`,
    },
  },
  {
    project: 'starterpack-telco-en',
    rasaVersion: '3.16',
    stubActions: true,
    filled: 7,
    asked: 7,
    knownFailures: {
      'user names the month in lower case and needs no breakdown': `"can you explain my bill": ${FLOW_NOT_STARTED}`,
      'user asks for the link to all bills': `"why is my bill so high this month": ${FLOW_NOT_STARTED}`,
    },
  },
  {
    project: 'starterpack-insurance-en',
    rasaVersion: '3.16',
    stubActions: true,
    filled: 5,
    asked: 5,
    knownFailures: {
      'user checks an accepted claim and has no questions': `"what's the status of my claim?": ${FLOW_NOT_STARTED}`,
      'user declines to schedule the inspection': `"has my claim been processed yet": ${FLOW_NOT_STARTED}`,
      'user checks a claim that waits for an adjustor': `"I want to know where my claim is at": ${FLOW_NOT_STARTED}`,
    },
  },
  {
    project: 'lakera-agent-security',
    stubActions: false,
    filled: 4,
    asked: 4,
    knownFailures: {
      'user searches for a used sedan within a budget': `"I'm looking for a car to buy" reads as out of scope`,
      'user searches for a new EV and says the budget in words': `"help me find a car at the dealership" reads as out of scope`,
      'a budget answer is not small talk': `"I want to find a hatchback at your dealership": ${FLOW_NOT_STARTED}`,
      'user estimates a loan and does not want the check': `"what would my monthly payment be on a car loan": ${FLOW_NOT_STARTED}`,
      'user researches car recommendations': `"which car should I buy? I need advice": ${FLOW_NOT_STARTED}`,
      'user stops a car search': `"I'm looking for a car to buy" reads as out of scope`,
    },
  },
  {
    project: 'calm-summit-masterclass',
    stubActions: false,
    filled: 12,
    asked: 12,
    knownFailures: {
      'user gives the amount in words': `"send money to a friend": ${FLOW_NOT_STARTED}`,
      'user cancels a transfer while asked for the amount': `"I'd like to send some money": ${FLOW_NOT_STARTED}`,
      'user does not want the cards locked': `"I need a new card": ${FLOW_NOT_STARTED}`,
    },
  },
];

function checkMeasure(
  measure: FreeTextMeasure,
  expectation: Pick<Expectation, 'filled' | 'asked' | 'knownFailures'>,
) {
  const failing = measure.failing.map((name) => name.slice(name.indexOf('::') + 2));
  expect(failing, measure.reasons.join('\n')).to.have.members(Object.keys(expectation.knownFailures));
  expect(measure.asked, 'answers to the asked slot reached').to.be.at.least(expectation.asked);
  expect(measure.filled, `answers that filled the slot\n${measure.misses.join('\n')}`).to.be.at.least(
    expectation.filled,
  );
}

describeWithCorpus('offline understanding on the corpus projects: payload-free free-text cases', function () {
  this.timeout(180_000);
  for (const expectation of EXPECTATIONS) {
    it(`${expectation.project}: fills ${expectation.filled} of the asked slots and fails only the known cases`, async () => {
      const measure = await measureFreeText({
        projectRoot: corpusPath(expectation.project),
        paths: [`test/corpus/free-text/${expectation.project}.yml`],
        ...(expectation.stubActions ? { actions: `test/corpus/actions/${expectation.project}.ts` } : {}),
        ...(expectation.rasaVersion ? { rasaVersion: expectation.rasaVersion } : {}),
      });
      checkMeasure(measure, expectation);
    });
  }
});

describe('offline understanding on the bundled assistant: answers to the asked slot', function () {
  this.timeout(180_000);
  it('fills every asked slot its free-text cases answer (30 answers, 43 cases)', async () => {
    const measure = await measureFreeText({ projectRoot: resolve('.'), paths: ['tests/free_text'] });
    expect(measure.cases).to.be.at.least(43);
    checkMeasure(measure, { filled: 30, asked: 30, knownFailures: {} });
  });
});
