import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import {
  scriptedActionServer,
  send,
  startHardeningServer,
  statusData,
  statusTexts,
} from './hardening-support.js';
import type { ActionServer, V03Task } from './hardening-support.js';
import { rpc } from './rpc-support.js';

describe('A2A outcomes and replays through the server', function () {
  this.timeout(60_000);
  let actions: ActionServer;
  let server: ParleyServer;

  before(async () => {
    actions = await scriptedActionServer(10);
    server = await startHardeningServer({ actionUrl: actions.url });
  });
  after(async () => {
    await server.close();
    await actions.close();
  });

  const task = async (body: unknown): Promise<V03Task> => {
    const answer = await rpc(server.baseUrl, body);
    expect(answer.body['error'], JSON.stringify(answer.body['error'])).to.equal(undefined);
    return answer.body['result'] as V03Task;
  };

  it('a human handoff completes the task with handoff: true and the handoff message', async () => {
    const result = await task(send('/human'));
    expect(result.status.state).to.equal('completed');
    expect(statusData(result)).to.include({ handoff: true, state: 'completed' });
    expect(statusTexts(result).join(' ')).to.match(/human|agent|person/i);
    expect(result.artifacts?.[0]?.parts.some((part) => part['kind'] === 'data')).to.equal(true);
  });

  it('cannot-handle leaves the task input-required with reason cannot_handle', async () => {
    const result = await task(send('/no_such_intent'));
    expect(result.status.state).to.equal('input-required');
    expect(statusData(result)).to.include({ reason: 'cannot_handle', active_flow: null });
    expect(statusTexts(result)).to.have.length.greaterThan(0);
  });

  it('an action failing in the turn (pattern_internal_error) fails the task; the context goes on', async () => {
    const result = await task(send('/broken'));
    expect(result.status.state).to.equal('failed');
    expect(statusData(result)['error']).to.deep.equal({
      code: 'internal_error',
      message: 'The assistant hit an internal error in this turn.',
    });
    expect(actions.calls.get('action_broken')).to.equal(1);
    const next = await task(send('send money to Anna', { contextId: result.contextId }));
    expect(next.status.state).to.equal('input-required');
    expect(statusData(next)['awaiting']).to.deep.equal({ slot: 'recipient', flow_id: 'transfer_money' });
  });

  it('a repeated messageId with another payload on the same context is invalid params, not a replay', async () => {
    const first = send('send money to Anna');
    const original = await task(first);
    const message = (first['params'] as { message: Record<string, unknown> }).message;
    const sameId = { ...message, contextId: original.contextId, parts: [{ kind: 'text', text: 'hello' }] };
    const clash = await rpc(server.baseUrl, { ...first, params: { message: sameId } });
    expect(clash.status).to.equal(200);
    expect(clash.body['error']).to.deep.include({ code: -32602 });
    expect((clash.body['error'] as { data: Record<string, unknown> }).data).to.include({
      reason: 'INVALID_PARAMS',
      field: 'message.messageId',
    });
    // the identical payload, keys in another order, is a replay: same answer, nothing ran again
    const identical = {
      parts: message['parts'],
      role: 'user',
      messageId: message['messageId'],
      kind: 'message',
    };
    const replay = await rpc(server.baseUrl, {
      ...first,
      params: { message: { ...identical, contextId: original.contextId } },
    });
    // the contextId is part of the cache key, not of the payload: naming the minted context is a retry
    expect(replay.body['result']).to.deep.equal(original);
    const got = await task({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: original.id } });
    expect(got.history).to.have.length(2);
  });

  it('a replay of the message that ended a task returns that answer instead of refusing the terminal task', async () => {
    const waiting = await task(send('send money to Anna'));
    const finishing = send('x', {
      contextId: waiting.contextId,
      taskId: waiting.id,
      parts: [{ kind: 'data', data: { slots: { recipient: 'Bo', amount: 3 } } }],
    });
    const done = await task(finishing);
    expect(done.status.state).to.equal('input-required');
    const cancel = await task({ jsonrpc: '2.0', id: 2, method: 'tasks/cancel', params: { id: done.id } });
    expect(cancel.status.state).to.equal('canceled');
    const replay = await task(finishing);
    expect(replay).to.deep.equal(done);
  });
});
