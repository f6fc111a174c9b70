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
  /** off-topic messages that start a flow anyway, as `message -> flow` (default none) */
  readonly offTopicStarts?: readonly string[];
  /** case name → why it fails */
  readonly knownFailures: Readonly<Record<string, string>>;
}

const NOT_STARTED = 'is not recognised as a request for its flow (cannot handle)';
const OUT_OF_SCOPE = 'reads as out of scope (cannot handle)';

/** Requests none of the projects serves: none of them should start a flow. */
const OFF_TOPIC = [
  "what's the weather like tomorrow",
  'order me a pizza',
  'who won the game last night',
  'book a table for two at an italian restaurant',
  'how do I cook pasta',
  'play some jazz',
  'what is the capital of Spain',
  'recommend a movie',
];

const EXPECTATIONS: readonly Expectation[] = [
  {
    project: 'rasa-quickstart',
    stubActions: true,
    filled: 15,
    asked: 15,
    knownFailures: {
      'user removes a contact and confirms by the button title':
        'the button value "true" fills the text slot, but the flow tests `is not true` (upstream defect)',
      'user lists the contacts and then removes one':
        '"delete a contact" starts add_contact, not remove_contact',
    },
  },
  {
    project: 'starterpack-retail-banking-en',
    rasaVersion: '3.13',
    stubActions: true,
    filled: 28,
    asked: 28,
    knownFailures: {
      'user blocks a damaged card and keeps it without a new one': `"please freeze my debit card" ${NOT_STARTED}`,
    },
  },
  {
    project: 'starterpack-telco-en',
    rasaVersion: '3.16',
    stubActions: true,
    filled: 10,
    asked: 10,
    knownFailures: {
      'user asks for the link to all bills': `"why is my bill so high this month" ${NOT_STARTED}`,
    },
  },
  {
    project: 'starterpack-insurance-en',
    rasaVersion: '3.16',
    stubActions: true,
    filled: 5,
    asked: 5,
    knownFailures: {
      'user checks an accepted claim and has no questions': `"what's the status of my claim?" ${OUT_OF_SCOPE}`,
      'user declines to schedule the inspection': `"has my claim been processed yet" ${NOT_STARTED}`,
      'user checks a claim that waits for an adjustor': `"I want to know where my claim is at" ${NOT_STARTED}`,
    },
  },
  {
    project: 'lakera-agent-security',
    stubActions: false,
    filled: 8,
    asked: 8,
    offTopicStarts: ['recommend a movie -> research_car_recommendations'],
    knownFailures: {
      'user searches for a used sedan within a budget': `"I'm looking for a car to buy" ${NOT_STARTED}`,
      'a budget answer is not small talk': `"I want to find a hatchback at your dealership" ${NOT_STARTED}`,
      'user estimates a loan and does not want the check': `"what would my monthly payment be on a car loan" ${NOT_STARTED}`,
      'user stops a car search': `"I'm looking for a car to buy" ${NOT_STARTED}`,
    },
  },
  {
    project: 'calm-summit-masterclass',
    stubActions: false,
    filled: 15,
    asked: 15,
    knownFailures: {
      'user does not want the cards locked': `"I need a new card" ${NOT_STARTED}`,
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
        offTopic: OFF_TOPIC,
      });
      checkMeasure(measure, expectation);
      expect(measure.offTopicStarts, 'off-topic requests that start a flow').to.deep.equal(
        expectation.offTopicStarts ?? [],
      );
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
