import { Role, TaskState } from '@a2a-js/sdk';
import type { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { scriptedActionServer, send, startHardeningServer, statusData } from './hardening-support.js';
import type { ActionServer, V03Task } from './hardening-support.js';
import { waitFor } from '../support/timing.js';
import { readSse, rpc } from './rpc-support.js';

function sdkRequest(text: string, contextId = ''): SendMessageRequest {
  return {
    tenant: '',
    metadata: {},
    configuration: undefined,
    message: {
      messageId: crypto.randomUUID(),
      role: Role.ROLE_USER,
      contextId,
      taskId: '',
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
      parts: [
        {
          content: { $case: 'text', value: text },
          mediaType: 'text/plain',
          filename: '',
          metadata: undefined,
        },
      ],
    },
  };
}

async function result(server: ParleyServer, body: unknown): Promise<V03Task> {
  const answer = await rpc(server.baseUrl, body);
  expect(answer.body['error'], JSON.stringify(answer.body['error'])).to.equal(undefined);
  return answer.body['result'] as V03Task;
}

async function stateOf(server: ParleyServer, id: string): Promise<string> {
  return (await result(server, { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id } })).status.state;
}

describe('A2A busy contexts and task timeout', function () {
  this.timeout(60_000);
  let actions: ActionServer;
  let server: ParleyServer;

  before(async () => {
    // the action answers when the test says so, and the task may take 1 s
    actions = await scriptedActionServer('held');
    server = await startHardeningServer({ actionUrl: actions.url, a2a: ['task_timeout_seconds: 1'] });
  });
  after(async () => {
    actions.releaseSlow();
    await server.close();
    await actions.close();
  });

  it('a second message on a context whose turn runs gets HTTP 409, -32010 and Retry-After (raw and SDK)', async () => {
    const running = await result(server, send('/slow', {}, { blocking: false }));
    expect(['submitted', 'working']).to.include(running.status.state);
    const busy = await rpc(server.baseUrl, send('hello', { contextId: running.contextId }));
    expect(busy.status).to.equal(409);
    expect(busy.headers.get('retry-after')).to.equal('1');
    expect(busy.body['id']).to.be.a('string');
    expect(busy.body['error']).to.deep.include({ code: -32010 });
    expect((busy.body['error'] as { data: Record<string, unknown> }).data).to.deep.equal({
      reason: 'CONTEXT_BUSY',
      contextId: running.contextId,
    });
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const refused = await client.sendMessage(sdkRequest('hello', running.contextId)).then(
      () => undefined,
      (error: unknown) => error as { envelopeCode?: number; data?: { reason?: string }[] },
    );
    // the SDK reads the JSON-RPC body of the 409 and raises its error with the code and ErrorInfo
    expect(refused?.envelopeCode).to.equal(-32010);
    expect(refused?.data?.[0]?.reason).to.equal('CONTEXT_BUSY');
  });

  it('task_timeout_seconds fails a task that runs too long; the turn still ends in the dialogue', async () => {
    const before = actions.calls.get('action_slow') ?? 0;
    const started = Date.now();
    // the action is held: only the task timeout (1 s) can answer this blocking send
    const timedOut = await result(server, send('/slow'));
    expect(Date.now() - started).to.be.at.least(900);
    expect(timedOut.status.state).to.equal('failed');
    expect(statusData(timedOut)['error']).to.deep.equal({
      code: 'task_timeout',
      message: 'The task ran longer than 1 s.',
    });
    // the turn keeps the conversation until the action answers: the context is still busy
    const busy = await rpc(server.baseUrl, send('hello', { contextId: timedOut.contextId }));
    expect(busy.status).to.equal(409);
    // once the action answered, the dialogue holds its message and the context takes messages again
    actions.releaseSlow();
    let next = busy;
    await waitFor(async () => {
      next = await rpc(server.baseUrl, send('send money to Anna', { contextId: timedOut.contextId }));
      return next.status !== 409;
    }, 'the context to take messages again');
    const task = next.body['result'] as V03Task;
    expect(task.status.state).to.equal('input-required');
    expect(statusData(task)['awaiting']).to.deep.equal({ slot: 'recipient', flow_id: 'transfer_money' });
    expect(await stateOf(server, timedOut.id)).to.equal('failed');
    const tracker = (await (
      await fetch(
        `${server.baseUrl}/conversations/${encodeURIComponent(`a2a::${timedOut.contextId}`)}/tracker`,
      )
    ).json()) as { events: { event: string; text?: string; name?: string }[] };
    const said = tracker.events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
    expect(said).to.include('Slow work done.');
    expect(actions.calls.get('action_slow')).to.equal(before + 1);
  });
});

describe('A2A max_contexts', function () {
  this.timeout(60_000);
  let actions: ActionServer;
  let server: ParleyServer;

  before(async () => {
    actions = await scriptedActionServer(10);
    server = await startHardeningServer({ actionUrl: actions.url, a2a: ['max_contexts: 2'] });
  });
  after(async () => {
    await server.close();
    await actions.close();
  });

  it('refuses a new context beyond the cap while input-required tasks reserve the others', async () => {
    const first = await result(server, send('send money to Anna'));
    const second = await result(server, send('send money to Bo'));
    expect([first.status.state, second.status.state]).to.deep.equal(['input-required', 'input-required']);
    const refused = await rpc(server.baseUrl, send('hello'));
    expect(refused.status).to.equal(503);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.body['error']).to.deep.include({ code: -32603 });
    const error = refused.body['error'] as { message: string; data: Record<string, unknown> };
    expect(error.message).to.match(/maximum of 2 contexts/);
    expect(error.data).to.deep.equal({ reason: 'MAX_CONTEXTS_REACHED', maxContexts: '2', callerShare: '2' });
    // an existing context still takes messages
    const more = await result(
      server,
      send('/SetSlots(recipient=Anna)', { contextId: first.contextId, taskId: first.id }),
    );
    expect(statusData(more)['awaiting']).to.deep.equal({ slot: 'amount', flow_id: 'transfer_money' });
    // a canceled task frees its context: the next new context takes its place (the other stays)
    await result(server, { jsonrpc: '2.0', id: 2, method: 'tasks/cancel', params: { id: second.id } });
    const third = await result(server, send('hello'));
    expect(third.contextId).to.not.equal(second.contextId);
    const gone = await rpc(server.baseUrl, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tasks/get',
      params: { id: second.id },
    });
    expect(gone.body['error']).to.deep.include({ code: -32001 });
    expect(await stateOf(server, first.id)).to.equal('input-required');
  });
});

const KEEP_ALIVE_MS = 200;

describe('A2A streams: keep-alives and resubscribe to a running task', function () {
  this.timeout(60_000);
  let actions: ActionServer;
  let server: ParleyServer;

  before(async () => {
    actions = await scriptedActionServer('held');
    server = await startHardeningServer({ actionUrl: actions.url, keepAliveMs: KEEP_ALIVE_MS });
  });
  after(async () => {
    actions.releaseSlow();
    await server.close();
    await actions.close();
  });

  it('a quiet stream gets a keep-alive comment every interval', async () => {
    const slowBefore = actions.calls.get('action_slow') ?? 0;
    const arrived: number[] = [];
    const response = await fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(send('/slow', {}, { method: 'message/stream' })),
    });
    // the turn stays quiet until eleven keep-alives have come, then its action answers
    const { events, comments } = await readSse(response, (count) => {
      arrived.push(Date.now());
      if (count === 11) void actions.slowCalls(slowBefore + 1).then(() => actions.releaseSlow());
    });
    expect(comments).to.be.at.least(11);
    // ten intervals of 200 ms: comments come no more often (a busy machine delays some, and a timer
    // fires at most a little early when the event loop's clock is stale)
    const tenIntervals = (arrived[10] ?? 0) - (arrived[0] ?? 0);
    expect(tenIntervals).to.be.at.least(10 * KEEP_ALIVE_MS * 0.7);
    const last = events[events.length - 1]?.['result'] as { final: boolean; status: { state: string } };
    expect(last.final).to.equal(true);
    expect(last.status.state).to.equal('input-required');
  });

  it('resubscribe to a running task receives the rest of its events (raw SSE and SDK)', async () => {
    const slowBefore = actions.calls.get('action_slow') ?? 0;
    const running = await result(server, send('/slow', {}, { blocking: false }));
    await actions.slowCalls(slowBefore + 1);
    const raw = fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r',
        method: 'tasks/resubscribe',
        params: { id: running.id },
      }),
    });
    // its headers came: the raw stream is subscribed
    const rawRead = readSse(await raw);
    const client = await new ClientFactory().createFromUrl(server.baseUrl);
    const seen: string[] = [];
    for await (const event of client.resubscribeTask({ tenant: '', id: running.id })) {
      // both are subscribed (the SDK's first event is the task): now the turn may go on
      if (seen.length === 0) actions.releaseSlow();
      const payload = event.payload;
      seen.push(
        payload?.$case === 'statusUpdate' ? `status:${payload.value.status?.state}` : String(payload?.$case),
      );
    }
    expect(seen[0]).to.equal('task');
    // working updates carry the bot's messages as they come (the slow action's, then the repair
    // pattern's offer of more help), the last one is input-required
    expect(seen.slice(1, -1)).to.have.length.greaterThan(0);
    expect(new Set(seen.slice(1, -1))).to.deep.equal(new Set([`status:${TaskState.TASK_STATE_WORKING}`]));
    expect(seen[seen.length - 1]).to.equal(`status:${TaskState.TASK_STATE_INPUT_REQUIRED}`);
    const { events } = await rawRead;
    const results = events.map((event) => event['result'] as Record<string, unknown>);
    expect(results[0]).to.include({ kind: 'task', id: running.id });
    const updates = results.slice(1) as {
      kind: string;
      status: { state: string; message?: unknown };
      final: boolean;
    }[];
    const states = updates.map((update) => `${update.status.state}:${String(update.final)}`);
    expect(states.pop()).to.equal('input-required:true');
    expect(new Set(states)).to.deep.equal(new Set(['working:false']));
    expect(JSON.stringify(updates[0]?.status.message)).to.include('Slow work done.');
  });
});
