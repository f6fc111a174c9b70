import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeInlineProject } from '../support/inline-project.js';

const PROJECT = {
  domain: `
    version: "3.1"
    slots:
      account:
        type: categorical
        values: [checking, savings]
        mappings: [{type: from_llm}]
    responses:
      utter_greet:
        - text: "Hello!\\n\\nHow can I help?"
      utter_ask_account:
        - text: Which account?
          buttons:
            - {title: Checking, payload: "/SetSlots(account=checking)"}
            - {title: Savings, payload: "/SetSlots(account=savings)"}
      utter_card:
        - text: Here is your card.
          image: https://example.com/card.png
          custom: {kind: card, id: 7}
      utter_done:
        - text: "Done: {account}."
  `,
  flows: `
    flows:
      greet:
        description: say hello
        nlu_trigger: [{intent: greet}]
        steps:
          - action: utter_greet
      balance:
        description: show a balance
        nlu_trigger: [{intent: balance}]
        steps:
          - collect: account
          - action: utter_card
          - action: utter_done
  `,
};

/** pattern_completed's question after a flow ends (the default patterns) */
const ANYTHING_ELSE = 'Sure, what would you like me to help you with?';

async function post(server: ParleyServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, type: response.headers.get('content-type') ?? '' };
}

describe('REST channel (/webhooks/rest)', function () {
  this.timeout(20_000);
  let server: ParleyServer;
  let store: MemoryTrackerStore;

  before(async () => {
    store = new MemoryTrackerStore();
    const root = writeInlineProject({ ...PROJECT, credentials: 'rest:\n' });
    server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
      trackerStore: store,
    });
  });
  after(() => server.close());

  it('answers the health route and the root greeting', async () => {
    const health = await fetch(`${server.baseUrl}/webhooks/rest/`);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    const root = await fetch(`${server.baseUrl}/`);
    expect(await root.text()).to.match(/^Hello from Parley: \d+\.\d+\.\d+/);
  });

  it('splits a text on blank lines into one entry each, addressed to the sender', async () => {
    const reply = await post(server, '/webhooks/rest/webhook', { sender: 'split', message: '/greet' });
    expect(reply.status).to.equal(200);
    expect(reply.json).to.deep.equal([
      { recipient_id: 'split', text: 'Hello!' },
      { recipient_id: 'split', text: 'How can I help?' },
      { recipient_id: 'split', text: ANYTHING_ELSE },
    ]);
  });

  it('keeps text with buttons whole, then sends custom and image as their own entries in Rasa order', async () => {
    const ask = await post(server, '/webhooks/rest/webhook', { sender: 'rich', message: '/balance' });
    expect(ask.json).to.deep.equal([
      {
        recipient_id: 'rich',
        text: 'Which account?',
        buttons: [
          { title: 'Checking', payload: '/SetSlots(account=checking)' },
          { title: 'Savings', payload: '/SetSlots(account=savings)' },
        ],
      },
    ]);
    const done = await post(server, '/webhooks/rest/webhook', {
      sender: 'rich',
      message: '/SetSlots(account=savings)',
    });
    expect(done.json).to.deep.equal([
      { recipient_id: 'rich', text: 'Here is your card.' },
      { recipient_id: 'rich', custom: { kind: 'card', id: 7 } },
      { recipient_id: 'rich', image: 'https://example.com/card.png' },
      // Rasa's legacy rule: an image doubles as the attachment when the response has none
      { recipient_id: 'rich', attachment: 'https://example.com/card.png' },
      { recipient_id: 'rich', text: 'Done: savings.' },
      { recipient_id: 'rich', text: ANYTHING_ELSE },
    ]);
  });

  it('takes a number answering buttons as that button, for clients that show them as a numbered list', async () => {
    await post(server, '/webhooks/rest/webhook', { sender: 'numbered', message: '/balance' });
    const done = await post(server, '/webhooks/rest/webhook', { sender: 'numbered', message: '2' });
    expect(done.json).to.deep.include({ recipient_id: 'numbered', text: 'Done: savings.' });
    const events = await store.loadAll('numbered');
    const users = events.filter((event) => event.event === 'user').map((event) => event.text);
    // stored as the payload the button carries, as a click would have sent it
    expect(users).to.deep.equal(['/balance', '/SetSlots(account=savings)']);
  });

  it('uses "default" as the sender when none is given, and records metadata and input_channel', async () => {
    await post(server, '/webhooks/rest/webhook', {
      message: '/greet',
      metadata: { user: 'ann' },
      input_channel: 'my-widget',
    });
    const events = await store.loadAll('default');
    const user = events.find((event) => event.event === 'user');
    expect(user).to.include({ input_channel: 'my-widget' });
    expect((user as { metadata?: unknown }).metadata).to.deep.equal({ user: 'ann' });
  });

  it('streams the messages as NDJSON with ?stream=true', async () => {
    const reply = await post(server, '/webhooks/rest/webhook?stream=true', {
      sender: 'stream',
      message: '/greet',
    });
    expect(reply.status).to.equal(200);
    expect(reply.type).to.contain('text/event-stream');
    const lines = reply.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).to.deep.equal([
      { recipient_id: 'stream', text: 'Hello!' },
      { recipient_id: 'stream', text: 'How can I help?' },
      { recipient_id: 'stream', text: ANYTHING_ELSE },
    ]);
  });

  it('answers malformed JSON, wrong types and missing messages with Rasa error bodies', async () => {
    const broken = await post(server, '/webhooks/rest/webhook', '{"sender": "x",');
    expect(broken.status).to.equal(400);
    expect(broken.json).to.include({ status: 'failure', reason: 'BadRequest', code: 400 });
    const array = await post(server, '/webhooks/rest/webhook', [1, 2]);
    expect(array.status).to.equal(400);
    const wrongSender = await post(server, '/webhooks/rest/webhook', { sender: { id: 1 }, message: 'hi' });
    expect(wrongSender.status).to.equal(400);
    expect((wrongSender.json as { message: string }).message).to.equal(
      "'sender' must be a non-empty string or a number.",
    );
    const noMessage = await post(server, '/webhooks/rest/webhook', { sender: 'x' });
    expect(noMessage.status).to.equal(400);
    expect((noMessage.json as { message: string }).message).to.contain("'message'");
    const badMetadata = await post(server, '/webhooks/rest/webhook', { message: 'hi', metadata: 5 });
    expect(badMetadata.status).to.equal(400);
  });

  it('refuses a huge body with 413 and keeps serving', async () => {
    const huge = await post(server, '/webhooks/rest/webhook', {
      sender: 'big',
      message: 'x'.repeat(2_000_000),
    });
    expect(huge.status).to.equal(413);
    expect(huge.json).to.include({ reason: 'PayloadTooLarge' });
    const after = await post(server, '/webhooks/rest/webhook', { sender: 'big', message: '/greet' });
    expect(after.status).to.equal(200);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const missing = await post(server, '/webhooks/nope/webhook', { message: 'hi' });
    expect(missing.status).to.equal(404);
    expect(missing.json).to.include({ status: 'failure', code: 404 });
  });

  it('accepts a body sent without a JSON content type (curl -d)', async () => {
    const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ sender: 'curl', message: '/greet' }),
    });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.have.length(3);
  });
});

describe('callback channel (/webhooks/callback)', function () {
  this.timeout(20_000);

  it('answers "success" after the turn and posts every bot message to the callback URL', async () => {
    const received: unknown[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: JSON.parse(Buffer.concat(chunks).toString()), url: request.url });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    const root = writeInlineProject({
      ...PROJECT,
      credentials: `callback:\n  url: http://127.0.0.1:${port}/bot\n  token: secret\n`,
    });
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: SILENT_LOGGER,
    });
    try {
      const reply = await post(server, '/webhooks/callback/webhook', { sender: 'cb', message: '/greet' });
      expect(reply.status).to.equal(200);
      expect(reply.text).to.equal('success');
      expect(received).to.deep.equal([
        { url: '/bot?token=secret', body: { recipient_id: 'cb', text: 'Hello!' } },
        { url: '/bot?token=secret', body: { recipient_id: 'cb', text: 'How can I help?' } },
        { url: '/bot?token=secret', body: { recipient_id: 'cb', text: ANYTHING_ELSE } },
      ]);
      const rest = await post(server, '/webhooks/rest/webhook', { message: '/greet' });
      expect(rest.status, 'only the channels of credentials.yml are served').to.equal(404);
    } finally {
      await server.close();
      receiver.close();
    }
  });

  it('finishes the turn when the callback URL is dead, logging the failure', async () => {
    const root = writeInlineProject({
      ...PROJECT,
      credentials: 'callback:\n  url: http://127.0.0.1:9/dead\n',
    });
    const errors: string[] = [];
    const logger = {
      ...SILENT_LOGGER,
      error: (_fields: unknown, message: string) => void errors.push(message),
    };
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger,
    });
    try {
      const reply = await post(server, '/webhooks/callback/webhook', { sender: 'dead', message: '/greet' });
      expect(reply.text).to.equal('success');
      expect(errors.filter((message) => message.includes('callback'))).to.have.length(3);
    } finally {
      await server.close();
    }
  });
});
