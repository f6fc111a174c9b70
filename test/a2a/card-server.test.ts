import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { expect } from 'chai';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { AppError } from '../../src/core/errors.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { A2A_DOMAIN, A2A_ENDPOINTS, writeA2aProject, writeProjectFile } from './a2a-project.js';

const CARD = '/.well-known/agent-card.json';

async function serve(root: string, env: Record<string, string> = {}): Promise<ParleyServer> {
  return startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger: SILENT_LOGGER,
    trackerStore: new MemoryTrackerStore(),
    env: { ...env },
  });
}

async function getCard(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { response, text, json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

async function startFailure(root: string, env: Record<string, string> = {}): Promise<AppError> {
  try {
    const server = await serve(root, env);
    await server.close();
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }
  throw new Error('the server started');
}

describe('AgentCard on `parley run`', function () {
  this.timeout(30_000);
  let server: ParleyServer;

  before(async () => {
    server = await serve(writeA2aProject());
  });
  after(() => server.close());

  it('serves the combined card to a client that sends no A2A-Version, pointing at this server', async () => {
    const { response, json } = await getCard(`${server.baseUrl}${CARD}`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(json).to.include({ protocolVersion: '0.3.0', url: server.baseUrl, preferredTransport: 'JSONRPC' });
    expect(json?.['supportedInterfaces']).to.deep.equal([
      { url: server.baseUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: server.baseUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(server.summary.join('; ')).to.contain(`A2A: JSON-RPC at ${server.baseUrl}`);
  });

  it('serves the v1.0 card for A2A-Version 1.0 (patch ignored, header or query) and the combined one for 0.3', async () => {
    for (const headers of [{ 'A2A-Version': '1.0' }, { 'A2A-Version': '1.0.2' }]) {
      const { json } = await getCard(`${server.baseUrl}${CARD}`, headers);
      expect(json).to.not.have.any.keys('url', 'protocolVersion');
      expect(json?.['capabilities']).to.deep.equal({
        streaming: true,
        pushNotifications: false,
        extendedAgentCard: false,
      });
    }
    const byQuery = await getCard(`${server.baseUrl}${CARD}?A2A-Version=1.0`);
    expect(byQuery.json).to.not.have.property('url');
    const v03 = await getCard(`${server.baseUrl}${CARD}`, { 'A2A-Version': '0.3' });
    expect(v03.json).to.include({ url: server.baseUrl });
  });

  it('answers an unsupported A2A-Version with VERSION_NOT_SUPPORTED', async () => {
    const { response, json } = await getCard(`${server.baseUrl}${CARD}`, { 'A2A-Version': '2.0' });
    expect(response.status).to.equal(400);
    expect(response.headers.get('vary')).to.contain('A2A-Version');
    expect(json).to.deep.equal({
      error: {
        code: 400,
        status: 'FAILED_PRECONDITION',
        message: 'A2A-Version 2.0 is not supported; this agent serves 0.3 and 1.0.',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'VERSION_NOT_SUPPORTED',
            domain: 'a2a-protocol.org',
            metadata: { requestedVersion: '2.0', supportedVersions: '0.3,1.0' },
          },
        ],
      },
    });
  });

  it('sends caching headers, one ETag per shape, and 304 to conditional requests', async () => {
    const combined = await getCard(`${server.baseUrl}${CARD}`);
    const v1 = await getCard(`${server.baseUrl}${CARD}`, { 'A2A-Version': '1.0' });
    const etag = combined.response.headers.get('etag') ?? '';
    const lastModified = combined.response.headers.get('last-modified') ?? '';
    expect(etag).to.match(/^"[\w-]{27}"$/);
    expect(v1.response.headers.get('etag'))
      .to.match(/^"[\w-]{27}"$/)
      .and.not.equal(etag);
    expect(Date.parse(lastModified)).to.be.closeTo(Date.now(), 60_000);
    expect(combined.response.headers.get('cache-control')).to.equal('public, max-age=300');
    expect(combined.response.headers.get('vary')).to.contain('A2A-Version');
    expect(combined.response.headers.get('access-control-allow-origin')).to.equal('*');
    const again = await getCard(`${server.baseUrl}${CARD}`);
    expect(again.response.headers.get('etag')).to.equal(etag);

    const conditions: Record<string, string>[] = [
      { 'If-None-Match': etag },
      { 'If-None-Match': `"other", W/${etag}` },
      { 'If-None-Match': '*' },
      { 'If-Modified-Since': lastModified },
    ];
    for (const condition of conditions) {
      const cached = await getCard(`${server.baseUrl}${CARD}`, condition);
      expect(cached.response.status, JSON.stringify(condition)).to.equal(304);
      expect(cached.text).to.equal('');
      expect(cached.response.headers.get('etag')).to.equal(etag);
    }
    // the combined card's ETag does not validate the v1.0 card, and an older date is no match
    const otherShape = await getCard(`${server.baseUrl}${CARD}`, {
      'If-None-Match': etag,
      'A2A-Version': '1.0',
    });
    expect(otherShape.response.status).to.equal(200);
    const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect(
      (await getCard(`${server.baseUrl}${CARD}`, { 'If-Modified-Since': older })).response.status,
    ).to.equal(200);
  });

  it('serves the same card at the legacy path /.well-known/agent.json, and to HEAD requests', async () => {
    const modern = await getCard(`${server.baseUrl}${CARD}`);
    const legacy = await getCard(`${server.baseUrl}/.well-known/agent.json`);
    expect(legacy.text).to.equal(modern.text);
    const head = await fetch(`${server.baseUrl}${CARD}`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('etag')).to.equal(modern.response.headers.get('etag'));
  });

  it('is read by the official SDK client (v1.0): ClientFactory.createFromUrl picks the 1.0 JSON-RPC interface', async () => {
    const requests: { url: string; version: string | null }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      requests.push({ url: String(input), version: new Headers(init?.headers).get('A2A-Version') });
      return fetch(input, init);
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: recordingFetch }),
        transports: [new JsonRpcTransportFactory({ fetchImpl: recordingFetch })],
      }),
    );
    const client = await factory.createFromUrl(server.baseUrl);
    expect(requests[0]).to.deep.equal({ url: `${server.baseUrl}/${AGENT_CARD_PATH}`, version: '1.0' });
    expect(client.protocolVersion).to.equal('1.0');
    expect(client.transport.protocolName).to.equal('JSONRPC');
    const card = await client.getAgentCard();
    expect(card.name).to.equal('inline-test');
    expect(card.skills.map((skill) => skill.id)).to.include.members(['transfer_money', 'check_balance']);
    expect(card.skills.map((skill) => skill.id)).to.not.include('verify_identity');
    // the transport sends its calls to the card's endpoint (served by the JSON-RPC router, not part of this test)
    await client.getTask({ tenant: '', id: 'task-1' }).catch(() => undefined);
    expect(requests.at(-1)).to.deep.equal({ url: server.baseUrl, version: '1.0' });
  });

  it('is read by the official SDK client in v0.3 mode from the card a v0.3 client gets', async () => {
    const { json } = await getCard(`${server.baseUrl}${CARD}`);
    const { supportedInterfaces: _v1Interfaces, ...v03Card } = json as Record<string, unknown>;
    const requests: { url: string; version: string | null }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      requests.push({ url: String(input), version: new Headers(init?.headers).get('A2A-Version') });
      return fetch(input, init);
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
        transports: [
          new JsonRpcTransportFactory({ fetchImpl: recordingFetch, legacyCompat: { enabled: true } }),
        ],
      }),
    );
    const client = await factory.createFromAgentCard(v03Card as never);
    expect(client.protocolVersion).to.match(/^0\.3/);
    const card = await client.getAgentCard();
    expect(card.skills.map((skill) => skill.id)).to.include('transfer_money');
    await client.getTask({ tenant: '', id: 'task-1' }).catch(() => undefined);
    expect(requests.at(-1)?.url).to.equal(server.baseUrl);
    expect(requests.at(-1)?.version).to.match(/^0\.3/);
  });

  it('advertises a configured url with its path prefix, serving the card at the root and under the prefix', async () => {
    const root = writeA2aProject({
      endpoints: `
        a2a_server:
          description: Behind a proxy.
          url: https://bot.example.com/agents/bank/
          auth:
            secret: \${A2A_SECRET}
      `,
    });
    const proxied = await serve(root, { A2A_SECRET: 'k'.repeat(40) });
    try {
      for (const path of [CARD, `/agents/bank${CARD}`]) {
        const { response, json } = await getCard(`${proxied.baseUrl}${path}`);
        expect(response.status, path).to.equal(200);
        expect(json).to.include({ url: 'https://bot.example.com/agents/bank' });
        // public even though calls need a token
        expect(json?.['security']).to.deep.equal([{ bearer: [] }]);
      }
    } finally {
      await proxied.close();
    }
  });

  it('serves a static card with the resolved url in place of the written one', async () => {
    const root = writeA2aProject({
      endpoints: `
        a2a_server:
          description: ignored for a static card
          agent_card_path: cards/static.json
          push_notifications_enabled: true
      `,
      files: {
        'cards/static.json': JSON.stringify({
          name: 'Static Bank',
          description: 'From a file',
          version: '7.0.0',
          url: 'http://old.example.com/a2a',
          preferredTransport: 'JSONRPC',
          capabilities: { streaming: true },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'faq', name: 'FAQ', description: 'Answers questions', tags: ['faq'] }],
        }),
      },
    });
    const staticServer = await serve(root);
    try {
      const { json } = await getCard(`${staticServer.baseUrl}${CARD}`);
      expect(json).to.include({ name: 'Static Bank', description: 'From a file', url: staticServer.baseUrl });
      expect(json?.['capabilities']).to.deep.include({ pushNotifications: true });
      const v1 = await getCard(`${staticServer.baseUrl}${CARD}`, { 'A2A-Version': '1.0' });
      expect((v1.json?.['skills'] as { id: string }[]).map((skill) => skill.id)).to.deep.equal(['faq']);
    } finally {
      await staticServer.close();
    }
  });

  it('refuses to start with a static card that is missing or not a card', async () => {
    const missing = writeA2aProject({
      endpoints: 'a2a_server:\n  description: d\n  agent_card_path: nowhere.json\n',
    });
    const error = await startFailure(missing);
    expect(error.code).to.equal('A2A_CONFIG_INVALID');
    expect(error.message).to.contain('nowhere.json').and.contain('A2A_AGENT_CARD_INVALID');
    const broken = writeA2aProject({
      endpoints: 'a2a_server:\n  description: d\n  agent_card_path: card.json\n',
    });
    writeProjectFile(broken, 'card.json', '{"name": "no skills"}');
    const invalid = await startFailure(broken);
    expect(invalid.message).to.contain("has no 'skills'");
  });

  it('stays public next to an HTTP API that requires a token', async () => {
    const root = writeA2aProject();
    const withApi = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: new MemoryTrackerStore(),
      enableApi: true,
      auth: { token: 'api-token' },
    });
    try {
      expect((await fetch(`${withApi.baseUrl}/status`)).status).to.equal(401);
      expect((await fetch(`${withApi.baseUrl}${CARD}`)).status).to.equal(200);
    } finally {
      await withApi.close();
    }
  });

  it('is not served when a2a_server says enabled: false', async () => {
    const root = writeA2aProject({ endpoints: 'a2a_server:\n  enabled: false\n  description: d\n' });
    const off = await serve(root);
    try {
      expect((await fetch(`${off.baseUrl}${CARD}`)).status).to.equal(404);
      expect(off.summary.join('; ')).to.not.contain('A2A');
    } finally {
      await off.close();
    }
  });

  describe('start-up guardrails', () => {
    it('refuses start_session_after_expiry: true (validation.a2a_server.incompatible_session_config)', async () => {
      const root = writeA2aProject({
        domain: A2A_DOMAIN.replace('start_session_after_expiry: false', 'start_session_after_expiry: true'),
      });
      const error = await startFailure(root);
      expect(error.code).to.equal('A2A_SETUP_INCOMPATIBLE');
      expect(error.message).to.contain('validation.a2a_server.incompatible_session_config');
      expect(error.message).to.contain('start_session_after_expiry: false');
      expect(error.details).to.deep.equal({ checks: ['validation.a2a_server.incompatible_session_config'] });
    });

    const inMemoryState = `${A2A_ENDPOINTS}    task_store: in_memory\n`;

    it('refuses several workers sharing in-memory A2A state (validation.a2a_server.incompatible_workers), listing both checks', async () => {
      const root = writeA2aProject({
        domain: A2A_DOMAIN.replace(/\s+start_session_after_expiry: false/, ''),
        endpoints: inMemoryState,
      });
      const error = await startFailure(root, { SANIC_WORKERS: '4' });
      expect(error.details).to.deep.equal({
        checks: [
          'validation.a2a_server.incompatible_session_config',
          'validation.a2a_server.incompatible_workers',
        ],
      });
      expect(error.message).to.contain('SANIC_WORKERS=4');
      expect(error.message).to.contain('a2a_server.task_store: tracker_store');
      const webConcurrency = await startFailure(writeA2aProject({ endpoints: inMemoryState }), {
        WEB_CONCURRENCY: '2',
      });
      expect(webConcurrency.details).to.deep.equal({
        checks: ['validation.a2a_server.incompatible_workers'],
      });
    });

    it('accepts several workers when the A2A state is kept with a SQL tracker store', async () => {
      const several = await serve(writeA2aProject(), { SANIC_WORKERS: '4' });
      await several.close();
    });

    it('refuses several workers when conversations are kept in memory', async () => {
      const root = writeA2aProject({ endpoints: `${A2A_ENDPOINTS}  tracker_store:\n    type: in_memory\n` });
      const error = await startFailure(root, { SANIC_WORKERS: '2' });
      expect(error.details).to.deep.equal({ checks: ['validation.a2a_server.incompatible_workers'] });
    });

    it('accepts one worker', async () => {
      const one = await serve(writeA2aProject(), { WEB_CONCURRENCY: '1', SANIC_WORKERS: '1' });
      await one.close();
    });
  });
});
