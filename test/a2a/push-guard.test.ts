import { expect } from 'chai';
import { A2aError } from '../../src/a2a/a2a-error.js';
import { PushSender } from '../../src/a2a/push/push-sender.js';
import { UrlGuard, isPublicAddress } from '../../src/a2a/push/url-guard.js';
import type { Resolver } from '../../src/a2a/push/url-guard.js';
import type { Logger } from '../../src/runtime/logger.js';
import { receiver } from './push-support.js';

async function refusal(action: () => unknown): Promise<string> {
  try {
    await action();
  } catch (error) {
    expect(error).to.be.instanceOf(A2aError);
    expect((error as A2aError).reason).to.equal('INVALID_PARAMS');
    return (error as A2aError).message;
  }
  throw new Error('expected a refusal');
}

/** a DNS answer per name (the guard's resolver is its one seam; the checks themselves are real) */
function dns(table: Record<string, string[]>): Resolver {
  return (host) => {
    const found = table[host];
    if (!found) return Promise.reject(new Error('ENOTFOUND'));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}

function recordingLogger(
  lines: { level: string; fields: Record<string, unknown>; message: string }[],
): Logger {
  const log = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, fields, message });
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

describe('A2A push: the URL guard', () => {
  it('without an allow-list accepts any host, but only at public addresses', async () => {
    const guard = new UrlGuard({
      allowedHosts: [],
      resolve: dns({
        'hooks.example.com': ['93.184.216.34'],
        'inside.example.com': ['10.0.0.5'],
        localhost: ['127.0.0.1', '::1'],
      }),
    });
    const resolved = async (raw: string) => guard.resolve(guard.checkUrl(raw));
    expect(await resolved('https://hooks.example.com/hook')).to.deep.equal({
      address: '93.184.216.34',
      family: 4,
    });
    expect(await resolved('http://8.8.8.8:8080/')).to.deep.equal({ address: '8.8.8.8', family: 4 });
    for (const url of [
      'https://inside.example.com/',
      'http://localhost:9/',
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data',
    ])
      expect(await refusal(() => resolved(url))).to.match(/not a public address/);
    // the form checks still apply
    expect(await refusal(() => guard.checkUrl('file:///etc/passwd'))).to.match(/http or https/);
    expect(await refusal(() => guard.checkUrl('https://u:p@hooks.example.com/'))).to.match(/credentials/);
  });

  it('refuses schemes other than http(s), credentials in the URL and hosts not listed', async () => {
    const guard = new UrlGuard({ allowedHosts: ['hooks.example.com', '*.corp.example'] });
    expect(await refusal(() => guard.checkUrl('file:///etc/passwd'))).to.match(/http or https/);
    expect(await refusal(() => guard.checkUrl('ftp://hooks.example.com/'))).to.match(/http or https/);
    expect(await refusal(() => guard.checkUrl('https://u:p@hooks.example.com/'))).to.match(/credentials/);
    expect(await refusal(() => guard.checkUrl('https://evil.example/'))).to.match(/not in this agent/);
    // a wildcard is for subdomains, not the apex nor look-alike suffixes
    expect(await refusal(() => guard.checkUrl('https://corp.example/'))).to.match(/not in this agent/);
    expect(await refusal(() => guard.checkUrl('https://evilcorp.example/'))).to.match(/not in this agent/);
    expect(guard.checkUrl('https://HOOKS.example.com./x').hostname).to.equal('hooks.example.com.');
    expect(guard.checkUrl('https://a.b.corp.example/').hostname).to.equal('a.b.corp.example');
  });

  it('reads decimal, octal and hex IPv4 spellings as the address they are', async () => {
    const guard = new UrlGuard({ allowedHosts: ['hooks.example.com'] });
    for (const url of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/'])
      expect(await refusal(() => guard.checkUrl(url))).to.match(/host 127\.0\.0\.1 is not/);
  });

  it('does not let a wildcard match an address', async () => {
    const guard = new UrlGuard({ allowedHosts: ['*.0.0.1'] });
    expect(await refusal(() => guard.checkUrl('http://127.0.0.1/'))).to.match(/not in this agent/);
  });

  it('classifies loopback, private, link-local, CGNAT, multicast, IPv4-mapped and NAT64 as not public', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
    ])
      expect(isPublicAddress(address), address).to.equal(false);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(isPublicAddress(address), address).to.equal(true);
  });

  it('refuses a listed wildcard host that resolves to a private address (any of its addresses)', async () => {
    const guard = new UrlGuard({
      allowedHosts: ['*.example.com'],
      resolve: dns({
        'inside.example.com': ['10.0.0.5'],
        'mixed.example.com': ['93.184.216.34', '169.254.169.254'],
        'mapped.example.com': ['::ffff:127.0.0.1'],
        'public.example.com': ['93.184.216.34'],
      }),
    });
    for (const host of ['inside', 'mixed', 'mapped'])
      expect(await refusal(() => guard.resolve(new URL(`https://${host}.example.com/`)))).to.match(
        /not a public address/,
      );
    expect(await refusal(() => guard.resolve(new URL('https://missing.example.com/')))).to.match(/resolved/);
    expect(await guard.resolve(new URL('https://public.example.com/'))).to.deep.equal({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('lets an exactly listed host reach a private address, never an IPv6 literal of loopback', async () => {
    const guard = new UrlGuard({ allowedHosts: ['127.0.0.1'] });
    expect(await guard.resolve(guard.checkUrl('http://127.0.0.1:9/'))).to.deep.equal({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await refusal(() => guard.checkUrl('http://[::ffff:127.0.0.1]/'))).to.match(/not in this agent/);
  });

  it('connects to the address it checked: a name rebinding to 127.0.0.1 after the check reaches nothing', async () => {
    const local = await receiver();
    let answers = 0;
    const guard = new UrlGuard({
      allowedHosts: ['*.example.com'],
      // public at registration, loopback at delivery: the classic rebinding
      resolve: (host) => {
        answers += 1;
        const address = answers === 1 ? '93.184.216.34' : '127.0.0.1';
        return host === 'hooks.example.com'
          ? Promise.resolve([{ address, family: 4 }])
          : Promise.reject(new Error('x'));
      },
    });
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const sender = new PushSender({ guard, logger: recordingLogger(lines), retries: 0, timeoutMs: 1_000 });
    const url = guard.checkUrl(`http://hooks.example.com:${local.port}/hook`);
    await guard.resolve(url);
    const sent = await sender.deliver({ url, headers: {}, body: '{}', taskId: 't', configId: 'c' });
    expect(sent).to.equal(false);
    expect(local.received).to.have.length(0);
    expect(lines[0]?.fields['reason']).to.match(/127\.0\.0\.1, which is not a public address/);
    await local.close();
  });

  it('retries a receiver that is down with backoff, then logs the failure and reports false', async () => {
    const gone = await receiver();
    await gone.close();
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const guard = new UrlGuard({ allowedHosts: ['127.0.0.1'] });
    const sender = new PushSender({ guard, logger: recordingLogger(lines), retries: 2, backoffMs: 500 });
    const started = Date.now();
    const sent = await sender.deliver({
      url: new URL(gone.url),
      headers: {},
      body: '{}',
      taskId: 't',
      configId: 'c',
    });
    expect(sent).to.equal(false);
    expect(lines.map((line) => line.level)).to.deep.equal(['warn', 'warn', 'error']);
    expect(lines.map((line) => line.fields['retryInMs'])).to.deep.equal([500, 1_000, undefined]);
    // and it did wait those 1.5 s (three refused attempts alone take some 100 ms on a busy machine; a
    // timer fires at most a little early when the event loop's clock is stale)
    expect(Date.now() - started).to.be.at.least(1_200);
    expect(lines[2]).to.deep.include({ message: 'a2a push notification failed' });
    expect(lines[2]?.fields['attempts']).to.equal(3);
  });

  it('does not retry a 4xx, retries a 5xx, and does not follow a redirect', async () => {
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const guard = new UrlGuard({ allowedHosts: ['127.0.0.1'] });
    const sender = new PushSender({ guard, logger: recordingLogger(lines), retries: 2, backoffMs: 5 });
    for (const [status, attempts] of [
      [400, 1],
      [503, 3],
      [302, 1],
    ] as const) {
      const target = await receiver(status);
      const sent = await sender.deliver({
        url: new URL(target.url),
        headers: {},
        body: '{}',
        taskId: 't',
        configId: 'c',
      });
      expect(sent).to.equal(false);
      expect(target.received, String(status)).to.have.length(attempts);
      await target.close();
    }
  });
});

/** IPv6 addresses that are no public receiver, by the range that makes them so */
const REFUSED_V6: readonly (readonly [string, string])[] = [
  ['::7f00:1', 'IPv4-compatible (::/96) embedding 127.0.0.1'],
  ['2002:7f00:1::', '6to4 (2002::/16) of 127.0.0.1'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use (64:ff9b:1::/48)'],
  ['64:ff9b::7f00:1', 'NAT64 well-known (64:ff9b::/96)'],
  ['2001::1', 'Teredo (2001::/32)'],
  ['::ffff:0:7f00:1', 'RFC 6145 translated (::ffff:0:0:0/96)'],
  ['fec0::1', 'site-local (fec0::/10)'],
  ['::1', 'loopback'],
  ['fc00::1', 'unique local (fc00::/7)'],
  ['fe80::1', 'link-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['100::1', 'discard (100::/64)'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
];
const PUBLIC: readonly string[] = ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::1'];

describe('A2A push: the URL guard on IPv6 ranges (ipaddr.js classification)', () => {
  it('classifies every IPv6 range that embeds an IPv4 address or is not global unicast as not public', () => {
    for (const [address, kind] of REFUSED_V6) expect(isPublicAddress(address), kind).to.equal(false);
    for (const address of PUBLIC) expect(isPublicAddress(address), address).to.equal(true);
  });

  it('refuses a name resolving to any of those ranges and accepts one resolving to a public address', async () => {
    const table: Record<string, string[]> = {};
    REFUSED_V6.forEach(([address], index) => (table[`bad${index}.example.com`] = [address]));
    PUBLIC.forEach((address, index) => (table[`good${index}.example.com`] = [address]));
    const guard = new UrlGuard({ allowedHosts: [], resolve: dns(table) });
    for (const [index, [address, kind]] of REFUSED_V6.entries()) {
      const url = guard.checkUrl(`https://bad${index}.example.com/hook`);
      expect(await refusal(() => guard.resolve(url)), kind).to.include(
        `resolves to ${address}, which is not`,
      );
    }
    for (const [index, address] of PUBLIC.entries())
      expect(await guard.resolve(guard.checkUrl(`https://good${index}.example.com/`))).to.deep.equal({
        address,
        family: address.includes(':') ? 6 : 4,
      });
  });

  it('refuses those ranges as URL literals and accepts a public IPv6 literal', async () => {
    const guard = new UrlGuard({ allowedHosts: [] });
    for (const [address, kind] of REFUSED_V6)
      expect(await refusal(() => guard.resolve(guard.checkUrl(`http://[${address}]:8080/`))), kind).to.match(
        /not a public address/,
      );
    expect(await guard.resolve(guard.checkUrl('https://[2606:4700:4700::1111]/hook'))).to.deep.equal({
      address: '2606:4700:4700::1111',
      family: 6,
    });
  });

  it('lets an exactly listed IPv4-mapped host through, but not a mapped unspecified or multicast address', async () => {
    // the URL parser writes `[::ffff:127.0.0.1]` as `[::ffff:7f00:1]`: that is the host to list
    const guard = new UrlGuard({ allowedHosts: ['::ffff:7f00:1', '::ffff:0:0', '::ffff:e000:1'] });
    expect(await guard.resolve(guard.checkUrl('http://[::ffff:127.0.0.1]:9/'))).to.deep.equal({
      address: '::ffff:7f00:1',
      family: 6,
    });
    for (const url of ['http://[::ffff:0.0.0.0]/', 'http://[::ffff:224.0.0.1]/'])
      expect(await refusal(() => guard.resolve(guard.checkUrl(url))), url).to.match(/not a public address/);
  });
});
