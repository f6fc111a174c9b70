import { expect } from 'chai';
import type { Assistant } from '../../../src/core/assistant.js';
import { NluPolicies, nluPolicyConfig } from '../../../src/core/dialogue/nlu-policies.js';
import type { Event } from '../../../src/core/events/types.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

const DOMAIN = `
  intents: [greet, ask, affirm, stop, inform]
  entities: [name, city]
  slots:
    route_session_to_calm:
      type: bool
      influence_conversation: false
    vip:
      type: bool
      mappings: [{type: custom}]
  responses:
    utter_greet: [{text: Hi}]
    utter_vip: [{text: Hello, VIP}]
    utter_answer: [{text: Answer}]
    utter_more: [{text: More?}]
    utter_a: [{text: A}]
    utter_b: [{text: B}]
    utter_greet_by_name: [{text: Hi you}]
    utter_stop_form: [{text: Stopping the form}]
    utter_stop: [{text: Stopping}]
    utter_noted: [{text: Noted}]
`;
const FLOWS = `
  flows:
    f:
      description: a flow
      steps:
        - action: utter_a
`;

let time = 0;
const user = (intent: string, entities: readonly string[] = []): Event => ({
  event: 'user',
  timestamp: (time += 1),
  text: intent,
  parse_data: {
    intent: { name: intent, confidence: 1 },
    entities: entities.map((entity) => ({ entity, value: 'x' })),
  },
});
const loop = (name: string | null): Event => ({ event: 'active_loop', timestamp: (time += 1), name });
const action = (name: string): Event => ({ event: 'action', timestamp: (time += 1), name });
const slot = (name: string, value: unknown): Event => ({
  event: 'slot',
  timestamp: (time += 1),
  name,
  value,
});
const start: Event[] = [
  action('action_session_start'),
  { event: 'session_started', timestamp: 0 },
  action('action_listen'),
];

function policies(files: Record<string, string>, config = ''): NluPolicies {
  const assistant: Assistant = inlineAssistant({
    domain: DOMAIN,
    flows: FLOWS,
    files,
    ...(config ? { config } : {}),
  });
  return new NluPolicies({
    data: assistant.dialogue,
    domain: assistant.domain,
    config: nluPolicyConfig(assistant.config.policies),
  });
}

describe('RulePolicy and MemoizationPolicy details', () => {
  // built inside each test (not when the file loads), so that mutation testing sees which test trains them
  const rules = (): NluPolicies =>
    policies({
      'data/rules.yml': `
      rules:
        - rule: greet a stranger
          condition:
            - slot_was_set:
                - vip: null
          steps:
            - intent: greet
            - action: utter_greet
        - rule: greet a vip
          condition:
            - slot_was_set:
                - vip: true
          steps:
            - intent: greet
            - action: utter_vip
        - rule: answer and go on without waiting
          steps:
            - intent: ask
            - action: utter_answer
          wait_for_user_input: false
        - rule: after an answer offer more
          steps:
            - action: utter_answer
            - action: utter_more
    `,
    });

  it('a null slot in a condition means the slot must be unset; a value, that value', () => {
    expect(rules().predict([...start, user('greet')], []).action).to.equal('utter_greet');
    expect(rules().predict([...start, slot('vip', true), user('greet')], []).action).to.equal('utter_vip');
    expect(rules().predict([...start, slot('vip', false), user('greet')], []).action).to.equal(
      'action_default_fallback',
    );
  });

  it('a rule with wait_for_user_input false leaves the next action to another rule', () => {
    const asked = [...start, user('ask'), action('utter_answer')];
    expect(rules().predict(asked, [])).to.deep.include({ action: 'utter_more', policy: 'RulePolicy' });
    expect(rules().predict([...asked, action('utter_more')], []).action).to.equal('action_listen');
  });

  it('forgets a story key two stories give different actions, and reads max_history from config', () => {
    const stories = `
      stories:
        - story: one
          steps:
            - intent: affirm
            - action: utter_a
        - story: two
          steps:
            - intent: affirm
            - action: utter_b
        - story: long
          steps:
            - intent: greet
            - action: utter_greet
            - intent: ask
            - action: utter_answer
    `;
    const memo = policies({ 'data/stories.yml': stories });
    expect(memo.predict([...start, user('affirm')], [])).to.deep.include({
      action: 'action_default_fallback',
      confidence: 0.3,
    });
    const talk = [...start, user('greet'), action('utter_greet'), action('action_listen'), user('ask')];
    expect(memo.predict(talk, [])).to.deep.include({ action: 'utter_answer', policy: 'MemoizationPolicy' });
    const config = `
      recipe: default.v1
      assistant_id: policies
      policies:
        - name: MemoizationPolicy
          max_history: 1
        - name: RulePolicy
          core_fallback_action_name: utter_b
          core_fallback_threshold: 0.2
    `;
    const short = policies({ 'data/stories.yml': stories }, config);
    expect(short.predict([...start, user('affirm')], [])).to.deep.include({
      action: 'utter_b',
      confidence: 0.2,
    });
    // with one state of history, 'ask' after listening answers wherever it comes
    expect(short.predict([...start, user('ask')], []).action).to.equal('utter_answer');
  });

  it('has Rasa’s default rules: /restart runs action_restart, /back action_back', () => {
    expect(rules().predict([...start, user('restart')], [])).to.deep.include({
      action: 'action_restart',
      policy: 'RulePolicy',
    });
    expect(rules().predict([...start, user('back')], []).action).to.equal('action_back');
  });

  it('forgets what came before a routing session ended, keeping only the shared slots', () => {
    const ended = [
      ...start,
      slot('vip', true),
      action('action_reset_routing'),
      { event: 'routing_session_ended', timestamp: 99 } as Event,
      action('action_listen'),
      user('greet'),
    ];
    expect(rules().predict(ended, []).action).to.equal('utter_greet');
    expect(rules().predict(ended, ['vip']).action).to.equal('utter_vip');
  });
});

describe('RulePolicy: which rule answers', () => {
  const rules = (): NluPolicies =>
    policies({
      'data/rules.yml': `
        rules:
          - rule: greet someone who says their name and city
            steps:
              - intent: greet
                entities:
                  - name
                  - city
              - action: utter_greet_by_name
          - rule: greet
            steps:
              - intent: greet
              - action: utter_greet
          - rule: stop the form
            condition:
              - active_loop: booking_form
            steps:
              - intent: stop
              - action: utter_stop_form
          - rule: stop when no form runs
            condition:
              - active_loop: null
            steps:
              - intent: stop
              - action: utter_stop
          - rule: note what the user says in any state
            steps:
              - intent: inform
              - action: utter_noted
      `,
    });

  it('the rule that names more of the conversation wins: the one that requires the entities, when all are there', () => {
    const policy = rules();
    expect(policy.predict([...start, user('greet', ['city', 'name'])], []).action).to.equal(
      'utter_greet_by_name',
    );
    expect(policy.predict([...start, user('greet', ['name'])], []).action).to.equal('utter_greet');
    expect(policy.predict([...start, user('greet')], []).action).to.equal('utter_greet');
  });

  it('the longer rule wins whichever comes first in the file', () => {
    const reversed = policies({
      'data/rules.yml': `
        rules:
          - rule: greet
            steps:
              - intent: greet
              - action: utter_greet
          - rule: greet a vip
            condition:
              - slot_was_set:
                  - vip: true
            steps:
              - intent: greet
              - action: utter_vip
      `,
    });
    expect(reversed.predict([...start, slot('vip', true), user('greet')], []).action).to.equal('utter_vip');
  });

  it('a rule with an active_loop condition answers only while that loop is active; `active_loop: null` only while none is', () => {
    const policy = rules();
    expect(policy.predict([...start, loop('booking_form'), user('stop')], []).action).to.equal(
      'utter_stop_form',
    );
    expect(policy.predict([...start, user('stop')], []).action).to.equal('utter_stop');
    expect(policy.predict([...start, loop('other_form'), user('stop')], []).action).to.equal(
      'action_default_fallback',
    );
  });

  it('a rule that names no loop answers whether a loop is active or not', () => {
    expect(rules().predict([...start, loop('booking_form'), user('inform')], []).action).to.equal(
      'utter_noted',
    );
  });

  it('a rule that waits for the user hides its turn from the stories only when the stories would act otherwise', () => {
    const agreeing = policies({
      'data/rules.yml': `
        rules:
          - rule: greet
            steps:
              - intent: greet
              - action: utter_greet
          - rule: answer without waiting
            steps:
              - intent: ask
              - action: utter_answer
            wait_for_user_input: false
      `,
      'data/stories.yml': `
        stories:
          - story: greet
            steps:
              - intent: greet
              - action: utter_greet
      `,
    });
    expect(agreeing.predict([...start, user('greet')], [])).to.deep.include({
      action: 'utter_greet',
      hideRuleTurn: false,
    });
    expect(agreeing.predict([...start, user('ask')], [])).to.deep.include({
      action: 'utter_answer',
      hideRuleTurn: false,
    });
    expect(rules().predict([...start, user('greet')], [])).to.deep.include({
      action: 'utter_greet',
      hideRuleTurn: true,
    });
  });
});

describe('MemoizationPolicy: matching the stories', () => {
  const STORIES = `
    stories:
      - story: greet then answer
        steps:
          - intent: greet
          - action: utter_greet
          - intent: ask
          - action: utter_answer
          - action: utter_more
  `;

  it('prefers the story that matches more of the conversation', () => {
    const memo = policies({
      'data/stories.yml': `
        stories:
          - story: greet
            steps:
              - intent: greet
              - action: utter_greet
          - story: greet after a yes
            steps:
              - intent: affirm
              - action: utter_a
              - intent: greet
              - action: utter_b
      `,
    });
    const afterYes = [...start, user('affirm'), action('utter_a'), action('action_listen'), user('greet')];
    expect(memo.predict(afterYes, []).action).to.equal('utter_b');
  });

  it('with a short max_history, a story step out of its context is not recalled', () => {
    const config = `
      recipe: default.v1
      assistant_id: policies
      policies:
        - name: MemoizationPolicy
          max_history: 2
    `;
    const memo = policies({ 'data/stories.yml': STORIES }, config);
    expect(memo.predict([...start, user('ask')], []).action).to.equal('action_default_fallback');
    const inContext = [...start, user('greet'), action('utter_greet'), action('action_listen'), user('ask')];
    expect(memo.predict(inContext, []).action).to.equal('utter_answer');
  });

  it('matches a story that begins in the middle of the conversation', () => {
    const memo = policies({ 'data/stories.yml': STORIES });
    const later = [...start, user('affirm'), action('utter_a'), action('action_listen'), user('greet')];
    expect(memo.predict(later, [])).to.deep.include({ action: 'utter_greet', policy: 'MemoizationPolicy' });
  });

  it('looks at no more than max_history states, so a long conversation still matches its latest turns', () => {
    const memo = policies({ 'data/stories.yml': STORIES });
    const turn = (intent: string, answer: string): Event[] => [
      user(intent),
      action(answer),
      action('action_listen'),
    ];
    const long = [
      ...start,
      ...turn('affirm', 'utter_a'),
      ...turn('affirm', 'utter_b'),
      ...turn('greet', 'utter_greet'),
      user('ask'),
      action('utter_answer'),
    ];
    expect(memo.predict(long, []).action).to.equal('utter_more');
  });

  it('after a bot action nothing predicts, the assistant listens (no fallback); without fallback prediction it listens after a message too', () => {
    const memo = policies({ 'data/stories.yml': STORIES });
    expect(memo.predict([...start, user('affirm'), action('utter_a')], [])).to.deep.equal({
      action: 'action_listen',
      policy: 'RulePolicy',
      confidence: 1,
    });
    const config = `
      recipe: default.v1
      assistant_id: policies
      policies:
        - name: RulePolicy
          enable_fallback_prediction: false
        - name: AugmentedMemoizationPolicy
          max_history: 1
    `;
    // a slot the message set does not make the message's turn over
    expect(memo.predict([...start, user('affirm'), slot('vip', true)], []).action).to.equal(
      'action_default_fallback',
    );
    const quiet = policies({ 'data/stories.yml': STORIES }, config);
    expect(quiet.predict([...start, user('affirm')], []).action).to.equal('action_listen');
    // one state of history: 'ask' answers wherever it comes
    expect(quiet.predict([...start, user('ask')], []).action).to.equal('utter_answer');
  });

  it("reads Rasa's defaults where config.yml gives no usable value", () => {
    const config = nluPolicyConfig([
      { name: 'RulePolicy', options: { core_fallback_action_name: 3, core_fallback_threshold: 'high' } },
      { name: 'MemoizationPolicy', options: { max_history: 'many' } },
    ]);
    expect(config).to.deep.equal({
      maxHistory: 5,
      fallbackAction: 'action_default_fallback',
      fallbackThreshold: 0.3,
      fallbackPrediction: true,
    });
    expect(
      nluPolicyConfig([{ name: 'MemoizationPolicy', options: { max_history: 2.7 } }]).maxHistory,
    ).to.equal(2);
  });
});
