/**
 * Tasks belong to the calling agent named by its token (`sub`, else `azp`): another caller's
 * tasks/get, tasks/cancel, ListTasks, resubscribe and sends with that taskId answer as for an unknown
 * task (-32001), so a task id learnt elsewhere opens nothing. A token naming no caller is refused.
 */
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { hmacToken } from '../a2a/auth-support.js';
import { send, statusData } from '../a2a/hardening-support.js';
import type { V03Task } from '../a2a/hardening-support.js';
import { rpc } from '../a2a/rpc-support.js';
import { SECRET, bearer, callAs, startSecureServer, stillServes } from './support.js';

const v1 = (method: string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: crypto.randomUUID(),
  method,
  params,
});

describe('Security: a task is its caller’s alone', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  let mine: V03Task;

  before(async () => {
    server = await startSecureServer();
    mine = (await callAs(server, 'orchestrator', send('/transfer_money'))).body['result'] as V03Task;
    expect(mine.status.state).to.equal('input-required');
  });
  after(() => server.close());

  const unknownTask = (answer: { body: Record<string, unknown> }) =>
    expect(answer.body['error'], JSON.stringify(answer.body)).to.deep.include({ code: -32001 });

  it('answers another caller’s tasks/get, tasks/cancel and resubscribe as for an unknown task (v0.3)', async () => {
    const calls = ['tasks/get', 'tasks/cancel', 'tasks/resubscribe'].map((method) => ({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { id: mine.id },
    }));
    for (const call of calls) unknownTask(await callAs(server, 'intruder', call));
  });

  it('answers another caller’s GetTask, CancelTask and SubscribeToTask as for an unknown task (v1.0)', async () => {
    const headers = { ...(await bearer('intruder')), 'A2A-Version': '1.0' };
    for (const method of ['GetTask', 'CancelTask', 'SubscribeToTask'])
      unknownTask(await rpc(server.baseUrl, v1(method, { id: mine.id }), headers));
  });

  it('refuses another caller’s message to the task, so it cannot fill its slots', async () => {
    const answer = await callAs(
      server,
      'intruder',
      send('/SetSlots(recipient=Mallory)', { taskId: mine.id, contextId: mine.contextId }),
    );
    unknownTask(answer);
    // without the contextId too
    unknownTask(await callAs(server, 'intruder', send('/SetSlots(recipient=Mallory)', { taskId: mine.id })));
  });

  it('lists only the caller’s own tasks (ListTasks)', async () => {
    const theirs = (await callAs(server, 'intruder', send('/transfer_money'))).body['result'] as V03Task;
    const list = async (caller: string, params: Record<string, unknown> = {}) => {
      const headers = { ...(await bearer(caller)), 'A2A-Version': '1.0' };
      const answer = await rpc(server.baseUrl, v1('ListTasks', params), headers);
      return (answer.body['result'] as { tasks: { id: string }[] }).tasks.map((task) => task.id);
    };
    const intruderSees = await list('intruder');
    expect(intruderSees).to.include(theirs.id);
    expect(intruderSees).to.not.include(mine.id);
    expect(await list('intruder', { contextId: mine.contextId })).to.deep.equal([]);
    expect(await list('orchestrator')).to.include(mine.id);
  });

  it('leaves the owner’s task as it was: still waiting, still its own to continue', async () => {
    const got = await callAs(server, 'orchestrator', {
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/get',
      params: { id: mine.id },
    });
    expect((got.body['result'] as V03Task).status.state).to.equal('input-required');
    const next = await callAs(
      server,
      'orchestrator',
      send('/SetSlots(recipient=Anna)', { taskId: mine.id, contextId: mine.contextId }),
    );
    const task = next.body['result'] as V03Task;
    expect((statusData(task)['slots'] as Record<string, unknown>)['recipient']).to.equal('Anna');
    expect(await stillServes(server)).to.equal(true);
  });

  it('refuses a valid token that names no caller (no sub or azp) with 401', async () => {
    const token = await hmacToken(SECRET, { subject: null });
    const answer = await rpc(server.baseUrl, send('hello'), { authorization: `Bearer ${token}` });
    expect(answer.status).to.equal(401);
    expect(answer.headers.get('www-authenticate')).to.match(/error="invalid_token".*no calling agent/);
    // a sub that is not well-formed text names nobody either (it could not be encoded apart)
    const malformed = await hmacToken(SECRET, { subject: 'agent-\ud800' });
    const refused = await rpc(server.baseUrl, send('hello'), { authorization: `Bearer ${malformed}` });
    expect(refused.status).to.equal(401);
    // an azp is no sub: a token naming `azp: orchestrator` is not the caller `sub: orchestrator`
    const azpOnly = await hmacToken(SECRET, { subject: null, claims: { azp: 'orchestrator' } });
    const lookalike = await rpc(
      server.baseUrl,
      { jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id: mine.id } },
      { authorization: `Bearer ${azpOnly}` },
    );
    expect(lookalike.body['error']).to.deep.include({ code: -32001 });
    const withAzp = await hmacToken(SECRET, { subject: null, claims: { azp: 'client-7' } });
    const accepted = await rpc(server.baseUrl, send('/transfer_money'), {
      authorization: `Bearer ${withAzp}`,
    });
    expect(accepted.status).to.equal(200);
    expect((accepted.body['result'] as V03Task).status.state).to.equal('input-required');
  });
});
