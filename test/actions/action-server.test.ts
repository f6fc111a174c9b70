import { expect } from 'chai';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ActionServerClient,
  ActionServerError,
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  FILLED_BY_CUSTOM,
  domainDigest,
  domainToJson,
  parseActionEndpoint,
  responseName,
} from '../../src/actions/action-server/index.js';
import type {
  ActionEndpointConfig,
  ActionServerErrorCode,
  ActionServerRequest,
} from '../../src/actions/action-server/index.js';
import { DEFAULT_SESSION_CONFIG } from '../../src/core/domain/types.js';
import type { Domain } from '../../src/core/domain/types.js';

const NOW = 1_700_000_000.25;

const DOMAIN: Domain = {
  intents: new Map([
    ['greet', { name: 'greet', useEntities: true, ignoreEntities: [] }],
    ['inform', { name: 'inform', useEntities: ['account'], ignoreEntities: [] }],
  ]),
  entities: ['account'],
  slots: new Map([
    [
      'current_balance',
      {
        name: 'current_balance',
        type: 'float',
        initialValue: null,
        values: [],
        mappings: [{ type: 'controlled', conditions: [] }],
        influenceConversation: false,
        isDefault: false,
      },
    ],
    [
      'account_type',
      {
        name: 'account_type',
        type: 'categorical',
        initialValue: 'checking',
        values: ['checking', 'savings'],
        mappings: [
          { type: 'from_llm', allowNluCorrection: false, conditions: [{ activeFlow: 'check_balance' }] },
        ],
        influenceConversation: true,
        isDefault: false,
      },
    ],
  ]),
  responses: new Map([
    [
      'utter_balance',
      {
        name: 'utter_balance',
        isDefault: false,
        variations: [
          { text: 'Your balance is {amount}.', buttons: [], metadata: {} },
          {
            text: 'Balance: {amount}',
            buttons: [{ title: 'Thanks', payload: '/thanks' }],
            channel: 'socketio',
            metadata: { rephrase: true },
          },
        ],
      },
    ],
  ]),
  actions: new Map([
    ['action_check_balance', { name: 'action_check_balance', sendDomain: false }],
    ['action_needs_domain', { name: 'action_needs_domain', sendDomain: true }],
  ]),
  forms: {},
  sessionConfig: DEFAULT_SESSION_CONFIG,
};

// ---------------------------------------------------------------------------------------------------
// A local action server that answers like an unmodified rasa-sdk (rasa_sdk/endpoint.py + executor.py).
// ---------------------------------------------------------------------------------------------------

interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

type Dispatcher = { utter_message(message: Record<string, unknown>): void };
type SdkAction = (
  tracker: Record<string, unknown>,
  domain: Record<string, unknown>,
  d: Dispatcher,
) => unknown[];

class ActionExecutionRejection extends Error {}

/** rasa-sdk's CollectingDispatcher.utter_message: every key present, `response` repeated as `template`. */
function sdkMessage(message: Record<string, unknown>): Record<string, unknown> {
  const {
    text = null,
    image = null,
    json_message = null,
    response = null,
    attachment = null,
    ...kwargs
  } = message;
  return {
    text,
    buttons: [],
    elements: [],
    custom: json_message ?? {},
    template: response,
    response,
    image,
    attachment,
    ...kwargs,
  };
}

const ACTIONS: Record<string, SdkAction> = {
  action_check_balance: (_tracker, _domain, dispatcher) => {
    dispatcher.utter_message({ text: 'Let me check.' });
    dispatcher.utter_message({ response: 'utter_balance', amount: 1200 });
    return [
      { event: 'slot', timestamp: null, name: 'current_balance', value: 1200 },
      { event: 'followup', timestamp: null, name: 'action_listen' },
    ];
  },
  action_needs_domain: (_tracker, domain) => [
    {
      event: 'slot',
      timestamp: null,
      name: 'response_count',
      value: Object.keys(asRecord(domain['responses'])).length,
    },
  ],
  action_reject: () => {
    throw new ActionExecutionRejection('Custom action action_reject rejected execution.');
  },
  action_crash: () => {
    throw new Error('division by zero');
  },
  action_invalid_event: () => [{ event: 'no_such_event', timestamp: null }],
  action_stamped: () => [{ event: 'slot', timestamp: 1234.5, name: 'current_balance', value: 1 }],
};

class FakeActionServer {
  readonly requests: ReceivedRequest[] = [];
  private cachedDomain: Record<string, unknown> | undefined;
  private cachedDigest: unknown;
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  forgetDomain(): void {
    this.cachedDomain = undefined;
    this.cachedDigest = undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const text = await readBody(req);
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    });
    switch (url.pathname) {
      case '/webhook':
        return this.webhook(body, res);
      case '/invalid-json':
        return sendText(res, 200, '{"events": [');
      case '/null-body':
        return sendText(res, 200, 'null');
      case '/empty-body':
        return sendText(res, 200, '');
      case '/always-449':
        return send(res, 449, { error: 'No domain', action_name: body['next_action'] });
      case '/hang':
        return; // never answers
      default:
        return sendText(res, 404, 'Not Found');
    }
  }

  private webhook(body: Record<string, unknown>, res: ServerResponse): void {
    const actionName = body['next_action'];
    if (typeof actionName !== 'string') return sendText(res, 200, 'null'); // executor returns None
    const action = ACTIONS[actionName];
    if (!action)
      return send(res, 404, {
        error: `No registered action found for name '${actionName}'.`,
        action_name: actionName,
      });
    if (body['domain'] !== undefined) {
      this.cachedDomain = asRecord(body['domain']);
      this.cachedDigest = body['domain_digest'];
    } else if (this.cachedDigest !== body['domain_digest']) {
      return send(res, 449, {
        error: 'Domain not found in the request nor in the cache',
        action_name: actionName,
      });
    }
    const tracker = asRecord(body['tracker']);
    if (typeof tracker['sender_id'] !== 'string') {
      return send(res, 500, { error: "'sender_id'", request_body: body }); // Tracker.from_dict KeyError
    }
    const messages: Record<string, unknown>[] = [];
    try {
      const events = action(tracker, this.cachedDomain ?? {}, {
        utter_message: (m) => messages.push(sdkMessage(m)),
      });
      send(res, 200, { events, responses: messages });
    } catch (error) {
      if (error instanceof ActionExecutionRejection) {
        return send(res, 400, { error: error.message, action_name: actionName });
      }
      send(res, 500, { error: String(error), request_body: body });
    }
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body), 'application/json');
}

function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain'): void {
  res.writeHead(status, { 'Content-Type': type });
  res.end(text);
}

// ---------------------------------------------------------------------------------------------------

function endpoint(url: string, overrides: Partial<ActionEndpointConfig> = {}): ActionEndpointConfig {
  return {
    url,
    params: {},
    headers: {},
    tokenName: 'token',
    timeoutSeconds: 5,
    enableSelectiveDomain: false,
    ...overrides,
  };
}

function request(actionName: string, tracker: unknown = { sender_id: 'user-1', slots: {}, events: [] }) {
  return { actionName, senderId: 'user-1', tracker } satisfies ActionServerRequest;
}

async function expectFailure(
  promise: Promise<unknown>,
  code: ActionServerErrorCode,
): Promise<ActionServerError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(ActionServerError);
    expect((error as ActionServerError).code, (error as Error).message).to.equal(code);
    return error as ActionServerError;
  }
  expect.fail(`expected ${code}`);
}

describe('action server client (Rasa SDK protocol)', () => {
  const sdk = new FakeActionServer();
  let base = '';
  const makeClient = (path = '/webhook', overrides: Partial<ActionEndpointConfig> = {}) =>
    new ActionServerClient({
      endpoint: endpoint(`${base}${path}`, overrides),
      domain: DOMAIN,
      clock: () => NOW,
    });

  before(async () => {
    base = await sdk.start();
  });
  after(() => sdk.stop());
  beforeEach(() => {
    sdk.requests.length = 0;
    sdk.forgetDomain();
  });

  describe('a successful call', () => {
    it('returns the stamped events, SlotSet marked filled_by CUSTOM, and the bot responses', async () => {
      const result = await makeClient().run(request('action_check_balance'));
      expect(result.events).to.have.length(2);
      expect(result.events[0]).to.include({
        event: 'slot',
        name: 'current_balance',
        value: 1200,
        timestamp: NOW,
        filled_by: FILLED_BY_CUSTOM,
      });
      expect(result.events[1]).to.include({ event: 'followup', name: 'action_listen', timestamp: NOW });
      expect(result.responses).to.have.length(2);
      expect(result.responses[0]).to.include({ text: 'Let me check.' });
    });

    it('passes `response: utter_x` through with its kwargs for template rendering', async () => {
      const { responses } = await makeClient().run(request('action_check_balance'));
      const templated = responses[1];
      expect(templated).to.include({ response: 'utter_balance', template: 'utter_balance', amount: 1200 });
      expect(templated && responseName(templated)).to.equal('utter_balance');
      expect(responseName({ template: 'utter_legacy' })).to.equal('utter_legacy');
    });

    it('keeps a timestamp the server set', async () => {
      const { events } = await makeClient().run(request('action_stamped'));
      expect(events[0]).to.include({ timestamp: 1234.5 });
    });

    it('posts next_action, sender_id, tracker, domain, domain_digest and version as JSON', async () => {
      const client = makeClient();
      const tracker = { sender_id: 'user-1', slots: { current_balance: null }, events: [], stack: [] };
      await client.run(request('action_check_balance', tracker));
      expect(sdk.requests).to.have.length(1);
      const [received] = sdk.requests;
      expect(received?.method).to.equal('POST');
      expect(received?.headers['content-type']).to.equal('application/json');
      expect(received?.body).to.have.all.keys(
        'next_action',
        'sender_id',
        'tracker',
        'domain',
        'domain_digest',
        'version',
      );
      expect(received?.body).to.include({
        next_action: 'action_check_balance',
        sender_id: 'user-1',
        domain_digest: client.domainDigest,
        version: '3.14.0',
      });
      expect(received?.body['tracker']).to.deep.equal(tracker);
      expect(received?.body['domain']).to.deep.equal(JSON.parse(JSON.stringify(domainToJson(DOMAIN))));
    });

    it('adds the sender_id rasa-sdk requires when the tracker lacks it', async () => {
      await makeClient().run(request('action_check_balance', { slots: {}, events: [] }));
      expect(asRecord(sdk.requests[0]?.body['tracker'])['sender_id']).to.equal('user-1');
    });

    it('sends headers, basic auth, params and the token (as a query parameter) to the server', async () => {
      const client = makeClient('/webhook', {
        params: { env: 'test' },
        headers: { 'X-Api-Key': 'key-1' },
        basicAuth: { username: 'rasa', password: 'secret' },
        token: 't0k3n',
        tokenName: 'auth_token',
      });
      await client.run(request('action_check_balance'));
      const [received] = sdk.requests;
      expect(received?.query.get('env')).to.equal('test');
      expect(received?.query.get('auth_token')).to.equal('t0k3n');
      expect(received?.headers['x-api-key']).to.equal('key-1');
      expect(received?.headers['authorization']).to.equal(
        `Basic ${Buffer.from('rasa:secret').toString('base64')}`,
      );
      expect(received?.headers['content-type']).to.equal('application/json');
    });

    it('treats a null body (rasa-sdk without next_action) and an empty body as no events', async () => {
      expect(await makeClient('/null-body').run(request('action_x'))).to.deep.equal({
        events: [],
        responses: [],
      });
      expect(await makeClient('/empty-body').run(request('action_x'))).to.deep.equal({
        events: [],
        responses: [],
      });
    });
  });

  describe('selective domain and the 449 retry', () => {
    const selective = { enableSelectiveDomain: true };

    it('sends only the digest, and resends once with the domain when the server answers 449', async () => {
      const client = makeClient('/webhook', selective);
      const result = await client.run(request('action_check_balance'));
      expect(result.events).to.have.length(2);
      expect(sdk.requests.map((r) => 'domain' in r.body)).to.deep.equal([false, true]);
      expect(sdk.requests.map((r) => r.body['domain_digest'])).to.deep.equal([
        client.domainDigest,
        client.domainDigest,
      ]);
    });

    it('sends no domain once the server has cached it under the same digest', async () => {
      const client = makeClient('/webhook', selective);
      await client.run(request('action_check_balance'));
      sdk.requests.length = 0;
      await client.run(request('action_check_balance'));
      expect(sdk.requests.map((r) => 'domain' in r.body)).to.deep.equal([false]);
    });

    it('always sends the domain to an action declared with send_domain: true', async () => {
      const { events } = await makeClient('/webhook', selective).run(request('action_needs_domain'));
      expect(sdk.requests.map((r) => 'domain' in r.body)).to.deep.equal([true]);
      expect(events[0]).to.include({ name: 'response_count', value: 1 });
    });

    it('fails with DOMAIN_NOT_FOUND when the server still answers 449 after the domain was sent', async () => {
      const error = await expectFailure(
        makeClient('/always-449', selective).run(request('action_check_balance')),
        'DOMAIN_NOT_FOUND',
      );
      expect(sdk.requests).to.have.length(2);
      expect(error.status).to.equal(449);
    });
  });

  describe('failures', () => {
    it('maps 400 to ACTION_SERVER_REJECTED with the server message (ActionExecutionRejection)', async () => {
      const error = await expectFailure(makeClient().run(request('action_reject')), 'ACTION_SERVER_REJECTED');
      expect(error).to.include({ actionName: 'action_reject', status: 400, url: `${base}/webhook` });
      expect(error.message).to.contain('rejected execution');
    });

    it('maps 404 (unknown action) to ACTION_NOT_FOUND', async () => {
      const error = await expectFailure(makeClient().run(request('action_unknown')), 'ACTION_NOT_FOUND');
      expect(error).to.include({ actionName: 'action_unknown', status: 404 });
      expect(error.message).to.contain('action_unknown');
    });

    it('maps 500 (an exception in the action) to ACTION_SERVER_FAILED', async () => {
      const error = await expectFailure(makeClient().run(request('action_crash')), 'ACTION_SERVER_FAILED');
      expect(error.status).to.equal(500);
      expect(error.message).to.contain('non 200 status code of 500');
    });

    it('reports a body that is not JSON as ACTION_SERVER_BAD_RESPONSE', async () => {
      await expectFailure(makeClient('/invalid-json').run(request('action_x')), 'ACTION_SERVER_BAD_RESPONSE');
    });

    it('refuses an answer larger than its bound (declared or streamed) as ACTION_SERVER_BAD_RESPONSE', async () => {
      const big = JSON.stringify({ events: [], responses: [{ text: 'x'.repeat(4096) }] });
      const server = createServer((req, res) => {
        req.resume();
        if (req.url === '/declared') res.writeHead(200, { 'Content-Type': 'application/json' }).end(big);
        else {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          for (let offset = 0; offset < big.length; offset += 512) res.write(big.slice(offset, offset + 512));
          res.end();
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const bounded = (path: string, maxResponseBytes: number) =>
        new ActionServerClient({
          endpoint: endpoint(`http://127.0.0.1:${port}${path}`),
          domain: DOMAIN,
          clock: () => NOW,
          maxResponseBytes,
        });
      try {
        for (const path of ['/declared', '/streamed']) {
          const error = await expectFailure(
            bounded(path, 1024).run(request('action_x')),
            'ACTION_SERVER_BAD_RESPONSE',
          );
          expect(error.message).to.contain('larger than 1024 bytes');
          const fits = await bounded(path, 8192).run(request('action_x'));
          expect(fits.responses).to.have.length(1);
        }
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('reports an unknown event type as ACTION_SERVER_BAD_RESPONSE', async () => {
      const error = await expectFailure(
        makeClient().run(request('action_invalid_event')),
        'ACTION_SERVER_BAD_RESPONSE',
      );
      expect(error.message).to.contain('events[0]');
    });

    it("says it couldn't connect when nothing listens on the port", async () => {
      const closed = new FakeActionServer();
      const url = `${await closed.start()}/webhook`;
      await closed.stop();
      const client = new ActionServerClient({ endpoint: endpoint(url), domain: DOMAIN, clock: () => NOW });
      const error = await expectFailure(
        client.run(request('action_check_balance')),
        'ACTION_SERVER_UNREACHABLE',
      );
      expect(error.message).to.contain(`Couldn't connect to the server at '${url}'. Is the server running?`);
      expect(error.url).to.equal(url);
    });

    it('gives up with ACTION_SERVER_TIMEOUT when the server never answers', async () => {
      const client = makeClient('/hang', { timeoutSeconds: 0.2 });
      const started = Date.now();
      await expectFailure(client.run(request('action_check_balance')), 'ACTION_SERVER_TIMEOUT');
      // its 0.2 s, not the default 30 s (nor at once)
      expect(Date.now() - started).to.be.within(150, (DEFAULT_ACTION_TIMEOUT_SECONDS * 1000) / 3);
    });

    it('keeps the token out of error messages', async () => {
      const error = await expectFailure(
        makeClient('/webhook', { token: 'very-secret' }).run(request('action_crash')),
        'ACTION_SERVER_FAILED',
      );
      expect(error.message).to.not.contain('very-secret');
      expect(error.url).to.equal(`${base}/webhook`);
    });
  });
});

describe('action_endpoint parsing', () => {
  it('reads url, params, headers, basic_auth, token, timeout and enable_selective_domain', () => {
    const parsed = parseActionEndpoint({
      url: 'http://localhost:5055/webhook',
      params: { env: 'prod', retries: 2 },
      headers: { 'X-Key': 'k' },
      basic_auth: { username: 'u', password: 'p' },
      token: 'tok',
      token_name: 'auth',
      timeout: '12',
      enable_selective_domain: true,
    });
    expect(parsed).to.deep.equal({
      ok: true,
      warnings: [],
      endpoint: {
        kind: 'http',
        config: {
          url: 'http://localhost:5055/webhook',
          params: { env: 'prod', retries: '2' },
          headers: { 'X-Key': 'k' },
          basicAuth: { username: 'u', password: 'p' },
          token: 'tok',
          tokenName: 'auth',
          timeoutSeconds: 12,
          enableSelectiveDomain: true,
        },
      },
    });
  });

  it('defaults the token name to `token`, the timeout to 30 s and selective domain to off', () => {
    const parsed = parseActionEndpoint({ url: 'https://actions.example.com/webhook' });
    expect(parsed.ok && parsed.endpoint?.kind === 'http' && parsed.endpoint.config).to.include({
      tokenName: 'token',
      timeoutSeconds: DEFAULT_ACTION_TIMEOUT_SECONDS,
      enableSelectiveDomain: false,
    });
    expect(DEFAULT_ACTION_TIMEOUT_SECONDS).to.equal(30);
  });

  it('reports actions_module as in-process actions (winning over a url, with a warning)', () => {
    expect(parseActionEndpoint({ actions_module: 'actions' })).to.deep.equal({
      ok: true,
      endpoint: { kind: 'in-process', actionsModule: 'actions' },
      warnings: [],
    });
    const both = parseActionEndpoint({ actions_module: 'actions', url: 'http://localhost:5055/webhook' });
    expect(both.ok && both.endpoint?.kind).to.equal('in-process');
    expect(both.ok && both.warnings).to.have.length(1);
  });

  it('treats an absent or empty section as no action server', () => {
    expect(parseActionEndpoint(undefined)).to.deep.equal({ ok: true, endpoint: undefined, warnings: [] });
    expect(parseActionEndpoint(null)).to.deep.equal({ ok: true, endpoint: undefined, warnings: [] });
  });

  it('warns that cafile needs NODE_EXTRA_CA_CERTS', () => {
    const parsed = parseActionEndpoint({ url: 'https://a.example.com/webhook', cafile: '/certs/ca.pem' });
    expect(parsed.ok && parsed.warnings[0]).to.contain('NODE_EXTRA_CA_CERTS');
  });

  for (const [label, raw] of [
    ['a url that is not a URL', { url: 'not a url' }],
    ['a gRPC url', { url: 'grpc://localhost:5055' }],
    ['an ftp url', { url: 'ftp://localhost/webhook' }],
    ['a non-numeric timeout', { url: 'http://localhost:5055/webhook', timeout: 'soon' }],
    ['headers that are not a map', { url: 'http://localhost:5055/webhook', headers: ['x'] }],
    [
      'basic_auth without a password',
      { url: 'http://localhost:5055/webhook', basic_auth: { username: 'u' } },
    ],
    ['a section that is not a map', 'http://localhost:5055/webhook'],
  ] as const) {
    it(`rejects ${label} with ACTION_ENDPOINT_INVALID`, () => {
      const parsed = parseActionEndpoint(raw);
      expect(parsed.ok).to.equal(false);
      expect(!parsed.ok && parsed.error.code).to.equal('ACTION_ENDPOINT_INVALID');
    });
  }
});

describe('domain JSON for the action server', () => {
  it("has the shape of Rasa's Domain.as_dict()", () => {
    const json = domainToJson(DOMAIN);
    expect(json).to.deep.include({
      version: '3.1',
      config: { store_entities_as_slots: true },
      session_config: { session_expiration_time: 60, carry_over_slots_to_new_session: true },
      intents: ['greet', { inform: { use_entities: ['account'] } }],
      entities: ['account'],
      actions: ['action_check_balance', { action_needs_domain: { send_domain: true } }],
      forms: {},
    });
    expect(json.slots).to.deep.equal({
      current_balance: {
        type: 'float',
        initial_value: null,
        influence_conversation: false,
        mappings: [{ type: 'controlled' }],
      },
      account_type: {
        type: 'categorical',
        initial_value: 'checking',
        influence_conversation: true,
        mappings: [{ type: 'from_llm', conditions: [{ active_flow: 'check_balance' }] }],
        values: ['checking', 'savings'],
      },
    });
    expect(json.responses).to.deep.equal({
      utter_balance: [
        { text: 'Your balance is {amount}.' },
        {
          text: 'Balance: {amount}',
          buttons: [{ title: 'Thanks', payload: '/thanks' }],
          channel: 'socketio',
          metadata: { rephrase: true },
        },
      ],
    });
  });

  it('has a digest that is stable for equal domains and changes with the domain', () => {
    const digest = domainDigest(domainToJson(DOMAIN));
    expect(digest).to.match(/^[0-9a-f]{64}$/);
    expect(domainDigest(domainToJson({ ...DOMAIN }))).to.equal(digest);
    const changed: Domain = { ...DOMAIN, entities: ['account', 'amount'] };
    expect(domainDigest(domainToJson(changed))).to.not.equal(digest);
  });
});
