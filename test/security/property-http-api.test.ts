/**
 * Property-based tests of the HTTP API (tracker, events, messages, trigger_intent, predict,
 * model/parse): for random, mutated and malformed bodies, conversation ids of every shape in the path
 * and hostile query parameters it never answers 5xx nor crashes; it answers its documented shape or
 * refuses in Rasa's error body, a refusal changes no tracker and an answer only the addressed one, no
 * prototype is polluted, and it goes on serving.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { ParleyServer } from '../../src/cli/serve.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import {
  ProcessWatch,
  assertProperty,
  contentType,
  countChanges,
  define,
  deepNesting,
  hugeString,
  isRasaError,
  jsonValue,
  mutated,
  nastyString,
  pollutionKey,
  pollutionPayload,
  pollutionProblems,
  rawJsonText,
  sendRaw,
  shortly,
  storeCounts,
  truncated,
  withInvalidUtf8,
} from './property-arbitraries.js';
import type { RawAnswer } from './property-arbitraries.js';
import { API_TOKEN, startSecureServer, stillServes } from './support.js';

type Route =
  'events-post' | 'events-put' | 'messages' | 'trigger' | 'parse' | 'tracker' | 'predict' | 'delete';

const ROUTES: Record<Route, { method: string; path: (id: string) => string; body?: () => unknown }> = {
  'events-post': {
    method: 'POST',
    path: (id) => `/conversations/${id}/tracker/events`,
    body: () => [
      {
        event: 'user',
        text: 'hello',
        parse_data: { intent: { name: 'greet', confidence: 1 }, entities: [] },
      },
      { event: 'slot', name: 'recipient', value: 'Anna' },
      { event: 'bot', text: 'Hi!', data: { buttons: [] }, metadata: { source: 'property' } },
      { event: 'action', name: 'action_listen', policy: 'p', confidence: 1 },
    ],
  },
  'events-put': {
    method: 'PUT',
    path: (id) => `/conversations/${id}/tracker/events`,
    body: () => [
      { event: 'action', name: 'action_session_start', timestamp: 1700000000 },
      { event: 'session_started', timestamp: 1700000001 },
      { event: 'slot', name: 'amount', value: 20.5, timestamp: 1700000002 },
    ],
  },
  messages: {
    method: 'POST',
    path: (id) => `/conversations/${id}/messages`,
    body: () => ({
      text: 'send money',
      sender: 'user',
      parse_data: {
        intent: { name: 'transfer_money', confidence: 0.9 },
        entities: [{ entity: 'recipient', value: 'Anna', start: 0, end: 4 }],
      },
    }),
  },
  trigger: {
    method: 'POST',
    path: (id) => `/conversations/${id}/trigger_intent`,
    body: () => ({ name: 'transfer_money', entities: { recipient: 'Anna' } }),
  },
  parse: {
    method: 'POST',
    path: () => '/model/parse',
    body: () => ({ text: 'hello there', message_id: 'm-1' }),
  },
  tracker: { method: 'GET', path: (id) => `/conversations/${id}/tracker` },
  predict: { method: 'POST', path: (id) => `/conversations/${id}/predict` },
  delete: { method: 'DELETE', path: (id) => `/conversations/${id}/tracker` },
};
const ROUTE_NAMES = Object.keys(ROUTES) as Route[];
const BODY_ROUTES = ROUTE_NAMES.filter((name) => ROUTES[name].body !== undefined);

interface ApiCall {
  readonly route: Route;
  /** the conversation id as given (before encoding) */
  readonly id: string;
  /** true: the id is percent-encoded as one segment, so the server addresses exactly `id` */
  readonly encoded: boolean;
  readonly query: string;
  readonly body?: Buffer;
  readonly contentType?: string;
}

let sequence = 0;
function freshId(): string {
  sequence += 1;
  return `api-user-${sequence}`;
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value) ?? '', 'utf8');

/**
 * A path segment for `id`: percent-encoded as UTF-8 (a lone surrogate as the three bytes it would
 * take, which are no UTF-8), or as it is (slashes, dots, stray '%' and all).
 */
function segment(id: string, encoded: boolean): string {
  if (!encoded) return id;
  return Array.from(id, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      const code = character.charCodeAt(0);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
  }).join('');
}

/** a conversation id in the path: mostly a known one, else anything */
const conversationId: fc.Arbitrary<{ id: string; encoded: boolean }> = fc.record({
  id: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null).map(() => freshId()) },
    { weight: 2, arbitrary: fc.constantFrom('api-shared-1', 'api-shared-2') },
    { weight: 3, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.constantFrom('a/b', '../x', '..', '.', '%', '%zz', '%2F', 'x'.repeat(256)) },
  ),
  encoded: fc.boolean(),
});

const QUERY_KEYS = [
  'include_events',
  'until',
  'execute_side_effects',
  'output_channel',
  'emulation_mode',
  'token',
  '__proto__',
  'constructor',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
];

const queryValue = fc.oneof(
  fc.constantFrom(
    'ALL',
    'applied',
    'NONE',
    'AFTER_RESTART',
    'bogus',
    'true',
    'false',
    '1',
    '0',
    'latest',
    'rest',
  ),
  fc.constantFrom('1e400', '-0', 'NaN', '1700000000.5', '', 'yes'),
  nastyString.map((text) => text.slice(0, 200)),
);

/** the operator token (mostly), then random parameters, repeated keys included */
const query: fc.Arbitrary<string> = fc
  .record({
    token: fc.oneof(
      { weight: 9, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
    pairs: fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { maxLength: 4 }),
  })
  .map(({ token, pairs }) => {
    const all: [string, string][] = [...(token ? [['token', API_TOKEN] as [string, string]] : []), ...pairs];
    const encode = (text: string) => {
      try {
        return encodeURIComponent(text);
      } catch {
        return 'x';
      }
    };
    return all.length === 0 ? '' : `?${all.map(([key, value]) => `${key}=${encode(value)}`).join('&')}`;
  });

const API_KEYS = [
  'event',
  'name',
  'value',
  'text',
  'sender',
  'parse_data',
  'intent',
  'entities',
  'timestamp',
];

/** a random event: a known type with random fields, pollution keys among them */
const randomEvent: fc.Arbitrary<unknown> = fc
  .record({
    event: fc.oneof(
      fc.constantFrom(
        'user',
        'bot',
        'slot',
        'action',
        'session_started',
        'restart',
        'reset_slots',
        'followup',
      ),
      nastyString,
    ),
    fields: fc.array(fc.tuple(fc.constantFrom(...API_KEYS, '__proto__', 'constructor'), jsonValue), {
      maxLength: 4,
    }),
  })
  .map(({ event, fields }) => {
    const object: Record<string, unknown> = { event };
    for (const [key, value] of fields) define(object, key, value);
    return object;
  });

/** events of a right shape carrying pollution keys and hostile values (slot names included) */
const hostileEvent: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    event: fc.constant('slot'),
    name: fc.oneof(pollutionKey, nastyString, fc.constantFrom('recipient', 'amount')),
    value: fc.oneof(jsonValue, pollutionPayload),
  }),
  fc.record({
    event: fc.constant('user'),
    text: nastyString,
    parse_data: fc.record({
      intent: fc.record({
        name: fc.oneof(pollutionKey, nastyString),
        confidence: fc.double({ min: 0, max: 1 }),
      }),
      entities: fc.constant([]),
    }),
    metadata: pollutionPayload,
  }),
  fc.record({
    event: fc.constant('bot'),
    text: nastyString,
    data: pollutionPayload,
    metadata: pollutionPayload,
  }),
  fc.record({ event: fc.constant('action'), name: fc.oneof(pollutionKey, nastyString) }),
);

const randomBody: fc.Arbitrary<Buffer> = fc.oneof(
  rawJsonText(API_KEYS).map((text) => Buffer.from(text, 'utf8')),
  fc.array(hostileEvent, { minLength: 1, maxLength: 3 }).map(json),
  fc.array(randomEvent, { maxLength: 4 }).map(json),
  randomEvent.map(json),
  fc
    .record({ text: fc.oneof(nastyString, jsonValue), sender: fc.oneof(fc.constant('user'), jsonValue) })
    .map(json),
  fc
    .record({ name: fc.oneof(nastyString, jsonValue), entities: fc.oneof(jsonValue, pollutionPayload) })
    .map(json),
  pollutionPayload.map(json),
);

const randomCall: fc.Arbitrary<ApiCall> = fc
  .record({
    route: fc.constantFrom(...ROUTE_NAMES),
    target: conversationId,
    query,
    body: randomBody,
    contentType,
  })
  .map(({ route, target, query: search, body, contentType: type }) => ({
    route,
    ...target,
    query: search,
    ...(ROUTES[route].body ? { body } : {}),
    ...(type !== undefined ? { contentType: type } : {}),
  }));

const brokenCall: fc.Arbitrary<ApiCall> = fc
  .record({
    route: fc.constantFrom(...BODY_ROUTES),
    how: fc.constantFrom('truncate', 'invalid-utf8', 'empty', 'deep', 'huge'),
    deep: deepNesting,
    huge: hugeString,
    contentType,
  })
  .chain(({ route, how, deep, huge, contentType: type }) => {
    const text = JSON.stringify(ROUTES[route].body!());
    const body: fc.Arbitrary<Buffer> =
      how === 'truncate'
        ? truncated(text).map((cut) => Buffer.from(cut, 'utf8'))
        : how === 'invalid-utf8'
          ? withInvalidUtf8(text)
          : fc.constant(
              how === 'empty'
                ? Buffer.alloc(0)
                : how === 'deep'
                  ? Buffer.from(deep)
                  : json({ text: huge, name: huge }),
            );
    return body.map((bytes) => ({
      route,
      id: freshId(),
      encoded: true,
      query: `?token=${API_TOKEN}`,
      body: bytes,
      ...(type !== undefined ? { contentType: type } : {}),
    }));
  });

const mutatedCall: fc.Arbitrary<{ call: ApiCall; changes: unknown }> = fc
  .constantFrom(...BODY_ROUTES)
  .chain((route) =>
    mutated(() => ROUTES[route].body!()).map(({ body, changes }) => ({
      call: {
        route,
        id: sequence % 3 === 0 ? 'api-shared-1' : freshId(),
        encoded: true,
        query: `?token=${API_TOKEN}`,
        body: json(body),
        contentType: 'application/json',
      },
      changes,
    })),
  );

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** the tracker an answer of `route` holds, if it holds one */
function trackerOf(route: Route, body: unknown): unknown {
  if (!isRecord(body)) return undefined;
  return route === 'trigger' || route === 'predict' ? body['tracker'] : body;
}

/** a success has its route's shape, about the conversation addressed */
function checkSuccess(call: ApiCall, answer: RawAnswer, said: string): void {
  if (call.route === 'delete') {
    expect(answer.status, said).to.equal(204);
    return;
  }
  expect(answer.status, said).to.equal(200);
  if (call.route === 'parse') {
    expect(isRecord(answer.json) && isRecord(answer.json['intent']), said).to.equal(true);
    expect(Array.isArray((answer.json as Record<string, unknown>)['entities']), said).to.equal(true);
    return;
  }
  const tracker = trackerOf(call.route, answer.json);
  expect(isRecord(tracker) && Array.isArray(tracker['events']), said).to.equal(true);
  if (call.encoded) expect((tracker as Record<string, unknown>)['sender_id'], said).to.equal(call.id);
}

describe('Property: the HTTP API under random and hostile input', function () {
  this.timeout(120_000);
  const store = new MemoryTrackerStore();
  const watch = new ProcessWatch();
  let server: ParleyServer;

  before(async () => {
    watch.start();
    server = await startSecureServer({ auth: false, serve: { trackerStore: store } });
  });

  after(async () => {
    watch.stop();
    await server?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'passed') return;
    expect(await stillServes(server)).to.equal(true);
    const id = freshId();
    const answer = await sendRaw(server.baseUrl, {
      method: 'POST',
      path: `/conversations/${id}/messages?token=${API_TOKEN}`,
      body: json({ text: 'hello', sender: 'user' }),
      contentType: 'application/json',
    });
    expect(answer.status, answer.text).to.equal(200);
  });

  /** one call: its shape or a Rasa refusal; a refusal changes no tracker, an answer only the one addressed */
  async function check(call: ApiCall, what: string): Promise<void> {
    const route = ROUTES[call.route];
    const before = await storeCounts(store);
    const answer = await sendRaw(server.baseUrl, {
      method: route.method,
      path: `${route.path(segment(call.id, call.encoded))}${call.query}`,
      ...(call.body !== undefined ? { body: call.body } : {}),
      ...(call.contentType !== undefined ? { contentType: call.contentType } : {}),
    });
    const said = `${what}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`;
    expect(answer.status, said).to.be.below(500);
    const changes = countChanges(before, await storeCounts(store));
    if (answer.status < 300) {
      checkSuccess(call, answer, said);
      expect(changes.length, `${said}: ${changes.join('; ')}`).to.be.at.most(1);
      if (call.encoded && changes.length === 1)
        expect(changes[0]?.startsWith(`${JSON.stringify(call.id)}:`), `${said}: ${changes[0]}`).to.equal(
          true,
        );
    } else {
      expect(answer.status, said).to.be.within(400, 499);
      // 431: a URL over Node's header limit is refused by its HTTP parser, before any route
      if (answer.status !== 431) expect(isRasaError(answer), `${said}: not Rasa's error body`).to.equal(true);
      expect(changes, `${said}: refused, yet`).to.deep.equal([]);
    }
    expect(pollutionProblems(), what).to.deep.equal([]);
    expect(watch.problems, what).to.deep.equal([]);
  }

  const describeCall = (call: ApiCall) =>
    `${ROUTES[call.route].method} ${call.route} id=${shortly(call.id)}${call.query.slice(0, 120)} ${shortly(call.body)}`;

  it('answers random bodies, conversation ids and query parameters on every route with its shape or a 4xx, never a changed tracker on refusal', async () => {
    await assertProperty(
      fc.asyncProperty(randomCall, async (call) => check(call, `random ${describeCall(call)}`)),
      300,
    );
  });

  it('refuses truncated, non-UTF-8, empty, too deep and too large bodies with a 4xx and changes no tracker', async () => {
    await assertProperty(
      fc.asyncProperty(brokenCall, async (call) => check(call, `broken ${describeCall(call)}`)),
      150,
    );
  });

  it('answers mutated valid bodies (events, messages, trigger_intent, parse) with their shape or a 4xx, never 5xx', async () => {
    await assertProperty(
      fc.asyncProperty(mutatedCall, async ({ call, changes }) =>
        check(call, `mutated ${describeCall(call)} by ${shortly(changes)}`),
      ),
      300,
    );
  });
});
