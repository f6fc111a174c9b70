import { expect } from 'chai';
import { majorMinor, parseRequestedVersion } from '../../src/a2a/protocol-version.js';
import { resolvePublicUrl } from '../../src/a2a/public-url.js';

describe('A2A public URL', () => {
  it('is the configured url as written (normalised), whatever the server listens on', () => {
    const url = 'https://bot.example.com/agents/bank';
    expect(resolvePublicUrl({ url }, { host: '0.0.0.0', port: 5005, tls: false })).to.equal(url);
  });

  it('is inferred from --interface, the bound port and TLS otherwise', () => {
    const infer = (host: string, tls = false) => resolvePublicUrl({}, { host, port: 5005, tls });
    expect(infer('0.0.0.0')).to.equal('http://localhost:5005');
    expect(infer('::')).to.equal('http://localhost:5005');
    expect(infer('')).to.equal('http://localhost:5005');
    expect(infer('127.0.0.1')).to.equal('http://127.0.0.1:5005');
    expect(infer('bot.internal', true)).to.equal('https://bot.internal:5005');
    expect(infer('::1')).to.equal('http://[::1]:5005');
    expect(infer('fe80::1%eth0')).to.equal('http://[fe80::1%25eth0]:5005');
  });
});

describe('A2A-Version', () => {
  it('counts Major.Minor only; missing or empty means a v0.3 client', () => {
    expect(majorMinor('1.0.2')).to.equal('1.0');
    expect(majorMinor('1')).to.equal('1.0');
    expect(majorMinor(' 0.3 ')).to.equal('0.3');
    expect(majorMinor('latest')).to.equal(undefined);
    expect(parseRequestedVersion(undefined)).to.deep.equal({ kind: 'absent' });
    expect(parseRequestedVersion('')).to.deep.equal({ kind: 'absent' });
    expect(parseRequestedVersion('1.0.1')).to.deep.equal({ kind: 'supported', version: '1.0' });
    expect(parseRequestedVersion('0.3.0')).to.deep.equal({ kind: 'supported', version: '0.3' });
    expect(parseRequestedVersion('0.2.5')).to.deep.equal({ kind: 'unsupported', requested: '0.2.5' });
    expect(parseRequestedVersion('banana')).to.deep.equal({ kind: 'unsupported', requested: 'banana' });
  });
});
