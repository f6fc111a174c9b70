import { ActionServerError } from './errors.js';

/**
 * Seconds to wait for an action server's answer. Rasa waits 300 s (aiohttp's default); a user waits
 * far less for a reply, so we give up after 30 s unless `timeout` says otherwise.
 */
export const DEFAULT_ACTION_TIMEOUT_SECONDS = 30;
export const DEFAULT_TOKEN_NAME = 'token';

export interface BasicAuth {
  readonly username: string;
  readonly password: string;
}

/** An `action_endpoint` that names an HTTP(S) action server speaking the Rasa SDK protocol. */
export interface ActionEndpointConfig {
  /** posted to as-is (e.g. `http://localhost:5055/webhook`); no sub-path is added */
  readonly url: string;
  /** extra query parameters */
  readonly params: Readonly<Record<string, string>>;
  /** extra headers, merged over `Content-Type: application/json` */
  readonly headers: Readonly<Record<string, string>>;
  readonly basicAuth?: BasicAuth;
  /** sent as the query parameter `<tokenName>=<token>` */
  readonly token?: string;
  readonly tokenName: string;
  readonly timeoutSeconds: number;
  /** send the domain only to actions declared with `send_domain: true` */
  readonly enableSelectiveDomain: boolean;
  /**
   * CA bundle for TLS. Node's global fetch takes no per-request CA, so it is not applied here: start
   * the process with `NODE_EXTRA_CA_CERTS=<cafile>` (parseActionEndpoint warns about it).
   */
  readonly cafile?: string;
}

/**
 * What an `action_endpoint` section asks for: an HTTP action server, or (`actions_module`, Rasa Pro's
 * in-process Python actions) actions that run inside the assistant, which Parley serves with its
 * in-process TypeScript actions.
 */
export type ActionEndpoint =
  | { readonly kind: 'http'; readonly config: ActionEndpointConfig }
  | { readonly kind: 'in-process'; readonly actionsModule: string };

export type ParseActionEndpointResult =
  | {
      readonly ok: true;
      /** undefined when the section is absent or empty: no custom actions can be called */
      readonly endpoint: ActionEndpoint | undefined;
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly error: ActionServerError };

type Problem = { readonly problem: string };

/** Reads the `action_endpoint` section of endpoints.yml (after `${VAR}` interpolation). */
export function parseActionEndpoint(raw: unknown): ParseActionEndpointResult {
  if (raw === undefined || raw === null) return { ok: true, endpoint: undefined, warnings: [] };
  if (!isRecord(raw)) return invalid('action_endpoint must be a map of settings');
  const warnings: string[] = [];
  const actionsModule = raw['actions_module'];
  if (actionsModule !== undefined && actionsModule !== null) {
    if (typeof actionsModule !== 'string' || actionsModule.trim() === '') {
      return invalid('action_endpoint.actions_module must be a non-empty string');
    }
    if (raw['url'] !== undefined && raw['url'] !== null) {
      warnings.push(
        "action_endpoint has both 'actions_module' and 'url'; they are mutually exclusive and " +
          "'actions_module' wins, so actions run in-process.",
      );
    }
    return { ok: true, endpoint: { kind: 'in-process', actionsModule }, warnings };
  }
  if (raw['url'] === undefined || raw['url'] === null) return { ok: true, endpoint: undefined, warnings };
  const config = parseHttpConfig(raw);
  if ('problem' in config) return invalid(config.problem);
  if (config.cafile !== undefined) {
    warnings.push(
      `action_endpoint.cafile is not applied per request by Node's fetch; start Parley with ` +
        `NODE_EXTRA_CA_CERTS=${config.cafile} to trust it.`,
    );
  }
  return { ok: true, endpoint: { kind: 'http', config }, warnings };
}

function parseHttpConfig(raw: Record<string, unknown>): ActionEndpointConfig | Problem {
  const url = parseUrl(raw['url']);
  if (typeof url !== 'string') return url;
  const params = stringMap(raw['params'], 'params');
  if ('problem' in params) return params;
  const headers = stringMap(raw['headers'], 'headers');
  if ('problem' in headers) return headers;
  const basicAuth = parseBasicAuth(raw['basic_auth']);
  if (basicAuth !== undefined && 'problem' in basicAuth) return basicAuth;
  const timeoutSeconds = parseTimeout(raw['timeout']);
  if (typeof timeoutSeconds !== 'number') return timeoutSeconds;
  const enableSelectiveDomain = parseFlag(raw['enable_selective_domain'], 'enable_selective_domain');
  if (typeof enableSelectiveDomain !== 'boolean') return enableSelectiveDomain;
  const token = optionalScalar(raw['token'], 'token');
  if (typeof token === 'object') return token;
  const tokenName = optionalScalar(raw['token_name'], 'token_name');
  if (typeof tokenName === 'object') return tokenName;
  const cafile = optionalScalar(raw['cafile'], 'cafile');
  if (typeof cafile === 'object') return cafile;
  return {
    url,
    params: params.value,
    headers: headers.value,
    ...(basicAuth ? { basicAuth } : {}),
    ...(token === undefined ? {} : { token }),
    tokenName: tokenName ?? DEFAULT_TOKEN_NAME,
    timeoutSeconds,
    enableSelectiveDomain,
    ...(cafile === undefined ? {} : { cafile }),
  };
}

function parseUrl(raw: unknown): string | Problem {
  if (typeof raw !== 'string' || raw.trim() === '')
    return { problem: 'action_endpoint.url must be a string' };
  if (raw.startsWith('grpc://')) {
    return { problem: `action_endpoint.url '${raw}' uses gRPC, which Parley does not support; use http(s)` };
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return {
      problem: `action_endpoint.url '${raw}' is not a valid URL (e.g. http://localhost:5055/webhook)`,
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { problem: `action_endpoint.url '${raw}' must use http or https` };
  }
  return raw;
}

function stringMap(raw: unknown, key: string): { value: Record<string, string> } | Problem {
  if (raw === undefined || raw === null) return { value: {} };
  if (!isRecord(raw)) return { problem: `action_endpoint.${key} must be a map of names to values` };
  const value: Record<string, string> = {};
  for (const [name, item] of Object.entries(raw)) {
    const scalar = optionalScalar(item, `${key}.${name}`);
    if (typeof scalar === 'object') return scalar;
    if (scalar !== undefined) value[name] = scalar;
  }
  return { value };
}

function parseBasicAuth(raw: unknown): BasicAuth | Problem | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw))
    return { problem: 'action_endpoint.basic_auth must be a map with username and password' };
  const username = optionalScalar(raw['username'], 'basic_auth.username');
  const password = optionalScalar(raw['password'], 'basic_auth.password');
  if (typeof username !== 'string' || typeof password !== 'string') {
    return { problem: 'action_endpoint.basic_auth needs a username and a password' };
  }
  return { username, password };
}

function parseTimeout(raw: unknown): number | Problem {
  if (raw === undefined || raw === null) return DEFAULT_ACTION_TIMEOUT_SECONDS;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    return { problem: 'action_endpoint.timeout must be a positive number of seconds' };
  }
  return value;
}

function parseFlag(raw: unknown, key: string): boolean | Problem {
  if (raw === undefined || raw === null) return false;
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return { problem: `action_endpoint.${key} must be true or false` };
}

/** A string, number or boolean as text (values may come from `${VAR}` expansion). */
function optionalScalar(raw: unknown, key: string): string | undefined | Problem {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return { problem: `action_endpoint.${key} must be a string` };
}

function invalid(problem: string): ParseActionEndpointResult {
  return {
    ok: false,
    error: new ActionServerError({ code: 'ACTION_ENDPOINT_INVALID', message: `${problem}.` }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
