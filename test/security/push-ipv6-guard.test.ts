/**
 * Without an allow-list a push callback may go to any public address. IPv6 has several ranges that
 * embed an IPv4 address or are not global at all (IPv4-compatible, 6to4, NAT64 local-use, Teredo,
 * RFC 6145 translated, site-local); a hand-written block list missed them, so a client could aim
 * notifications at the agent's own loopback. Each is now refused when the config is set.
 */
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { receiver } from '../a2a/push-support.js';
import type { Receiver } from '../a2a/push-support.js';
import { rpc, startRpcServer, v03Send, v1Send } from '../a2a/rpc-support.js';

type Json = Record<string, unknown>;

const resultOf = (answer: { body: Json }) => answer.body['result'] as Json;
const V1 = { 'A2A-Version': '1.0' };

describe('A2A push: IPv6 callbacks that embed IPv4 or are not global, against a running server', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  /** listening on 127.0.0.1: what the embedded addresses point at */
  let hook: Receiver;

  before(async () => {
    hook = await receiver();
    server = await startRpcServer({ a2a: 'push_notifications_enabled: true' });
  });
  after(async () => {
    await server.close();
    await hook.close();
  });

  const urls = () => [
    `http://[::7f00:1]:${hook.port}/hook`,
    `http://[2002:7f00:1::]:${hook.port}/`,
    'http://[64:ff9b:1::7f00:1]/',
    'http://[2001::1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[fec0::1]/',
  ];

  function refusal(answer: { body: Json }): { code: unknown; message: unknown } {
    const error = (answer.body['error'] ?? {}) as Json;
    return { code: error['code'], message: error['message'] };
  }

  it('refuses each of them with -32602 in v0.3 and v1.0, and nothing reaches loopback', async () => {
    const v03Task = resultOf(await rpc(server.baseUrl, v03Send('send money to Anna')));
    const v1Task = resultOf(await rpc(server.baseUrl, v1Send('send money to Anna'), V1))['task'] as Json;
    for (const url of urls()) {
      const v03 = await rpc(server.baseUrl, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tasks/pushNotificationConfig/set',
        params: { taskId: v03Task['id'], pushNotificationConfig: { url } },
      });
      const v1 = await rpc(
        server.baseUrl,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'CreateTaskPushNotificationConfig',
          params: { taskId: v1Task['id'], url },
        },
        V1,
      );
      for (const answer of [v03, v1]) {
        const { code, message } = refusal(answer);
        expect(code, url).to.equal(-32602);
        expect(message, url).to.match(/not a public address/);
      }
    }
    const listed = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tasks/pushNotificationConfig/list',
      params: { id: v03Task['id'] },
    });
    expect(resultOf(listed)).to.deep.equal([]);
  });

  it('goes on answering normally afterwards, and no notification was sent', async () => {
    const task = resultOf(await rpc(server.baseUrl, v03Send('send money to Anna')));
    const next = await rpc(
      server.baseUrl,
      v03Send('/SetSlots(recipient=Anna)', { taskId: task['id'], contextId: task['contextId'] }),
    );
    expect(next.status).to.equal(200);
    expect((resultOf(next)['status'] as Json)['state']).to.equal('input-required');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.received).to.have.length(0);
  });
});
