/**
 * The public URL of the A2A JSON-RPC endpoint, as the AgentCard advertises it: the configured
 * `a2a_server.url` (its path prefix included), or, without one, what `parley run` listens on:
 * https with `--ssl-certificate`, the `--interface` host (a wildcard address becomes `localhost`,
 * an IPv6 address is bracketed) and the port actually bound (so `--port 0` advertises the real one).
 */
import type { A2aServerConfig } from './config.js';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]', '::0']);

export function resolvePublicUrl(config: Pick<A2aServerConfig, 'url'>, address: ListenAddress): string {
  if (config.url !== undefined) return config.url;
  return `${address.tls ? 'https' : 'http'}://${publicHost(address.host)}:${address.port}`;
}

function publicHost(host: string): string {
  const trimmed = host.trim();
  if (WILDCARD_HOSTS.has(trimmed)) return 'localhost';
  // an IPv6 literal is bracketed, its zone id's `%` escaped (RFC 6874)
  if (trimmed.includes(':') && !trimmed.startsWith('[')) return `[${trimmed.replace('%', '%25')}]`;
  return trimmed;
}
