import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { scriptedActionServer, send, sleep, startHardeningServer } from './hardening-support.js';
import type { ActionServer, V03Task } from './hardening-support.js';
import { readSse, rpc } from './rpc-support.js';

/** a sample of the Prometheus text: the value of the first line starting with `prefix` */
function metric(text: string, prefix: string): number | undefined {
  const line = text.split('\n').find((item) => item.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * A POST whose headers go out now and whose body goes out when `finish` is called: the connection is
 * busy (not idle) meanwhile, so a shutdown starting in between does not close it.
 */
function pendingPost(base: string, body: string) {
  const url = new URL(`${base}/`);
  const pending = { finish: () => undefined as void };
  const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          }),
        );
      },
    );
    request.on('error', reject);
    request.flushHeaders();
    pending.finish = () => request.end(body);
  });
  return { finish: () => pending.finish(), answer };
}

describe('A2A turns through the server gate: metrics and graceful shutdown', function () {
  this.timeout(60_000);
  let actions: ActionServer;
  let server: ParleyServer;

  before(async () => {
    actions = await scriptedActionServer(1_500);
    server = await startHardeningServer({ actionUrl: actions.url });
  });
  after(async () => {
    await server.close();
    await actions.close();
  });

  it('counts A2A turns in /metrics: turns by outcome, latency, and the turn in flight', async () => {
    const read = async () => (await fetch(`${server.baseUrl}/metrics`)).text();
    const before = await read();
    const okBefore = metric(before, 'parley_turns_total{channel="a2a",outcome="ok"}') ?? 0;
    const running = (await rpc(server.baseUrl, send('/slow', {}, { blocking: false }))).body[
      'result'
    ] as V03Task;
    await sleep(300);
    const during = await read();
    expect(metric(during, 'parley_turns_in_flight')).to.equal(1);
    // a blocking send on another context while the slow turn runs
    const quick = await rpc(server.baseUrl, send('send money to Anna'));
    expect(quick.status).to.equal(200);
    // the slow turn ends about 1.5 s after it started
    let after = await read();
    for (let waited = 0; metric(after, 'parley_turns_in_flight') !== 0 && waited < 10_000; waited += 100) {
      await sleep(100);
      after = await read();
    }
    expect(metric(after, 'parley_turns_in_flight')).to.equal(0);
    expect(metric(after, 'parley_turns_total{channel="a2a",outcome="ok"}')).to.equal(okBefore + 2);
    expect(metric(after, 'parley_turn_duration_seconds_count{channel="a2a"}')).to.be.at.least(2);
    const slowest = metric(after, 'parley_turn_duration_seconds_sum{channel="a2a"}') ?? 0;
    expect(slowest).to.be.at.least(1.4);
    expect(running.contextId).to.be.a('string');
  });

  it('SIGTERM-style close waits for running A2A turns, refuses new ones with -32012 and ends open streams', async () => {
    // a waiting task with a resubscribed stream: nothing will end it but the shutdown
    const waiting = (await rpc(server.baseUrl, send('send money to Anna'))).body['result'] as V03Task;
    const resubscribed = fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r',
        method: 'tasks/resubscribe',
        params: { id: waiting.id },
      }),
    });
    // a slow blocking send and a slow stream, both running when the shutdown starts
    const blocking = rpc(server.baseUrl, send('/slow'));
    const streamed = fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(send('/slow', {}, { method: 'message/stream' })),
    });
    const late = pendingPost(server.baseUrl, JSON.stringify(send('hello')));
    // the slow turns run 1.5 s: the shutdown starts in their middle
    await sleep(500);
    const started = Date.now();
    const closed = server.close();
    await sleep(50);
    late.finish();
    const refused = await late.answer;
    expect(refused.status).to.equal(503);
    expect(refused.body['error']).to.deep.include({ code: -32012 });
    expect((refused.body['error'] as { data: Record<string, unknown> }).data).to.deep.equal({
      reason: 'SHUTTING_DOWN',
    });
    const answered = await blocking;
    expect(answered.status).to.equal(200);
    expect((answered.body['result'] as V03Task).status.state).to.equal('input-required');
    const stream = await readSse(await streamed);
    const last = stream.events[stream.events.length - 1]?.['result'] as { final: boolean };
    expect(last.final).to.equal(true);
    const response = await resubscribed;
    const text = await response.text();
    expect(text).to.match(/^data: /);
    expect(text.endsWith(': server shutting down\n\n')).to.equal(true);
    await closed;
    // the shutdown lasted as long as the slow turns still needed: cutting connections would take the
    // turns plus a 2 s grace
    expect(Date.now() - started).to.be.within(500, 2_900);
  });
});
