/**
 * Where push notifications may go (SSRF guard). A callback URL must be http(s) without credentials, its
 * host must match `push_notification_allowed_hosts` when one is set (an exact host, or `*.example.com`
 * for the subdomains of example.com; none configured accepts any host), and every address its name
 * resolves to must be public. What is public is ipaddr.js's range table, not a list of our own: an
 * address is public when ipaddr.js calls it plain `unicast` and, for IPv6, it lies in the global unicast
 * allocation 2000::/3. So loopback, private, CGNAT, link-local (cloud metadata), multicast, reserved,
 * IPv4-mapped and every IPv6 form that embeds an IPv4 address (IPv4-compatible `::a.b.c.d`, 6to4,
 * NAT64, Teredo, RFC 6145 translated) or is local (ULA, site-local) are refused. Only an exact entry
 * allows non-public addresses: an operator who lists `127.0.0.1` or `hooks.internal` by name means it;
 * a wildcard never does. URL parsing normalises decimal, octal and hex IPv4 spellings (`2130706433`,
 * `0177.0.0.1`) first. The sender connects to the address checked here (see push-sender.ts), so DNS
 * rebinding gains nothing.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
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

// ipaddr.js has no range for IPv4-compatible `::a.b.c.d` (::/96) and calls it `unicast`; everything
// outside the global allocation is no address a receiver on the internet has
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** even an exactly listed host may not send to these: they are no receiver */
const NEVER: ReadonlySet<string> = new Set(['unspecified', 'multicast', 'broadcast']);

/** `isIP` first: ipaddr.js alone would also read loose spellings such as `127.1` */
function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return isIP(address) === 0 ? undefined : ipaddr.parse(address);
}

export function isPublicAddress(address: string): boolean {
  const parsed = parse(address);
  // an IPv4-mapped address is ipaddr.js's `ipv4Mapped`, so refused: the socket would reach IPv4
  if (!parsed || parsed.range() !== 'unicast') return false;
  return parsed instanceof ipaddr.IPv4 || parsed.match(GLOBAL_UNICAST_V6);
}

function isNever(address: string): boolean {
  const parsed = parse(address);
  if (!parsed) return true;
  // the socket of a mapped address connects over IPv4, so its IPv4 address is what counts here
  const target =
    parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  return NEVER.has(target.range());
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
    for (const { address } of addresses) {
      if (isNever(address) || (!exact && !isPublicAddress(address)))
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
