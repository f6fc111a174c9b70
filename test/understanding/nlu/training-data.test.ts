import { expect } from 'chai';
import { flowExamples } from '../../../src/understanding/nlu/flow-examples.js';
import { FLOW_INTENT_PREFIX } from '../../../src/understanding/nlu/nlu-command-generator.js';
import { nluTrainingData } from '../../../src/understanding/nlu/pipeline.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

const DOMAIN = `
  version: "3.1"
  intents: [stop_it]
  slots:
    item: {type: text, mappings: [{type: from_llm}]}
  responses:
    utter_ask_item: [{text: Which item?}]
    utter_done: [{text: Done.}]
`;

const FLOWS = `
  flows:
    check_claim_status:
      name: check a claim
      description: >-
        This flow helps a user check the status of an existing claim. Do not start it for new claims.
      steps:
        - collect: item
    file_sub_claim:
      if: false
      description: files the details of a claim, only reached by link
      steps:
        - action: utter_done
    pattern_cancel_flow:
      description: cancels the current flow
      nlu_trigger:
        - intent: stop_it
      steps:
        - action: action_cancel_flow
`;

describe('offline NLU training data for a project without NLU data', () => {
  const assistant = inlineAssistant({ domain: DOMAIN, flows: FLOWS });

  it("a flow's pseudo-intent learns its name, id, description sentences and requests, not what it is not for", () => {
    const flow = assistant.flows.flows.find((candidate) => candidate.id === 'check_claim_status');
    if (!flow) throw new Error('no flow');
    const examples = flowExamples(flow);
    expect(examples).to.include.members([
      'check a claim',
      'check claim status',
      'This flow helps a user check the status of an existing claim.',
      'I want to check a claim',
      'can you check claim status',
    ]);
    expect(examples.some((text) => text.startsWith('Do not start'))).to.equal(false);
  });

  it('a flow guarded by `if: false` is not trained as something a user can ask for', () => {
    const intents = nluTrainingData(assistant).intents.map((entry) => entry.intent);
    expect(intents).to.include(`${FLOW_INTENT_PREFIX}check_claim_status`);
    expect(intents).to.not.include(`${FLOW_INTENT_PREFIX}file_sub_claim`);
  });
});

describe('offline NLU training data: a project intent for a shipped repair replaces it', () => {
  it('the intent triggering pattern_cancel_flow takes the shipped cancel examples and parley_cancel is dropped', () => {
    const assistant = inlineAssistant({
      domain: DOMAIN,
      flows: FLOWS,
    });
    const withOwn = {
      ...assistant,
      nlu: {
        ...assistant.nlu,
        intents: [{ intent: 'stop_it', examples: [{ text: 'halt', entities: [] }] }],
      },
    };
    const data = nluTrainingData(withOwn);
    const intents = data.intents.map((entry) => entry.intent);
    expect(intents).to.not.include('parley_cancel');
    const own = data.intents.find((entry) => entry.intent === 'stop_it');
    expect(own?.examples.map((example) => example.text)).to.include.members(['halt', 'never mind', 'stop']);
    expect(intents).to.include('parley_human_handoff');
  });
});

describe('offline NLU training data: shipped out-of-scope examples give way to the flows', () => {
  it('an out-of-scope example using a word of a flow trained from its description is left out', () => {
    const assistant = inlineAssistant({
      domain: 'version: "3.1"\nresponses:\n  utter_found: [{text: Found one.}]\n',
      flows: `
        flows:
          search_cars:
            description: help the user find a car at the dealership
            steps:
              - action: utter_found
      `,
    });
    const outOfScope = nluTrainingData(assistant).intents.find(
      (entry) => entry.intent === 'parley_out_of_scope',
    );
    const texts = outOfScope?.examples.map((example) => example.text) ?? [];
    expect(texts).to.not.include('find me a hotel');
    expect(texts).to.include.members(['order a pizza', 'play some music']);
  });

  it('a project with its own NLU examples keeps every shipped out-of-scope example against them', () => {
    const assistant = inlineAssistant({ domain: DOMAIN, flows: FLOWS });
    const withOwn = {
      ...assistant,
      nlu: {
        ...assistant.nlu,
        intents: [{ intent: 'stop_it', examples: [{ text: 'find me a hotel', entities: [] }] }],
      },
    };
    const outOfScope = nluTrainingData(withOwn).intents.find(
      (entry) => entry.intent === 'parley_out_of_scope',
    );
    expect(outOfScope?.examples.map((example) => example.text)).to.include.members([
      'find me a hotel',
      'find a hotel in Lisbon',
    ]);
  });
});
