/**
 * Property-based tests of the A2A JSON-RPC endpoint, v0.3 and v1.0 (the version is the method name's,
 * checked against an `A2A-Version` header or query parameter when one is given): for random, mutated
 * and malformed bodies it never answers 5xx nor crashes, always answers a JSON-RPC error of the right
 * code family with the request's id when that id was valid (null otherwise), refuses without touching
 * any tracker, never pollutes a prototype, and goes on serving valid calls.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import type { ParleyServer } from '../../src/cli/serve.js';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../../src/core/text/json-depth.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import {
  ProcessWatch,
  assertProperty,
  contentType,
  countChanges,
  deepNesting,
  hugeString,
  invalidUtf8,
  jsonValue,
  mutated,
  nastyString,
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
import { startSecureServer } from './support.js';

/** DEFAULT_RPC_BODY_LIMIT */
const BODY_LIMIT = 1024 * 1024;

const V03_METHODS = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
];
const V1_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
];
const METHODS = [...V03_METHODS, ...V1_METHODS];

/** JSON-RPC's own codes and A2A's (-32001 … -32009) with Parley's -32010 … -32012 */
const A2A_CODES = [
  -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009, -32010, -32011, -32012,
];
const KNOWN_CODES = new Set([-32700, -32600, -32601, -32602, ...A2A_CODES]);

const VERSION_HEADERS = [undefined, undefined, '0.3', '1.0', '1', 'v1.0.2', '0.3.0', '2.0', 'x', ''];

interface RpcCall {
  readonly body: Buffer;
  readonly contentType?: string;
  readonly version?: string;
  /** the version as a query parameter instead of a header */
  readonly versionInQuery?: boolean;
}

/** what a client may expect: the id to echo and the code families a refusal may have */
interface Expectation {
  readonly id: unknown;
  /** codes a refusal may carry; `success` when a result is possible too */
  readonly codes: ReadonlySet<number>;
  readonly success: boolean;
  /** the method called, when the call reached one */
  readonly method?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isValidId(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function methodVersion(method: string): string | undefined {
  if (V03_METHODS.includes(method)) return '0.3';
  if (V1_METHODS.includes(method)) return '1.0';
  return undefined;
}

function headerVersion(raw: string | undefined): string | 'absent' | 'unsupported' {
  if (raw === undefined || raw.trim() === '') return 'absent';
  const match = /^\s*v?(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/i.exec(raw);
  const version = match ? `${Number(match[1])}.${Number(match[2] ?? 0)}` : undefined;
  return version === '0.3' || version === '1.0' ? version : 'unsupported';
}

/** The JSON-RPC 2.0 spec's reading of a call: which error family it deserves, and its id. */
function expectationOf(call: RpcCall): Expectation {
  const only = (...codes: number[]) => ({ codes: new Set(codes), success: false });
  if (call.body.length > BODY_LIMIT) return { id: null, ...only(-32600) };
  let body: unknown;
  try {
    // JSON text must be UTF-8 (RFC 8259 §8.1): bytes that are not cannot be parsed
    if (!isUtf8(call.body)) throw new Error('not UTF-8');
    body = JSON.parse(call.body.toString('utf8'));
  } catch {
    return { id: null, ...only(-32700) };
  }
  const id = isRecord(body) && isValidId(body['id']) ? body['id'] : null;
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) return { id, ...only(-32600) };
  if (
    !isRecord(body) ||
    body['jsonrpc'] !== '2.0' ||
    typeof body['method'] !== 'string' ||
    !(body['id'] === undefined || body['id'] === null || isValidId(body['id']))
  )
    return { id, ...only(-32600) };
  const version = methodVersion(body['method']);
  if (!version) return { id, ...only(-32601) };
  const requested = headerVersion(call.version);
  if (requested !== 'absent' && requested !== version) return { id, ...only(-32009) };
  return { id, codes: new Set([-32602, ...A2A_CODES]), success: true, method: body['method'] };
}

async function send(server: ParleyServer, call: RpcCall): Promise<RawAnswer> {
  const query =
    call.versionInQuery && call.version !== undefined
      ? `?A2A-Version=${encodeURIComponent(call.version)}`
      : '';
  return sendRaw(server.baseUrl, {
    method: 'POST',
    path: `/${query}`,
    body: call.body,
    ...(call.contentType !== undefined ? { contentType: call.contentType } : {}),
    ...(call.version !== undefined && !call.versionInQuery
      ? { headers: { 'A2A-Version': call.version } }
      : {}),
  });
}

/** the JSON-RPC responses of an answer: one JSON object, or the `data:` events of a stream */
function responsesOf(answer: RawAnswer): unknown[] {
  if (!answer.type.startsWith('text/event-stream')) return [answer.json];
  return answer.text
    .split('\n\n')
    .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

/** same JSON (-0 is 0 on the wire) */
function sameId(actual: unknown, expected: unknown): boolean {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Checks one answer against the expectation; true when it was a refusal. */
function checkAnswer(answer: RawAnswer, expected: Expectation, what: string): boolean {
  expect(answer.status, `${what}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`).to.be.below(500);
  const responses = responsesOf(answer);
  expect(responses.length, `${what}: no JSON-RPC response in ${answer.text.slice(0, 300)}`).to.be.above(0);
  let refused = false;
  for (const response of responses) {
    const text = shortly(response);
    expect(isRecord(response), `${what}: not a JSON-RPC response: ${text}`).to.equal(true);
    const rpc = response as Record<string, unknown>;
    expect(rpc['jsonrpc'], `${what}: ${text}`).to.equal('2.0');
    expect(sameId(rpc['id'], expected.id), `${what}: id ${shortly(rpc['id'])}, not ${shortly(expected.id)}`)
      .to.be.true;
    expect('result' in rpc !== 'error' in rpc, `${what}: result xor error: ${text}`).to.equal(true);
    if ('result' in rpc) {
      expect(expected.success, `${what}: a result where an error was due: ${text}`).to.equal(true);
      expect(answer.status, `${what}: ${text}`).to.equal(200);
      checkResult(expected.method ?? '', rpc['result'], what);
      continue;
    }
    refused = true;
    const error = rpc['error'];
    expect(isRecord(error), `${what}: error is no object: ${text}`).to.equal(true);
    const { code, message } = error as Record<string, unknown>;
    expect(
      Number.isInteger(code) && expected.codes.has(code as number),
      `${what}: code ${String(code)}: ${text}`,
    ).to.be.true;
    expect(KNOWN_CODES.has(code as number), `${what}: unknown code ${String(code)}`).to.equal(true);
    expect(message, `${what}: ${text}`).to.be.a('string');
    if (answer.status !== 200)
      expect(answer.status === 413 && code === -32600, `${what}: HTTP ${answer.status} for ${text}`).to.be
        .true;
  }
  return refused;
}

const V03_STATES = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
];

/** a task as the wire version writes it */
function checkTask(task: unknown, version: string, what: string): void {
  const text = shortly(task);
  expect(isRecord(task), `${what}: task ${text}`).to.equal(true);
  const { id, contextId, status } = task as Record<string, unknown>;
  expect(id, `${what}: ${text}`).to.be.a('string');
  expect(contextId, `${what}: ${text}`).to.be.a('string');
  const state = isRecord(status) ? status['state'] : undefined;
  if (version === '0.3') expect(V03_STATES, `${what}: ${text}`).to.include(state);
  else expect(state, `${what}: ${text}`).to.match(/^TASK_STATE_[A-Z_]+$/);
}

/** a successful result has the shape its method promises */
function checkResult(method: string, result: unknown, what: string): void {
  const version = methodVersion(method) ?? '?';
  const text = shortly(result);
  switch (method) {
    case 'message/send':
    case 'tasks/get':
    case 'tasks/cancel':
    case 'GetTask':
    case 'CancelTask':
      return checkTask(result, version, what);
    case 'SendMessage':
      return checkTask(isRecord(result) ? result['task'] : undefined, version, what);
    case 'message/stream':
    case 'tasks/resubscribe':
      expect(
        isRecord(result) && ['task', 'status-update', 'artifact-update'].includes(String(result['kind'])),
        `${what}: ${text}`,
      ).to.be.true;
      return;
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      expect(
        isRecord(result) &&
          Object.keys(result).filter((key) => ['task', 'statusUpdate', 'artifactUpdate'].includes(key))
            .length === 1,
        `${what}: ${text}`,
      ).to.be.true;
      return;
    case 'ListTasks':
      expect(isRecord(result) && Array.isArray(result['tasks']), `${what}: ${text}`).to.be.true;
      for (const task of (result as { tasks: unknown[] }).tasks) checkTask(task, version, what);
      expect((result as Record<string, unknown>)['totalSize'], `${what}: ${text}`).to.be.a('number');
      return;
    default:
      expect(isRecord(result), `${what}: ${text}`).to.be.true;
  }
}

// ---------------------------------------------------------------------------------------------------

let sequence = 0;
function fresh(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}`;
}

/** a valid call of each kind, both wire versions (fresh ids every time) */
const VALID: Record<string, () => Record<string, unknown>> = {
  'message/send': () => ({
    jsonrpc: '2.0',
    id: fresh('rpc'),
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: fresh('m'),
        role: 'user',
        contextId: fresh('ctx'),
        parts: [
          { kind: 'text', text: 'I want to send money' },
          { kind: 'data', data: { slots: { recipient: 'Anna' } } },
        ],
        metadata: { source: 'property' },
      },
      configuration: { blocking: true, historyLength: 2, acceptedOutputModes: ['text/plain'] },
    },
  }),
  'message/stream': () => ({ ...VALID['message/send']!(), method: 'message/stream', id: 7 }),
  'tasks/get': () => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tasks/get',
    params: { id: fresh('task'), historyLength: 1 },
  }),
  'tasks/cancel': () => ({ jsonrpc: '2.0', id: 2, method: 'tasks/cancel', params: { id: fresh('task') } }),
  'tasks/resubscribe': () => ({
    jsonrpc: '2.0',
    id: 3,
    method: 'tasks/resubscribe',
    params: { id: fresh('task') },
  }),
  'tasks/pushNotificationConfig/set': () => ({
    jsonrpc: '2.0',
    id: 4,
    method: 'tasks/pushNotificationConfig/set',
    params: {
      taskId: fresh('task'),
      pushNotificationConfig: { url: 'https://example.com/hook', token: 't' },
    },
  }),
  SendMessage: () => ({
    jsonrpc: '2.0',
    id: fresh('v1'),
    method: 'SendMessage',
    params: {
      message: {
        messageId: fresh('m'),
        role: 'ROLE_USER',
        contextId: fresh('ctx'),
        parts: [{ text: 'send money to Anna' }, { data: { recipient: 'Anna', amount: 20 } }],
        metadata: { source: 'property' },
      },
      configuration: { historyLength: 3, acceptedOutputModes: ['text/plain'] },
      metadata: {},
    },
  }),
  SendStreamingMessage: () => ({ ...VALID['SendMessage']!(), method: 'SendStreamingMessage' }),
  GetTask: () => ({
    jsonrpc: '2.0',
    id: 'g',
    method: 'GetTask',
    params: { id: fresh('task'), historyLength: 2 },
  }),
  ListTasks: () => ({
    jsonrpc: '2.0',
    id: 'l',
    method: 'ListTasks',
    params: {
      contextId: fresh('ctx'),
      status: 'TASK_STATE_WORKING',
      pageSize: 10,
      historyLength: 1,
      includeArtifacts: true,
      statusTimestampAfter: '2024-01-01T00:00:00Z',
    },
  }),
  CancelTask: () => ({ jsonrpc: '2.0', id: 'c', method: 'CancelTask', params: { id: fresh('task') } }),
  SubscribeToTask: () => ({
    jsonrpc: '2.0',
    id: 's',
    method: 'SubscribeToTask',
    params: { id: fresh('task') },
  }),
  CreateTaskPushNotificationConfig: () => ({
    jsonrpc: '2.0',
    id: 'p',
    method: 'CreateTaskPushNotificationConfig',
    params: { taskId: fresh('task'), config: { url: 'https://example.com/hook' } },
  }),
  GetExtendedAgentCard: () => ({ jsonrpc: '2.0', id: 'e', method: 'GetExtendedAgentCard' }),
};

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value) ?? '', 'utf8');

const versionHeader = fc.record({
  version: fc.constantFrom(...VERSION_HEADERS),
  versionInQuery: fc.boolean(),
});

/** a field of an envelope, mostly right, sometimes of any value */
function field(
  name: string,
  right: fc.Arbitrary<unknown>,
  keys: readonly string[] = [],
): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 4, arbitrary: right.map((value) => JSON.stringify(value) ?? 'null') },
      { weight: 1, arbitrary: rawJsonText(keys) },
    )
    .map((value) => `${JSON.stringify(name)}:${value}`);
}

const PARAM_KEYS = ['message', 'id', 'parts', 'role', 'configuration', 'metadata', 'kind', 'text', 'data'];

/** envelopes assembled field by field as text: missing fields, duplicate keys, odd literals, pollution */
const envelopeText: fc.Arbitrary<string> = fc
  .record({
    jsonrpc: fc.option(field('jsonrpc', fc.constant('2.0')), { freq: 8 }),
    method: fc.option(field('method', fc.oneof(fc.constantFrom(...METHODS), nastyString)), { freq: 8 }),
    id: fc.option(field('id', fc.oneof(fc.integer(), nastyString, fc.constant(null))), { freq: 4 }),
    params: fc.option(field('params', jsonValue, PARAM_KEYS), { freq: 8 }),
    extra: fc.array(
      fc.oneof(
        field('id', jsonValue),
        field('method', fc.constantFrom(...METHODS)),
        fc
          .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), pollutionPayload)
          .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`),
      ),
      { maxLength: 2 },
    ),
  })
  .map(
    ({ jsonrpc, method, id, params, extra }) =>
      `{${[jsonrpc, method, id, params, ...extra].filter((item) => item !== null).join(',')}}`,
  );

const randomCall: fc.Arbitrary<RpcCall> = fc
  .record({
    text: fc.oneof(
      { weight: 4, arbitrary: envelopeText },
      { weight: 1, arbitrary: rawJsonText(['id', 'method']) },
    ),
    contentType,
    header: versionHeader,
  })
  .map(({ text, contentType: type, header }) => ({
    body: Buffer.from(text, 'utf8'),
    ...(type !== undefined ? { contentType: type } : {}),
    ...header,
  }));

/** bytes that are no JSON (or no UTF-8) made from a valid call, and bodies too deep or too large */
const brokenCall: fc.Arbitrary<RpcCall> = fc
  .record({
    method: fc.constantFrom(...Object.keys(VALID)),
    how: fc.constantFrom(
      'truncate',
      'invalid-utf8',
      'invalid-utf8-in-id',
      'empty',
      'deep',
      'huge',
      'trailing',
    ),
    cut: fc.nat(),
    bytes: invalidUtf8,
    deep: deepNesting,
    huge: hugeString,
    contentType,
  })
  .chain(({ method, how, cut, bytes, deep, huge, contentType: type }) => {
    const valid = VALID[method]!();
    const text = JSON.stringify(valid);
    const body = ((): fc.Arbitrary<Buffer> | Buffer => {
      switch (how) {
        case 'truncate':
          return truncated(text).map((cutText) => Buffer.from(cutText, 'utf8'));
        case 'invalid-utf8':
          return withInvalidUtf8(text);
        case 'invalid-utf8-in-id': {
          const [head, tail] = JSON.stringify({ ...valid, id: 'id-MARK' }).split('MARK');
          return Buffer.concat([Buffer.from(head ?? ''), bytes, Buffer.from(tail ?? '')]);
        }
        case 'empty':
          return Buffer.alloc(0);
        case 'deep':
          return Buffer.from(
            cut % 2 === 0 ? deep : JSON.stringify({ ...valid, params: 0 }).replace('0}', `${deep}}`),
          );
        case 'huge':
          return json({ ...valid, params: { message: huge } });
        default:
          return Buffer.from(`${text}${cut % 2 === 0 ? ',' : ' {}'}`);
      }
    })();
    const asArbitrary = Buffer.isBuffer(body) ? fc.constant(body) : body;
    return asArbitrary.map((bytesOut) => ({
      body: bytesOut,
      ...(type !== undefined ? { contentType: type } : {}),
    }));
  });

/** valid calls of both versions with one to three mutations, mostly of their params */
const mutatedCall: fc.Arbitrary<{ call: RpcCall; changes: unknown }> = fc
  .record({ method: fc.constantFrom(...Object.keys(VALID)), header: fc.boolean(), paramsOnly: fc.boolean() })
  .chain(({ method, header, paramsOnly }) => {
    const valid = VALID[method]!;
    const mutations = paramsOnly
      ? mutated(() => ({ params: valid()['params'] })).map(({ body, changes }) => ({
          body: { ...valid(), ...(body as object) },
          changes,
        }))
      : mutated(valid);
    return mutations.map(({ body, changes }) => ({
      call: {
        body: json(body),
        contentType: 'application/json',
        ...(header ? { version: methodVersion(method) } : {}),
      },
      changes,
    }));
  });

/** ids of every shape: valid ones (long, unicode, control characters) and invalid ones */
const idCall: fc.Arbitrary<RpcCall> = fc
  .record({
    id: fc.oneof(
      nastyString,
      fc.integer(),
      fc.double(),
      jsonValue,
      fc.string({ minLength: 1000, maxLength: 5000 }),
    ),
    method: fc.constantFrom('tasks/get', 'GetTask', 'no/such/method', 'message/send'),
    params: fc.oneof(fc.constant({ id: 'no-such-task' }), jsonValue),
  })
  .map(({ id, method, params }) => ({
    body: json({ jsonrpc: '2.0', id, method, params }),
    contentType: 'application/json',
  }));

describe('Property: the A2A JSON-RPC endpoint (v0.3 and v1.0) under random and hostile input', function () {
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

  /** one call: the answer checked, no tracker changed by a refusal, no prototype polluted */
  async function check(call: RpcCall, what: string): Promise<void> {
    const before = await storeCounts(store);
    const answer = await send(server, call);
    const refused = checkAnswer(answer, expectationOf(call), what);
    if (refused)
      expect(countChanges(before, await storeCounts(store)), `${what}: refused, yet`).to.deep.equal([]);
    expect(pollutionProblems(), what).to.deep.equal([]);
    expect(watch.problems, what).to.deep.equal([]);
  }

  async function stillServesBothVersions(): Promise<void> {
    for (const method of ['message/send', 'SendMessage']) {
      const answer = await send(server, { body: json(VALID[method]!()), contentType: 'application/json' });
      expect(answer.status, answer.text).to.equal(200);
      const result = (answer.json as { result?: Record<string, unknown> }).result;
      const task = method === 'SendMessage' ? (result?.['task'] as Record<string, unknown>) : result;
      expect(task?.['id'], answer.text).to.be.a('string');
    }
  }

  afterEach(async function () {
    if (this.currentTest?.state === 'passed') await stillServesBothVersions();
  });

  it('answers random envelopes (duplicate keys, odd numbers, pollution keys, any content type and version) with a well-formed JSON-RPC answer of the right code family', async () => {
    await assertProperty(
      fc.asyncProperty(randomCall, async (call) =>
        check(call, `random ${shortly(call.body)} v=${call.version}`),
      ),
      300,
    );
  });

  it('answers bytes that are no JSON (truncated, not UTF-8, empty), bodies too deep or too large with -32700 / -32600 and id null when the id is unreadable', async () => {
    await assertProperty(
      fc.asyncProperty(brokenCall, async (call) => check(call, `broken ${shortly(call.body)}`)),
      200,
    );
  });

  it('echoes a valid id (string or number, however long or odd) and answers null for any other id', async () => {
    await assertProperty(
      fc.asyncProperty(idCall, async (call) => check(call, `id ${shortly(call.body)}`)),
      200,
    );
  });

  it('answers mutated valid calls of every method of both versions with a valid result or a refusal, never 5xx, never a changed tracker on refusal', async () => {
    await assertProperty(
      fc.asyncProperty(mutatedCall, async ({ call, changes }) =>
        check(call, `mutated ${shortly(call.body)} by ${shortly(changes)}`),
      ),
      300,
    );
  });
});
