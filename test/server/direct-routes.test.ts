import { expect } from 'chai';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { RestChannel } from '../../src/channels/rest.js';
import { composeAgent } from '../../src/cli/compose.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { createApp, createRequestListener } from '../../src/server/app.js';
import type { AppOptions } from '../../src/server/app.js';
import { isPlainJsonPost, withDirectRoutes } from '../../src/server/direct-routes.js';
import type { DirectRoute } from '../../src/server/direct-routes.js';
import { RequestLog } from '../../src/server/request-log.js';
import { TurnGate } from '../../src/server/turn-gate.js';
import { inlineAssistant } from '../support/inline-assistant.js';
import { OBSERVED_PROJECT, writeProject } from './observability-project.js';

const WEBHOOK = '/webhooks/rest/webhook';
const BODY_LIMIT = 4096;

interface Sent {
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body: string | Buffer;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

async function serve(
  make: (options: AppOptions) => RequestListener,
): Promise<{ server: Server; port: number }> {
  const assistant = inlineAssistant(OBSERVED_PROJECT);
  const agent = await composeAgent({ assistant, projectRoot: writeProject(OBSERVED_PROJECT) });
  const gate = new TurnGate({ agent, logger: SILENT_LOGGER });
  const listener = make({
    gate,
    channels: [new RestChannel()],
    requestLog: new RequestLog({ logger: SILENT_LOGGER, newId: () => 'fixed-id' }),
    cors: ['https://widget.example'],
    bodyLimit: BODY_LIMIT,
  });
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function send(port: number, sent: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = typeof sent.body === 'string' ? Buffer.from(sent.body) : sent.body;
    const call = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: sent.path ?? WEBHOOK,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...sent.headers },
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
    call.on('error', reject);
    call.end(body);
  });
}

/** every request of the comparison: turns, and each way a body can be refused */
const REQUESTS: readonly (Sent & { readonly name: string })[] = [
  { name: 'a first turn', body: JSON.stringify({ sender: 'ana', message: '/balance' }) },
  { name: 'the answer', body: JSON.stringify({ sender: 'ana', message: '/SetSlots(account=savings)' }) },
  { name: 'a failing action', body: JSON.stringify({ sender: 'bo', message: '/broken' }) },
  { name: 'no sender (default)', body: JSON.stringify({ message: '/greet' }) },
  { name: 'no message', body: JSON.stringify({ sender: 'ana' }) },
  { name: 'an array', body: '[1, 2]' },
  { name: 'a JSON string', body: '"hello"' },
  { name: 'broken JSON', body: '{"sender": "ana", ' },
  { name: 'bytes that are not UTF-8', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { name: 'a byte-order mark', body: `\uFEFF${JSON.stringify({ sender: 'cy', message: '/greet' })}` },
  { name: 'nesting too deep', body: `${'['.repeat(100)}${']'.repeat(100)}` },
  { name: 'a body over the limit', body: JSON.stringify({ sender: 'ana', message: 'x'.repeat(BODY_LIMIT) }) },
  {
    name: 'form encoding, as curl -d sends',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: JSON.stringify({ sender: 'di', message: '/greet' }),
  },
  {
    name: 'an explicit UTF-8 charset',
    headers: { 'content-type': 'application/json; charset="UTF-8"' },
    body: JSON.stringify({ sender: 'ed', message: '/greet' }),
  },
  {
    name: 'another charset',
    headers: { 'content-type': 'application/json; charset=latin1' },
    body: JSON.stringify({ sender: 'fa', message: '/greet' }),
  },
  {
    name: 'plain text',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ sender: 'gu', message: '/greet' }),
  },
  {
    name: 'a streamed answer',
    path: `${WEBHOOK}?stream=true`,
    body: JSON.stringify({ sender: 'ha', message: '/balance' }),
  },
  {
    name: 'an allowed origin and a request id',
    headers: { origin: 'https://widget.example', 'x-request-id': 'from-the-client' },
    body: JSON.stringify({ sender: 'io', message: '/greet' }),
  },
  {
    name: 'another origin',
    headers: { origin: 'https://elsewhere.example' },
    body: JSON.stringify({ sender: 'ju', message: '/greet' }),
  },
];

const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'x-request-id',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'vary',
];

function comparable(answer: Answer): Record<string, unknown> {
  return {
    status: answer.status,
    body: answer.body,
    headers: Object.fromEntries(COMPARED_HEADERS.map((name) => [name, answer.headers[name]])),
  };
}

describe('webhooks served without Express', function () {
  this.timeout(30_000);
  let express: { server: Server; port: number };
  let direct: { server: Server; port: number };

  before(async () => {
    express = await serve(createApp);
    direct = await serve(createRequestListener);
  });

  after(() => {
    express.server.close();
    direct.server.close();
  });

  it('answers every request as the Express app does: turns, refused bodies, CORS and request ids', async () => {
    const answers: string[] = [];
    for (const sent of REQUESTS) {
      const viaExpress = await send(express.port, sent);
      const viaDirect = await send(direct.port, sent);
      expect(comparable(viaDirect), sent.name).to.deep.equal(comparable(viaExpress));
      answers.push(`${sent.name}: ${viaDirect.status}`);
    }
    // the comparison covers answers of every kind, not a server that refuses everything alike
    expect(answers).to.include.members([
      'a first turn: 200',
      'no message: 400',
      'broken JSON: 400',
      'bytes that are not UTF-8: 400',
      'a byte-order mark: 200',
      'nesting too deep: 400',
      'a body over the limit: 413',
    ]);
    const first = await send(direct.port, REQUESTS[0]!);
    expect(JSON.parse(first.body)).to.deep.equal([
      {
        recipient_id: 'ana',
        text: 'Which account?',
        buttons: [
          { title: 'Checking', payload: '/SetSlots(account=checking)' },
          { title: 'Savings', payload: '/SetSlots(account=savings)' },
        ],
      },
    ]);
  });

  it('survives a client that goes away in the middle of its body, and serves the next one', async () => {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(direct.port, '127.0.0.1', () => {
        socket.write(
          `POST ${WEBHOOK} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sender"`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    const next = await send(direct.port, { body: JSON.stringify({ sender: 'ka', message: '/greet' }) });
    expect(next.status).to.equal(200);
    expect((JSON.parse(next.body) as unknown[])[0]).to.deep.equal({ recipient_id: 'ka', text: 'Hello!' });
  });
});

describe('which requests take the direct path', () => {
  const plain = { 'content-type': 'application/json', 'content-length': '20' };

  function judged(headers: Record<string, string>, limit = 1000): boolean {
    return isPlainJsonPost({ headers } as unknown as IncomingMessage, limit);
  }

  it('takes a JSON body of a known length in UTF-8, and leaves the rest to the app', () => {
    expect(judged(plain)).to.equal(true);
    expect(judged({ ...plain, 'content-type': '' })).to.equal(true);
    expect(judged({ ...plain, 'content-type': 'application/json;charset=utf8' })).to.equal(true);
    expect(judged({ ...plain, 'content-type': 'application/json; charset=utf-16' })).to.equal(false);
    expect(judged({ ...plain, 'content-type': 'text/plain' })).to.equal(false);
    expect(judged({ ...plain, 'content-encoding': 'gzip' })).to.equal(false);
    expect(judged({ ...plain, 'content-encoding': 'identity' })).to.equal(true);
    expect(judged({ ...plain, 'transfer-encoding': 'chunked' })).to.equal(false);
    expect(judged({ 'content-type': 'application/json' })).to.equal(false);
    expect(judged({ ...plain, 'content-length': '0' })).to.equal(false);
    expect(judged({ ...plain, 'content-length': '1001' })).to.equal(false);
    expect(judged({ ...plain, 'content-length': '1e3' })).to.equal(false);
  });

  it('hands the app every request that is not a plain POST to a route', async () => {
    const fallen: string[] = [];
    const listener = withDirectRoutes({
      routes: new Map<string, DirectRoute>([
        [
          '/hook',
          {
            kind: 'json',
            route: { path: '/hook', answer: () => Promise.resolve({ status: 200, body: { ok: 1 } }) },
          },
        ],
      ]),
      fallback: (request, response) => {
        fallen.push(`${request.method} ${request.url}`);
        response.end('app');
      },
      bodyLimit: 1000,
      before: [],
    });
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const taken = await send(port, { path: '/hook', body: '{}' });
      expect(taken.body).to.equal('{"ok":1}');
      await send(port, { path: '/hook?x=1', body: '{}' });
      await send(port, { path: '/other', body: '{}' });
      await send(port, { path: '/hook', headers: { 'content-type': 'text/plain' }, body: '{}' });
      const got = await fetch(`http://127.0.0.1:${port}/hook`);
      expect(await got.text()).to.equal('app');
      expect(fallen).to.deep.equal(['POST /hook?x=1', 'POST /other', 'POST /hook', 'GET /hook']);
    } finally {
      server.close();
    }
  });

  it('hands an endpoint reading its own body the bytes, within its own limit', async () => {
    const served: string[] = [];
    const fallen: string[] = [];
    const listener = withDirectRoutes({
      routes: new Map<string, DirectRoute>([
        [
          '/rpc',
          {
            kind: 'raw',
            bodyLimit: 2000,
            serve: (_request, response, body) => {
              served.push(body.toString('utf8'));
              response.end('raw');
              return Promise.resolve();
            },
          },
        ],
      ]),
      fallback: (request, response) => {
        fallen.push(`${request.method} ${request.url}`);
        request.resume();
        request.on('end', () => response.end('app'));
      },
      bodyLimit: 1000,
      before: [],
    });
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // not JSON, and over the JSON routes' limit: the endpoint judges its body itself
      const long = `{${'x'.repeat(1500)}`;
      const taken = await send(port, { path: '/rpc', body: long });
      expect(taken.body).to.equal('raw');
      expect(served).to.deep.equal([long]);
      const tooLong = await send(port, { path: '/rpc', body: 'y'.repeat(2001) });
      expect(tooLong.body).to.equal('app');
      expect(fallen).to.deep.equal(['POST /rpc']);
    } finally {
      server.close();
    }
  });
});
