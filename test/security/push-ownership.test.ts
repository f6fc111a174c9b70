/**
 * Finding: push notification configs were shared across callers: another caller could list them
 * (reading the webhook's token and credentials), add its own URL to someone else's task and delete
 * their hooks; configs were unbounded per task and never freed with their task, so 300 configs made
 * one turn send 300 POSTs. Now a config belongs to the caller that set it (its task's caller), a task
 * holds at most 10, and a forgotten task takes its configs along.
 */
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { send } from '../a2a/hardening-support.js';
import type { V03Task } from '../a2a/hardening-support.js';
import { receiver } from '../a2a/push-support.js';
import type { Receiver } from '../a2a/push-support.js';
import { rpc } from '../a2a/rpc-support.js';
import { bearer, callAs, metricValue, startSecureServer, stillServes } from './support.js';

const PUSH = ['push_notifications_enabled: true', 'push_notification_allowed_hosts: ["127.0.0.1"]'];

function setConfig(taskId: string, url: string, id?: string): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method: 'tasks/pushNotificationConfig/set',
    params: {
      taskId,
      pushNotificationConfig: {
        ...(id ? { id } : {}),
        url,
        token: 'webhook-secret-token',
        authentication: { schemes: ['Bearer'], credentials: 'receiver-credentials' },
      },
    },
  };
}

const call = (method: string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: crypto.randomUUID(),
  method,
  params,
});

async function waitingTask(server: ParleyServer, caller: string, contextId?: string): Promise<V03Task> {
  const answer = await callAs(server, caller, send('/transfer_money', contextId ? { contextId } : {}));
  return answer.body['result'] as V03Task;
}

describe('Security: push notification configs belong to their caller', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  let hook: Receiver;

  before(async () => {
    server = await startSecureServer({ a2a: PUSH });
    hook = await receiver();
  });
  after(async () => {
    await server.close();
    await hook.close();
  });

  it('keeps another caller from listing, reading, adding to or deleting a task’s configs', async () => {
    const task = await waitingTask(server, 'orchestrator');
    const set = await callAs(server, 'orchestrator', setConfig(task.id, hook.url, 'mine'));
    expect(set.body['result']).to.have.nested.property('pushNotificationConfig.id', 'mine');
    // the URL is kept as parsed (what is delivered to), not as sent
    const spaced = await callAs(
      server,
      'orchestrator',
      setConfig(task.id, `  ${hook.url.replace('/hook', '/ho\tok')}`, 'parsed'),
    );
    expect(spaced.body['result']).to.have.nested.property(
      'pushNotificationConfig.url',
      hook.url.replace('/hook', '/hook'),
    );
    await callAs(
      server,
      'orchestrator',
      call('tasks/pushNotificationConfig/delete', { id: task.id, pushNotificationConfigId: 'parsed' }),
    );
    const attempts = [
      call('tasks/pushNotificationConfig/list', { id: task.id }),
      call('tasks/pushNotificationConfig/get', { id: task.id, pushNotificationConfigId: 'mine' }),
      call('tasks/pushNotificationConfig/get', { id: task.id }),
      setConfig(task.id, `${hook.url}?stolen`),
      call('tasks/pushNotificationConfig/delete', { id: task.id, pushNotificationConfigId: 'mine' }),
    ];
    for (const attempt of attempts) {
      const answer = await callAs(server, 'intruder', attempt);
      expect(answer.body['error'], JSON.stringify(answer.body)).to.deep.include({ code: -32001 });
      expect(JSON.stringify(answer.body)).to.not.include('receiver-credentials');
      expect(JSON.stringify(answer.body)).to.not.include('webhook-secret-token');
    }
    const v1 = { ...(await bearer('intruder')), 'A2A-Version': '1.0' };
    for (const method of ['ListTaskPushNotificationConfigs', 'GetTaskPushNotificationConfig'])
      expect(
        (await rpc(server.baseUrl, call(method, { taskId: task.id, id: 'mine' }), v1)).body['error'],
      ).to.deep.include({
        code: -32001,
      });
    // the owner still sees its config, credentials included, and its hook still gets the notification
    const listed = await callAs(
      server,
      'orchestrator',
      call('tasks/pushNotificationConfig/list', { id: task.id }),
    );
    expect(listed.body['result']).to.have.length(1);
    expect(JSON.stringify(listed.body['result'])).to.include('receiver-credentials');
    const before = hook.received.length;
    await callAs(
      server,
      'orchestrator',
      send('/SetSlots(recipient=Anna)', { taskId: task.id, contextId: task.contextId }),
    );
    await hook.waitFor(before + 1);
    expect(hook.received.slice(before).map((item) => item.headers['x-a2a-notification-token'])).to.deep.equal(
      ['webhook-secret-token'],
    );
    expect(await stillServes(server)).to.equal(true);
  });

  it('holds at most 10 configs per task, so one turn sends at most 10 notifications', async () => {
    const task = await waitingTask(server, 'orchestrator');
    for (let index = 0; index < 10; index += 1)
      expect((await callAs(server, 'orchestrator', setConfig(task.id, hook.url))).body).to.have.property(
        'result',
      );
    const refused = await callAs(server, 'orchestrator', setConfig(task.id, hook.url));
    expect(refused.body['error']).to.deep.include({ code: -32602 });
    expect((refused.body['error'] as { message: string }).message).to.match(/at most 10/);
    const before = hook.received.length;
    await callAs(
      server,
      'orchestrator',
      send('/SetSlots(recipient=Bo)', { taskId: task.id, contextId: task.contextId }),
    );
    await hook.waitFor(before + 10);
    // nothing beyond the ten
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.received.length - before).to.equal(10);
  });
});

describe('Security: push configs go with their task', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  let hook: Receiver;

  before(async () => {
    // a context keeps ~1 kB of tasks: a finished task is forgotten as soon as the next one starts
    server = await startSecureServer({ a2a: [...PUSH, 'max_context_bytes: 1000'] });
    hook = await receiver();
  });
  after(async () => {
    await server.close();
    await hook.close();
  });

  it('frees a forgotten task’s configs and sends nothing more for it', async () => {
    const contextId = `ctx-${crypto.randomUUID()}`;
    const first = await waitingTask(server, 'orchestrator', contextId);
    for (let index = 0; index < 3; index += 1)
      await callAs(server, 'orchestrator', setConfig(first.id, hook.url));
    expect(await metricValue(server, 'parley_a2a_push_configs')).to.equal(3);
    // a new task in the context supersedes the waiting one (canceled); the finished one is then forgotten
    const before = hook.received.length;
    await waitingTask(server, 'orchestrator', contextId);
    await hook.waitFor(before + 3);
    expect(await metricValue(server, 'parley_a2a_push_configs')).to.equal(0);
    const gone = await callAs(server, 'orchestrator', call('tasks/get', { id: first.id }));
    expect(gone.body['error']).to.deep.include({ code: -32001 });
    expect(await stillServes(server)).to.equal(true);
  });
});
