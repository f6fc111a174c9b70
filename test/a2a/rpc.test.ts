import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { readSse, rpc, startRpcServer, v03Send, v1Send } from './rpc-support.js';

function request(text: string, extra: Partial<Message> = {}, data?: unknown): SendMessageRequest {
  const parts: Message['parts'] = [
    { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined },
  ];
  if (data !== undefined)
    parts.push({ content: { $case: 'data', value: data }, mediaType: '', filename: '', metadata: undefined });
  return {
    tenant: '',
    metadata: {},
    configuration: undefined,
    message: {
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      contextId: '',
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
      ...extra,
      parts,
    },
  };
}

const isTask = (result: Task | Message): result is Task => 'status' in result;

function dataOf(task: Task): Record<string, unknown> {
  const part = task.status?.message?.parts.find((item) => item.content?.$case === 'data');
  return (part?.content?.$case === 'data' ? part.content.value : {}) as Record<string, unknown>;
}

async function legacyClient(base: string): Promise<Client> {
  const card = (await (
    await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
  ).json()) as {
    supportedInterfaces: { protocolVersion: string }[];
  };
  card.supportedInterfaces = card.supportedInterfaces.filter((item) => item.protocolVersion === '0.3');
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }),
  );
  return factory.createFromAgentCard(card as never);
}

describe('A2A JSON-RPC with the official client', function () {
  this.timeout(60_000);
  let server: ParleyServer;

  before(async () => {
    server = await startRpcServer();
  });
  after(() => server.close());

  for (const wire of ['v0.3', 'v1.0'] as const) {
    it(`${wire}: a transfer goes input-required, then with the slots filled stays input-required (repair on)`, async () => {
      const client =
        wire === 'v0.3'
          ? await legacyClient(server.baseUrl)
          : await new ClientFactory().createFromUrl(server.baseUrl);
      const first = await client.sendMessage(request('send money to Anna'));
      expect(isTask(first)).to.equal(true);
      const task = first as Task;
      expect(task.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(dataOf(task)).to.deep.include({ active_flow: 'transfer_money' });
      expect(dataOf(task)['awaiting']).to.deep.equal({ slot: 'recipient', flow_id: 'transfer_money' });
      const second = (await client.sendMessage(
        request('/SetSlots(recipient=Anna)', { taskId: task.id, contextId: task.contextId }),
      )) as Task;
      expect(second.id).to.equal(task.id);
      expect(dataOf(second)['awaiting']).to.deep.equal({ slot: 'amount', flow_id: 'transfer_money' });
      const third = (await client.sendMessage(
        request('/SetSlots(amount=50)', { contextId: task.contextId }),
      )) as Task;
      expect(third.status?.state).to.equal(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(dataOf(third)['completed_flow']).to.deep.equal({
        flow_id: 'transfer_money',
        slots: { recipient: 'Anna', amount: 50 },
      });
      const texts = third.status?.message?.parts.flatMap((part) =>
        part.content?.$case === 'text' ? [part.content.value] : [],
      );
      expect(texts?.[0]).to.equal('Done.');
      const got = await client.getTask({ tenant: '', id: task.id, historyLength: 1 });
      expect(got.history).to.have.length(1);
      // a new task on the context superseded the waiting one
      expect(got.status?.state).to.equal(TaskState.TASK_STATE_CANCELED);
    });

    it(`${wire}: streams the task, working updates with the bot's messages, and a final status`, async () => {
      const client =
        wire === 'v0.3'
          ? await legacyClient(server.baseUrl)
          : await new ClientFactory().createFromUrl(server.baseUrl);
      const seen: string[] = [];
      for await (const event of client.sendMessageStream(request('send money to Anna'))) {
        const payload = event.payload;
        seen.push(
          payload?.$case === 'statusUpdate'
            ? `status:${TaskState[payload.value.status!.state]}`
            : String(payload?.$case),
        );
      }
      expect(seen).to.deep.equal([
        'task',
        'status:TASK_STATE_WORKING',
        'status:TASK_STATE_WORKING',
        'status:TASK_STATE_INPUT_REQUIRED',
      ]);
    });

    it(`${wire}: cancels a task waiting for input and the flow in the dialogue; resubscribe follows a waiting task`, async () => {
      const client =
        wire === 'v0.3'
          ? await legacyClient(server.baseUrl)
          : await new ClientFactory().createFromUrl(server.baseUrl);
      const task = (await client.sendMessage(request('send money to Anna'))) as Task;
      const stream = client.resubscribeTask({ tenant: '', id: task.id });
      const firstEvent = await stream.next();
      expect(firstEvent.value?.payload?.$case).to.equal('task');
      const canceled = await client.cancelTask({ tenant: '', id: task.id, metadata: {} });
      expect(canceled.status?.state).to.equal(TaskState.TASK_STATE_CANCELED);
      expect(dataOf(canceled)['active_flow']).to.equal(null);
      const rest: string[] = [];
      for await (const event of { [Symbol.asyncIterator]: () => stream })
        rest.push(String(event.payload?.$case));
      expect(rest).to.include('statusUpdate');
      let refused = false;
      await client.cancelTask({ tenant: '', id: task.id, metadata: {} }).catch(() => (refused = true));
      expect(refused).to.equal(false);
      const next = (await client.sendMessage(request('hello', { contextId: task.contextId }))) as Task;
      expect(dataOf(next)['active_flow']).to.equal(null);
    });
  }
});

describe('A2A JSON-RPC on the wire', function () {
  this.timeout(60_000);
  let server: ParleyServer;

  before(async () => {
    server = await startRpcServer({ a2a: 'include_conversation_repair: false' });
  });
  after(() => server.close());

  it('completes a finished flow when conversation repair is off, with a result artifact', async () => {
    const context = crypto.randomUUID();
    await rpc(server.baseUrl, v1Send('send money to Anna', { contextId: context }), { 'A2A-Version': '1.0' });
    const answer = await rpc(server.baseUrl, {
      ...(v1Send('x', { contextId: context }) as object),
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          contextId: context,
          parts: [{ data: { slots: { recipient: 'Bo', amount: '12', nope: 1 } } }],
        },
      },
    });
    const task = (answer.body['result'] as { task: Record<string, unknown> }).task;
    expect(task['status']).to.have.property('state', 'TASK_STATE_COMPLETED');
    const artifacts = task['artifacts'] as { parts: Record<string, unknown>[] }[];
    const data = artifacts[0]?.parts.find((part) => 'data' in part)?.['data'] as Record<string, unknown>;
    expect(data['completed_flow']).to.deep.equal({
      flow_id: 'transfer_money',
      slots: { recipient: 'Bo', amount: 12 },
    });
    expect(data['warnings']).to.deep.equal(["unknown slot 'nope' ignored"]);
    // the task ends on the flow's own answer, not on pattern_completed's open question
    const status = task['status'] as { message: { parts: Record<string, unknown>[] } };
    const texts = status.message.parts.flatMap((part) =>
      typeof part['text'] === 'string' ? [part['text']] : [],
    );
    expect(texts).to.include('Done.');
    expect(texts.join('\n')).not.to.include('what would you like me to help you with');
  });

  it('a v1.0 SubscribeToTask stream sends the task once, then only its updates', async () => {
    const context = crypto.randomUUID();
    const waiting = await rpc(server.baseUrl, v1Send('send money to Anna', { contextId: context }));
    const taskId = (waiting.body['result'] as { task: { id: string } }).task.id;
    const subscribed = await fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 's', method: 'SubscribeToTask', params: { id: taskId } }),
    });
    const reading = readSse(subscribed);
    await rpc(server.baseUrl, {
      ...(v1Send('x') as object),
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          contextId: context,
          taskId,
          parts: [{ data: { amount: 12 } }],
        },
      },
    });
    const { events } = await reading;
    const kinds = events.map((event) => Object.keys(event['result'] as object)[0]);
    expect(kinds[0]).to.equal('task');
    expect(kinds.slice(1)).to.have.length.greaterThan(0);
    expect(kinds.slice(1).filter((kind) => kind === 'task')).to.deep.equal([]);
  });

  it('replays a repeated messageId on the same context without running the turn again', async () => {
    const body = v03Send('send money to Anna', { contextId: crypto.randomUUID() });
    const first = await rpc(server.baseUrl, body);
    const again = await rpc(server.baseUrl, body);
    expect(again.body['result']).to.deep.equal(first.body['result']);
    const taskId = (first.body['result'] as { id: string }).id;
    const got = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tasks/get',
      params: { id: taskId },
    });
    const history = (got.body['result'] as { history: unknown[] }).history;
    expect(history).to.have.length(2);
  });

  it('answers malformed and invalid requests with the JSON-RPC error of each case', async () => {
    const code = async (body: unknown, headers: Record<string, string> = {}) => {
      const answer = await rpc(server.baseUrl, body, headers);
      return [answer.status, (answer.body['error'] as { code: number } | undefined)?.code, answer.body['id']];
    };
    expect(await code('{"jsonrpc": "2.0", "id": 1, "method": ')).to.deep.equal([200, -32700, null]);
    expect(await code('[]')).to.deep.equal([200, -32600, null]);
    expect(await code({ jsonrpc: '1.0', id: 4, method: 'message/send' })).to.deep.equal([200, -32600, 4]);
    expect(await code({ jsonrpc: '2.0', id: 5, method: 'tasks/list' })).to.deep.equal([200, -32601, 5]);
    const empty = {
      jsonrpc: '2.0',
      id: 6,
      method: 'message/send',
      params: { message: { messageId: 'e', role: 'user', parts: [] } },
    };
    expect(await code(empty)).to.deep.equal([200, -32602, 6]);
    expect(await code(v03Send('hi', { role: 'agent' }, 7))).to.deep.equal([200, -32602, 7]);
    expect(await code(v1Send('hi', { role: 'ROLE_AGENT' }), { 'A2A-Version': '1.0' })).to.include(-32602);
    expect(
      await code({ jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: 'x', historyLength: -1 } }),
    ).to.deep.equal([200, -32602, 8]);
    expect(
      await code({ jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id: 'missing' } }),
    ).to.deep.equal([200, -32001, 9]);
    expect(
      await code(
        { jsonrpc: '2.0', id: 10, method: 'GetTask', params: { id: 'x' } },
        { 'A2A-Version': '2.0' },
      ),
    ).to.deep.equal([200, -32009, 10]);
    expect(
      await code({ jsonrpc: '2.0', id: 11, method: 'message/send', params: {} }, { 'A2A-Version': '1.0' }),
    ).to.deep.equal([200, -32009, 11]);
    expect(
      await code({ jsonrpc: '2.0', id: 12, method: 'tasks/pushNotificationConfig/set', params: {} }),
    ).to.deep.equal([200, -32003, 12]);
    expect(
      await code({ jsonrpc: '2.0', id: 13, method: 'agent/getAuthenticatedExtendedCard' }),
    ).to.deep.equal([200, -32007, 13]);
    expect(
      await code({ jsonrpc: '2.0', id: 14, method: 'GetExtendedAgentCard' }, { 'A2A-Version': '1.0.3' }),
    ).to.deep.equal([200, -32004, 14]);
    const file = {
      jsonrpc: '2.0',
      id: 15,
      method: 'message/send',
      params: {
        message: { messageId: 'f', role: 'user', parts: [{ kind: 'file', file: { uri: 'http://x/y' } }] },
      },
    };
    expect(await code(file)).to.deep.equal([200, -32005, 15]);
    const large = await rpc(server.baseUrl, JSON.stringify({ pad: 'x'.repeat(11 * 1024 * 1024) }));
    expect([large.status, (large.body['error'] as { code: number }).code]).to.deep.equal([413, -32600]);
  });

  it('gives v1.0 errors an ErrorInfo and refuses messages to terminal tasks per wire', async () => {
    const missing = await rpc(
      server.baseUrl,
      { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 't-1' } },
      { 'A2A-Version': '1.0' },
    );
    expect(missing.body['error']).to.deep.equal({
      code: -32001,
      message: 'Task not found: t-1',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'TASK_NOT_FOUND',
          domain: 'a2a-protocol.org',
          metadata: { taskId: 't-1' },
        },
      ],
    });
    const done = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'user',
          parts: [
            { kind: 'text', text: 'send money to Anna' },
            {
              kind: 'data',
              data: {
                slots: [
                  { name: 'recipient', value: 'Al' },
                  { name: 'amount', value: 3 },
                ],
              },
            },
          ],
        },
      },
    });
    const id = (done.body['result'] as { id: string; status: { state: string } }).id;
    expect((done.body['result'] as { status: { state: string } }).status.state).to.equal('completed');
    const v03 = await rpc(server.baseUrl, v03Send('again', { taskId: id }));
    expect((v03.body['error'] as { code: number }).code).to.equal(-32602);
    const v1 = await rpc(server.baseUrl, v1Send('again', { taskId: id }));
    expect((v1.body['error'] as { code: number }).code).to.equal(-32004);
    const notCancelable = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/cancel',
      params: { id },
    });
    expect((notCancelable.body['error'] as { code: number }).code).to.equal(-32002);
  });

  it('lists tasks newest first with pages (v1.0 ListTasks)', async () => {
    const context = crypto.randomUUID();
    for (const text of ['hello', 'hello again', 'hello once more'])
      await rpc(server.baseUrl, v1Send(text, { contextId: context }));
    const page = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'ListTasks',
      params: { contextId: context, pageSize: 2 },
    });
    const result = page.body['result'] as {
      tasks: { history: { parts: { text: string }[] }[]; artifacts?: unknown[] }[];
      nextPageToken: string;
      totalSize: number;
    };
    expect(result.totalSize).to.equal(3);
    expect(result.tasks).to.have.length(2);
    expect(result.tasks[0]?.history[0]?.parts[0]?.text).to.equal('hello once more');
    expect(result.tasks[0]?.artifacts).to.deep.equal([]);
    const last = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 2,
      method: 'ListTasks',
      params: { contextId: context, pageSize: 2, pageToken: result.nextPageToken },
    });
    expect((last.body['result'] as { nextPageToken: string; tasks: unknown[] }).tasks).to.have.length(1);
    expect((last.body['result'] as { nextPageToken: string }).nextPageToken).to.equal('');
    const bad = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 3,
      method: 'ListTasks',
      params: { pageSize: 101 },
    });
    expect((bad.body['error'] as { code: number }).code).to.equal(-32602);
  });

  it('reads fields by their proto names too (context_id, page_size, history_length), as ProtoJSON does', async () => {
    const context = crypto.randomUUID();
    await rpc(server.baseUrl, v1Send('hello', { contextId: context }));
    await rpc(server.baseUrl, v1Send('hello elsewhere', { contextId: crypto.randomUUID() }));
    const listed = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'ListTasks',
      params: { context_id: context, page_size: 5, history_length: 1 },
    });
    const result = listed.body['result'] as { tasks: { contextId: string; history: unknown[] }[] };
    // only the named context's task, not every task
    expect(result.tasks.map((task) => task.contextId)).to.deep.equal([context]);
    expect(result.tasks[0]?.history).to.have.length(1);
  });

  it('answers a streaming call that fails before its stream opens as an event stream when asked for one', async () => {
    for (const method of ['tasks/resubscribe', 'SubscribeToTask']) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'sub-1', method, params: { id: 'no-such-task' } });
      const streamed = await fetch(`${server.baseUrl}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body,
      });
      expect(streamed.status, method).to.equal(200);
      expect(streamed.headers.get('content-type'), method).to.match(/^text\/event-stream/);
      const data = (await streamed.text()).split('\n').find((line) => line.startsWith('data: '));
      const event = JSON.parse(data?.slice('data: '.length) ?? '{}') as {
        id: string;
        error: { code: number };
      };
      expect(event.id).to.equal('sub-1');
      expect(event.error.code, method).to.equal(-32001);
      // a client that did not ask for events gets the JSON error as before
      const plain = await fetch(`${server.baseUrl}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(plain.headers.get('content-type'), method).to.match(/^application\/json/);
      expect(((await plain.json()) as { error: { code: number } }).error.code).to.equal(-32001);
    }
  });

  it('streams v0.3 events with final: true on the last status update', async () => {
    const response = await fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'stream-1',
        method: 'message/stream',
        params: {
          message: {
            messageId: crypto.randomUUID(),
            role: 'user',
            parts: [
              { kind: 'text', text: 'send money to Anna' },
              { kind: 'data', data: { slots: { recipient: 'Al', amount: 3 } } },
            ],
          },
        },
      }),
    });
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    const { events } = await readSse(response);
    const results = events.map((event) => event['result'] as Record<string, unknown>);
    const kinds = results.map((result) => result['kind']);
    expect(kinds[0]).to.equal('task');
    expect(kinds.slice(-2)).to.deep.equal(['artifact-update', 'status-update']);
    const finals = results
      .filter((result) => result['kind'] === 'status-update')
      .map((result) => result['final']);
    expect(finals.pop()).to.equal(true);
    expect(finals).to.not.include(true);
  });
});
