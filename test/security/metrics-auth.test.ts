/**
 * Finding: /metrics is open while the HTTP API needs a token. Metrics name the channels, the error
 * rates and the load of the server, so anyone reaching the port could watch it. /metrics now follows
 * the HTTP API's auth (the `?token=` parameter, or a JWT whose `user.role` is `admin`) whenever the
 * API has a token or a JWT secret; `metricsWithoutAuth` (`--metrics-without-auth`) opts out, and a
 * server whose API is open or off keeps Rasa's open /metrics.
 */
import { expect } from 'chai';
import { SignJWT } from 'jose';
import type { ParleyServer } from '../../src/cli/serve.js';
import type { ServeOptions } from '../../src/cli/serve.js';
import { API_TOKEN, startSecureServer, stillServes } from './support.js';

const JWT_SECRET = 'the-http-api-jwt-secret-of-32-characters+';

async function apiJwt(role: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ user: { username: 'x', role } })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

interface Scrape {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

async function scrape(
  server: ParleyServer,
  options: { query?: string; headers?: Record<string, string> } = {},
): Promise<Scrape> {
  const response = await fetch(`${server.baseUrl}/metrics${options.query ?? ''}`, {
    headers: options.headers ?? {},
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

function expectPrometheusText(answer: Scrape): void {
  expect(answer.status).to.equal(200);
  expect(answer.contentType).to.match(/^text\/plain/);
  expect(answer.text).to.contain('parley_turns_total');
}

function expectRasaError(answer: Scrape, status: number, reason: string): void {
  expect(answer.status).to.equal(status);
  expect(answer.text).to.not.contain('parley_turns_total');
  expect(JSON.parse(answer.text)).to.deep.include({ status: 'failure', reason, code: status });
}

/** a server for one describe block, closed after it */
function serverWith(serve: Partial<ServeOptions>): () => ParleyServer {
  let server: ParleyServer | undefined;
  before(async () => {
    server = await startSecureServer({ serve });
  });
  after(() => server?.close());
  return () => {
    if (!server) throw new Error('the server did not start');
    return server;
  };
}

describe('Security: /metrics behind the HTTP API token', function () {
  this.timeout(60_000);
  const server = serverWith({ auth: { token: API_TOKEN } });

  it('refuses a scrape without credentials with 401 NotAuthenticated', async () => {
    const answer = await scrape(server());
    expectRasaError(answer, 401, 'NotAuthenticated');
    expect(JSON.parse(answer.text)).to.deep.include({ message: 'User is not authenticated.' });
  });

  it('refuses a scrape with a wrong token with 401', async () => {
    expectRasaError(await scrape(server(), { query: '?token=not-the-token' }), 401, 'NotAuthenticated');
    expectRasaError(await scrape(server(), { query: `?token=${API_TOKEN}x` }), 401, 'NotAuthenticated');
  });

  it('serves the Prometheus text to a scrape with the right token', async () => {
    expectPrometheusText(await scrape(server(), { query: `?token=${API_TOKEN}` }));
  });

  it('still answers a normal request after the refused scrapes', async () => {
    await scrape(server());
    expect(await stillServes(server())).to.equal(true);
  });
});

describe('Security: /metrics behind the HTTP API JWT', function () {
  this.timeout(60_000);
  const server = serverWith({ auth: { jwtSecret: JWT_SECRET, jwtMethod: 'HS256' } });

  it('serves an admin JWT', async () => {
    const headers = { authorization: `Bearer ${await apiJwt('admin')}` };
    expectPrometheusText(await scrape(server(), { headers }));
  });

  it('refuses a user-role JWT with 403 NotAuthorized', async () => {
    const headers = { authorization: `Bearer ${await apiJwt('user')}` };
    expectRasaError(await scrape(server(), { headers }), 403, 'NotAuthorized');
  });

  it('refuses a scrape without a JWT with 401', async () => {
    expectRasaError(await scrape(server()), 401, 'NotAuthenticated');
  });

  it('refuses a JWT signed with another secret with 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ user: { username: 'x', role: 'admin' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode(`${JWT_SECRET}-but-another`));
    const headers = { authorization: `Bearer ${forged}` };
    expectRasaError(await scrape(server(), { headers }), 401, 'NotAuthenticated');
    expect(await stillServes(server())).to.equal(true);
  });
});

describe('Security: metricsWithoutAuth opens /metrics only', function () {
  this.timeout(60_000);
  const server = serverWith({ auth: { token: API_TOKEN }, metricsWithoutAuth: true });

  it('serves /metrics without credentials', async () => {
    expectPrometheusText(await scrape(server()));
  });

  it('keeps the HTTP API behind its token', async () => {
    const response = await fetch(`${server().baseUrl}/conversations/someone/tracker`);
    expect(response.status).to.equal(401);
    expect(await stillServes(server())).to.equal(true);
  });
});

describe('Security: /metrics stays open where the HTTP API is (Rasa’s default)', function () {
  this.timeout(60_000);

  describe('with the HTTP API enabled without a token or JWT', () => {
    const server = serverWith({ auth: {} });

    it('serves /metrics without credentials', async () => {
      expectPrometheusText(await scrape(server()));
      expect(await stillServes(server())).to.equal(true);
    });
  });

  describe('with the HTTP API off', () => {
    const server = serverWith({ enableApi: false });

    it('serves /metrics without credentials', async () => {
      expectPrometheusText(await scrape(server()));
      expect(await stillServes(server())).to.equal(true);
    });
  });
});
