import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { DiagnosticCode } from '../../src/core/diagnostic-codes.js';
import type { Diagnostic } from '../../src/core/errors.js';
import { COMPONENTS, componentEntry } from '../../src/project/compatibility/components.js';
import { componentNotes } from '../../src/project/compatibility/findings.js';
import { validateProject } from '../../src/project/validate/index.js';
import { writeInlineProject } from '../support/inline-project.js';
import type { InlineProjectFiles } from '../support/inline-project.js';

const DOMAIN = `
  version: "3.1"
  responses:
    utter_hello:
      - text: Hello!
        metadata:
          rephrase: true
    utter_bye:
      - text: Bye!
        metadata:
          rephrase: true
    utter_plain:
      - text: Plain.
`;
const FLOWS = `
  flows:
    greet:
      description: says hello
      steps:
        - action: utter_hello
`;

const COMPATIBILITY_CODES: readonly DiagnosticCode[] = [
  'CONFIG_COMPONENT_REPLACED',
  'CONFIG_COMPONENT_IGNORED',
  'CONFIG_COMPONENT_UNKNOWN',
  'CONFIG_COMPONENT_UNSUPPORTED',
  'CONFIG_CUSTOM_PROMPT',
  'NLG_REPHRASER_NOT_RUN',
  'ENV_VAR_QUOTED',
  'RASA_VERSION_UNKNOWN',
];

function validate(files: Partial<InlineProjectFiles>, env: Record<string, string> = {}): Diagnostic[] {
  const root = writeInlineProject({ domain: DOMAIN, flows: FLOWS, ...files });
  try {
    return [...validateProject({ project: root }, { env }).diagnostics].filter((item) =>
      COMPATIBILITY_CODES.includes(item.code),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const config = (body: string) => `
  recipe: default.v1
  language: en
  assistant_id: compat
${body}
`;

const at = (items: readonly Diagnostic[]) =>
  items.map((item) => [item.code, item.file.split('/').pop(), item.line]);

describe('what Parley does not run is said by validate, once per cause', () => {
  it('says which Rasa NLU components are replaced, grouping those replaced by the same thing', () => {
    const found = validate({
      config: config(`
  pipeline:
    - name: WhitespaceTokenizer
    - name: RegexFeaturizer
    - name: CountVectorsFeaturizer
    - name: CountVectorsFeaturizer
      analyzer: char_wb
    - name: DIETClassifier
    - name: DucklingEntityExtractor
      url: http://localhost:8000
    - name: EntitySynonymMapper
    - name: FallbackClassifier
    - name: NLUCommandAdapter
  policies:
    - name: FlowPolicy
`),
    });
    expect(at(found)).to.deep.equal([
      ['CONFIG_COMPONENT_REPLACED', 'config.yml', 6],
      ['CONFIG_COMPONENT_REPLACED', 'config.yml', 7],
      ['CONFIG_COMPONENT_REPLACED', 'config.yml', 11],
      ['CONFIG_COMPONENT_REPLACED', 'config.yml', 12],
    ]);
    const [tokenizer, features, diet, duckling] = found.map((item) => item.message);
    expect(tokenizer).to.match(/^WhitespaceTokenizer is not run; in its place: Parley’s own tokenizer/);
    expect(features)
      .to.match(/^RegexFeaturizer and CountVectorsFeaturizer are not run; in their place: Parley’s TF-IDF/)
      .and.contain('`analyzer`');
    expect(diet).to.contain('DIETClassifier').and.contain('intent classifier').and.contain('random_seed');
    expect(duckling).to.contain('DucklingEntityExtractor').and.contain('numbers, amounts of money, dates');
    expect(found.every((item) => item.severity === 'warning')).to.equal(true);
  });

  it('says TEDPolicy is replaced by the rule and memoization policies, and what is ignored', () => {
    const found = validate({
      config: config(`
  pipeline:
    - name: NLUCommandAdapter
  policies:
    - name: FlowPolicy
    - name: RulePolicy
    - name: MemoizationPolicy
    - name: TEDPolicy
      epochs: 100
    - name: UnexpecTEDIntentPolicy
    - name: IntentlessPolicy
      prompt: prompts/intentless.jinja2
`),
    });
    expect(at(found)).to.deep.equal([
      ['CONFIG_COMPONENT_REPLACED', 'config.yml', 11],
      ['CONFIG_COMPONENT_IGNORED', 'config.yml', 13],
      ['CONFIG_COMPONENT_IGNORED', 'config.yml', 14],
    ]);
    expect(found[0]?.message).to.contain('TEDPolicy').and.contain('RulePolicy and MemoizationPolicy');
    expect(found[1]?.message).to.contain('UnexpecTEDIntentPolicy').and.contain('action_unlikely_intent');
    // the ignored policy's prompt is not a second warning: the policy does not run at all
    expect(found[2]?.message).to.contain('IntentlessPolicy');
  });

  it('warns about a custom module.Class it cannot load, and refuses MultiStepLLMCommandGenerator', () => {
    const found = validate({
      config: config(`
  pipeline:
    - name: my_components.SentimentAnalyzer
    - name: MultiStepLLMCommandGenerator
  policies:
    - name: rasa_plus.ml.EnterpriseSearchPolicy
    - name: addons.MyPolicy
`),
    });
    expect(found.map((item) => [item.code, item.severity, item.line])).to.deep.equal([
      ['CONFIG_COMPONENT_UNKNOWN', 'warning', 6],
      ['CONFIG_COMPONENT_UNSUPPORTED', 'error', 7],
      ['CONFIG_COMPONENT_UNKNOWN', 'warning', 10],
    ]);
    expect(found[0]?.message).to.contain('my_components.SentimentAnalyzer');
    expect(found[1]?.message).to.contain('CompactLLMCommandGenerator');
  });

  it('says once that a custom prompt template of a command generator is not used', () => {
    const found = validate({
      config: config(`
  pipeline:
    - name: CompactLLMCommandGenerator
      llm:
        model_group: main
      prompt_template: prompts/commands.jinja2
  policies:
    - name: FlowPolicy
`),
      endpoints:
        'model_groups:\n  - id: main\n    models:\n      - provider: openai\n        model: gpt-4o\n',
    });
    expect(at(found)).to.deep.equal([['CONFIG_CUSTOM_PROMPT', 'config.yml', 9]]);
    expect(found[0]?.message).to.contain("'prompts/commands.jinja2'").and.contain('its own prompt');
  });

  it('says once that the rephraser is not run, counting the responses marked for it', () => {
    const found = validate({
      endpoints: 'nlg:\n  type: rephrase\n  prompt: prompts/rephrase.jinja2\n',
    });
    expect(at(found)).to.deep.equal([['NLG_REPHRASER_NOT_RUN', 'endpoints.yml', 2]]);
    expect(found[0]?.message)
      .to.match(/The response rephraser \(`nlg: type: rephrase`\) is not run/)
      .and.match(/responses are marked `rephrase: true` \(2 of the project's, \d+ of the default patterns\)/)
      .and.contain("its prompt 'prompts/rephrase.jinja2' is not used");
  });

  it('names a custom NLG class and rephrase_all, and accepts an NLG server or templates silently', () => {
    const custom = validate({
      endpoints: 'nlg:\n  type: rephraser.MyRephraser\n  rephrase_all: true\n',
    });
    expect(custom.map((item) => item.code)).to.deep.equal(['NLG_REPHRASER_NOT_RUN']);
    expect(custom[0]?.message).to.contain("'rephraser.MyRephraser'").and.contain('rephrase_all: true');
    expect(validate({ endpoints: 'nlg:\n  url: http://localhost:5056/nlg\n' })).to.deep.equal([]);
    expect(validate({ endpoints: 'nlg:\n  type: template\n' })).to.deep.equal([]);
    // responses marked for rephrasing without a rephraser are not rephrased in Rasa either
    expect(validate({})).to.deep.equal([]);
  });

  it('has nothing to say about a CALM project of supported parts', () => {
    const found = validate({
      config: config(`
  pipeline:
    - name: SearchReadyLLMCommandGenerator
  policies:
    - name: FlowPolicy
    - name: EnterpriseSearchPolicy
`),
    });
    expect(found).to.deep.equal([]);
  });
});

describe('quoted ${VAR} references in endpoints.yml and credentials.yml', () => {
  it('warns that a quoted reference is used as written, and how to write it', () => {
    const found = validate(
      {
        endpoints: [
          'action_endpoint:',
          '  url: "${ACTION_URL}"',
          'tracker_store:',
          '  type: sql',
          "  password: '${DB_PASSWORD}'",
          '  db: ${DB_NAME}',
        ].join('\n'),
        credentials: 'rest:\nsocketio:\n  user_message_evt: "${EVT}"\n',
      },
      { ACTION_URL: 'http://x', DB_PASSWORD: 'p', DB_NAME: 'rasa', EVT: 'e' },
    );
    expect(at(found)).to.deep.equal([
      ['ENV_VAR_QUOTED', 'credentials.yml', 3],
      ['ENV_VAR_QUOTED', 'endpoints.yml', 2],
      ['ENV_VAR_QUOTED', 'endpoints.yml', 5],
    ]);
    expect(found[1]?.message)
      .to.contain("'${ACTION_URL}' at action_endpoint.url is quoted")
      .and.contain('`url: ${ACTION_URL}` without quotes');
  });

  it('leaves model settings alone: Parley expands ${VAR} there when it calls the model', () => {
    const found = validate({
      endpoints:
        'model_groups:\n  - id: main\n    models:\n      - provider: openai\n        api_key: "${OPENAI_API_KEY}"\n',
    });
    expect(found).to.deep.equal([]);
  });
});

describe('parley.rasa_version in config.yml', () => {
  it('accepts the versions Parley knows, a patch release included', () => {
    for (const version of ['"3.7"', '"3.10"', '"3.13.9"', '"3.17"'])
      expect(validate({ config: config(`  parley:\n    rasa_version: ${version}\n`) })).to.deep.equal([]);
  });

  it('refuses an unknown version, listing the known ones, and explains an unquoted 3.10', () => {
    const [old] = validate({ config: config('  parley:\n    rasa_version: "3.6"\n') });
    expect(old?.code).to.equal('RASA_VERSION_UNKNOWN');
    expect(old?.severity).to.equal('error');
    expect(old?.message).to.contain("'3.6'").and.contain('3.7, 3.8').and.contain('3.17');
    const [unquoted] = validate({ config: config('  parley:\n    rasa_version: 3.10\n') });
    expect(unquoted?.message).to.contain('quote it');
  });
});

describe('the compatibility table', () => {
  it('names each component once, and says what replaces every replaced one', () => {
    const names = COMPONENTS.map((entry) => entry.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const entry of COMPONENTS) {
      expect(entry.note, entry.name).not.to.equal('');
      expect(entry.replacement !== undefined, entry.name).to.equal(entry.status === 'replaced');
    }
  });

  it('finds an entry by its Rasa module path, but not a policy in the pipeline', () => {
    expect(componentEntry('rasa_plus.ml.IntentlessPolicy', 'policy')?.name).to.equal('IntentlessPolicy');
    expect(componentEntry('rasa.core.policies.ted_policy.TEDPolicy', 'policy')?.status).to.equal('replaced');
    expect(componentEntry('FlowPolicy', 'component')).to.equal(undefined);
    expect(componentEntry('custom.TEDPolicy', 'policy')).to.equal(undefined);
  });

  it('gives a model its notes from the same table', () => {
    const notes = componentNotes({
      pipeline: [
        { name: 'DIETClassifier', options: {} },
        { name: 'FallbackClassifier', options: {} },
      ],
      policies: [{ name: 'TEDPolicy', options: {} }],
    });
    expect(notes).to.have.length(2);
    expect(notes[0]).to.match(/^DIETClassifier is not run/);
    expect(notes[1]).to.match(/^TEDPolicy is not run/);
  });
});
