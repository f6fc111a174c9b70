import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { scriptedActionServer, send, sleep, startHardeningServer } from './hardening-support.js';
import type { ActionServer, V03Task } from './hardening-support.js';
import { waitFor } from '../support/timing.js';
import { readSse, rpc } from './rpc-support.js';

/** a sample of the Prometheus text: the value of the first line starting with `prefix` */
function metric(text: string, prefix: string): number | undefined {
  const line = text.split('\n').find((item) => item.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * A POST whose headers go out now and whose body goes out when `finish` is called: the connection is
 * busy (not idle) meanwhile, so a shutdown starting in between does not close it. `received` resolves
 * once the server has read the headers.
 */
function pendingPost(server: ParleyServer, body: string) {
  const url = new URL(`${server.baseUrl}/`);
  const marker = crypto.randomUUID();
  const received = new Promise<void>((resolve) => {
    const seen = (request: IncomingMessage) => {
      if (request.headers['x-test-request'] !== marker) return;
      server.server.off('request', seen);
      resolve();
    };
    server.server.on('request', seen);
  });
  const pending = { finish: () => undefined as void };
  const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-test-request': marker,
        },
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
  return { finish: () => pending.finish(), answer, received };
}

/** far longer than a graceful shutdown takes: a shutdown that waits for it has left a connection open */
const CLOSE_GRACE_MS = 30_000;

describe('A2A turns through the server gate: metrics and graceful shutdown', function () {
  this.timeout(60_000);
  let actions: ActionServer;
  let server: ParleyServer;

  before(async () => {
    actions = await scriptedActionServer('held');
    server = await startHardeningServer({ actionUrl: actions.url, closeGraceMs: CLOSE_GRACE_MS });
    // idle keep-alive connections stay open until the shutdown closes them (clients follow the hint)
    server.server.keepAliveTimeout = 2 * CLOSE_GRACE_MS;
  });
  after(async () => {
    actions.releaseSlow(); // a failed test may have left turns waiting, and the shutdown waits for them
    await server.close();
    await actions.close();
  });

  it('counts A2A turns in /metrics: turns by outcome, latency, and the turn in flight', async () => {
    const read = async () => (await fetch(`${server.baseUrl}/metrics`)).text();
    const before = await read();
    const okBefore = metric(before, 'parley_turns_total{channel="a2a",outcome="ok"}') ?? 0;
    const slowBefore = actions.calls.get('action_slow') ?? 0;
    const running = (await rpc(server.baseUrl, send('/slow', {}, { blocking: false }))).body[
      'result'
    ] as V03Task;
    await actions.slowCalls(slowBefore + 1);
    const during = await read();
    expect(metric(during, 'parley_turns_in_flight')).to.equal(1);
    // a blocking send on another context while the slow turn runs
    const quick = await rpc(server.baseUrl, send('send money to Anna'));
    expect(quick.status).to.equal(200);
    // the slow turn runs at least 1.5 s (a timer never fires early)
    await sleep(1_500);
    actions.releaseSlow();
    let after = '';
    await waitFor(async () => {
      after = await read();
      return metric(after, 'parley_turns_in_flight') === 0;
    }, 'the slow turn to end');
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
    const slowBefore = actions.calls.get('action_slow') ?? 0;
    const blocking = rpc(server.baseUrl, send('/slow'));
    const streamed = fetch(`${server.baseUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(send('/slow', {}, { method: 'message/stream' })),
    });
    const late = pendingPost(server, JSON.stringify(send('hello')));
    await Promise.all([actions.slowCalls(slowBefore + 2), late.received, resubscribed]);
    const started = Date.now();
    const closed = server.close();
    late.finish();
    const refused = await late.answer;
    expect(refused.status).to.equal(503);
    expect(refused.body['error']).to.deep.include({ code: -32012 });
    expect((refused.body['error'] as { data: Record<string, unknown> }).data).to.deep.equal({
      reason: 'SHUTTING_DOWN',
    });
    // the slow turns end only now, in the middle of the shutdown
    actions.releaseSlow();
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
    // every connection closed by itself once its answer was complete: a connection left open (an idle
    // keep-alive, a stream not ended) keeps the server up until the grace runs out and cuts it
    expect(Date.now() - started).to.be.below(CLOSE_GRACE_MS / 2);
  });
});
