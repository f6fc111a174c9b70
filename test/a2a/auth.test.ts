import { Role, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  createAuthenticatingFetchWithRetry,
} from '@a2a-js/sdk/client';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { JwtVerifier } from '../../src/a2a/auth/jwt-verifier.js';
import { AUDIENCE, ISSUER, hmacToken, jwksServer, rsaKey, rsaToken, unsignedToken } from './auth-support.js';
import type { JwksServer, SigningKey } from './auth-support.js';
import { rpc, startRpcServer, v03Send, v1Send } from './rpc-support.js';

const SECRET = 'a-shared-secret-of-at-least-32-characters!';

function jwksConfig(url: string) {
  return {
    keys: { kind: 'jwks' as const, url },
    issuer: ISSUER,
    audience: [AUDIENCE],
    algorithms: ['RS256'],
    leewaySeconds: 30,
  };
}

describe('A2A bearer auth: the JWT verifier', function () {
  this.timeout(20_000);
  let first: SigningKey;
  let second: SigningKey;
  let jwks: JwksServer;

  before(async () => {
    first = await rsaKey('k1');
    second = await rsaKey('k2');
  });
  beforeEach(async () => {
    jwks = await jwksServer([first]);
  });
  afterEach(() => jwks.close());

  it('fetches the JWKS once and verifies later tokens from its cache', async () => {
    const verifier = new JwtVerifier({ config: jwksConfig(jwks.url) });
    for (let index = 0; index < 5; index += 1)
      expect((await verifier.verify(await rsaToken(first))).ok).to.equal(true);
    expect(jwks.fetches()).to.equal(1);
  });

  it('refetches the JWKS for an unknown kid (a rotated key), once the cooldown is over', async () => {
    const verifier = new JwtVerifier({ config: jwksConfig(jwks.url), jwksCooldownMs: 0 });
    expect((await verifier.verify(await rsaToken(first))).ok).to.equal(true);
    jwks.serve([first, second]);
    expect((await verifier.verify(await rsaToken(second))).ok).to.equal(true);
    expect(jwks.fetches()).to.equal(2);
    expect((await verifier.verify(await rsaToken(first))).ok).to.equal(true);
    expect(jwks.fetches()).to.equal(2);
  });

  it('refuses an unknown kid without another fetch inside the cooldown', async () => {
    const verifier = new JwtVerifier({ config: jwksConfig(jwks.url), jwksCooldownMs: 60_000 });
    expect((await verifier.verify(await rsaToken(first))).ok).to.equal(true);
    const result = await verifier.verify(await rsaToken(second));
    expect(result).to.deep.include({ ok: false });
    expect(jwks.fetches()).to.equal(1);
  });

  it('accepts an expiry inside the leeway and refuses one beyond it', async () => {
    const verifier = new JwtVerifier({ config: jwksConfig(jwks.url) });
    expect((await verifier.verify(await rsaToken(first, { expiresIn: -10 }))).ok).to.equal(true);
    const late = await verifier.verify(await rsaToken(first, { expiresIn: -60 }));
    expect(late).to.deep.equal({
      ok: false,
      failure: { kind: 'invalid_token', description: 'The token has expired.' },
    });
  });

  it('says the keys are unavailable when the JWKS cannot be fetched', async () => {
    await jwks.close();
    const verifier = new JwtVerifier({ config: jwksConfig(jwks.url), jwksTimeoutMs: 2_000 });
    const result = await verifier.verify(await rsaToken(first));
    expect(result.ok).to.equal(false);
    expect(!result.ok && result.failure.kind).to.equal('keys_unavailable');
    jwks = await jwksServer([first]);
  });

  it('requires exp', async () => {
    const verifier = new JwtVerifier({
      config: {
        keys: { kind: 'secret', secret: SECRET },
        audience: [],
        algorithms: ['HS256'],
        leewaySeconds: 0,
      },
    });
    const { SignJWT } = await import('jose');
    const forever = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    expect((await verifier.verify(forever)).ok).to.equal(false);
    expect((await verifier.verify(await hmacToken(SECRET))).ok).to.equal(true);
  });
});

describe('A2A bearer auth on the JSON-RPC endpoint (JWKS, RS256)', function () {
  this.timeout(60_000);
  let key: SigningKey;
  let other: SigningKey;
  let jwks: JwksServer;
  let server: ParleyServer;

  before(async () => {
    key = await rsaKey('main');
    other = await rsaKey('stranger');
    jwks = await jwksServer([key]);
    server = await startRpcServer({
      a2a: `auth: {jwks_url: '${jwks.url}', issuer: '${ISSUER}', audience: ${AUDIENCE}, algorithms: [RS256], leeway: 5}`,
    });
  });
  after(async () => {
    await server.close();
    await jwks.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('keeps the AgentCard public and advertises the bearer scheme', async () => {
    const response = await fetch(`${server.baseUrl}/.well-known/agent-card.json`);
    expect(response.status).to.equal(200);
    const card = (await response.json()) as Record<string, unknown>;
    expect(card['securitySchemes']).to.have.property('bearer');
  });

  it('refuses a call without a token: 401, WWW-Authenticate Bearer, a JSON-RPC error body', async () => {
    const answer = await rpc(server.baseUrl, v03Send('hello'));
    expect(answer.status).to.equal(401);
    expect(answer.headers.get('www-authenticate')).to.equal('Bearer realm="a2a"');
    expect(answer.body['id']).to.equal(null);
    expect((answer.body['error'] as { code: number }).code).to.equal(-32011);
  });

  it('answers a call with a valid token', async () => {
    const answer = await rpc(server.baseUrl, v03Send('hello'), bearer(await rsaToken(key)));
    expect(answer.status).to.equal(200);
    expect(answer.body['result']).to.have.property('kind', 'task');
  });

  const refusals: [string, () => Promise<string>, RegExp][] = [
    ['an expired token', () => rsaToken(key, { expiresIn: -60 }), /expired/],
    ['a wrong issuer', () => rsaToken(key, { issuer: 'https://evil.example' }), /iss claim/],
    ['a wrong audience', () => rsaToken(key, { audience: 'someone-else' }), /aud claim/],
    ['alg none', () => Promise.resolve(unsignedToken()), /algorithm/],
    ['an unknown kid', () => rsaToken(other), /key id/],
    ['a key id it knows, signed with another key', () => rsaToken({ ...other, kid: 'main' }), /signature/],
  ];
  for (const [name, token, description] of refusals)
    it(`refuses ${name} with 401 and error="invalid_token"`, async () => {
      const answer = await rpc(server.baseUrl, v1Send('hello'), {
        ...bearer(await token()),
        'A2A-Version': '1.0',
      });
      expect(answer.status).to.equal(401);
      const header = answer.headers.get('www-authenticate') ?? '';
      expect(header).to.match(/^Bearer realm="a2a", error="invalid_token", error_description="/);
      expect(header).to.match(description);
      const error = answer.body['error'] as { code: number; data: { reason: string }[] };
      expect(error.code).to.equal(-32011);
      expect(error.data[0]?.reason).to.equal('UNAUTHENTICATED');
    });

  it('refuses algorithm confusion: an HS256 token keyed with the RSA public key', async () => {
    const forged = await hmacToken(new TextEncoder().encode(key.publicPem), {}, 'main');
    const answer = await rpc(server.baseUrl, v03Send('hello'), bearer(forged));
    expect(answer.status).to.equal(401);
    expect(answer.headers.get('www-authenticate')).to.match(/algorithm/);
  });

  it('guards the extended card methods too', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'GetExtendedAgentCard', params: {} };
    expect((await rpc(server.baseUrl, call, { 'A2A-Version': '1.0' })).status).to.equal(401);
    const v03 = { jsonrpc: '2.0', id: 4, method: 'agent/getAuthenticatedExtendedCard' };
    expect((await rpc(server.baseUrl, v03)).status).to.equal(401);
  });

  it('lets the official client in through its authentication handler (a 401 then a retry with a fresh token)', async () => {
    let retries = 0;
    let token = await rsaToken(key, { expiresIn: -120 });
    const authFetch = createAuthenticatingFetchWithRetry(fetch, {
      headers: () => Promise.resolve({ authorization: `Bearer ${token}` }),
      shouldRetryWithHeaders: async (_request, response) => {
        if (response.status !== 401 || !response.headers.get('www-authenticate')?.startsWith('Bearer'))
          return undefined;
        retries += 1;
        token = await rsaToken(key);
        return { authorization: `Bearer ${token}` };
      },
    });
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }),
        transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
      }),
    ).createFromUrl(server.baseUrl);
    const task = (await client.sendMessage({
      tenant: '',
      metadata: {},
      configuration: undefined,
      message: {
        messageId: crypto.randomUUID(),
        role: Role.ROLE_USER,
        contextId: '',
        taskId: '',
        metadata: {},
        extensions: [],
        referenceTaskIds: [],
        parts: [
          {
            content: { $case: 'text', value: 'send money to Anna' },
            mediaType: '',
            filename: '',
            metadata: undefined,
          },
        ],
      },
    })) as Task;
    expect(task.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(retries).to.equal(1);
    const fetched = jwks.fetches();
    const again = await client.getTask({ tenant: '', id: task.id });
    expect(again.id).to.equal(task.id);
    expect(retries).to.equal(1);
    // the keys come from the cache
    expect(jwks.fetches()).to.equal(fetched);
  });
});

describe('A2A bearer auth on the JSON-RPC endpoint (shared secret, HS256)', function () {
  this.timeout(60_000);
  let server: ParleyServer;

  before(async () => {
    server = await startRpcServer({ a2a: `auth: {secret: '${SECRET}', issuer: '${ISSUER}'}` });
  });
  after(() => server.close());

  it('answers a token signed with the secret and refuses one signed with another', async () => {
    const good = await rpc(server.baseUrl, v03Send('hello'), {
      authorization: `Bearer ${await hmacToken(SECRET)}`,
    });
    expect(good.status).to.equal(200);
    const bad = await hmacToken('another-secret-that-is-at-least-32-chars');
    const refused = await rpc(server.baseUrl, v03Send('hello'), { authorization: `Bearer ${bad}` });
    expect(refused.status).to.equal(401);
    expect(refused.headers.get('www-authenticate')).to.match(/signature/);
  });

  it('refuses an RS256 token (not an allowed algorithm) and a non-Bearer scheme', async () => {
    const rsa = await rsaToken(await rsaKey('x'));
    const answer = await rpc(server.baseUrl, v03Send('hello'), { authorization: `Bearer ${rsa}` });
    expect(answer.status).to.equal(401);
    const basic = await rpc(server.baseUrl, v03Send('hello'), { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).to.equal(401);
    expect(basic.headers.get('www-authenticate')).to.equal('Bearer realm="a2a"');
  });
});
