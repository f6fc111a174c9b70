import { expect } from 'chai';
import { parseOracle, usesAssertions } from '../../src/testing/index.js';
import { testFile, yaml } from './helpers.js';

describe('parsing e2e test files', () => {
  it('keeps the line of every test case, step and slot, and reads Yes as text (YAML 1.2)', () => {
    const file = testFile(yaml`
      test_cases:
        - test_case: transfer
          steps:
            - user: " I want to transfer money "
            - utter: utter_ask_amount
            - bot: Which account?
            - user: Yes
            - slot_was_set:
                - amount: 55
                - payee
            - slot_was_not_set:
                - confirmed
    `);
    expect(file.problems).to.deep.equal([]);
    const [testCase] = file.testCases;
    expect(testCase?.name).to.equal('transfer');
    expect(testCase?.line).to.equal(2);
    expect(testCase?.steps.map((step) => [step.kind, step.line])).to.deep.equal([
      ['user', 4],
      ['utter', 5],
      ['bot', 6],
      ['user', 7],
      ['slot_was_set', 8],
      ['slot_was_not_set', 11],
    ]);
    expect(testCase?.steps[0]).to.deep.include({ kind: 'user', text: 'I want to transfer money' });
    expect(testCase?.steps[3]).to.deep.include({ kind: 'user', text: 'Yes' });
    expect(testCase?.steps[4]).to.deep.include({
      slots: [
        { name: 'amount', line: 9, hasValue: true, value: 55 },
        { name: 'payee', line: 10, hasValue: false },
      ],
    });
    expect(usesAssertions(testCase!)).to.equal(false);
  });

  it('reads fixtures, metadata and stubs of custom actions', () => {
    const file = testFile(yaml`
      fixtures:
        - premium:
            - tier: gold
            - verified: true
      metadata:
        - device: {os: linux}
      stub_custom_actions:
        check_balance:
          events: [{event: slot, name: balance, value: 1200}]
          responses: [{text: "Your balance is 1200"}]
        premium user::check_balance:
          responses: []
      test_cases:
        - test_case: premium user
          fixtures: [premium]
          metadata: device
          steps:
            - user: hi
              metadata: device
    `);
    expect(file.problems).to.deep.equal([]);
    expect(file.fixtures.get('premium')).to.deep.equal({ tier: 'gold', verified: true });
    expect(file.metadata.get('device')).to.deep.equal({ os: 'linux' });
    expect(file.stubCustomActions.get('check_balance')).to.deep.equal({
      events: [{ event: 'slot', name: 'balance', value: 1200 }],
      responses: [{ text: 'Your balance is 1200' }],
    });
    expect(file.stubCustomActions.get('premium user::check_balance')).to.deep.equal({
      events: [],
      responses: [],
    });
    expect(file.testCases[0]).to.deep.include({ fixtures: ['premium'], metadata: 'device' });
    expect(file.testCases[0]?.steps[0]).to.deep.include({ metadata: 'device' });
  });

  it('reads every assertion kind with its line', () => {
    const file = testFile(yaml`
      test_cases:
        - test_case: all assertions
          steps:
            - user: hello
              assertion_order_enabled: true
              assertions:
                - flow_started: transfer_money
                - flow_started: {operator: any, flow_ids: [a, b]}
                - flow_completed: {flow_id: a, flow_step_id: END}
                - flow_cancelled: {flow_id: b}
                - pattern_clarification_contains: [add a payee, list payees]
                - action_executed: action_check
                - slot_was_set:
                    - name: amount
                      value: 55
                    - name: payee
                - slot_was_not_set: [{name: foo}]
                - bot_uttered: {utter_name: utter_x, text_matches: "^Hi", buttons: [{title: Yes, payload: /yes}]}
                - bot_did_not_utter: {utter_name: utter_y}
                - generative_response_is_grounded: {threshold: 0.9, ground_truth: facts}
    `);
    expect(file.problems).to.deep.equal([]);
    const step = file.testCases[0]?.steps[0];
    if (step?.kind !== 'user') throw new Error('expected a user step');
    expect(step.assertionOrderEnabled).to.equal(true);
    expect(step.assertions?.map((assertion) => [assertion.type, assertion.line])).to.deep.equal([
      ['flow_started', 7],
      ['flow_started', 8],
      ['flow_completed', 9],
      ['flow_cancelled', 10],
      ['pattern_clarification_contains', 11],
      ['action_executed', 12],
      ['slot_was_set', 13],
      ['slot_was_not_set', 17],
      ['bot_uttered', 18],
      ['bot_did_not_utter', 19],
      ['generative_response_is_grounded', 20],
    ]);
    expect(step.assertions?.[0]).to.deep.include({ flowId: 'transfer_money', flowIds: [] });
    expect(step.assertions?.[1]).to.deep.include({ operator: 'any', flowIds: ['a', 'b'] });
    expect(step.assertions?.[2]).to.deep.include({ flowId: 'a', flowStepId: 'END' });
    expect(step.assertions?.[4]).to.deep.include({ flowNames: ['add a payee', 'list payees'] });
    expect(step.assertions?.[6]).to.deep.include({
      slots: [
        { name: 'amount', line: 14, hasValue: true, value: 55 },
        { name: 'payee', line: 16, hasValue: false },
      ],
    });
    expect(step.assertions?.[8]).to.deep.include({
      utterName: 'utter_x',
      textMatches: '^Hi',
      buttons: [{ title: 'Yes', payload: '/yes' }],
    });
    expect(step.assertions?.[10]).to.deep.include({ threshold: 0.9, groundTruth: 'facts' });
    expect(usesAssertions(file.testCases[0]!)).to.equal(true);
  });

  it('reports what it cannot read with its line and leaves the broken test case out', () => {
    const file = testFile(yaml`
      test_cases:
        - test_case: fine
          steps:
            - user: hi
        - test_case: broken
          steps:
            - user: hi
              assertions:
                - flow_started: a
                  action_executed: b
        - test_case: empty bot_uttered
          steps:
            - user: hi
              assertions:
                - bot_uttered: {}
        - steps: []
    `);
    expect(file.testCases.map((testCase) => testCase.name)).to.deep.equal(['fine']);
    expect(file.problems).to.deep.equal([
      { line: 9, message: 'An assertion is a one-key map, e.g. `- flow_started: transfer_money`.' },
      {
        line: 15,
        message:
          "The 'bot_uttered' assertion is empty: give at least one of utter_name, text_matches, buttons.",
      },
      { line: 16, message: 'A test case needs a `test_case` name.' },
    ]);
  });

  it('reports a YAML syntax error instead of throwing', () => {
    const file = testFile('test_cases:\n  - test_case: x\n    steps: [\n');
    expect(file.testCases).to.deep.equal([]);
    expect(file.problems).to.have.length.greaterThan(0);
  });
});

describe('parsing a command oracle', () => {
  it('maps (file, test case, user turn) to commands or a payload, with fixtures and determinism', () => {
    const oracle = parseOracle(yaml`
      project: demo
      tests:
      - file: ./tests/a.yml
        test_case: one
        deterministic_with_oracle: false
        fixtures_needed:
          username: Dan Young
        turns:
        - user: hello
          commands:
          - command: chitchat
        - user: /SetSlots(timing=now)
          commands: payload
    `);
    expect(oracle.project).to.equal('demo');
    expect(oracle.turn('tests/a.yml', 'one', 0)).to.deep.equal({
      user: 'hello',
      commands: [{ command: 'chitchat' }],
    });
    expect(oracle.turn('tests/a.yml', 'one', 1)).to.deep.equal({
      user: '/SetSlots(timing=now)',
      payload: true,
    });
    expect(oracle.turn('tests/a.yml', 'one', 2)).to.equal(undefined);
    expect(oracle.turn('tests/a.yml', 'two', 0)).to.equal(undefined);
    expect(oracle.fixturesNeeded('tests/a.yml', 'one')).to.deep.equal({ username: 'Dan Young' });
    expect(oracle.deterministicWithOracle('tests/a.yml', 'one')).to.equal(false);
  });

  it('rejects a malformed oracle with the line of the problem', () => {
    const text = 'tests:\n- file: a.yml\n  test_case: x\n  turns:\n  - user: hi\n    commands: [{flow: x}]\n';
    expect(() => parseOracle(text, 'o.yml'))
      .to.throw('o.yml:5: Each command needs a `command` name.')
      .with.property('code', 'PROJECT_INVALID');
  });
});
