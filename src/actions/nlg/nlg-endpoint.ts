/** The `nlg:` section of endpoints.yml when it names an NLG server (Rasa's CallbackNaturalLanguageGenerator). */
export interface NlgEndpoint {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
  readonly timeoutSeconds: number;
}

export type NlgEndpointResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'server'; readonly endpoint: NlgEndpoint }
  | { readonly kind: 'unsupported'; readonly warning: string }
  | { readonly kind: 'invalid'; readonly problems: readonly string[] };

/** Rasa waits 300 s for an NLG server; a user waiting for a reply will not, so 10 s by default. */
export const DEFAULT_NLG_TIMEOUT_SECONDS = 10;

/**
 * Reads `nlg: {url, headers?, params?, token?, token_name?, basic_auth?, timeout?}`. `type: rephrase`
 * (the LLM rephraser) is not implemented: responses then come from the domain, with a warning.
 */
export function parseNlgEndpoint(raw: unknown): NlgEndpointResult {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (!isRecord(raw)) return { kind: 'invalid', problems: ['nlg must be a map of settings'] };
  const type = raw['type'];
  if (typeof type === 'string' && type !== 'callback')
    return {
      kind: 'unsupported',
      warning: `nlg type '${type}' is not supported by Parley; responses come from the domain.`,
    };
  const problems: string[] = [];
  const url = raw['url'];
  if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url))
    problems.push('nlg.url must be an http(s) URL');
  const headers = stringMap(raw['headers'], 'nlg.headers', problems);
  const params = stringMap(raw['params'], 'nlg.params', problems);
  const token = raw['token'];
  if (token !== undefined && token !== null) {
    const tokenName = typeof raw['token_name'] === 'string' ? raw['token_name'] : 'token';
    params[tokenName] = String(token);
  }
  const basic = raw['basic_auth'];
  if (isRecord(basic)) {
    const credentials = `${String(basic['username'] ?? '')}:${String(basic['password'] ?? '')}`;
    headers['Authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const timeout = raw['timeout'] ?? DEFAULT_NLG_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !(timeout > 0))
    problems.push('nlg.timeout must be a positive number of seconds');
  if (problems.length > 0 || typeof url !== 'string') return { kind: 'invalid', problems };
  return { kind: 'server', endpoint: { url, headers, params, timeoutSeconds: Number(timeout) } };
}

function stringMap(raw: unknown, key: string, problems: string[]): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) {
    problems.push(`${key} must be a map`);
    return {};
  }
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, String(value)]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
