import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import type { JWTPayload } from 'jose';
import { ApiAuth } from '../../src/server/auth.js';
import { rasaError, startApiServer } from './api-support.js';
import type { ApiServer } from './api-support.js';

const TOKEN = 'tok-123';
const SECRET = 'a-shared-secret-for-the-api-tests';
const NOW = () => Math.floor(Date.now() / 1000);

const admin = { user: { username: 'root', role: 'admin' } };
const userAnn = { user: { username: 'ann', role: 'user' } };

function hmacJwt(payload: JWTPayload, options: { alg?: string; secret?: string | Uint8Array } = {}) {
  const secret = options.secret ?? SECRET;
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? 'HS256' }).sign(key);
}

/** An unsigned token (`alg: none`), which must never pass. */
function unsignedJwt(payload: JWTPayload): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}

const bearer = (jwt: string) => ({ headers: { Authorization: `Bearer ${jwt}` } });

describe('HTTP API auth (token and JWT, as Rasa)', function () {
  this.timeout(60_000);

  describe('with a token and an HS256 secret', () => {
    let api: ApiServer;
    before(async () => {
      api = await startApiServer({ auth: { token: TOKEN, jwtSecret: SECRET, jwtMethod: 'HS256' } });
    });
    after(() => api.close());

    const status = async (path: string, options = {}) => (await api.request('GET', path, options)).status;

    it('keeps GET / and GET /version public', async () => {
      expect(await status('/')).to.equal(200);
      expect(await status('/version')).to.equal(200);
    });

    it('refuses a request without credentials with 401 NotAuthenticated', async () => {
      const response = await api.request('GET', '/status');
      expect(response.status).to.equal(401);
      expect(response.json).to.deep.include({
        ...rasaError(401, 'NotAuthenticated'),
        message: 'User is not authenticated.',
      });
      expect(await status('/conversations/ann/tracker')).to.equal(401);
      expect(await status('/flows')).to.equal(401);
    });

    it('lets the right ?token= in, on every route, and refuses a wrong one', async () => {
      expect(await status(`/status?token=${TOKEN}`)).to.equal(200);
      expect(await status(`/conversations/bob/tracker?token=${TOKEN}`)).to.equal(200);
      expect(await status('/status?token=tok-12')).to.equal(401);
      expect(await status(`/status?token=${TOKEN}&token=${TOKEN}`)).to.equal(401);
    });

    it('lets an admin JWT in on every route', async () => {
      const jwt = await hmacJwt(admin);
      expect(await status('/status', bearer(jwt))).to.equal(200);
      expect(await status('/conversations/anyone/tracker', bearer(jwt))).to.equal(200);
    });

    it("lets a user JWT into its own conversation only: others' and routes without one are 403", async () => {
      const jwt = await hmacJwt(userAnn);
      expect(await status('/conversations/ann/tracker', bearer(jwt))).to.equal(200);
      const other = await api.request('GET', '/conversations/bob/tracker', bearer(jwt));
      expect(other.status).to.equal(403);
      expect(other.json).to.deep.include({
        ...rasaError(403, 'NotAuthorized'),
        message: 'User has insufficient permissions.',
      });
      expect(await status('/status', bearer(jwt))).to.equal(403);
      const write = await api.request('POST', '/conversations/bob/tracker/events', {
        ...bearer(jwt),
        body: { event: 'restart' },
      });
      expect(write.status).to.equal(403);
      expect(await api.store.loadAll('bob')).to.deep.equal([]);
    });

    it('matches a user whose name contains a slash against the whole conversation id', async () => {
      const jwt = await hmacJwt({ user: { username: 'team/ann', role: 'user' } });
      expect(await status('/conversations/team/ann/tracker', bearer(jwt))).to.equal(200);
      expect(await status('/conversations/team%2Fann/tracker', bearer(jwt))).to.equal(200);
      expect(await status('/conversations/team/tracker', bearer(jwt))).to.equal(403);
    });

    it('answers 403 for a valid JWT without a known role', async () => {
      expect(await status('/conversations/ann/tracker', bearer(await hmacJwt({ sub: 'ann' })))).to.equal(403);
      const guest = await hmacJwt({ user: { username: 'ann', role: 'guest' } });
      expect(await status('/conversations/ann/tracker', bearer(guest))).to.equal(403);
    });

    it('refuses another algorithm, alg none, a wrong secret, an expired or not yet valid token with 401', async () => {
      const cases = {
        hs512: await hmacJwt(admin, { alg: 'HS512' }),
        none: unsignedJwt(admin),
        wrongSecret: await hmacJwt(admin, { secret: 'another-secret-of-the-same-size!' }),
        expired: await hmacJwt({ ...admin, exp: NOW() - 60 }),
        notYet: await hmacJwt({ ...admin, nbf: NOW() + 3600 }),
        garbage: 'not.a.jwt',
      };
      for (const [name, jwt] of Object.entries(cases))
        expect(await status('/status', bearer(jwt)), name).to.equal(401);
      expect(
        await status('/status', { headers: { Authorization: `Basic ${await hmacJwt(admin)}` } }),
      ).to.equal(401);
    });

    it('lets a valid token in whatever the JWT says (the token is checked first)', async () => {
      expect(await status(`/status?token=${TOKEN}`, bearer(unsignedJwt(admin)))).to.equal(200);
      expect(
        await status(`/conversations/bob/tracker?token=${TOKEN}`, bearer(await hmacJwt(userAnn))),
      ).to.equal(200);
    });
  });

  describe('with an RS256 public key', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    let api: ApiServer;
    before(async () => {
      api = await startApiServer({ auth: { jwtSecret: publicPem, jwtMethod: 'RS256' } });
    });
    after(() => api.close());

    it('accepts tokens signed with the private key', async () => {
      const jwt = await new SignJWT(admin).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
      expect((await api.request('GET', '/status', bearer(jwt))).status).to.equal(200);
    });

    it('refuses an HS256 token signed with the public key as its secret (algorithm confusion)', async () => {
      const forged = await hmacJwt(admin, { secret: publicPem });
      expect((await api.request('GET', '/status', bearer(forged))).status).to.equal(401);
      const ps256 = await new SignJWT(admin).setProtectedHeader({ alg: 'PS256' }).sign(privateKey);
      expect((await api.request('GET', '/status', bearer(ps256))).status).to.equal(401);
    });

    it('reads a PEM whose line breaks are written as \\n (an environment variable)', async () => {
      const auth = await ApiAuth.create({ jwtSecret: publicPem.replace(/\n/g, '\\n'), jwtMethod: 'RS256' });
      const jwt = await new SignJWT(userAnn).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
      const decision = await auth.decide({
        token: undefined,
        authorization: `Bearer ${jwt}`,
        conversationId: 'ann',
      });
      expect(decision).to.deep.equal({ allowed: true, via: 'jwt' });
    });
  });

  describe('with a token only', () => {
    let api: ApiServer;
    before(async () => {
      api = await startApiServer({ auth: { token: TOKEN } });
    });
    after(() => api.close());

    it('ignores JWTs (none is configured): 401 without the token', async () => {
      expect((await api.request('GET', '/status', bearer(await hmacJwt(admin)))).status).to.equal(401);
      expect((await api.request('GET', `/status?token=${TOKEN}`)).status).to.equal(200);
    });
  });

  describe('without token and JWT', () => {
    let api: ApiServer;
    before(async () => {
      api = await startApiServer();
    });
    after(() => api.close());

    it('leaves every route open, whatever credentials come along', async () => {
      expect((await api.request('GET', '/status')).status).to.equal(200);
      expect((await api.request('GET', '/status', bearer(unsignedJwt(admin)))).status).to.equal(200);
      expect((await api.request('GET', '/conversations/x/tracker?token=nothing')).status).to.equal(200);
    });
  });

  describe('configuration errors', () => {
    it('refuses an unknown --jwt-method and a public key that does not read', async () => {
      const errors = await Promise.all([
        ApiAuth.create({ jwtSecret: SECRET, jwtMethod: 'XS256' }).catch((error: unknown) => error),
        ApiAuth.create({ jwtSecret: 'not a key', jwtMethod: 'RS256' }).catch((error: unknown) => error),
        ApiAuth.create({ jwtSecret: SECRET, jwtMethod: 'none' }).catch((error: unknown) => error),
      ]);
      expect(errors.map((error) => (error as { code?: string }).code)).to.deep.equal(
        Array(3).fill('AUTH_CONFIG_INVALID'),
      );
    });

    it('keeps the server from starting with them', async () => {
      const failed = await startApiServer({ auth: { jwtSecret: 'x', jwtMethod: 'ES256' } }).catch(
        (error: unknown) => error,
      );
      expect((failed as { code?: string }).code).to.equal('AUTH_CONFIG_INVALID');
    });
  });
});
