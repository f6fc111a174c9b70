import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { createSchemaValidators, validateFile } from '../../src/project/schemas/index.js';
import type { FileKind, SchemaProblem } from '../../src/project/schemas/index.js';
import { corpusRoot, describeWithCorpus } from '../support/corpus.js';

const CORPUS = `${corpusRoot()}/`;
const PROJECTS = [
  'rasa-quickstart',
  'starterpack-insurance-en',
  'starterpack-retail-banking-en',
  'starterpack-telco-en',
];
const ROOT_FILES: Record<string, FileKind> = {
  'config.yml': 'config',
  'endpoints.yml': 'endpoints',
  'credentials.yml': 'credentials',
};

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry) ? [path] : [];
  });
}

function hasKey(data: unknown, key: string): boolean {
  return typeof data === 'object' && data !== null && key in data;
}

/** The kind a project file is checked as, following the project layout; undefined = not checked. */
function kindOf(rel: string, data: unknown): FileKind | undefined {
  if (rel in ROOT_FILES) return ROOT_FILES[rel];
  if (rel.startsWith('domain/')) return 'domain';
  if (rel.startsWith('data/') && hasKey(data, 'flows')) return 'flows';
  if (rel === 'tests/e2e_results_passed.yml') return undefined;
  if (/^(tests|e2e_tests)\//.test(rel) && hasKey(data, 'test_cases')) return 'e2e';
  return undefined;
}

/** Strips the common indentation of an inline YAML block. */
function yaml(strings: TemplateStringsArray): string {
  const lines = strings.join('').replace(/^\n/, '').split('\n');
  const indents = lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length);
  const indent = Math.min(...indents);
  return lines.map((line) => line.slice(indent)).join('\n');
}

function check(kind: FileKind, source: string): SchemaProblem[] {
  return validateFile(kind, parse(source));
}

function expectProblem(problems: SchemaProblem[], instancePath: string, fragment: string): SchemaProblem {
  const found = problems.find((problem) => problem.instancePath === instancePath);
  expect(found, `no problem at ${instancePath} in ${JSON.stringify(problems, null, 2)}`).to.not.equal(
    undefined,
  );
  expect(found?.message).to.contain(fragment);
  expect(found?.hint).to.be.a('string').and.not.equal('');
  return found as SchemaProblem;
}

function expectOnlyProblem(problems: SchemaProblem[], instancePath: string, fragment: string): SchemaProblem {
  expect(problems, JSON.stringify(problems, null, 2)).to.have.length(1);
  return expectProblem(problems, instancePath, fragment);
}

describe('project schemas', () => {
  it('compiles a validator for every file kind', () => {
    const validators = createSchemaValidators();
    const kinds: FileKind[] = [
      'domain',
      'flows',
      'nlu',
      'stories',
      'config',
      'endpoints',
      'credentials',
      'e2e',
    ];
    expect(Object.keys(validators).sort()).to.deep.equal([...kinds].sort());
    for (const kind of kinds) expect(validators[kind]).to.be.a('function');
  });

  describeWithCorpus('accept every file of the real projects in shared/corpus', () => {
    for (const project of PROJECTS) {
      const dir = join(CORPUS, project);
      const files = yamlFiles(dir).map((path) => {
        const data: unknown = parse(readFileSync(path, 'utf8'));
        const rel = relative(dir, path).split('\\').join('/');
        return { rel, data, kind: kindOf(rel, data) };
      });

      it(`finds domain, flows, e2e, config, endpoints and credentials files in ${project}`, () => {
        const kinds = new Set(files.map((file) => file.kind));
        for (const kind of ['domain', 'flows', 'e2e', 'config', 'endpoints', 'credentials'] as const) {
          expect(kinds.has(kind), `${project} has no ${kind} file`).to.equal(true);
        }
      });

      for (const { rel, data, kind } of files) {
        if (kind === undefined) continue;
        it(`${project}/${rel} is a valid ${kind} file`, () => {
          expect(validateFile(kind, data)).to.deep.equal([]);
        });
      }
    }
  });

  describe('flows files', () => {
    it('names an unknown step key at the key and suggests the right one', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          transfer_money:
            steps:
              - action: utter_hello
                nxt: END
        `,
      );
      const problem = expectOnlyProblem(
        problems,
        '/flows/transfer_money/steps/0/nxt',
        "unknown property 'nxt'",
      );
      expect(problem.message).to.contain('expected one of: action, id, description, metadata, next');
      expect(problem.hint).to.contain("'next'");
    });

    it('warns about keys Rasa ignores (a branch’s next, an nlu_trigger or rejection extra) without an error', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          replace_card:
            description: d
            nlu_trigger:
              - intent: {name: replace, confidence_threshold: 0.5, comment: x}
                note: y
            steps:
              - collect: lock_card
                rejections:
                  - if: slots.lock_card is null
                    utter: utter_try_again
                    because: z
                next:
                  - if: slots.lock_card
                    then: END
                  - else: END
                    next: END
        `,
      );
      expect(problems.map((problem) => [problem.code, problem.instancePath])).to.deep.equal([
        ['FLOWS_IGNORED_KEY', '/flows/replace_card/nlu_trigger/0/note'],
        ['FLOWS_IGNORED_KEY', '/flows/replace_card/nlu_trigger/0/intent/comment'],
        ['FLOWS_IGNORED_KEY', '/flows/replace_card/steps/0/rejections/0/because'],
        ['FLOWS_IGNORED_KEY', '/flows/replace_card/steps/0/next/1/next'],
      ]);
      for (const problem of problems) expect(problem.message).to.match(/it is ignored, as in Rasa$/);
    });

    it('accepts every key Rasa’s schema allows on a set_slots step, warning about the one no step reads', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          reset_plan:
            description: d
            run_pattern_completed: false
            persisted_slots: [plan]
            file_path: data/flows.yml
            metadata: {owner: x}
            steps:
              - id: reset
                description: forget the plan
                metadata: {line: 3}
                set_slots:
                  - plan: null
                reset_after_flow_ends: false
        `,
      );
      expect(problems.map((problem) => [problem.code, problem.instancePath])).to.deep.equal([
        ['FLOWS_IGNORED_KEY', '/flows/reset_plan/steps/0/reset_after_flow_ends'],
      ]);
      expect(problems[0]?.message).to.match(/it is ignored, as in Rasa$/);
      expect(problems[0]?.hint).to.contain('persisted_slots');
    });

    it('reports a step without a recognised step key once, at the step', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          transfer_money:
            steps:
              - colect: amount
                description: how much
        `,
      );
      const problem = expectOnlyProblem(
        problems,
        '/flows/transfer_money/steps/0',
        'a step needs exactly one of action, collect, set_slots, link, call, noop',
      );
      expect(problem.hint).to.contain("did you mean 'collect'");
    });

    it('reports a step with two kinds once, naming both keys', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          transfer_money:
            steps:
              - action: utter_hello
                collect: amount
        `,
      );
      const problem = expectOnlyProblem(problems, '/flows/transfer_money/steps/0', 'exactly one of');
      expect(problem.hint).to.contain("'action' and 'collect'");
    });

    it('requires steps on a flow but not a description', () => {
      const problems = check('flows', 'flows:\n  greet:\n    description: says hello\n');
      expectOnlyProblem(problems, '/flows/greet', "missing required property 'steps'");
      expect(check('flows', 'flows:\n  greet:\n    steps:\n      - action: utter_greet\n')).to.deep.equal([]);
    });

    it('rejects steps that are not a list', () => {
      const problems = check('flows', 'flows:\n  greet:\n    steps:\n      action: utter_greet\n');
      const problem = expectOnlyProblem(problems, '/flows/greet/steps', 'must be a list of steps');
      expect(problem.message).to.contain('found a map');
    });

    it('rejects a next that is neither a step id nor a list of branches', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          greet:
            steps:
              - action: utter_greet
                next:
                  if: slots.ok
                  then: END
        `,
      );
      expectOnlyProblem(problems, '/flows/greet/steps/0/next', 'must be a step id (or END) or a list of');
    });

    it('rejects a branch with an if but no then', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          greet:
            steps:
              - action: utter_greet
                next:
                  - if: slots.ok
                  - else: END
        `,
      );
      expectOnlyProblem(problems, '/flows/greet/steps/0/next/0', 'a branch is either {if:');
    });

    it('checks steps nested in branches', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          greet:
            steps:
              - action: utter_greet
                next:
                  - if: slots.ok
                    then:
                      - action: utter_ok
                        utter: utter_other
                        next: END
                  - else: END
        `,
      );
      expectOnlyProblem(problems, '/flows/greet/steps/0/next/0/then/0/utter', "unknown property 'utter'");
    });

    it('requires noop to be true and to have a next', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          branch:
            steps:
              - noop: false
                next: END
              - noop: true
        `,
      );
      expect(problems).to.have.length(2);
      expectProblem(problems, '/flows/branch/steps/0/noop', 'must be true');
      expectProblem(problems, '/flows/branch/steps/1', "missing required property 'next'");
    });

    it('leaves next on a link step to the loader, which reports it as LINK_NOT_LAST', () => {
      const problems = check(
        'flows',
        'flows:\n  bye:\n    steps:\n      - link: feedback\n        next: END\n',
      );
      expect(problems).to.deep.equal([]);
    });

    it('names an unknown flow key and a bad flow id', () => {
      const problems = check(
        'flows',
        'flows:\n  my flow:\n    descripton: x\n    steps:\n      - action: a\n',
      );
      expect(problems).to.have.length(2);
      expectProblem(problems, '/flows/my flow', 'a flow id may contain only');
      const unknown = expectProblem(problems, '/flows/my flow/descripton', "unknown property 'descripton'");
      expect(unknown.hint).to.contain("'description'");
    });

    it('checks nlu triggers, rejections and an unquoted version', () => {
      const problems = check(
        'flows',
        yaml`
        version: 3.1
        flows:
          greet:
            nlu_trigger:
              - intent: {confidence_threshold: 0.5}
            steps:
              - collect: name
                rejections:
                  - if: slots.name is null
        `,
      );
      expect(problems).to.have.length(3);
      expectProblem(problems, '/version', 'must be a string (found a number 3.1)');
      expectProblem(problems, '/flows/greet/nlu_trigger/0/intent', "missing required property 'name'");
      expectProblem(problems, '/flows/greet/steps/0/rejections/0', "missing required property 'utter'");
    });

    it('accepts YAML 1.2 values: boolean guards, Yes as text, null in set_slots, nested steps', () => {
      const problems = check(
        'flows',
        yaml`
        flows:
          confirm:
            if: False
            steps:
              - collect: confirmed
                next:
                  - if: slots.confirmed is "Yes"
                    then:
                      - set_slots:
                          - confirmed: null
                        next: END
                  - else: END
        `,
      );
      expect(problems).to.deep.equal([]);
    });
  });

  describe('domain files', () => {
    it('requires a slot type and checks it against the built-in names', () => {
      const problems = check('domain', 'slots:\n  name:\n    mappings: []\n  city:\n    type: Text\n');
      expect(problems).to.have.length(2);
      expectProblem(problems, '/slots/name', "missing required property 'type'");
      const type = expectProblem(
        problems,
        '/slots/city/type',
        'must be one of: text, bool, float, categorical',
      );
      expect(type.hint).to.contain("'text'");
    });

    it('requires categorical values to be a list', () => {
      const problems = check('domain', 'slots:\n  size:\n    type: categorical\n    values: small\n');
      expectOnlyProblem(problems, '/slots/size/values', 'must be a list');
    });

    it('requires a response to be a list of variations with text or custom', () => {
      const problems = check(
        'domain',
        yaml`
        responses:
          utter_greet:
            text: Hello
          utter_picture:
            - image: https://example.com/a.png
        `,
      );
      expect(problems).to.have.length(2);
      expectProblem(problems, '/responses/utter_greet', 'must be a list of variations');
      expectProblem(problems, '/responses/utter_picture/0', "a response variation needs 'text' or 'custom'");
    });

    it('checks slot mapping types', () => {
      const problems = check(
        'domain',
        'slots:\n  name:\n    type: text\n    mappings:\n      - type: from_llmm\n',
      );
      const problem = expectOnlyProblem(problems, '/slots/name/mappings/0/type', 'must be one of: from_llm');
      expect(problem.hint).to.contain("'from_llm'");
    });

    it('tolerates empty sections, known extra keys and numbers as text initial values', () => {
      const problems = check(
        'domain',
        yaml`
        version: "3.1"
        e2e_actions: []
        actions:
        slots:
          customer_id:
            type: text
            initial_value: 123
            shared_for_coexistence: true
            influence_conversation: false
            value_reset_delay: null
            validation:
              rejections: []
            mappings:
              - type: controlled
                run_action_every_turn: action_check
                coexistence_system: SHARED
              - type: from_llm
                allow_nlu_correction: true
        entities:
          - city: {roles: [from, to], groups: [a], influence_conversation: false}
        forms:
          booking_form:
            required_slots: [customer_id]
            ignored_intents: [chitchat]
        config:
          store_entities_as_slots: false
        session_config:
          session_expiration_time: 60
          carry_over_slots_to_new_session: true
        responses:
          utter_greet:
            - id: greet_1
              text: Hi
              button_type: vertical
              allow_interruptions: false
              metadata: {rephrase: true}
              translation: {de: {text: Hallo}}
              quick_replies: [{title: a, payload: b}]
              elements: [{title: e}]
              attachment: {type: image}
        `,
      );
      expect(problems).to.deep.equal([]);
    });

    it('warns about every key Rasa reads past, from the top level down to a response variation', () => {
      const problems = check(
        'domain',
        yaml`
        respones: {}
        intents:
          - greet: {use_entities: [], triggers: x}
        entities:
          - city: {rolse: [from]}
        actions:
          - action_x: {send_domain: true, timeout: 3}
        slots:
          plan:
            type: text
            mapping: []
            mappings:
              - type: from_entity
                entity: plan
                entitiy: plan
                conditions:
                  - active_flow: x
                    active_step: y
            validation:
              refill: utter_x
        forms:
          booking_form:
            required_slot: [plan]
        session_config:
          session_expiry: 5
        config:
          store_entities: true
        responses:
          utter_greet:
            - text: Hi
              channel_specific_extra: true
        `,
      );
      expect(problems.map((problem) => [problem.code, problem.instancePath])).to.have.deep.members([
        ['DOMAIN_IGNORED_KEY', '/respones'],
        ['DOMAIN_IGNORED_KEY', '/intents/0/greet/triggers'],
        ['DOMAIN_IGNORED_KEY', '/entities/0/city/rolse'],
        ['DOMAIN_IGNORED_KEY', '/actions/0/action_x/timeout'],
        ['DOMAIN_IGNORED_KEY', '/slots/plan/mapping'],
        ['DOMAIN_IGNORED_KEY', '/slots/plan/mappings/0/entitiy'],
        ['DOMAIN_IGNORED_KEY', '/slots/plan/mappings/0/conditions/0/active_step'],
        ['DOMAIN_IGNORED_KEY', '/slots/plan/validation/refill'],
        ['DOMAIN_IGNORED_KEY', '/forms/booking_form/required_slot'],
        ['DOMAIN_IGNORED_KEY', '/session_config/session_expiry'],
        ['DOMAIN_IGNORED_KEY', '/config/store_entities'],
        ['DOMAIN_IGNORED_KEY', '/responses/utter_greet/0/channel_specific_extra'],
      ]);
      const at = (path: string) => problems.find((problem) => problem.instancePath === path);
      expect(at('/respones')?.message).to.match(/; it is ignored, as in Rasa$/);
      expect(at('/respones')?.hint).to.equal("did you mean 'responses'?");
      expect(at('/slots/plan/mapping')?.message).to.contain("Rasa's slot classes refuse");
      expect(at('/responses/utter_greet/0/channel_specific_extra')?.message).to.contain(
        'Parley does not send it',
      );
    });
  });

  describe('nlu files', () => {
    it('requires synonym examples to be a string block', () => {
      const problems = check('nlu', 'nlu:\n  - synonym: New York\n    examples:\n      - NYC\n');
      const problem = expectOnlyProblem(problems, '/nlu/0/examples', 'must be a block of examples');
      expect(problem.hint).to.contain('examples: |');
    });

    it('requires intent examples listed one by one to be {text} maps', () => {
      const problems = check('nlu', 'nlu:\n  - intent: greet\n    examples:\n      - hi\n');
      expectOnlyProblem(problems, '/nlu/0/examples/0', 'must be a map {text: <example>}');
    });

    it('reports an item without a recognised kind once', () => {
      const problems = check('nlu', 'nlu:\n  - intnt: greet\n    examples: |\n      - hi\n');
      const problem = expectOnlyProblem(problems, '/nlu/0', 'exactly one of intent, synonym, regex, lookup');
      expect(problem.hint).to.contain("'intent'");
    });
  });

  describe('config, endpoints and credentials', () => {
    it('warns about a config.yml top-level key Rasa reads past, and knows its own', () => {
      const problems = check(
        'config',
        'recipe: default.v1\nlanguage: en\nassistant_id: x\nversion: "3.1"\nimporters: []\nparley: {rasa_version: "3.12"}\npipline: []\n',
      );
      expect(problems.map((problem) => [problem.code, problem.instancePath, problem.hint])).to.deep.equal([
        ['CONFIG_IGNORED_KEY', '/pipline', "did you mean 'pipeline'?"],
      ]);
      expect(problems[0]?.message).to.match(/; it is ignored, as in Rasa$/);
    });

    it('requires the config pipeline to be a list of named components', () => {
      const problems = check(
        'config',
        'pipeline:\n  name: CompactLLMCommandGenerator\npolicies:\n  - FlowPolicy\n',
      );
      expect(problems).to.have.length(2);
      expectProblem(problems, '/pipeline', 'must be a list of components');
      expectProblem(problems, '/policies/0', 'must be a map with a name');
    });

    it('requires action_endpoint.url to be a string', () => {
      const problems = check('endpoints', 'action_endpoint:\n  url: 5055\n');
      const problem = expectOnlyProblem(problems, '/action_endpoint/url', 'must be a string');
      expect(problem.hint).to.contain('quotes');
    });

    it('requires a credentials section to be a map or empty', () => {
      const problems = check('credentials', 'rest:\nsocketio:\n  - user_message_evt\n');
      expectOnlyProblem(problems, '/socketio', 'must be a map of channel settings');
    });
  });

  describe('e2e test files', () => {
    it('requires steps on a test case', () => {
      const problems = check('e2e', 'test_cases:\n  - test_case: greets\n');
      expectOnlyProblem(problems, '/test_cases/0', "missing required property 'steps'");
    });

    it('reports a step without a recognised kind once', () => {
      const problems = check('e2e', 'test_cases:\n  - test_case: greets\n    steps:\n      - usr: hello\n');
      const problem = expectOnlyProblem(
        problems,
        '/test_cases/0/steps/0',
        'a test step needs exactly one of user',
      );
      expect(problem.hint).to.contain("'user'");
    });

    it('names an unknown assertion and rejects an assertion with two keys', () => {
      const problems = check(
        'e2e',
        yaml`
        test_cases:
          - test_case: greets
            steps:
              - user: hello
                assertions:
                  - flow_startd: greet
                  - flow_started: greet
                    action_executed: action_greet
        `,
      );
      expect(problems).to.have.length(2);
      expectProblem(
        problems,
        '/test_cases/0/steps/0/assertions/0/flow_startd',
        "unknown property 'flow_startd'",
      );
      expectProblem(problems, '/test_cases/0/steps/0/assertions/1', 'an assertion is a one-key map');
    });
  });
});
