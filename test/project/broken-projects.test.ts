import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostic-codes.js';
import type { DiagnosticCode } from '../../src/core/diagnostic-codes.js';
import type { Diagnostic } from '../../src/core/errors.js';
import type { ProjectLocation } from '../../src/project/load/discover.js';
import { validateProject } from '../../src/project/validate/index.js';

/*
 * Each fixture under test/fixtures/broken/ is a small, otherwise valid project with one deliberate
 * mistake. The expected positions were worked out from the fixture files: a diagnostic about a whole
 * flow, step, slot, response variation or button points at its first line (the flow id key, the step's
 * first key after `- `, ...); a diagnostic about one key or value (schema problems, conditions,
 * `next` branches, NLU examples, YAML errors) points at that key or value.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BROKEN = join(ROOT, 'test/fixtures/broken');
const VALID = join(ROOT, 'test/fixtures/valid-minimal');

interface Expected {
  readonly code: DiagnosticCode;
  /** relative to the fixture folder */
  readonly file: string;
  readonly line: number;
  readonly column?: number;
  readonly flowId?: string;
  readonly stepId?: string;
}

interface Case {
  readonly fixture: string;
  /** a title when one fixture is used by more than one case */
  readonly title?: string;
  /** command-line style paths, relative to the fixture folder */
  readonly flags?: Pick<ProjectLocation, 'domain' | 'endpoints' | 'config'>;
  readonly expected: readonly Expected[];
}

const FLOWS = 'data/flows.yml';

const CASES: readonly Case[] = [
  // --- files and YAML ----------------------------------------------------------------------------
  // `     - action:` is indented one space less than the step above it: one error, not three echoes.
  { fixture: 'yaml-syntax', expected: [{ code: 'YAML_SYNTAX', file: FLOWS, line: 6 }] },
  // the second `description:` of the flow
  {
    fixture: 'yaml-duplicate-key',
    expected: [{ code: 'YAML_DUPLICATE_KEY', file: FLOWS, line: 7, column: 5 }],
  },
  // the plain scalar `${PARLEY_TEST_UNSET_VAR}/webhook` after `  url: `
  {
    fixture: 'env-var-unset',
    expected: [{ code: 'ENV_VAR_UNSET', file: 'endpoints.yml', line: 2, column: 8 }],
  },
  // `-p` finds the project, but `--domain` names a file that is not there
  {
    fixture: 'path-not-found',
    title: 'path-not-found (--domain)',
    flags: { domain: 'domain/main.yml' },
    expected: [{ code: 'PATH_NOT_FOUND', file: 'domain/main.yml', line: 1, column: 1 }],
  },
  {
    fixture: 'path-not-found',
    title: 'path-not-found (--endpoints)',
    flags: { endpoints: 'endpoints.prod.yml' },
    expected: [{ code: 'PATH_NOT_FOUND', file: 'endpoints.prod.yml', line: 1, column: 1 }],
  },
  {
    fixture: 'path-not-found',
    title: 'path-not-found (--config)',
    flags: { config: 'config.prod.yml' },
    expected: [{ code: 'PATH_NOT_FOUND', file: 'config.prod.yml', line: 1, column: 1 }],
  },
  {
    fixture: 'domain-missing',
    expected: [{ code: 'DOMAIN_MISSING', file: 'domain.yml', line: 1, column: 1 }],
  },

  // --- schemas: unknown keys point at the key, wrong types at the key that holds the value ---------
  // slot `type: string` (Rasa's type is `text`)
  { fixture: 'domain-schema', expected: [{ code: 'DOMAIN_SCHEMA', file: 'domain.yml', line: 5, column: 5 }] },
  // `ask_before_filing:` (sic) on the collect step
  {
    fixture: 'flows-schema',
    expected: [{ code: 'FLOWS_SCHEMA', file: FLOWS, line: 6, column: 9, flowId: 'greet' }],
  },
  // action_endpoint.url is a list
  {
    fixture: 'endpoints-schema',
    expected: [{ code: 'ENDPOINTS_SCHEMA', file: 'endpoints.yml', line: 2, column: 3 }],
  },
  // `socketio:` holds a list instead of a map
  {
    fixture: 'credentials-schema',
    expected: [{ code: 'CREDENTIALS_SCHEMA', file: 'credentials.yml', line: 2, column: 1 }],
  },
  // `- FlowPolicy` instead of `- name: FlowPolicy`
  { fixture: 'config-schema', expected: [{ code: 'CONFIG_SCHEMA', file: 'config.yml', line: 5, column: 5 }] },
  // `exampels:` (sic)
  { fixture: 'nlu-schema', expected: [{ code: 'NLU_SCHEMA', file: 'data/nlu.yml', line: 4, column: 5 }] },

  // --- flows -------------------------------------------------------------------------------------
  // `greet` is defined in data/flows.yml and again in data/more-flows.yml (read second)
  {
    fixture: 'flow-duplicate-id',
    expected: [
      { code: 'FLOW_DUPLICATE_ID', file: 'data/more-flows.yml', line: 2, column: 3, flowId: 'greet' },
    ],
  },
  {
    fixture: 'flow-invalid-id',
    expected: [{ code: 'FLOW_INVALID_ID', file: FLOWS, line: 2, column: 3, flowId: 'greet user' }],
  },
  // `steps: []`, at the `steps` key
  {
    fixture: 'flow-empty',
    expected: [{ code: 'FLOW_EMPTY', file: FLOWS, line: 9, column: 5, flowId: 'say_hello' }],
  },
  // `then: []`, at the `then` key
  {
    fixture: 'step-empty-sequence',
    expected: [{ code: 'STEP_EMPTY_SEQUENCE', file: FLOWS, line: 8, column: 13, flowId: 'greet' }],
  },
  {
    fixture: 'flow-missing-description',
    expected: [{ code: 'FLOW_MISSING_DESCRIPTION', file: FLOWS, line: 2, column: 3, flowId: 'greet' }],
  },
  // "greet the user, by name" vs "Greet the user by name."
  {
    fixture: 'flow-duplicate-description',
    expected: [{ code: 'FLOW_DUPLICATE_DESCRIPTION', file: FLOWS, line: 7, column: 3, flowId: 'say_hello' }],
  },
  {
    fixture: 'flow-duplicate-name',
    expected: [{ code: 'FLOW_DUPLICATE_NAME', file: FLOWS, line: 8, column: 3, flowId: 'say_hello' }],
  },
  {
    fixture: 'nlu-trigger-duplicate-intent',
    expected: [
      { code: 'NLU_TRIGGER_DUPLICATE_INTENT', file: FLOWS, line: 9, column: 3, flowId: 'say_hello' },
    ],
  },
  {
    fixture: 'persisted-slot-not-in-flow',
    expected: [
      { code: 'PERSISTED_SLOT_NOT_IN_FLOW', file: FLOWS, line: 7, column: 3, flowId: 'say_goodbye' },
    ],
  },

  // --- steps -------------------------------------------------------------------------------------
  {
    fixture: 'step-duplicate-id',
    expected: [
      { code: 'STEP_DUPLICATE_ID', file: FLOWS, line: 7, column: 9, flowId: 'greet', stepId: 'ask_name' },
    ],
  },
  {
    fixture: 'step-reserved-id',
    expected: [{ code: 'STEP_RESERVED_ID', file: FLOWS, line: 6, column: 9, flowId: 'greet', stepId: 'END' }],
  },
  // the action nested under `then:` is the last of its branch and has no `next`
  {
    fixture: 'step-missing-next',
    expected: [
      {
        code: 'STEP_MISSING_NEXT',
        file: FLOWS,
        line: 9,
        column: 17,
        flowId: 'greet',
        stepId: 'greet_1_utter_greet',
      },
    ],
  },
  {
    fixture: 'step-unknown-next',
    expected: [
      {
        code: 'STEP_UNKNOWN_NEXT',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_utter_greet',
      },
    ],
  },
  // the collect step ends the flow with `next: END`, so the action after it never runs
  {
    fixture: 'step-unreachable',
    expected: [
      {
        code: 'STEP_UNREACHABLE',
        file: FLOWS,
        line: 7,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_utter_greet',
      },
    ],
  },
  // at the `next:` key that holds the branch list
  {
    fixture: 'branch-missing-else',
    expected: [
      {
        code: 'BRANCH_MISSING_ELSE',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_0_collect_name',
      },
    ],
  },
  // at the first branch after the `else`
  {
    fixture: 'branch-else-not-last',
    expected: [
      {
        code: 'BRANCH_ELSE_NOT_LAST',
        file: FLOWS,
        line: 8,
        column: 13,
        flowId: 'greet',
        stepId: 'greet_0_collect_name',
      },
    ],
  },
  {
    fixture: 'link-not-last',
    expected: [
      {
        code: 'LINK_NOT_LAST',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_link_say_goodbye',
      },
    ],
  },
  {
    fixture: 'link-unknown-flow',
    expected: [
      {
        code: 'LINK_UNKNOWN_FLOW',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_link_say_goodby',
      },
    ],
  },
  {
    fixture: 'link-to-pattern',
    expected: [
      {
        code: 'LINK_TO_PATTERN',
        file: FLOWS,
        line: 7,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_2_link_pattern_completed',
      },
    ],
  },
  {
    fixture: 'call-unknown-flow',
    expected: [
      {
        code: 'CALL_UNKNOWN_FLOW',
        file: FLOWS,
        line: 5,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_0_call_ask_for_name',
      },
    ],
  },
  {
    fixture: 'call-to-pattern',
    expected: [
      {
        code: 'CALL_TO_PATTERN',
        file: FLOWS,
        line: 7,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_2_call_pattern_chitchat',
      },
    ],
  },
  // the link step inside ask_for_name, which greet calls
  {
    fixture: 'called-flow-has-link',
    expected: [
      {
        code: 'CALLED_FLOW_HAS_LINK',
        file: FLOWS,
        line: 11,
        column: 9,
        flowId: 'ask_for_name',
        stepId: 'ask_for_name_1_link_say_goodbye',
      },
    ],
  },
  {
    fixture: 'collect-unknown-slot',
    expected: [
      {
        code: 'COLLECT_UNKNOWN_SLOT',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_collect_email',
      },
    ],
  },
  {
    fixture: 'collect-list-slot',
    expected: [
      {
        code: 'COLLECT_LIST_SLOT',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_collect_nicknames',
      },
    ],
  },
  {
    fixture: 'collect-no-question',
    expected: [
      {
        code: 'COLLECT_NO_QUESTION',
        file: FLOWS,
        line: 5,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_0_collect_name',
      },
    ],
  },
  {
    fixture: 'collect-two-questions',
    expected: [
      {
        code: 'COLLECT_TWO_QUESTIONS',
        file: FLOWS,
        line: 5,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_0_collect_name',
      },
      // the declared action_ask_name has no implementation (no actions/ folder, no action server)
      { code: 'CUSTOM_ACTIONS_NOT_IMPLEMENTED', file: 'domain.yml', line: 7, column: 1 },
    ],
  },
  {
    fixture: 'set-slots-unknown-slot',
    expected: [
      {
        code: 'SET_SLOTS_UNKNOWN_SLOT',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_set_slots',
      },
    ],
  },
  {
    fixture: 'action-unknown',
    expected: [
      {
        code: 'ACTION_UNKNOWN',
        file: FLOWS,
        line: 6,
        column: 9,
        flowId: 'greet',
        stepId: 'greet_1_utter_greeting',
      },
    ],
  },
  // at the rejection (its `if:` key)
  {
    fixture: 'rejection-unknown-response',
    expected: [
      {
        code: 'REJECTION_UNKNOWN_RESPONSE',
        file: FLOWS,
        line: 7,
        column: 13,
        flowId: 'greet',
        stepId: 'greet_0_collect_name',
      },
    ],
  },

  // --- conditions: all at the `if:` of the first branch ------------------------------------------
  ...(
    [
      ['condition-syntax', 'CONDITION_SYNTAX'],
      ['condition-namespace', 'CONDITION_NAMESPACE'],
      ['condition-unknown-slot', 'CONDITION_UNKNOWN_SLOT'],
      ['condition-bool-value', 'CONDITION_BOOL_VALUE'],
      ['condition-categorical-value', 'CONDITION_CATEGORICAL_VALUE'],
    ] as const
  ).map(([fixture, code]) => ({
    fixture,
    expected: [{ code, file: FLOWS, line: 7, column: 13, flowId: 'greet', stepId: 'greet_0_collect_name' }],
  })),

  // --- domain ------------------------------------------------------------------------------------
  {
    fixture: 'slot-reserved-name',
    expected: [{ code: 'SLOT_RESERVED_NAME', file: 'domain.yml', line: 6, column: 3 }],
  },
  {
    fixture: 'slot-categorical-no-values',
    expected: [{ code: 'SLOT_CATEGORICAL_NO_VALUES', file: 'domain.yml', line: 6, column: 3 }],
  },
  // buttons are reported at the button (its `title:` key)
  {
    fixture: 'button-payload-invalid',
    expected: [{ code: 'BUTTON_PAYLOAD_INVALID', file: 'domain.yml', line: 11, column: 11 }],
  },
  {
    fixture: 'button-unknown-slot',
    expected: [{ code: 'BUTTON_UNKNOWN_SLOT', file: 'domain.yml', line: 11, column: 11 }],
  },
  {
    fixture: 'button-payload-too-many-slots',
    expected: [{ code: 'BUTTON_PAYLOAD_TOO_MANY_SLOTS', file: 'domain.yml', line: 20, column: 11 }],
  },
  // `- text: ""` passes the schema (it has a text) but sends nothing
  {
    fixture: 'response-empty',
    expected: [{ code: 'RESPONSE_EMPTY', file: 'domain.yml', line: 12, column: 7 }],
  },

  // --- NLU data and config -----------------------------------------------------------------------
  // the second `- hello`, under goodbye, at the example's text
  {
    fixture: 'nlu-conflicting-example',
    expected: [{ code: 'NLU_CONFLICTING_EXAMPLE', file: 'data/nlu.yml', line: 10, column: 9 }],
  },
  {
    fixture: 'config-assistant-id-missing',
    expected: [{ code: 'CONFIG_ASSISTANT_ID_MISSING', file: 'config.yml', line: 1, column: 1 }],
  },
  {
    fixture: 'config-assistant-id-placeholder',
    expected: [{ code: 'CONFIG_ASSISTANT_ID_MISSING', file: 'config.yml', line: 3, column: 1 }],
  },

  // --- several files at once ---------------------------------------------------------------------
  {
    fixture: 'five-errors',
    expected: [
      { code: 'CONFIG_SCHEMA', file: 'config.yml', line: 5, column: 5 },
      { code: 'SLOT_CATEGORICAL_NO_VALUES', file: 'domain.yml', line: 10, column: 3 },
      { code: 'ACTION_UNKNOWN', file: FLOWS, line: 6, column: 9, flowId: 'greet' },
      { code: 'NLU_CONFLICTING_EXAMPLE', file: 'data/nlu.yml', line: 10, column: 9 },
      { code: 'ENDPOINTS_SCHEMA', file: 'endpoints.yml', line: 2, column: 3 },
    ],
  },
];

/** Validation with an empty environment, so that no variable of the machine running the tests leaks in. */
function validateFixture(fixture: string, flags: Case['flags'] = {}) {
  const dir = join(BROKEN, fixture);
  const location: ProjectLocation = {
    project: dir,
    ...Object.fromEntries(Object.entries(flags).map(([key, path]) => [key, join(dir, path)])),
  };
  return { dir, result: validateProject(location, { env: {} }) };
}

const key = (code: string, file: string, line: number): string => `${code} ${file}:${line}`;

function expectDiagnostics(dir: string, diagnostics: readonly Diagnostic[], expected: readonly Expected[]) {
  const actual = diagnostics.map((item) => ({ ...item, file: relative(dir, item.file) }));
  const shown = actual.map((item) => `${item.code} ${item.file}:${item.line}:${item.column} ${item.message}`);
  expect(
    actual.map((item) => key(item.code, item.file, item.line)).sort(),
    `reported:\n  ${shown.join('\n  ')}`,
  ).to.deep.equal(expected.map((item) => key(item.code, item.file, item.line)).sort());
  for (const want of expected) {
    const got = actual.find(
      (item) => key(item.code, item.file, item.line) === key(want.code, want.file, want.line),
    );
    const label = key(want.code, want.file, want.line);
    if (want.column !== undefined) expect(got?.column, `column of ${label}`).to.equal(want.column);
    if (want.flowId !== undefined) expect(got?.flowId, `flowId of ${label}`).to.equal(want.flowId);
    if (want.stepId !== undefined) expect(got?.stepId, `stepId of ${label}`).to.equal(want.stepId);
  }
}

describe('broken projects', () => {
  for (const { fixture, title, flags, expected } of CASES) {
    it(`${title ?? fixture}: reports exactly ${[...new Set(expected.map((item) => item.code))].join(', ')}`, () => {
      const { dir, result } = validateFixture(fixture, flags);
      expectDiagnostics(dir, result.diagnostics, expected);
      const hasError = expected.some((item) => DIAGNOSTIC_CODES[item.code].severity === 'error');
      expect(result.hasErrors).to.equal(hasError);
    });
  }

  it('covers every fixture folder with at least one case', () => {
    const folders = readdirSync(BROKEN).sort();
    expect([...new Set(CASES.map((item) => item.fixture))].sort()).to.deep.equal(folders);
  });

  it('does not interpolate a quoted "${...}" in a domain response', () => {
    const { result } = validateFixture('env-var-unset');
    const price = result.project.assistant.domain.responses.get('utter_price');
    expect(price?.variations[0]?.text).to.equal('The fee is ${amount}.');
    expect(result.diagnostics.filter((item) => item.file.endsWith('domain.yml'))).to.deep.equal([]);
  });

  it('accepts the valid fixture the broken ones are made from', () => {
    const result = validateProject({ project: VALID }, { env: {} });
    expect(result.diagnostics).to.deep.equal([]);
    expect(result.hasErrors).to.equal(false);
  });
});

describe('parley data validate (the real CLI on the fixtures)', () => {
  before(() => {
    expect(
      existsSync(join(ROOT, 'dist/cli/main.js')),
      'dist/ is missing: run `npm run build` first',
    ).to.equal(true);
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/parley.js', 'data', 'validate', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
  const FIVE = 'test/fixtures/broken/five-errors';
  const fiveErrors = CASES.find((item) => item.fixture === 'five-errors')?.expected ?? [];

  it('exits 1 and lists all five errors of five-errors as JSON', () => {
    const run = cli('-p', FIVE, '--format', 'json');
    expect(run.status, run.stderr).to.equal(1);
    const output = JSON.parse(run.stdout) as { errors: number; warnings: number; diagnostics: Diagnostic[] };
    expect(output.errors).to.equal(5);
    expect(output.warnings).to.equal(0);
    expect(output.diagnostics.map((item) => item.code).sort()).to.deep.equal([
      'ACTION_UNKNOWN',
      'CONFIG_SCHEMA',
      'ENDPOINTS_SCHEMA',
      'NLU_CONFLICTING_EXAMPLE',
      'SLOT_CATEGORICAL_NO_VALUES',
    ]);
    expect(
      output.diagnostics.map((item) => key(item.code, relative(FIVE, item.file), item.line)).sort(),
    ).to.deep.equal(fiveErrors.map((item) => key(item.code, item.file, item.line)).sort());
  });

  it('exits 0 on a valid project', () => {
    const run = cli('-p', 'test/fixtures/valid-minimal', '--format', 'json');
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal({ errors: 0, warnings: 0, info: 0, diagnostics: [] });
  });

  it('prints `file:line:col error CODE message` lines in the text format', () => {
    const run = cli('-p', FIVE);
    expect(run.status, run.stderr).to.equal(1);
    const lines = run.stdout.split('\n').filter((line) => !line.startsWith(' ') && line.includes(' error '));
    expect(lines).to.have.length(5);
    for (const line of lines) expect(line).to.match(/^\S+\.yml:\d+:\d+ error [A-Z][A-Z_]+ \S/);
    for (const { code, file, line, column } of fiveErrors) {
      const prefix = `${FIVE}/${file}:${line}:${column} error ${code} `;
      expect(
        lines.some((text) => text.startsWith(prefix)),
        prefix,
      ).to.equal(true);
    }
    expect(run.stdout.trimEnd().split('\n').at(-1)).to.equal('5 errors, 0 warnings');
  });
});
