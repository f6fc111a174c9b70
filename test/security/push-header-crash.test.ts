/**
 * A push config's token and credentials become header values of every notification. A character Node
 * refuses in a header (other C0 controls, DEL, anything above U+00FF) used to be stored, and the next
 * delivery threw ERR_INVALID_CHAR inside a background promise: an unhandled rejection ends the process.
 * Now such values are refused when the config is set, and no delivery path can reject.
 */
import { validateHeaderValue } from 'node:http';
import { expect } from 'chai';
import { A2aError } from '../../src/a2a/a2a-error.js';
import type { WireVersion } from '../../src/a2a/jsonrpc/errors.js';
import { readSetParams } from '../../src/a2a/push/push-config.js';
import { PushSender } from '../../src/a2a/push/push-sender.js';
import type { PushDelivery } from '../../src/a2a/push/push-sender.js';
import { PushService } from '../../src/a2a/push/push-service.js';
import { UrlGuard } from '../../src/a2a/push/url-guard.js';
import { pushTaskHarness } from '../support/push-tasks.js';
import { tick } from '../a2a/semantic-support.js';
import type { PushTaskHarness } from '../support/push-tasks.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import type { Logger } from '../../src/runtime/logger.js';
import { receiver } from '../a2a/push-support.js';
import type { Receiver } from '../a2a/push-support.js';
import { rpc, startRpcServer, v03Send, v1Send } from '../a2a/rpc-support.js';

type Json = Record<string, unknown>;

/**
 * one of each class Node refuses in a header value, CR/LF/NUL (header injection) included, and Latin-1,
 * which Node sends but a receiver reads garbled
 */
const REFUSED: readonly (readonly [string, string])[] = [
  ['\u0001', 'C0 control U+0001'],
  ['\u001f', 'C0 control U+001F'],
  ['\u007f', 'DEL'],
  ['\u0100', 'U+0100, the first above Latin-1'],
  ['\u2028', 'line separator U+2028'],
  ['\u{1F600}', 'an emoji'],
  ['\r', 'CR'],
  ['\n', 'LF'],
  ['\0', 'NUL'],
  ['é', 'Latin-1 U+00E9'],
];
const ACCEPTED: readonly string[] = ['plain-ASCII token 123', 'tab\tinside', '~!#$%&*+-.^_`|'];

const FIELDS = {
  '1.0': { token: 'token', credentials: 'authentication.credentials' },
  '0.3': {
    token: 'pushNotificationConfig.token',
    credentials: 'pushNotificationConfig.authentication.credentials',
  },
} as const;

/** set params in the wire shape of `version`, with `extra` in the config */
function setParams(
  version: WireVersion,
  extra: { token?: string; credentials?: string; url?: string; id?: string },
) {
  const config = {
    url: extra.url ?? 'https://hooks.example.com/hook',
    ...(extra.token !== undefined ? { token: extra.token } : {}),
    ...(extra.id !== undefined ? { id: extra.id } : {}),
  };
  if (version === '1.0')
    return {
      taskId: 't1',
      ...config,
      ...(extra.credentials !== undefined
        ? { authentication: { scheme: 'Bearer', credentials: extra.credentials } }
        : {}),
    };
  return {
    taskId: 't1',
    pushNotificationConfig: {
      ...config,
      ...(extra.credentials !== undefined
        ? { authentication: { schemes: ['Bearer'], credentials: extra.credentials } }
        : {}),
    },
  };
}

function refusedField(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    expect(error).to.be.instanceOf(A2aError);
    expect((error as A2aError).reason).to.equal('INVALID_PARAMS');
    return (error as A2aError).metadata['field'];
  }
  throw new Error('expected a refusal');
}

function recordingLogger(lines: { fields: Record<string, unknown>; message: string }[]): Logger {
  const log = (fields: Record<string, unknown>, message: string) => lines.push({ fields, message });
  return { info: () => undefined, warn: log, error: log };
}

/** runs `action`, then fails if any promise was rejected without a handler meanwhile */
async function withoutUnhandledRejections(action: () => Promise<void>): Promise<void> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await action();
    // Node reports a rejection nobody handled when the current turn of the event loop ends, before
    // the next one runs its callbacks
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', listener);
  }
  expect(seen).to.deep.equal([]);
}

describe('A2A push: header values are checked when a config is set', () => {
  for (const version of ['1.0', '0.3'] as const)
    for (const kind of ['token', 'credentials'] as const)
      it(`v${version}: refuses ${kind === 'token' ? 'a token' : 'credentials'} Node would not send as a header value, naming ${FIELDS[version][kind]}`, () => {
        for (const [char, label] of REFUSED) {
          const params = setParams(version, { [kind]: `abc${char}def` });
          expect(
            refusedField(() => readSetParams(params, version)),
            label,
          ).to.equal(FIELDS[version][kind]);
        }
      });

  it('accepts printable ASCII and a tab inside in the token and the credentials', () => {
    for (const value of ACCEPTED) {
      expect(() => validateHeaderValue('x-check', value), value).not.to.throw();
      for (const version of ['1.0', '0.3'] as const) {
        const config = readSetParams(setParams(version, { token: value, credentials: value }), version);
        expect(config.token).to.equal(value);
        expect(config.credentials).to.equal(value);
      }
    }
  });

  it('caps the token at 1,024 characters, the credentials at 4,096, the URL at 2,048 and the id at 256', () => {
    const long = (length: number) => 'a'.repeat(length);
    const url = `https://hooks.example.com/${long(2_048)}`;
    for (const version of ['1.0', '0.3'] as const) {
      const prefix = version === '1.0' ? '' : 'pushNotificationConfig.';
      const refused = (extra: Parameters<typeof setParams>[1]) =>
        refusedField(() => readSetParams(setParams(version, extra), version));
      expect(refused({ token: long(1_025) })).to.equal(`${prefix}token`);
      expect(refused({ credentials: long(4_097) })).to.equal(`${prefix}authentication.credentials`);
      expect(refused({ url })).to.equal(`${prefix}url`);
      expect(refused({ id: long(257) })).to.equal(`${prefix}id`);
      const atLimits = { token: long(1_024), credentials: long(4_096), id: long(256) };
      expect(readSetParams(setParams(version, atLimits), version).token).to.have.length(1_024);
      // an id follows the rules of every id (no control or invisible characters)
      for (const id of ['p\n{"level":60}', 'p\u0000', 'p\u202eevil', 'p\ud800'])
        expect(refused({ id })).to.equal(`${prefix}id`);
    }
  });

  it('caps the auth schemes: four at most, each a scheme name of at most 64 characters, never echoed', () => {
    const v03 = (schemes: unknown) => ({
      taskId: 't1',
      pushNotificationConfig: { url: 'https://hooks.example.com/', authentication: { schemes } },
    });
    const v1 = (scheme: unknown) => ({
      taskId: 't1',
      url: 'https://hooks.example.com/',
      authentication: { scheme },
    });
    const refusal = (run: () => unknown): A2aError => {
      try {
        run();
      } catch (error) {
        return error as A2aError;
      }
      throw new Error('expected a refusal');
    };
    const many = refusal(() => readSetParams(v03(Array(100_000).fill('Bearer')), '0.3'));
    expect(many.metadata['field']).to.equal('pushNotificationConfig.authentication');
    const huge = refusal(() => readSetParams(v1('B'.repeat(1_000_000)), '1.0'));
    expect(huge.reason).to.equal('INVALID_PARAMS');
    expect(huge.message.length).to.be.below(200);
    expect(() => readSetParams(v03(['Bearer', 'Basic', 'Digest', 'X']), '0.3')).to.not.throw();
    expect(() => readSetParams(v1('B'.repeat(64)), '1.0')).to.not.throw();
    expect(() => readSetParams(v1('B'.repeat(65)), '1.0')).to.throw(A2aError);
  });
});

/** a sender broken in the two ways a delivery can fail before any request is made */
class ThrowingSender extends PushSender {
  override deliver(): Promise<boolean> {
    throw new Error('sender broke synchronously');
  }
}
class RejectingSender extends PushSender {
  override deliver(): Promise<boolean> {
    return Promise.reject(new Error('sender broke asynchronously'));
  }
}

describe('A2A push: a failing delivery is logged and never rejects', () => {
  let hook: Receiver;
  before(async () => {
    hook = await receiver();
  });
  after(() => hook.close());

  const guard = new UrlGuard({ allowedHosts: ['127.0.0.1'] });
  const delivery = (headers: Record<string, string>): PushDelivery => ({
    url: new URL(hook.url),
    headers,
    body: '{}',
    taskId: 't',
    configId: 'c',
  });

  it('a header value Node refuses makes deliver resolve false, once, with the reason logged', async () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const sender = new PushSender({ guard, logger: recordingLogger(lines), retries: 2, backoffMs: 5 });
    await withoutUnhandledRejections(async () => {
      expect(await sender.deliver(delivery({ 'x-a': '\u0100' }))).to.equal(false);
    });
    expect(lines).to.have.length(1);
    expect(lines[0]?.message).to.equal('a2a push notification failed');
    expect(lines[0]?.fields['reason']).to.match(/Invalid character/);
    expect(hook.received).to.have.length(0);
  });

  it('a delivery the sender cannot even read resolves false and is logged', async () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const sender = new PushSender({ guard, logger: recordingLogger(lines) });
    const broken = { ...delivery({}), url: undefined } as unknown as PushDelivery;
    await withoutUnhandledRejections(async () => {
      expect(await sender.deliver(broken)).to.equal(false);
    });
    expect(lines.map((line) => line.message)).to.deep.equal(['a2a push notification failed']);
  });

  async function taskWithConfig(
    service: PushService,
    harness: PushTaskHarness,
    token?: string,
  ): Promise<void> {
    await harness.create('t1', 'caller');
    await service.set({ taskId: 't1', url: hook.url, version: '1.0', ...(token ? { token } : {}) }, 'caller');
  }

  const inputRequired = {
    kind: 'status-update',
    taskId: 't1',
    contextId: 'c1',
    status: { state: 'input-required', timestamp: new Date().toISOString() },
    final: true,
  } as const;

  for (const [name, make] of [
    ['throws synchronously', (logger: Logger) => new ThrowingSender({ guard, logger })],
    ['returns a rejected promise', (logger: Logger) => new RejectingSender({ guard, logger })],
    // a stored token that bypassed the set-time check reaches Node's own header check
    ['gets a header value Node refuses', (logger: Logger) => new PushSender({ guard, logger })],
  ] as const)
    it(`the push service logs a sender that ${name}, and the task's update goes on`, async () => {
      const lines: { fields: Record<string, unknown>; message: string }[] = [];
      const harness = await pushTaskHarness();
      const logger = recordingLogger(lines);
      const service = new PushService({ ...harness, guard, sender: make(logger), logger });
      await taskWithConfig(service, harness, '\u0100');
      await withoutUnhandledRejections(async () => {
        expect(harness.publish(inputRequired)?.status.state).to.equal('input-required');
        await tick();
        await service.settled();
      });
      expect(lines.map((line) => line.message)).to.deep.equal(['a2a push notification failed']);
      expect(lines[0]?.fields).to.deep.include({ taskId: 't1' });
      expect(hook.received).to.have.length(0);
    });
});

describe('A2A push: refused header values against a running server', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  let hook: Receiver;

  before(async () => {
    hook = await receiver();
    server = await startRpcServer({
      a2a: 'push_notifications_enabled: true\npush_notification_allowed_hosts: ["127.0.0.1"]',
    });
  });
  after(async () => {
    await server.close();
    await hook.close();
  });

  const resultOf = (answer: { body: Json }) => answer.body['result'] as Json;
  const V1 = { 'A2A-Version': '1.0' };

  /** the JSON-RPC error's code and the field it names, in either wire's error shape */
  function errorOf(answer: { body: Json }): { code: unknown; field: unknown } {
    const error = answer.body['error'] as Json | undefined;
    if (!error) return { code: undefined, field: undefined };
    const data = error['data'];
    const field = Array.isArray(data)
      ? ((data[0] as Json)['metadata'] as Json)['field']
      : (data as Json)['field'];
    return { code: error['code'], field };
  }

  function setV03(taskId: unknown, config: Json) {
    return rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/pushNotificationConfig/set',
      params: { taskId, pushNotificationConfig: { url: hook.url, ...config } },
    });
  }

  function setV1(taskId: unknown, config: Json) {
    const params = { taskId, url: hook.url, ...config };
    return rpc(
      server.baseUrl,
      { jsonrpc: '2.0', id: 1, method: 'CreateTaskPushNotificationConfig', params },
      V1,
    );
  }

  it('answers -32602 naming the field for each refused token and credentials, in v0.3 and v1.0', async () => {
    const v03Task = resultOf(await rpc(server.baseUrl, v03Send('send money to Anna')));
    const v1Task = resultOf(await rpc(server.baseUrl, v1Send('send money to Anna'), V1))['task'] as Json;
    for (const [char, label] of REFUSED) {
      const value = `abc${char}def`;
      const answers = [
        [await setV03(v03Task['id'], { token: value }), FIELDS['0.3'].token],
        [
          await setV03(v03Task['id'], { authentication: { schemes: ['Bearer'], credentials: value } }),
          FIELDS['0.3'].credentials,
        ],
        [await setV1(v1Task['id'], { token: value }), FIELDS['1.0'].token],
        [
          await setV1(v1Task['id'], { authentication: { scheme: 'Bearer', credentials: value } }),
          FIELDS['1.0'].credentials,
        ],
      ] as const;
      for (const [answer, field] of answers)
        expect(errorOf(answer), `${label} in ${field}`).to.deep.equal({ code: -32602, field });
    }
  });

  it('still answers and delivers afterwards: a message/send succeeds and a valid config gets its notification', async () => {
    const task = resultOf(await rpc(server.baseUrl, v03Send('send money to Anna')));
    expect((task['status'] as Json)['state']).to.equal('input-required');
    // ASCII: Node sends Latin-1 characters UTF-8 encoded, which a Node receiver reads back as Latin-1
    const token = 'tab\tinside';
    const set = await setV03(task['id'], {
      token,
      authentication: { schemes: ['Bearer'], credentials: 'cred-ok' },
    });
    expect(errorOf(set).code).to.equal(undefined);
    const before = hook.received.length;
    const next = await rpc(
      server.baseUrl,
      v03Send('/SetSlots(recipient=Anna)', { taskId: task['id'], contextId: task['contextId'] }),
    );
    expect(next.status).to.equal(200);
    expect((resultOf(next)['status'] as Json)['state']).to.equal('input-required');
    await hook.waitFor(before + 1);
    const received = hook.received[before];
    expect(received?.headers['x-a2a-notification-token']).to.equal(token);
    expect(received?.headers['authorization']).to.equal('Bearer cred-ok');
    expect(received?.body).to.deep.include({ kind: 'task', id: task['id'] });
  });
});
