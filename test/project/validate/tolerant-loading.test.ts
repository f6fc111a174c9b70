import { expect } from 'chai';
import type { Diagnostic } from '../../../src/core/errors.js';
import { selectChannels } from '../../../src/cli/channels.js';
import { loadProject } from '../../../src/project/load-project.js';
import { validateProject } from '../../../src/project/validate/index.js';
import { recordingLogger } from '../../support/recording-logger.js';
import { dedent } from '../../support/inline-assistant.js';
import { writeInlineProject } from '../../support/inline-project.js';
import type { InlineProjectFiles } from '../../support/inline-project.js';

const DOMAIN = `
  slots:
    plan:
      type: text
  responses:
    utter_ask_plan:
      - text: Which plan?
    utter_done:
      - text: Done.
`;

const FLOWS = `
  flows:
    choose_plan:
      description: choose a plan
      steps:
        - collect: plan
        - action: utter_done
`;

function validate(files: Partial<InlineProjectFiles>): readonly Diagnostic[] {
  const root = writeInlineProject({ domain: DOMAIN, flows: FLOWS, ...files });
  return validateProject({ project: root }).diagnostics;
}

function codes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((item) => `${item.severity} ${item.code}`);
}

describe('loading accepts what Rasa accepts', () => {
  describe('files that are empty or hold only comments', () => {
    it('read as empty: credentials, endpoints, config, domain, data and test files raise nothing', () => {
      const comments = '# rest:\n#   url: x\n\n   # indented comment\n';
      const diagnostics = validate({
        credentials: comments,
        endpoints: comments,
        config: `recipe: default.v1\nlanguage: en\nassistant_id: tolerant\n`,
        files: {
          'domain/empty.yml': comments,
          'data/empty.yml': '',
          'data/marker.yml': '---\n# nothing yet\n',
          'tests/empty.yml': comments,
          'tests/commented_cases.yml': '# test_cases:\n#   - test_case: x\n',
        },
      });
      expect(codes(diagnostics)).to.deep.equal([]);
    });

    it('a credentials.yml of comments configures no channel: the REST channel is served, with one warning', async () => {
      const root = writeInlineProject({
        domain: DOMAIN,
        flows: FLOWS,
        credentials: '# rest:\n# socketio:\n',
      });
      const { project, diagnostics } = loadProject({ project: root });
      expect(diagnostics.all).to.deep.equal([]);
      expect(project.assistant.credentials).to.deep.equal({});
      const logger = recordingLogger();
      const channels = await selectChannels({
        credentials: project.assistant.credentials,
        projectRoot: root,
        logger,
      });
      expect(channels.map((channel) => channel.name)).to.deep.equal(['rest']);
      expect(logger.warnings).to.deep.equal([
        'No chat connector configured, falling back to the REST input channel.',
      ]);
    });

    it('a config.yml of comments is an empty config (defaults apply), not a syntax error', () => {
      const diagnostics = validate({ config: '# recipe: default.v1\n' });
      expect(codes(diagnostics)).to.deep.equal(['warning CONFIG_ASSISTANT_ID_MISSING']);
    });
  });

  describe('persisted_slots', () => {
    it('counts slots collected or set in called flows, transitively', () => {
      const diagnostics = validate({
        domain: `
          slots:
            plan:
              type: text
            region:
              type: text
            level:
              type: text
          responses:
            utter_ask_plan:
              - text: Which plan?
            utter_done:
              - text: Done.
        `,
        flows: `
          flows:
            outer:
              description: outer flow
              persisted_slots: [plan, region, level]
              steps:
                - call: middle
            middle:
              description: middle flow
              if: False
              steps:
                - collect: plan
                - call: inner
            inner:
              description: inner flow
              if: False
              steps:
                - set_slots:
                    - region: north
                - action: utter_done
        `,
      });
      const missing = diagnostics.filter((item) => item.code === 'PERSISTED_SLOT_NOT_IN_FLOW');
      expect(missing.map((item) => item.message)).to.deep.equal([
        "Flow 'outer' persists 'level' but never collects or sets it, nor does a flow it calls.",
      ]);
    });
  });

  describe('Rasa’s built-in slots', () => {
    it('are valid in set_slots steps, conditions and response interpolation', () => {
      const diagnostics = validate({
        domain: `
          responses:
            utter_language:
              - text: "You speak {language}; I was asking for {requested_slot}."
        `,
        flows: `
          flows:
            switch_language:
              description: switch the language
              if: slots.route_session_to_calm is not true
              steps:
                - set_slots:
                    - language: fr
                    - route_session_to_calm: true
                  next:
                    - if: slots.language = "fr" and slots.session_started_metadata is not null
                      then:
                        - action: utter_language
                          next: END
                    - else: END
        `,
      });
      expect(codes(diagnostics)).to.deep.equal([]);
    });

    it('keep dialogue_stack out of collect and set_slots steps, as Rasa’s validator does', () => {
      const diagnostics = validate({
        flows: `
          flows:
            meddle:
              description: meddle with the stack
              steps:
                - set_slots:
                    - dialogue_stack: null
                - collect: dialogue_stack
        `,
      });
      expect(codes(diagnostics)).to.deep.equal(['error STEP_RESERVED_SLOT', 'error STEP_RESERVED_SLOT']);
    });
  });

  describe('button payloads', () => {
    const buttons = (payload: string, extra = ''): string => `
      intents:
        - inform
      entities:
        - insurance
      slots:
        plan:
          type: text
      responses:
        utter_ask_plan:
          - text: Which plan?
            buttons:
              - title: Motor
                payload: '${payload}'
        utter_done:
          - text: Done.
      ${extra}
    `;

    it('read {{ and }} as the braces Rasa sends (its documented escape for JSON in responses)', () => {
      const diagnostics = validate({ domain: buttons('/inform{{"insurance":"motor"}}') });
      expect(codes(diagnostics)).to.deep.equal([]);
    });

    it('still report entities that are not JSON once unescaped', () => {
      const diagnostics = validate({ domain: buttons('/inform{{insurance:motor}}') });
      expect(codes(diagnostics)).to.deep.equal(['error BUTTON_PAYLOAD_INVALID']);
    });

    it('leave a Jinja-templated response’s braces to Jinja', () => {
      const diagnostics = validate({
        domain: buttons('/inform{{"insurance":"motor"}}').replace(
          '            buttons:',
          '            metadata:\n              template: jinja\n            buttons:',
        ),
      });
      expect(codes(diagnostics)).to.deep.equal(['error BUTTON_PAYLOAD_INVALID']);
    });

    it('note a plain payload such as yes as info, which fails nothing and is no warning', () => {
      const diagnostics = validate({ domain: buttons('yes') });
      expect(codes(diagnostics)).to.deep.equal(['info BUTTON_FREE_FORM_PAYLOAD']);
    });
  });

  describe('e2e test files', () => {
    function withTests(tests: Record<string, string>): readonly Diagnostic[] {
      return validate({ files: Object.fromEntries(Object.entries(tests).map(([k, v]) => [k, dedent(v)])) });
    }

    it('a broken test file is a warning for that file only, never an error', () => {
      const diagnostics = withTests({
        'tests/broken_syntax.yml': 'test_cases:\n  - test_case: a\n    steps:\n  - user: "unclosed\n',
        'tests/broken_shape.yml': 'test_cases:\n  - test_case: b\n    steps:\n      - usr: hi\n',
        'tests/good.yml': 'test_cases:\n  - test_case: c\n    steps:\n      - user: hi\n',
      });
      expect(diagnostics.every((item) => item.severity === 'warning')).to.equal(true);
      expect(diagnostics.map((item) => [item.code, item.file.split('/').slice(-2).join('/')])).to.deep.equal([
        ['E2E_TEST_FILE_INVALID', 'tests/broken_shape.yml'],
        ['E2E_TEST_FILE_INVALID', 'tests/broken_syntax.yml'],
      ]);
      expect(diagnostics[0]?.message).to.contain('(E2E_SCHEMA)');
      expect(diagnostics[1]?.message).to.contain('(YAML_SYNTAX)');
    });
  });
});
