/**
 * The LLM providers Parley can talk to: every one that serves the OpenAI chat-completions wire format,
 * which is what LiteLLM (Rasa's client) sends to most of them. Each entry says where its API lives when
 * `api_base` is not given, which environment variable holds its key (LiteLLM's names), and how the key
 * is sent. `azure` differs only in the URL (a deployment path and an `api-version` query) and the key's
 * header. Other LiteLLM providers (anthropic, bedrock, vertex_ai, …) speak other formats: refused with
 * the list of these, or reachable through an OpenAI-compatible proxy at `api_base`.
 */

export interface ProviderRule {
  /** the API root when `api_base` is not given; undefined: `api_base` is required */
  readonly defaultApiBase?: string;
  /** environment variables that may hold the key, in order */
  readonly keyVariables: readonly string[];
  /** true when a request cannot work without a key */
  readonly keyRequired: boolean;
  readonly wire: 'openai' | 'azure';
  /** `ollama`: `/v1` is appended to the server's root */
  readonly appendV1?: boolean;
}

const bearer = (defaultApiBase: string | undefined, keyVariables: readonly string[], keyRequired = true) =>
  ({ ...(defaultApiBase ? { defaultApiBase } : {}), keyVariables, keyRequired, wire: 'openai' }) as const;

export const PROVIDERS: Readonly<Record<string, ProviderRule>> = {
  openai: bearer('https://api.openai.com/v1', ['OPENAI_API_KEY']),
  // Rasa's hosted models: an OpenAI-compatible server at api_base, the licence as the key
  rasa: bearer(undefined, ['RASA_LICENSE', 'RASA_PRO_LICENSE'], false),
  'self-hosted': bearer(undefined, [], false),
  self_hosted: bearer(undefined, [], false),
  hosted_vllm: bearer(undefined, ['HOSTED_VLLM_API_KEY'], false),
  vllm: bearer(undefined, [], false),
  lm_studio: bearer('http://localhost:1234/v1', [], false),
  ollama: { ...bearer('http://localhost:11434', [], false), appendV1: true },
  openrouter: bearer('https://openrouter.ai/api/v1', ['OPENROUTER_API_KEY']),
  groq: bearer('https://api.groq.com/openai/v1', ['GROQ_API_KEY']),
  together_ai: bearer('https://api.together.xyz/v1', ['TOGETHERAI_API_KEY', 'TOGETHER_API_KEY']),
  deepseek: bearer('https://api.deepseek.com/v1', ['DEEPSEEK_API_KEY']),
  mistral: bearer('https://api.mistral.ai/v1', ['MISTRAL_API_KEY']),
  fireworks_ai: bearer('https://api.fireworks.ai/inference/v1', [
    'FIREWORKS_AI_API_KEY',
    'FIREWORKS_API_KEY',
  ]),
  perplexity: bearer('https://api.perplexity.ai', ['PERPLEXITYAI_API_KEY', 'PERPLEXITY_API_KEY']),
  xai: bearer('https://api.x.ai/v1', ['XAI_API_KEY']),
  azure: { keyVariables: ['AZURE_API_KEY', 'AZURE_OPENAI_API_KEY'], keyRequired: true, wire: 'azure' },
};

/** the supported names, for error messages */
export function supportedProviders(): string {
  return Object.keys(PROVIDERS).join(', ');
}

/** the Azure OpenAI API version when the model names none (`api_version`) */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';
