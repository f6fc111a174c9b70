/**
 * Where push notifications may go (SSRF guard). A callback URL must be http(s) without credentials, its
 * host must match `push_notification_allowed_hosts` when one is set (an exact host, or `*.example.com`
 * for the subdomains of example.com; none configured accepts any host), and every address its name
 * resolves to must be public: loopback, private, CGNAT, link-local (cloud metadata), multicast, reserved,
 * IPv4-mapped and NAT64 addresses are refused. Only an exact entry allows non-public addresses: an
 * operator who lists `127.0.0.1` or `hooks.internal` by name means it; a wildcard never does. URL
 * parsing normalises decimal, octal and hex IPv4 spellings (`2130706433`, `0177.0.0.1`) first. The
 * sender connects to the address checked here (see push-sender.ts), so DNS rebinding gains nothing.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { A2aError } from '../a2a-error.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** all addresses of a host name (dns.lookup with `all: true`) */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface UrlGuardOptions {
  /** lower-cased hosts; `*.example.com` for subdomains */
  readonly allowedHosts: readonly string[];
  readonly resolve?: Resolver;
}

// one list per family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too, so
// `::ffff:0:0/96` in a shared list would refuse every IPv4 address
const NON_PUBLIC_V4 = new BlockList();
const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');

/** even an exactly listed host may not send to these: they are no receiver */
const NEVER_V4 = new BlockList();
NEVER_V4.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER_V4.addSubnet('224.0.0.0', 4, 'ipv4');
NEVER_V4.addAddress('255.255.255.255', 'ipv4');
const NEVER_V6 = new BlockList();
NEVER_V6.addAddress('::', 'ipv6');
NEVER_V6.addSubnet('ff00::', 8, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NON_PUBLIC_V4.check(address, 'ipv4') : !NON_PUBLIC_V6.check(address, 'ipv6');
}

function isNever(address: string, family: 4 | 6): boolean {
  return family === 4 ? NEVER_V4.check(address, 'ipv4') : NEVER_V6.check(address, 'ipv6');
}

export class UrlGuard {
  private readonly allowedHosts: readonly string[];
  private readonly resolver: Resolver;

  constructor(options: UrlGuardOptions) {
    this.allowedHosts = options.allowedHosts;
    this.resolver = options.resolve ?? defaultResolver;
  }

  /** The parsed URL, when its form and host are acceptable (no DNS yet). */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused(`The push notification URL is not a URL: ${raw}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw refused(`The push notification URL must be http or https, not ${url.protocol}`);
    if (url.username !== '' || url.password !== '')
      throw refused('The push notification URL must not carry credentials; use authentication instead.');
    // without an allow-list any host may receive, but only at public addresses (see resolve)
    if (this.allowedHosts.length > 0 && this.match(hostOf(url)) === undefined)
      throw refused(`The host ${hostOf(url)} is not in this agent's push_notification_allowed_hosts.`);
    return url;
  }

  /**
   * The address to connect to for the URL's host: resolved now and checked (all of them must pass, so
   * a name with one private address among public ones is refused).
   */
  async resolve(url: URL): Promise<ResolvedAddress> {
    const host = hostOf(url);
    const exact = this.match(host) === 'exact';
    const family = isIP(host);
    const addresses: readonly ResolvedAddress[] =
      family !== 0 ? [{ address: host, family: family as 4 | 6 }] : await this.lookup(host);
    for (const { address, family: version } of addresses) {
      if (isNever(address, version) || (!exact && !isPublicAddress(address)))
        throw refused(
          `The host ${host} resolves to ${address}, which is not a public address; ` +
            'list the host exactly in push_notification_allowed_hosts to allow it.',
        );
    }
    const first = addresses[0];
    if (!first) throw refused(`The host ${host} does not resolve to any address.`);
    return first;
  }

  private async lookup(host: string): Promise<readonly ResolvedAddress[]> {
    try {
      return await this.resolver(host);
    } catch {
      throw refused(`The host ${host} could not be resolved.`);
    }
  }

  private match(host: string): 'exact' | 'wildcard' | undefined {
    if (this.allowedHosts.includes(host)) return 'exact';
    // an address is no domain: `*.0.0.1` must not allow 127.0.0.1
    if (isIP(host) !== 0) return undefined;
    return this.allowedHosts.some((entry) => entry.startsWith('*.') && host.endsWith(entry.slice(1)))
      ? 'wildcard'
      : undefined;
  }
}

/** lower-case, without the brackets of an IPv6 literal or a trailing dot */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function refused(message: string): A2aError {
  return new A2aError({ reason: 'INVALID_PARAMS', message, metadata: { field: 'url' } });
}

const defaultResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((item) => ({ address: item.address, family: item.family === 6 ? 6 : 4 }));
};
