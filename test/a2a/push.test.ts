import { ClientFactory } from '@a2a-js/sdk/client';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { receiver } from './push-support.js';
import type { Receiver } from './push-support.js';
import { rpc, startRpcServer, v03Send, v1Send } from './rpc-support.js';

type Json = Record<string, unknown>;

const resultOf = (answer: { body: Json }) => answer.body['result'] as Json;

describe('A2A push notifications on the JSON-RPC endpoint', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  let hook: Receiver;

  before(async () => {
    hook = await receiver();
    server = await startRpcServer({
      a2a: `push_notifications_enabled: true\npush_notification_allowed_hosts: ['127.0.0.1']`,
    });
  });
  after(async () => {
    await server.close();
    await hook.close();
  });

  async function waitingTask(): Promise<Json> {
    return resultOf(await rpc(server.baseUrl, v03Send('send money to Anna')));
  }

  it('v0.3: POSTs the Task with the token and the credentials after the next turn', async () => {
    const task = await waitingTask();
    const set = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/pushNotificationConfig/set',
      params: {
        taskId: task['id'],
        pushNotificationConfig: {
          url: hook.url,
          token: 'tok-1',
          authentication: { schemes: ['Bearer'], credentials: 'cred-1' },
        },
      },
    });
    const config = resultOf(set)['pushNotificationConfig'] as Json;
    expect(config['id']).to.be.a('string');
    const before = hook.received.length;
    const next = await rpc(
      server.baseUrl,
      v03Send('/SetSlots(recipient=Anna)', { taskId: task['id'], contextId: task['contextId'] }),
    );
    expect((resultOf(next)['status'] as Json)['state']).to.equal('input-required');
    await hook.waitFor(before + 1);
    const received = hook.received[before];
    expect(received?.headers['content-type']).to.equal('application/json');
    expect(received?.headers['x-a2a-notification-token']).to.equal('tok-1');
    expect(received?.headers['authorization']).to.equal('Bearer cred-1');
    expect(received?.body).to.deep.include({ kind: 'task', id: task['id'] });
    expect((received?.body['status'] as Json)['state']).to.equal('input-required');
    const listed = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/pushNotificationConfig/list',
      params: { id: task['id'] },
    });
    expect(resultOf(listed)).to.have.length(1);
    const got = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tasks/pushNotificationConfig/get',
      params: { id: task['id'] },
    });
    expect((resultOf(got)['pushNotificationConfig'] as Json)['url']).to.equal(hook.url);
  });

  it("honours a push config given with message/send (v0.3 and v1.0), from the task's first turn", async () => {
    const before = hook.received.length;
    const v03 = resultOf(
      await rpc(server.baseUrl, {
        ...(v03Send('send money to Anna') as Json),
        params: {
          ...((v03Send('send money to Anna') as Json)['params'] as Json),
          configuration: { blocking: true, pushNotificationConfig: { url: hook.url, token: 'inline-03' } },
        },
      }),
    );
    await hook.waitFor(before + 1);
    const first = hook.received[before];
    expect(first?.headers['x-a2a-notification-token']).to.equal('inline-03');
    expect(first?.body).to.deep.include({ kind: 'task', id: v03['id'] });
    const listed = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/pushNotificationConfig/list',
      params: { id: v03['id'] },
    });
    expect(resultOf(listed)).to.have.length(1);

    const v1Request = v1Send('send money to Anna') as Json;
    const v1 = resultOf(
      await rpc(server.baseUrl, {
        ...v1Request,
        params: {
          ...(v1Request['params'] as Json),
          configuration: { taskPushNotificationConfig: { url: hook.url, token: 'inline-1' } },
        },
      }),
    );
    const v1Task = v1['task'] as Json;
    await hook.waitFor(before + 2);
    const second = hook.received[before + 1];
    expect(second?.headers['x-a2a-notification-token']).to.equal('inline-1');
    expect((second?.body['task'] as Json)['id']).to.equal(v1Task['id']);
  });

  it('refuses a message whose push config the server refuses, before any turn runs', async () => {
    const request = v03Send('send money to Anna', { contextId: crypto.randomUUID() }) as Json;
    const refused = await rpc(server.baseUrl, {
      ...request,
      params: {
        ...(request['params'] as Json),
        configuration: { pushNotificationConfig: { url: 'http://169.254.169.254/latest' } },
      },
    });
    expect((refused.body['error'] as { code: number }).code).to.equal(-32602);
    const missingUrl = await rpc(server.baseUrl, {
      ...request,
      params: { ...(request['params'] as Json), configuration: { pushNotificationConfig: { token: 't' } } },
    });
    expect((missingUrl.body['error'] as { data?: { field?: string } }).data?.field).to.equal(
      'configuration.pushNotificationConfig.url',
    );
  });

  it('v1.0 with the official client: create, get, list; a {task} StreamResponse; delete stops deliveries', async () => {
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const first = resultOf(await rpc(server.baseUrl, v1Send('send money to Anna'), { 'A2A-Version': '1.0' }));
    const task = first['task'] as Json;
    const taskId = task['id'] as string;
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId,
      url: hook.url,
      token: 'tok-2',
      authentication: { scheme: 'Bearer', credentials: 'cred-2' },
    });
    expect(created.id).to.not.equal('');
    expect(created.url).to.equal(hook.url);
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId, id: created.id });
    expect(got.token).to.equal('tok-2');
    const listed = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId,
      pageSize: 10,
      pageToken: '',
    });
    expect(listed.configs.map((config) => config.id)).to.deep.equal([created.id]);
    const before = hook.received.length;
    const reply = v1Send('/SetSlots(recipient=Anna)', { taskId, contextId: task['contextId'] });
    await rpc(server.baseUrl, reply, { 'A2A-Version': '1.0' });
    await hook.waitFor(before + 1);
    const received = hook.received[before];
    expect(received?.headers['content-type']).to.equal('application/a2a+json');
    expect(received?.headers['authorization']).to.equal('Bearer cred-2');
    expect(received?.headers['x-a2a-notification-token']).to.equal('tok-2');
    const pushed = received?.body['task'] as Json;
    expect(pushed['id']).to.equal(taskId);
    expect((pushed['status'] as Json)['state']).to.equal('TASK_STATE_INPUT_REQUIRED');
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: created.id });
    // deleting again is fine (idempotent)
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: created.id });
    const after = hook.received.length;
    const last = v1Send('/SetSlots(amount=50)', { taskId, contextId: task['contextId'] });
    const done = await rpc(server.baseUrl, last, { 'A2A-Version': '1.0' });
    expect(done.status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.received.length).to.equal(after);
  });

  it('refuses a host that is not allowed with -32602 and an unknown task with -32001', async () => {
    const task = await waitingTask();
    const set = (url: string, taskId = task['id']) =>
      rpc(server.baseUrl, {
        jsonrpc: '2.0',
        id: 9,
        method: 'tasks/pushNotificationConfig/set',
        params: { taskId, pushNotificationConfig: { url } },
      });
    const local = await set('http://localhost:9/hook');
    expect((local.body['error'] as Json)['code']).to.equal(-32602);
    expect((local.body['error'] as Json)['message']).to.match(/localhost is not in/);
    const mapped = await set('http://[::ffff:127.0.0.1]:9/hook');
    expect((mapped.body['error'] as Json)['code']).to.equal(-32602);
    const gopher = await set('gopher://127.0.0.1/');
    expect((gopher.body['error'] as Json)['code']).to.equal(-32602);
    const unknown = await set(hook.url, 'no-such-task');
    expect((unknown.body['error'] as Json)['code']).to.equal(-32001);
  });

  it('a receiver that is down leaves the task unaffected', async () => {
    const gone = await receiver();
    await gone.close();
    const task = await waitingTask();
    await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tasks/pushNotificationConfig/set',
      params: { taskId: task['id'], pushNotificationConfig: { url: gone.url } },
    });
    const next = await rpc(
      server.baseUrl,
      v03Send('/SetSlots(recipient=Anna)', { taskId: task['id'], contextId: task['contextId'] }),
    );
    expect(next.status).to.equal(200);
    expect((resultOf(next)['status'] as Json)['state']).to.equal('input-required');
  });
});

describe('A2A push notifications without an allow-list', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  before(async () => {
    server = await startRpcServer({ a2a: 'push_notifications_enabled: true' });
  });
  after(() => server.close());

  it('refuses loopback and private callbacks with -32602, the allow-list being absent', async () => {
    const task = resultOf(await rpc(server.baseUrl, v03Send('send money to Anna')));
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://10.1.2.3/hook']) {
      const answer = await rpc(server.baseUrl, {
        jsonrpc: '2.0',
        id: 9,
        method: 'tasks/pushNotificationConfig/set',
        params: { taskId: task['id'], pushNotificationConfig: { url } },
      });
      const error = answer.body['error'] as Json;
      expect(error['code'], url).to.equal(-32602);
      expect(error['message'], url).to.match(/not a public address/);
    }
  });
});

describe('A2A push notifications switched off', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  before(async () => {
    server = await startRpcServer();
  });
  after(() => server.close());

  it('answers every push method with -32003 and says so on the card', async () => {
    for (const method of ['tasks/pushNotificationConfig/set', 'tasks/pushNotificationConfig/list'])
      expect(
        ((await rpc(server.baseUrl, { jsonrpc: '2.0', id: 1, method, params: {} })).body['error'] as Json)[
          'code'
        ],
      ).to.equal(-32003);
    const card = (await (await fetch(`${server.baseUrl}/.well-known/agent-card.json`)).json()) as Json;
    expect((card['capabilities'] as Json)['pushNotifications']).to.equal(false);
  });
});
