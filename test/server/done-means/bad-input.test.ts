/**
 * Done means: bad input through the real server (REST channel, SQLite default store) gets Rasa's error
 * body (`{version, status: "failure", message, reason, details, help, code}`) with a 4xx status, never
 * a 500, and the server keeps serving; an unknown sender simply starts a new conversation.
 */
import { expect } from 'chai';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { ParleyServer } from '../../../src/cli/serve.js';
import type { RestReply } from './done-means-support.js';
import {
  ANYTHING_ELSE,
  inspectStore,
  postRest,
  startProjectServer,
  textsOf,
  turnsOf,
  writeDoneMeansProject,
} from './done-means-support.js';

interface BadCase {
  readonly title: string;
  readonly body: unknown;
  readonly status: number;
  readonly reason: string;
  /** part of the message naming the problem */
  readonly says?: string;
  readonly headers?: Record<string, string>;
  readonly method?: string;
  readonly path?: string;
}

const deep = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const CASES: readonly BadCase[] = [
  {
    title: 'malformed JSON',
    body: '{"sender": "x", "message": ',
    status: 400,
    reason: 'BadRequest',
    says: 'not valid JSON',
  },
  { title: 'a JSON array', body: '[1, 2]', status: 400, reason: 'BadRequest', says: 'JSON object' },
  { title: 'a bare JSON string', body: '"hello"', status: 400, reason: 'BadRequest' },
  { title: 'an empty body', body: '', status: 400, reason: 'BadRequest', says: "'message'" },
  { title: 'no message', body: { sender: 'x' }, status: 400, reason: 'BadRequest', says: "'message'" },
  {
    title: 'a number as message',
    body: { sender: 'x', message: 42 },
    status: 400,
    reason: 'BadRequest',
    says: "'message'",
  },
  {
    title: 'an object as sender',
    body: { sender: { id: 1 }, message: 'hi' },
    status: 400,
    reason: 'BadRequest',
    says: "'sender'",
  },
  {
    title: 'an empty sender',
    body: { sender: '  ', message: 'hi' },
    status: 400,
    reason: 'BadRequest',
    says: "'sender'",
  },
  {
    title: 'a sender longer than 255',
    body: { sender: 's'.repeat(256), message: 'hi' },
    status: 400,
    reason: 'BadRequest',
    says: "'sender'",
  },
  {
    title: 'a NUL in the sender',
    body: { sender: 'a\u0000b', message: 'hi' },
    status: 400,
    reason: 'BadRequest',
    says: "'sender'",
  },
  {
    title: 'a lone surrogate in the sender',
    body: '{"sender": "\\ud800x", "message": "hi"}',
    status: 400,
    reason: 'BadRequest',
    says: "'sender'",
  },
  {
    title: 'a number as metadata',
    body: { sender: 'x', message: 'hi', metadata: 5 },
    status: 400,
    reason: 'BadRequest',
    says: "'metadata'",
  },
  {
    title: 'an object as input_channel',
    body: { sender: 'x', message: 'hi', input_channel: {} },
    status: 400,
    reason: 'BadRequest',
    says: "'input_channel'",
  },
  {
    title: 'metadata nested thousands of levels deep',
    body: `{"sender": "deep", "message": "hi", "metadata": {"a": ${deep(20_000)}}}`,
    status: 400,
    reason: 'BadRequest',
    says: 'levels deep',
  },
  {
    title: 'a body over the 1 MB limit',
    body: { sender: 'big', message: 'x'.repeat(1_100_000) },
    status: 413,
    reason: 'PayloadTooLarge',
  },
  {
    title: 'a gzip body that does not inflate',
    body: 'not gzip at all',
    headers: { 'Content-Encoding': 'gzip' },
    status: 400,
    reason: 'BadRequest',
  },
  {
    title: 'an unknown content encoding',
    body: '{}',
    headers: { 'Content-Encoding': 'compress' },
    status: 400,
    reason: 'BadRequest',
  },
  {
    title: 'an unsupported charset',
    body: JSON.stringify({ sender: 'x', message: 'hi' }),
    headers: { 'Content-Type': 'application/json; charset=latin-9' },
    status: 400,
    reason: 'BadRequest',
  },
  {
    title: 'a text/plain body',
    body: JSON.stringify({ sender: 'x', message: 'hi' }),
    headers: { 'Content-Type': 'text/plain' },
    status: 400,
    reason: 'BadRequest',
    says: 'JSON object',
  },
  {
    title: 'an XML body',
    body: '<message sender="x">hi</message>',
    headers: { 'Content-Type': 'application/xml' },
    status: 400,
    reason: 'BadRequest',
  },
  {
    title: 'a multipart form',
    body: '--b\r\nContent-Disposition: form-data; name="message"\r\n\r\nhi\r\n--b--\r\n',
    headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    status: 400,
    reason: 'BadRequest',
  },
  { title: 'GET on the webhook', body: undefined, method: 'GET', status: 405, reason: 'MethodNotAllowed' },
  {
    title: 'PUT on the webhook',
    body: { sender: 'x', message: 'hi' },
    method: 'PUT',
    status: 405,
    reason: 'MethodNotAllowed',
  },
  {
    title: 'DELETE on the webhook',
    body: undefined,
    method: 'DELETE',
    status: 405,
    reason: 'MethodNotAllowed',
  },
  {
    title: 'an unknown channel',
    body: { message: 'hi' },
    path: '/webhooks/nope/webhook',
    status: 404,
    reason: 'NotFound',
  },
  {
    title: 'an unknown route',
    body: undefined,
    method: 'GET',
    path: '/conversations/x/tracker',
    status: 404,
    reason: 'NotFound',
  },
  {
    title: 'malformed JSON on an unknown route',
    body: '{',
    path: '/nowhere',
    status: 400,
    reason: 'BadRequest',
  },
];

function expectRasaError(reply: RestReply, expected: BadCase): void {
  expect(reply.status, `${expected.title}: ${reply.text.slice(0, 300)}`).to.equal(expected.status);
  expect(reply.json, expected.title).to.deep.include({
    status: 'failure',
    reason: expected.reason,
    code: expected.status,
    help: null,
  });
  const body = reply.json as { version?: unknown; message?: unknown; details?: unknown };
  expect(body.version, expected.title).to.be.a('string');
  expect(body.message, expected.title).to.be.a('string');
  expect(body.details, expected.title).to.be.an('object');
  if (expected.says) expect(body.message, expected.title).to.contain(expected.says);
}

describe('bad input through the real server', function () {
  this.timeout(60_000);
  let root: string;
  let server: ParleyServer;

  before(async () => {
    root = writeDoneMeansProject();
    server = await startProjectServer(root);
  });

  after(async () => {
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const badCase of CASES)
    it(`answers ${badCase.title} with ${badCase.status} ${badCase.reason}, then keeps serving`, async () => {
      const reply = await postRest(server.baseUrl, badCase.body, {
        ...(badCase.headers ? { headers: badCase.headers } : {}),
        ...(badCase.method ? { method: badCase.method } : {}),
        ...(badCase.path ? { path: badCase.path } : {}),
      });
      expectRasaError(reply, badCase);
      if (badCase.status === 405) expect(reply.headers.get('allow')).to.equal('POST');
      const after = await postRest(server.baseUrl, { sender: 'still-serving', message: '/count' });
      expect(textsOf(after)[1]).to.equal(ANYTHING_ELSE);
    });

  it('reads a gzip-compressed body', async () => {
    const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ sender: 'zipped', message: '/transfer' })),
    });
    expect(await response.json()).to.deep.equal([{ recipient_id: 'zipped', text: 'To whom?' }]);
  });

  it('answers a body cut short (less than its Content-Length) with 400 and keeps serving', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.baseUrl}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '100' },
      });
      req.on('response', (response) => resolve(response.statusCode ?? 0));
      req.on('error', reject);
      req.write('{"sender": "cut", "message": "hi"');
      // the client gives up half way: the server must neither crash nor wait for ever
      setTimeout(() => req.destroy(), 200);
    }).catch(() => 0);
    // the connection is gone, so there may be no answer at all; either way nothing was processed
    expect([0, 400]).to.include(status);
    const events = await storedEvents('cut');
    expect(events).to.deep.equal([]);
    expect(textsOf(await postRest(server.baseUrl, { sender: 'after-cut', message: '/count' }))[1]).to.equal(
      ANYTHING_ELSE,
    );
  });

  it('starts a new conversation for an unknown sender, with one session start', async () => {
    const sender = `never-seen-${Date.now()}`;
    expect(await storedEvents(sender)).to.deep.equal([]);
    expect(textsOf(await postRest(server.baseUrl, { sender, message: '/transfer' }))).to.deep.equal([
      'To whom?',
    ]);
    const turns = turnsOf(await storedEvents(sender), sender);
    expect(turns.map((turn) => turn.user.text)).to.deep.equal(['/transfer']);
  });

  it('accepts a number as sender, as Rasa does, and an unrecognised message as a turn', async () => {
    expect(textsOf(await postRest(server.baseUrl, { sender: 12345, message: '/count' }))[0]).to.equal(
      'Count 1.',
    );
    const reply = await postRest(server.baseUrl, { sender: 'gibberish', message: '/SetSlots(' });
    expect(reply.status).to.equal(200);
    expect(await storedEvents('12345')).to.not.deep.equal([]);
  });

  async function storedEvents(sender: string) {
    const store = inspectStore(root);
    try {
      return await store.loadAll(sender);
    } finally {
      await store.close();
    }
  }
});
