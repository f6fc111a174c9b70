import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { ParleyServer } from '../../src/cli/serve.js';
import { startRpcServer } from './rpc-support.js';

/**
 * A plain JSON-RPC POST (known length, JSON content type) is served without Express; the same request
 * sent with a chunked body goes through the Express router. Both must answer alike.
 */
type Path = 'direct' | 'express';

interface Call {
  readonly name: string;
  readonly body: string | Buffer;
  readonly headers?: Record<string, string>;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

function send(port: number, call: Call, path: Path): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = typeof call.body === 'string' ? Buffer.from(call.body) : call.body;
    const framing: Record<string, string | number> =
      path === 'direct' ? { 'content-length': body.length } : { 'transfer-encoding': 'chunked' };
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', ...framing, ...call.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** what may differ between two runs of the same call: generated ids and times */
function comparable(answer: Answer): unknown {
  const { date: _date, 'x-request-id': _id, 'transfer-encoding': _te, ...headers } = answer.headers;
  const body = answer.body
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/"messageId":"[^"]*"/g, '"messageId":"<id>"');
  return { status: answer.status, headers, body };
}

let sent = 0;
function v03(method: string, params: unknown, id: unknown = 7): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

function message(text: string): unknown {
  sent += 1;
  return {
    message: { kind: 'message', messageId: `direct-${sent}`, role: 'user', parts: [{ kind: 'text', text }] },
  };
}

const CALLS: readonly (() => Call)[] = [
  () => ({ name: 'not JSON', body: '{"jsonrpc": "2.0", "id": 1,' }),
  () => ({ name: 'not UTF-8', body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }),
  () => ({ name: 'a byte-order mark', body: `\uFEFF${v03('tasks/get', { id: 'x' })}` }),
  () => ({ name: 'not JSON-RPC', body: JSON.stringify({ id: 3, method: 'tasks/get' }) }),
  () => ({ name: 'an array', body: '[1, 2]' }),
  () => ({ name: 'an unknown method', body: v03('tasks/destroy', {}) }),
  () => ({ name: 'an id that is an object', body: JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'x' }) }),
  () => ({
    name: 'nesting too deep',
    body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":${'['.repeat(300)}${']'.repeat(300)}}`,
  }),
  () => ({
    name: 'a v1.0 method on v0.3',
    body: v03('GetTask', { id: 'x' }),
    headers: { 'a2a-version': '0.3' },
  }),
  () => ({
    name: 'an unsupported version',
    body: v03('tasks/get', { id: 'x' }),
    headers: { 'a2a-version': '2.0' },
  }),
  () => ({ name: 'an unknown task', body: v03('tasks/get', { id: 'no-such-task' }) }),
  () => ({
    name: 'a v1.0 unknown task',
    body: v03('GetTask', { id: 'no-such-task' }),
    headers: { 'a2a-version': '1.0' },
  }),
  () => ({
    name: 'a stream of an unknown task to an SSE client',
    body: v03('tasks/resubscribe', { id: 'no-such-task' }),
    headers: { accept: 'text/event-stream' },
  }),
  () => ({ name: 'bad params', body: v03('message/send', { message: 'hello' }) }),
  () => ({ name: 'a message that starts a flow', body: v03('message/send', message('/transfer_money')) }),
  () => ({
    name: 'a message the assistant does not understand',
    body: v03('message/send', message('/greet')),
  }),
  () => ({
    name: 'a streamed message',
    body: v03('message/stream', message('/transfer_money')),
    headers: { accept: 'text/event-stream' },
  }),
  () => ({
    name: 'an Origin header',
    body: v03('tasks/get', { id: 'x' }),
    headers: { origin: 'https://elsewhere.example' },
  }),
];

describe('A2A JSON-RPC without Express', function () {
  this.timeout(30_000);
  let server: ParleyServer;

  before(async () => {
    server = await startRpcServer();
  });

  after(async () => {
    await server.close();
  });

  for (const [index, make] of CALLS.entries()) {
    const name = make().name;
    it(`answers ${name} as the Express route does`, async () => {
      const direct = await send(server.port, make(), 'direct');
      const routed = await send(server.port, make(), 'express');
      expect(comparable(direct), `call ${index}`).to.deep.equal(comparable(routed));
      expect(direct.status).to.be.within(200, 599);
    });
  }

  it('serves a multi-turn task on the direct path, continued through Express', async () => {
    const first = await send(
      server.port,
      { name: 'start', body: v03('message/send', message('/transfer_money')) },
      'direct',
    );
    const task = (
      JSON.parse(first.body) as { result: { id: string; contextId: string; status: { state: string } } }
    ).result;
    expect(task.status.state).to.equal('input-required');
    sent += 1;
    const next = v03('message/send', {
      message: {
        kind: 'message',
        messageId: `direct-${sent}`,
        role: 'user',
        taskId: task.id,
        contextId: task.contextId,
        parts: [{ kind: 'text', text: '/SetSlots(recipient=Ana)' }],
      },
    });
    const second = await send(server.port, { name: 'continue', body: next }, 'express');
    const continued = (JSON.parse(second.body) as { result: { id: string } }).result;
    expect(continued.id).to.equal(task.id);
    const again = await send(server.port, { name: 'replay', body: next }, 'direct');
    expect(JSON.parse(again.body)).to.deep.equal(JSON.parse(second.body));
  });
});
