/**
 * Finds the LLM command generator of config.yml and the model it uses, the way Rasa does: a pipeline
 * entry (`CompactLLMCommandGenerator`, `SearchReadyLLMCommandGenerator`, `SingleStepLLMCommandGenerator`
 * or its old name `LLMCommandGenerator`) whose `llm` names a `model_group` of endpoints.yml, or (the
 * pre-3.11 way) describes the model inline. Parley speaks the OpenAI chat-completions API, so the
 * providers are the ones that serve it (providers.ts: openai, rasa, self-hosted, ollama, azure,
 * openrouter, …).
 */
import type { Assistant, ComponentConfig } from '../../core/assistant.js';
import type { DslSyntax } from './dsl.js';
import { LlmError } from './errors.js';
import { DEFAULT_AZURE_API_VERSION, PROVIDERS, supportedProviders } from './providers.js';
import { DEFAULT_FLOW_RETRIEVAL } from './flow-retrieval.js';
import type { FlowRetrievalOptions } from './flow-retrieval.js';
import { DEFAULT_LLM_MAX_RETRIES, DEFAULT_LLM_TIMEOUT_SECONDS } from './openai-client.js';
import type { OpenAiClientOptions } from './openai-client.js';

/** The LLM command generators Rasa knows, with the action syntax each one's prompt uses. */
export const LLM_GENERATORS = {
  CompactLLMCommandGenerator: 'v2',
  SearchReadyLLMCommandGenerator: 'v3',
  SingleStepLLMCommandGenerator: 'v1',
  LLMCommandGenerator: 'v1',
} as const satisfies Record<string, DslSyntax>;

export type LlmGeneratorName = keyof typeof LLM_GENERATORS;

/** Rasa's default model of the Compact generator when `llm` is left out. */
export const DEFAULT_LLM_MODEL = 'gpt-4o-2024-11-20';
export const DEFAULT_MAX_CHARACTERS = 420;

export type LlmClientConfig = Omit<OpenAiClientOptions, 'fetch'>;

export interface LlmGeneratorConfig {
  readonly component: LlmGeneratorName;
  readonly syntax: DslSyntax;
  readonly provider: string;
  /** the model group the model came from; absent for an inline `llm` */
  readonly modelGroup?: string;
  readonly client: LlmClientConfig;
  /** `user_input.max_characters`; a negative number disables the limit */
  readonly maxCharacters: number;
  readonly flowRetrieval: FlowRetrievalOptions;
  /** settings Parley reads but does not honour, for the logs */
  readonly warnings: readonly string[];
}

/** `config` is undefined when the pipeline has no LLM command generator (the offline pipeline). */
export type LlmConfigResult =
  | { readonly ok: true; readonly config: LlmGeneratorConfig | undefined }
  | { readonly ok: false; readonly error: LlmError };

export type Environment = Readonly<Record<string, string | undefined>>;

const HOW_TO =
  'Configure the model in endpoints.yml (model_groups: [{id: my_llm, models: [{provider: openai, ' +
  'model: gpt-4o-mini, api_key: ${OPENAI_API_KEY}}]}]) and reference it from the generator in config.yml ' +
  '(llm: {model_group: my_llm}); or remove the LLM command generator from the pipeline to run the ' +
  'offline NLU pipeline (NLUCommandAdapter) instead.';

class ConfigProblem extends Error {}

export function resolveLlmConfig(
  assistant: Pick<Assistant, 'config' | 'endpoints'>,
  env: Environment = process.env,
): LlmConfigResult {
  const generators = assistant.config.pipeline.filter((component) => component.name in LLM_GENERATORS);
  const multiStep = assistant.config.pipeline.find((c) => c.name === 'MultiStepLLMCommandGenerator');
  try {
    if (multiStep)
      fail('MultiStepLLMCommandGenerator is not supported; use CompactLLMCommandGenerator instead.');
    if (generators.length === 0) return { ok: true, config: undefined };
    if (generators.length > 1)
      fail(`config.yml lists ${generators.length} LLM command generators; Rasa allows exactly one.`);
    return { ok: true, config: generatorConfig(generators[0] as ComponentConfig, assistant.endpoints, env) };
  } catch (error) {
    if (!(error instanceof ConfigProblem)) throw error;
    const message = `${error.message} ${HOW_TO}`;
    return { ok: false, error: new LlmError({ code: 'LLM_NOT_CONFIGURED', message }) };
  }
}

/**
 * The chat model of another component's `llm` setting (EnterpriseSearchPolicy's, the LLMBasedRouter's):
 * a model group of endpoints.yml or an inline model, resolved by the same rules as the command generator's.
 */
export function resolveComponentLlm(
  component: ComponentConfig,
  endpoints: Readonly<Record<string, unknown>>,
  env: Environment = process.env,
):
  | { readonly ok: true; readonly client: LlmClientConfig; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly error: LlmError } {
  const warnings: string[] = [];
  try {
    const { model } = modelSettings(component.name, component.options, endpoints, warnings);
    return { ok: true, client: clientConfig(component.name, model, env, warnings), warnings };
  } catch (error) {
    if (!(error instanceof ConfigProblem)) throw error;
    const message = `${error.message} ${HOW_TO}`;
    return { ok: false, error: new LlmError({ code: 'LLM_NOT_CONFIGURED', message }) };
  }
}

function fail(message: string): never {
  throw new ConfigProblem(message);
}

function generatorConfig(
  component: ComponentConfig,
  endpoints: Readonly<Record<string, unknown>>,
  env: Environment,
): LlmGeneratorConfig {
  const name = component.name as LlmGeneratorName;
  // a custom prompt_template is said once, by validate and at start-up (CONFIG_CUSTOM_PROMPT)
  const warnings: string[] = [];
  const { model, group } = modelSettings(name, component.options, endpoints, warnings);
  return {
    component: name,
    syntax: LLM_GENERATORS[name],
    provider: providerOf(model),
    ...(group === undefined ? {} : { modelGroup: group }),
    client: clientConfig(name, model, env, warnings),
    maxCharacters: integer(
      record(component.options['user_input'])['max_characters'],
      DEFAULT_MAX_CHARACTERS,
      'user_input.max_characters',
    ),
    flowRetrieval: flowRetrieval(record(component.options['flow_retrieval'])),
    warnings,
  };
}

/** The model's settings: the first model of the referenced group, or the inline `llm` map. */
function modelSettings(
  name: string,
  options: Readonly<Record<string, unknown>>,
  endpoints: Readonly<Record<string, unknown>>,
  warnings: string[],
): { model: Record<string, unknown>; group?: string } {
  const llm =
    options['llm'] ?? (options['model_group'] ? { model_group: options['model_group'] } : undefined);
  if (llm === undefined || llm === null) return { model: { provider: 'openai', model: DEFAULT_LLM_MODEL } };
  if (!isRecord(llm)) fail(`${name}: \`llm\` must be a map, e.g. {model_group: my_llm}.`);
  const groupId = llm['model_group'];
  if (groupId === undefined) return { model: llm };
  if (typeof groupId !== 'string') fail(`${name}: llm.model_group must be the id of a model group.`);
  const groups = Array.isArray(endpoints['model_groups']) ? endpoints['model_groups'] : [];
  const group = groups.find((candidate) => isRecord(candidate) && candidate['id'] === groupId);
  if (!isRecord(group))
    fail(`${name} uses model group '${groupId}', but endpoints.yml has no model_groups entry with that id.`);
  const models = Array.isArray(group['models']) ? group['models'].filter(isRecord) : [];
  const first = models[0];
  if (!first) fail(`Model group '${groupId}' in endpoints.yml lists no models.`);
  if (models.length > 1 || group['router'] !== undefined)
    warnings.push(`Model group '${groupId}': only its first model is used (Parley has no router).`);
  return { model: first, group: groupId };
}

const CLIENT_KEYS = new Set(
  'provider type model model_name api_base base_url openai_api_base api_key api_version deployment engine api_type timeout request_timeout temperature max_retries extra_headers headers'.split(
    ' ',
  ),
);
const BODY_KEYS = new Set(
  'max_tokens max_completion_tokens top_p seed stop frequency_penalty presence_penalty reasoning_effort user'.split(
    ' ',
  ),
);

function clientConfig(
  name: string,
  model: Record<string, unknown>,
  env: Environment,
  warnings: string[],
): LlmClientConfig {
  const provider = providerOf(model);
  const modelName = text(model['model'] ?? model['model_name'], env);
  if (!modelName) fail(`${name}: the model has no \`model\` name (provider ${provider}).`);
  const headers = stringMap(model['extra_headers'] ?? model['headers'], env);
  const extraBody = Object.fromEntries(Object.entries(model).filter(([key]) => BODY_KEYS.has(key)));
  for (const key of Object.keys(model))
    if (!CLIENT_KEYS.has(key) && !BODY_KEYS.has(key))
      warnings.push(`${name}: model setting '${key}' is ignored.`);
  return {
    ...endpointFor(provider, model, env),
    model: modelName,
    timeoutSeconds: positive(
      model['timeout'] ?? model['request_timeout'],
      DEFAULT_LLM_TIMEOUT_SECONDS,
      'the model timeout',
    ),
    temperature: number(model['temperature'], 0, 'the model temperature'),
    maxRetries: integer(model['max_retries'], DEFAULT_LLM_MAX_RETRIES, 'the model max_retries'),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(Object.keys(extraBody).length > 0 ? { extraBody } : {}),
  };
}

function providerOf(model: Record<string, unknown>): string {
  const provider = model['provider'] ?? model['type'] ?? 'openai';
  if (typeof provider !== 'string') fail('The model `provider` must be a name such as openai.');
  return provider.toLowerCase();
}

/** where the requests go and how they authenticate, by the provider's rule (providers.ts) */
function endpointFor(
  provider: string,
  model: Record<string, unknown>,
  env: Environment,
): Pick<LlmClientConfig, 'apiBase' | 'apiKey' | 'query' | 'keyHeader'> {
  const rule = PROVIDERS[provider];
  if (!rule)
    return fail(
      `provider '${provider}' is not supported: Parley talks to servers of the OpenAI chat-completions ` +
        `format (providers ${supportedProviders()}). For another provider, point \`api_base\` of a ` +
        'self-hosted model at an OpenAI-compatible proxy (e.g. LiteLLM).',
    );
  const configured = text(model['api_base'] ?? model['base_url'] ?? model['openai_api_base'], env);
  const fromEnv = provider === 'openai' ? (env['OPENAI_BASE_URL'] ?? env['OPENAI_API_BASE']) : undefined;
  const root = configured ?? fromEnv ?? rule.defaultApiBase;
  if (root === undefined) return fail(`provider ${provider} needs \`api_base\`, the URL of the server.`);
  const apiKey = text(model['api_key'], env) ?? rule.keyVariables.map((name) => env[name]).find(Boolean);
  if (!apiKey && rule.keyRequired)
    fail(
      `provider ${provider} needs an API key: set ${rule.keyVariables.join(' or ')}, or api_key: ` +
        '${MY_KEY_VARIABLE} on the model.',
    );
  if (rule.wire === 'azure') {
    const deployment = text(model['deployment'] ?? model['engine'] ?? model['model'], env) as string;
    const version = text(model['api_version'], env) ?? env['AZURE_API_VERSION'] ?? DEFAULT_AZURE_API_VERSION;
    return {
      apiBase: `${root.replace(/\/+$/u, '')}/openai/deployments/${encodeURIComponent(deployment)}`,
      query: { 'api-version': version },
      keyHeader: 'api-key',
      ...(apiKey ? { apiKey } : {}),
    };
  }
  const base = root.replace(/\/+$/u, '');
  return {
    apiBase: rule.appendV1 && !base.endsWith('/v1') ? `${base}/v1` : base,
    ...(apiKey ? { apiKey } : {}),
  };
}

function flowRetrieval(raw: Record<string, unknown>): FlowRetrievalOptions {
  return {
    active: raw['active'] === undefined ? DEFAULT_FLOW_RETRIEVAL.active : raw['active'] !== false,
    numFlows: integer(raw['num_flows'], DEFAULT_FLOW_RETRIEVAL.numFlows, 'flow_retrieval.num_flows'),
    turnsToEmbed: integer(
      raw['turns_to_embed'],
      DEFAULT_FLOW_RETRIEVAL.turnsToEmbed,
      'flow_retrieval.turns_to_embed',
    ),
  };
}

/** A string setting; `${VAR}` references that the loader left alone (quoted) are expanded here. */
function text(value: unknown, env: Environment): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number')
    fail(`Expected text, got ${JSON.stringify(value)}.`);
  const expanded = String(value).replace(/\$\{([^}]*)\}/gu, (_whole, variable: string) => {
    const resolved = env[variable];
    if (resolved === undefined) fail(`Environment variable ${variable} is not set.`);
    return resolved;
  });
  return expanded.trim() === '' ? undefined : expanded;
}

function stringMap(value: unknown, env: Environment): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) => {
      const resolved = text(item, env);
      return resolved === undefined ? [] : [[key, resolved]];
    }),
  );
}

function number(value: unknown, fallback: number, what: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(parsed)) fail(`${capitalise(what)} must be a number, got ${JSON.stringify(value)}.`);
  return parsed;
}

function positive(value: unknown, fallback: number, what: string): number {
  const parsed = number(value, fallback, what);
  if (parsed <= 0) fail(`${capitalise(what)} must be more than 0, got ${JSON.stringify(value)}.`);
  return parsed;
}

function integer(value: unknown, fallback: number, what: string): number {
  return Math.trunc(number(value, fallback, what));
}

function capitalise(what: string): string {
  return what.charAt(0).toUpperCase() + what.slice(1);
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
