import { expect } from 'chai';
import type { AssistantConfig, ComponentConfig } from '../../../src/core/assistant.js';
import { resolveLlmConfig } from '../../../src/understanding/llm/config.js';
import type {
  Environment,
  LlmConfigResult,
  LlmGeneratorConfig,
} from '../../../src/understanding/llm/config.js';
import { inlineAssistant } from '../../support/inline-assistant.js';

const KEYLESS: Environment = {};
const WITH_KEY: Environment = { OPENAI_API_KEY: 'sk-env' };

function resolve(
  pipeline: readonly ComponentConfig[],
  endpoints: Record<string, unknown> = {},
  env: Environment = WITH_KEY,
): LlmConfigResult {
  const config: AssistantConfig = {
    recipe: 'default.v1',
    language: 'en',
    assistantId: 'test',
    pipeline,
    policies: [],
    rasaVersion: undefined,
    raw: {},
  };
  return resolveLlmConfig({ config, endpoints }, env);
}

function ok(result: LlmConfigResult): LlmGeneratorConfig {
  if (!result.ok) throw new Error(`expected a config, got: ${result.error.message}`);
  if (!result.config) throw new Error('expected a config, got none');
  return result.config;
}

function failure(result: LlmConfigResult): { code: string; message: string } {
  if (result.ok) throw new Error('expected an error');
  return { code: result.error.code, message: result.error.message };
}

const compact = (options: Record<string, unknown>): ComponentConfig => ({
  name: 'CompactLLMCommandGenerator',
  options,
});
const group = (id: string, ...models: Record<string, unknown>[]) => ({ model_groups: [{ id, models }] });

describe('LLM command generator config', () => {
  it('finds no LLM generator in an offline pipeline', () => {
    const result = resolve([{ name: 'NLUCommandAdapter', options: {} }]);
    expect(result).to.deep.equal({ ok: true, config: undefined });
  });

  it('resolves a Compact generator through its model group, the Rasa 3.11+ way', () => {
    const config = ok(
      resolve(
        [compact({ llm: { model_group: 'main' }, user_input: { max_characters: 300 } })],
        group('main', {
          provider: 'openai',
          model: 'gpt-4o-mini',
          api_base: 'http://127.0.0.1:9999/v1',
          api_key: 'sk-group',
          timeout: '12',
          temperature: 0.2,
          max_tokens: 256,
          extra_headers: { 'X-Team': 'bank' },
        }),
      ),
    );
    expect(config).to.deep.include({
      component: 'CompactLLMCommandGenerator',
      syntax: 'v2',
      provider: 'openai',
      modelGroup: 'main',
      maxCharacters: 300,
      warnings: [],
    });
    expect(config.client).to.deep.equal({
      apiBase: 'http://127.0.0.1:9999/v1',
      model: 'gpt-4o-mini',
      apiKey: 'sk-group',
      timeoutSeconds: 12,
      temperature: 0.2,
      maxRetries: 2,
      headers: { 'X-Team': 'bank' },
      extraBody: { max_tokens: 256 },
    });
    expect(config.flowRetrieval).to.deep.equal({ active: true, numFlows: 20, turnsToEmbed: 1 });
  });

  it('picks the action syntax of each generator', () => {
    const syntaxOf = (name: string) => ok(resolve([{ name, options: {} }])).syntax;
    expect(syntaxOf('SearchReadyLLMCommandGenerator')).to.equal('v3');
    expect(syntaxOf('SingleStepLLMCommandGenerator')).to.equal('v1');
    expect(syntaxOf('LLMCommandGenerator')).to.equal('v1');
  });

  it("uses Rasa's default OpenAI model and OPENAI_API_KEY when `llm` is left out", () => {
    const config = ok(resolve([compact({})]));
    expect(config.client).to.deep.include({
      apiBase: 'https://api.openai.com/v1',
      model: 'gpt-4o-2024-11-20',
      apiKey: 'sk-env',
      timeoutSeconds: 7,
      temperature: 0,
    });
  });

  it('reads an api_key written as a quoted ${VAR} from the environment', () => {
    const config = ok(
      resolve(
        [compact({ llm: { model_group: 'main' } })],
        group('main', { provider: 'openai', model: 'gpt-4o', api_key: '${BANK_LLM_KEY}' }),
        { BANK_LLM_KEY: 'sk-named' },
      ),
    );
    expect(config.client.apiKey).to.equal('sk-named');
  });

  it('accepts an inline self-hosted model without a key, and reads flow_retrieval', () => {
    const config = ok(
      resolve(
        [
          compact({
            llm: { provider: 'self-hosted', model: 'qwen', api_base: 'http://gpu:8000/v1' },
            flow_retrieval: { active: false, num_flows: 5, turns_to_embed: 3 },
          }),
        ],
        {},
        KEYLESS,
      ),
    );
    expect(config.client).to.deep.include({ apiBase: 'http://gpu:8000/v1', model: 'qwen' });
    expect(config.client.apiKey).to.equal(undefined);
    expect(config.flowRetrieval).to.deep.equal({ active: false, numFlows: 5, turnsToEmbed: 3 });
  });

  it("adds /v1 to an Ollama server's address", () => {
    const config = ok(resolve([compact({ llm: { provider: 'ollama', model: 'llama3.1' } })], {}, KEYLESS));
    expect(config.client.apiBase).to.equal('http://localhost:11434/v1');
  });

  it('talks to Rasa’s hosted models (provider rasa) at api_base as given, with the licence as the key', () => {
    const config = ok(
      resolve(
        [compact({ llm: { model_group: 'rasa_command_generation_model' } })],
        group('rasa_command_generation_model', {
          provider: 'rasa',
          model: 'rasa/cmd_gen_codellama_13b_calm_demo',
          api_base: 'https://tutorial-llm.rasa.ai',
        }),
        { RASA_LICENSE: 'licence-token' },
      ),
    );
    expect(config.provider).to.equal('rasa');
    expect(config.client).to.deep.include({
      apiBase: 'https://tutorial-llm.rasa.ai',
      model: 'rasa/cmd_gen_codellama_13b_calm_demo',
      apiKey: 'licence-token',
    });
    // without a licence it still starts (the server decides)
    expect(
      ok(resolve([compact({ llm: { provider: 'rasa', model: 'm', api_base: 'https://h' } })], {}, KEYLESS))
        .client.apiKey,
    ).to.equal(undefined);
  });

  it('reaches the other OpenAI-format providers at their own API root with their own key variable', () => {
    const cases: [string, Environment, string, string][] = [
      ['openrouter', { OPENROUTER_API_KEY: 'or' }, 'https://openrouter.ai/api/v1', 'or'],
      ['groq', { GROQ_API_KEY: 'gq' }, 'https://api.groq.com/openai/v1', 'gq'],
      ['together_ai', { TOGETHERAI_API_KEY: 'tg' }, 'https://api.together.xyz/v1', 'tg'],
      ['deepseek', { DEEPSEEK_API_KEY: 'ds' }, 'https://api.deepseek.com/v1', 'ds'],
      ['mistral', { MISTRAL_API_KEY: 'ms' }, 'https://api.mistral.ai/v1', 'ms'],
    ];
    for (const [provider, env, apiBase, apiKey] of cases)
      expect(
        ok(resolve([compact({ llm: { provider, model: 'm' } })], {}, env)).client,
        provider,
      ).to.deep.include({
        apiBase,
        apiKey,
      });
    const vllm = ok(
      resolve(
        [compact({ llm: { provider: 'hosted_vllm', model: 'm', api_base: 'http://gpu:8000/v1/' } })],
        {},
        KEYLESS,
      ),
    );
    expect(vllm.client.apiBase).to.equal('http://gpu:8000/v1');
    expect(
      failure(resolve([compact({ llm: { provider: 'openrouter', model: 'm' } })], {}, KEYLESS)).message,
    ).to.contain('OPENROUTER_API_KEY');
  });

  it('builds Azure OpenAI requests: the deployment path, the api-version query and the api-key header', () => {
    const config = ok(
      resolve(
        [
          compact({
            llm: {
              provider: 'azure',
              deployment: 'gpt4o-prod',
              model: 'gpt-4o',
              api_base: 'https://my.openai.azure.com/',
              api_version: '2024-06-01',
            },
          }),
        ],
        {},
        { AZURE_API_KEY: 'az' },
      ),
    );
    expect(config.client).to.deep.include({
      apiBase: 'https://my.openai.azure.com/openai/deployments/gpt4o-prod',
      query: { 'api-version': '2024-06-01' },
      keyHeader: 'api-key',
      apiKey: 'az',
    });
    expect(config.warnings).to.deep.equal([]);
  });

  it('warns about model settings it does not honour (a custom prompt_template is said by validate)', () => {
    const config = ok(
      resolve([compact({ llm: { model_group: 'main' }, prompt_template: 'prompts/custom.jinja2' })], {
        model_groups: [
          {
            id: 'main',
            models: [
              { provider: 'openai', model: 'a', cache: true },
              { provider: 'openai', model: 'b' },
            ],
            router: { routing_strategy: 'simple-shuffle' },
          },
        ],
      }),
    );
    expect(config.client.model).to.equal('a');
    expect(config.warnings).to.have.length(2);
    expect(config.warnings.join(' ')).to.contain('first model').and.contain("'cache'");
    expect(config.warnings.join(' ')).not.to.contain('prompt_template');
  });

  describe('errors that say how to fix the configuration', () => {
    const cases: [string, () => LlmConfigResult, string][] = [
      [
        'a model group that endpoints.yml does not define',
        () =>
          resolve(
            [compact({ llm: { model_group: 'missing' } })],
            group('other', { provider: 'openai', model: 'x' }),
          ),
        "model group 'missing'",
      ],
      [
        'two LLM generators',
        () => resolve([compact({}), { name: 'SearchReadyLLMCommandGenerator', options: {} }]),
        'exactly one',
      ],
      [
        'the multi-step generator',
        () => resolve([{ name: 'MultiStepLLMCommandGenerator', options: {} }]),
        'MultiStep',
      ],
      [
        'a provider without an OpenAI-compatible API',
        () => resolve([compact({ llm: { provider: 'anthropic', model: 'claude' } })]),
        "provider 'anthropic' is not supported",
      ],
      [
        'a provider without an OpenAI-compatible API, naming the ones it supports',
        () => resolve([compact({ llm: { provider: 'bedrock', model: 'claude' } })]),
        'openai, rasa, self-hosted',
      ],
      [
        'Azure without api_base',
        () => resolve([compact({ llm: { provider: 'azure', model: 'x', api_key: 'k' } })]),
        'api_base',
      ],
      ['OpenAI without any key', () => resolve([compact({})], {}, KEYLESS), 'OPENAI_API_KEY'],
      [
        'a quoted ${VAR} that is not set',
        () => resolve([compact({ llm: { provider: 'openai', model: 'x', api_key: '${NOPE}' } })]),
        'NOPE is not set',
      ],
      [
        'a self-hosted model without api_base',
        () => resolve([compact({ llm: { provider: 'self-hosted', model: 'x' } })]),
        'api_base',
      ],
      ['a model without a name', () => resolve([compact({ llm: { provider: 'openai' } })]), '`model`'],
      [
        'a timeout that is not a number',
        () => resolve([compact({ llm: { provider: 'openai', model: 'x', timeout: 'soon' } })]),
        'timeout must be a number',
      ],
      [
        'an empty model group',
        () => resolve([compact({ llm: { model_group: 'g' } })], group('g')),
        'lists no models',
      ],
    ];
    for (const [what, run, detail] of cases) {
      it(`rejects ${what} with LLM_NOT_CONFIGURED`, () => {
        const error = failure(run());
        expect(error.code).to.equal('LLM_NOT_CONFIGURED');
        expect(error.message).to.contain(detail);
        expect(error.message).to.contain('offline NLU pipeline');
      });
    }
  });

  it('resolves the config of an assistant loaded from YAML', () => {
    const assistant = inlineAssistant({
      domain: 'responses:\n  utter_done:\n    - text: Done.\n',
      flows: 'flows:\n  greet:\n    description: Say hello.\n    steps:\n      - action: utter_done\n',
      config: `
        recipe: default.v1
        language: en
        assistant_id: yaml-test
        pipeline:
          - name: SearchReadyLLMCommandGenerator
            llm:
              model_group: fast
        policies:
          - name: FlowPolicy
      `,
      endpoints: `
        model_groups:
          - id: fast
            models:
              - provider: self-hosted
                model: tiny
                api_base: http://127.0.0.1:8000/v1
                timeout: 3
      `,
    });
    const config = ok(resolveLlmConfig(assistant, KEYLESS));
    expect(config).to.deep.include({
      component: 'SearchReadyLLMCommandGenerator',
      syntax: 'v3',
      modelGroup: 'fast',
    });
    expect(config.client).to.deep.include({ model: 'tiny', timeoutSeconds: 3 });
  });
});
