/**
 * The MCP servers of endpoints.yml (`mcp_servers`), as Rasa reads them: `name`, `url`, `type` (http or
 * https; the transport is MCP's Streamable HTTP either way) and the auth keys beside them: `api_key`
 * (with `header_name`, default Authorization, and `header_format`, default `Bearer {key}`) or `token`
 * (a bearer token). As in Rasa, secrets are written `${VAR}` and read from the environment here, quoted
 * or not. Parley adds `timeout` (seconds, for the whole call: connect, tool lookup and the call; Rasa
 * waits 10 s for a tool's answer).
 */
export interface McpServerConfig {
  readonly name: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export const DEFAULT_MCP_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 600;
const SERVER_TYPES: ReadonlySet<string> = new Set(['http', 'https']);

export type McpServersResult =
  | { readonly ok: true; readonly servers: ReadonlyMap<string, McpServerConfig> }
  | { readonly ok: false; readonly problems: readonly string[] };

export type Environment = Readonly<Record<string, string | undefined>>;

export function mcpServersOf(
  endpoints: Readonly<Record<string, unknown>>,
  env: Environment,
): McpServersResult {
  const entries = endpoints['mcp_servers'];
  const servers = new Map<string, McpServerConfig>();
  const problems: string[] = [];
  if (entries === undefined || entries === null) return { ok: true, servers };
  if (!Array.isArray(entries)) return { ok: false, problems: ['mcp_servers must be a list of servers'] };
  entries.forEach((entry, index) => {
    const server = serverOf(entry, `mcp_servers[${index}]`, { problems, env });
    if (!server) return;
    if (servers.has(server.name)) problems.push(`mcp_servers: the name '${server.name}' is used twice`);
    else servers.set(server.name, server);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, servers };
}

interface Reading {
  readonly problems: string[];
  readonly env: Environment;
}

function serverOf(entry: unknown, where: string, reading: Reading): McpServerConfig | undefined {
  const { problems } = reading;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    problems.push(`${where} must be a map with a name, a url and a type`);
    return undefined;
  }
  const fields = entry as Record<string, unknown>;
  const before = problems.length;
  const name = textField(fields, 'name', where, problems);
  const url = urlField(fields, where, problems);
  const type = textField(fields, 'type', where, problems);
  if (type !== undefined && !SERVER_TYPES.has(type.toLowerCase()))
    problems.push(`${where}.type '${type}' is not supported: use http or https`);
  const timeoutMs = timeoutOf(fields['timeout'], where, problems);
  const headers = authHeaders(fields, where, reading);
  if (problems.length > before || name === undefined || url === undefined) return undefined;
  return { name, url, headers, timeoutMs };
}

function textField(
  fields: Record<string, unknown>,
  key: string,
  where: string,
  problems: string[],
): string | undefined {
  const value = fields[key];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  problems.push(`${where}.${key} is required and must be text`);
  return undefined;
}

function urlField(fields: Record<string, unknown>, where: string, problems: string[]): URL | undefined {
  const text = textField(fields, 'url', where, problems);
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  problems.push(`${where}.url '${text}' must be an http:// or https:// URL`);
  return undefined;
}

function timeoutOf(value: unknown, where: string, problems: string[]): number {
  if (value === undefined || value === null) return DEFAULT_MCP_TIMEOUT_SECONDS * 1000;
  const seconds = typeof value === 'string' ? Number(value) : value;
  if (
    typeof seconds === 'number' &&
    Number.isFinite(seconds) &&
    seconds > 0 &&
    seconds <= MAX_TIMEOUT_SECONDS
  )
    return Math.round(seconds * 1000);
  problems.push(`${where}.timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`);
  return DEFAULT_MCP_TIMEOUT_SECONDS * 1000;
}

function authHeaders(
  fields: Record<string, unknown>,
  where: string,
  reading: Reading,
): Record<string, string> {
  if (fields['oauth'] !== undefined || fields['module'] !== undefined) {
    reading.problems.push(
      `${where}: OAuth and custom auth modules are not supported yet; use api_key or token`,
    );
    return {};
  }
  const apiKey = secret(fields, 'api_key', where, reading);
  if (apiKey !== undefined) {
    const header = typeof fields['header_name'] === 'string' ? fields['header_name'] : 'Authorization';
    const format = typeof fields['header_format'] === 'string' ? fields['header_format'] : 'Bearer {key}';
    return { [header]: format.replace('{key}', apiKey) };
  }
  const token = secret(fields, 'token', where, reading);
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}

function secret(
  fields: Record<string, unknown>,
  key: string,
  where: string,
  reading: Reading,
): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  const missing: string[] = [];
  const expanded = text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    const resolved = reading.env[name];
    if (resolved === undefined) missing.push(name);
    return resolved ?? whole;
  });
  if (missing.length > 0)
    reading.problems.push(`${where}.${key}: environment variable ${missing.join(', ')} not set`);
  return expanded;
}
