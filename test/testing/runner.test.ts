import { expect } from 'chai';
import { parseOracle, resolveStubs, runE2E, selectTestCases } from '../../src/testing/index.js';
import { bot, only, run, ScriptedDriverFactory, testFile, yaml } from './helpers.js';

const STUBBED = yaml`
  stub_custom_actions:
    check_balance:
      events: [{event: slot, name: balance, value: 100}]
    premium_user::check_balance:
      events: [{event: slot, name: balance, value: 9000}]
    other_case::check_balance:
      events: []
    list_payees:
      responses: [{text: Amy}]
  test_cases:
    - test_case: premium user
      steps:
        - user: hi
    - test_case: basic user
      steps:
        - user: hi
`;

describe('running e2e test cases', () => {
  it('gives a test case its own stubs first, then the file-wide ones', async () => {
    const file = testFile(STUBBED);
    const [premium, basic] = file.testCases;
    expect(Object.fromEntries(resolveStubs(file, premium!))).to.deep.equal({
      check_balance: { events: [{ event: 'slot', name: 'balance', value: 9000 }], responses: [] },
      list_payees: { events: [], responses: [{ text: 'Amy' }] },
    });
    expect(resolveStubs(file, basic!).get('check_balance')?.events).to.deep.equal([
      { event: 'slot', name: 'balance', value: 100 },
    ]);
    const { factory } = await run(STUBBED, {});
    expect(
      factory.drivers.map((driver) => driver.options.stubs.get('check_balance')?.events[0]),
    ).to.deep.equal([
      { event: 'slot', name: 'balance', value: 9000 },
      { event: 'slot', name: 'balance', value: 100 },
    ]);
  });

  it('sets the fixture slots, then the oracle fixtures, after the session start and before the first message', async () => {
    const text = yaml`
      fixtures:
        - speed_slow:
            - network_speed_override: 50
            - tier: basic
      test_cases:
        - test_case: slow
          fixtures: [speed_slow]
          steps:
            - user: my internet is slow
              assertions:
                - slot_was_set: [{name: network_speed_override, value: 50}]
    `;
    const oracle = parseOracle(yaml`
      tests:
      - file: tests/cases.yml
        test_case: slow
        fixtures_needed: {tier: premium}
        turns:
        - user: my internet is slow
          commands: [{command: start flow, flow: fix_internet}]
    `);
    const { results, factory } = await run(text, {}, { oracle });
    expect(only(results).passed).to.equal(true);
    const [driver] = factory.drivers;
    expect(driver?.slotsSet).to.deep.equal([{ network_speed_override: 50, tier: 'premium' }]);
    expect(driver?.transcript().map((event) => event.event)).to.deep.equal([
      'action',
      'session_started',
      'action',
      'slot',
      'slot',
      'user',
      'action',
    ]);
    expect(driver?.closed).to.equal(true);
  });

  it('fails a test case that names an undefined fixture or metadata', async () => {
    const text = yaml`
      test_cases:
        - test_case: no fixture
          fixtures: [missing]
          steps:
            - user: hi
        - test_case: no metadata
          steps:
            - user: hi
              metadata: nowhere
    `;
    const { results } = await run(text, {});
    expect(results.map((result) => result.failure)).to.deep.equal([
      {
        kind: 'error',
        line: 2,
        message: "Fixture 'missing' is not defined in any test file.",
        transcript: [],
      },
      {
        kind: 'error',
        line: 8,
        message: "Metadata 'nowhere' is not defined in any test file.",
        transcript: [
          'ActionExecuted(action: action_session_start)',
          'SessionStarted()',
          'ActionExecuted(action: action_listen)',
        ],
      },
    ]);
  });

  it('sends the test case metadata merged with the step metadata (the step wins)', async () => {
    const text = yaml`
      metadata:
        - device: {os: linux, lang: en}
        - german: {lang: de}
      test_cases:
        - test_case: metadata
          metadata: device
          steps:
            - user: hallo
              metadata: german
            - user: hello
    `;
    const { factory } = await run(text, {});
    expect(factory.drivers[0]?.messages).to.deep.equal([
      { text: 'hallo', metadata: { os: 'linux', lang: 'de' } },
      { text: 'hello', metadata: { os: 'linux', lang: 'en' } },
    ]);
  });

  it('sends oracle commands with each message, and payload turns as plain text', async () => {
    const text = yaml`
      test_cases:
        - test_case: transfer
          steps:
            - user: send 55 to Amy
            - user: /SetSlots(timing=now)
            - user: not in the oracle
    `;
    const oracle = parseOracle(yaml`
      tests:
      - file: tests/cases.yml
        test_case: transfer
        turns:
        - user: send 55 to Amy
          commands:
          - {command: start flow, flow: transfer_money}
          - {command: set slot, name: amount, value: 55}
        - user: /SetSlots(timing=now)
          commands: payload
    `);
    const { factory } = await run(text, {}, { oracle });
    expect(factory.drivers[0]?.messages).to.deep.equal([
      {
        text: 'send 55 to Amy',
        commands: [
          { command: 'start flow', flow: 'transfer_money' },
          { command: 'set slot', name: 'amount', value: 55 },
        ],
      },
      { text: '/SetSlots(timing=now)' },
      { text: 'not in the oracle' },
    ]);
  });

  it('stops with an error when the oracle turn does not match the test step', async () => {
    const text = yaml`
      test_cases:
        - test_case: drift
          steps:
            - user: hello
    `;
    const oracle = parseOracle(
      'tests:\n- file: tests/cases.yml\n  test_case: drift\n  turns:\n  - user: hi\n',
    );
    const { results, factory } = await run(text, {}, { oracle });
    expect(only(results).failure).to.deep.include({
      kind: 'error',
      line: 4,
      message: "The command oracle's user turn 1 is 'hi', but the test says 'hello'.",
    });
    expect(factory.drivers[0]?.messages).to.deep.equal([]);
  });

  it('reports an engine error at the user step and still reports earlier mismatches first', async () => {
    const text = yaml`
      test_cases:
        - test_case: crash
          steps:
            - user: hi
            - utter: utter_greet
            - user: boom
            - utter: utter_after
    `;
    const crashed = await run(text, { replies: { hi: [bot('Hello', 'utter_greet')] }, failOn: 'boom' });
    expect(only(crashed.results).failure).to.deep.include({
      kind: 'error',
      line: 6,
      message: "The assistant failed to handle the message 'boom': engine exploded",
    });
    const earlier = await run(text, { failOn: 'boom' });
    expect(only(earlier.results).failure).to.deep.include({ kind: 'steps', line: 5 });
  });

  it('selects test cases by path::name, by folder, or by name alone', () => {
    const a = testFile(
      'test_cases:\n- test_case: one\n  steps: [{user: hi}]\n- test_case: two\n  steps: [{user: hi}]\n',
      'p/tests/a.yml',
    );
    const b = testFile('test_cases:\n- test_case: one\n  steps: [{user: hi}]\n', 'p/tests/sub/b.yml');
    const names = (filter?: string): string[] =>
      selectTestCases([a, b], filter, 'p').map(({ file, testCase }) => `${file.path}::${testCase.name}`);
    expect(names()).to.have.length(3);
    expect(names('p/tests/a.yml::two')).to.deep.equal(['p/tests/a.yml::two']);
    expect(names('tests/a.yml::two')).to.deep.equal(['p/tests/a.yml::two']);
    expect(names('tests/sub')).to.deep.equal(['p/tests/sub/b.yml::one']);
    expect(names('::one')).to.deep.equal(['p/tests/a.yml::one', 'p/tests/sub/b.yml::one']);
    expect(names('tests/a')).to.deep.equal([]);
  });

  it('runs each test case in a fresh conversation and stops after the first failure with failFast', async () => {
    const file = testFile(yaml`
      test_cases:
        - test_case: first case
          steps: [{user: hi}, {utter: utter_missing}]
        - test_case: second case
          steps: [{user: hi}]
    `);
    const factory = new ScriptedDriverFactory({});
    const all = await runE2E({ files: [file], driverFactory: factory, projectRoot: 'project' });
    expect(all.map((result) => result.passed)).to.deep.equal([false, true]);
    expect(factory.drivers.map((driver) => driver.options.conversationId)).to.deep.equal([
      'first_case_1',
      'second_case_2',
    ]);
    const seen: string[] = [];
    const fast = await runE2E({
      files: [file],
      driverFactory: new ScriptedDriverFactory({}),
      projectRoot: 'project',
      failFast: true,
      onResult: (result) => seen.push(result.testCase.name),
    });
    expect(fast).to.have.length(1);
    expect(seen).to.deep.equal(['first case']);
  });
});
