import { expect } from 'chai';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseNlgEndpoint } from '../../src/actions/nlg/nlg-endpoint.js';
import { parseNlgAnswer } from '../../src/actions/nlg/nlg-server-responses.js';
import type { BotUttered } from '../../src/core/events/types.js';
import { inlineAssistant, startConversation } from '../support/inline-assistant.js';

interface NlgRequestBody {
  response: string;
  arguments: Record<string, unknown>;
  tracker: { sender_id: string; slots: Record<string, unknown>; events: unknown[] };
  channel: { name: string };
}

async function startNlgServer(answer: (body: NlgRequestBody) => { status?: number; body: unknown }) {
  const received: NlgRequestBody[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as NlgRequestBody;
      received.push(body);
      const reply = answer(body);
      response.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json' });
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/nlg`, received, close: () => server.close() };
}

function assistantWithNlg(url: string) {
  return inlineAssistant({
    domain: `
      version: "3.1"
      slots:
        name:
          type: text
          mappings: [{type: from_llm}]
      actions: [utter_greet, utter_ask_name]
      responses:
        utter_internal_error_rasa:
          - text: internal error
    `,
    flows: `
      flows:
        greet:
          description: greet the user by name
          steps:
            - collect: name
            - action: utter_greet
    `,
    endpoints: `
      nlg:
        url: ${url}
        token: secret
    `,
  });
}

const texts = (events: readonly { event: string }[]) =>
  events.filter((event): event is BotUttered => event.event === 'bot').map((event) => event.text);

describe('NLG server responses (endpoints.yml nlg: url)', function () {
  this.timeout(10_000);

  it('asks the NLG server for every response with the tracker and channel, as Rasa does', async () => {
    const nlg = await startNlgServer((body) => ({
      body:
        body.response === 'utter_ask_name'
          ? { text: 'What is your name?', buttons: [{ title: 'Ann', payload: '/SetSlots(name=Ann)' }] }
          : { text: `Hello ${String(body.tracker.slots['name'])}!` },
    }));
    try {
      const conversation = await startConversation(assistantWithNlg(nlg.url));
      const ask = await conversation.send('hi', [{ command: 'start flow', flow: 'greet' }]);
      expect(texts(ask)).to.include('What is your name?');
      const done = await conversation.send('Ann', [{ command: 'set slot', name: 'name', value: 'Ann' }]);
      expect(texts(done)).to.include('Hello Ann!');
      const greet = nlg.received.find((body) => body.response === 'utter_greet');
      expect(greet?.tracker.sender_id).to.equal('test-user');
      expect(greet?.tracker.events.length).to.be.greaterThan(3);
      expect(greet?.channel).to.deep.equal({ name: 'collector' });
    } finally {
      nlg.close();
    }
  });

  it('says nothing for an empty answer, and turns an invalid answer into pattern_internal_error', async () => {
    const nlg = await startNlgServer((body) => ({
      body: body.response === 'utter_ask_name' ? '' : { text: 42 },
    }));
    try {
      const conversation = await startConversation(assistantWithNlg(nlg.url));
      const ask = await conversation.send('hi', [{ command: 'start flow', flow: 'greet' }]);
      expect(texts(ask)).to.deep.equal([]);
      const done = await conversation.send('Ann', [{ command: 'set slot', name: 'name', value: 'Ann' }]);
      const utterActions = done.flatMap((event) => (event.event === 'action' ? [event.name] : []));
      expect(utterActions.slice(1, 3), 'a failed response leads to pattern_internal_error').to.deep.equal([
        'utter_greet',
        'utter_internal_error_rasa',
      ]);
      // pattern_completed's question fails the same way: one internal-error response per failure, no loop
      expect(utterActions.filter((name) => name === 'utter_internal_error_rasa')).to.have.length(2);
      expect(utterActions.at(-1)).to.equal('action_listen');
      expect(await conversation.stack()).to.deep.equal([]);
    } finally {
      nlg.close();
    }
  });

  it('reads the endpoint settings and reports every problem', () => {
    expect(parseNlgEndpoint(undefined)).to.deep.equal({ kind: 'none' });
    expect(parseNlgEndpoint({ type: 'rephrase' }).kind).to.equal('unsupported');
    const invalid = parseNlgEndpoint({ url: 'ftp://x', timeout: -1, headers: 'x' });
    expect(invalid).to.deep.include({ kind: 'invalid' });
    expect((invalid as { problems: readonly string[] }).problems).to.have.length(3);
    const server = parseNlgEndpoint({
      url: 'http://nlg/x',
      token: 't',
      basic_auth: { username: 'u', password: 'p' },
    });
    expect(server).to.deep.equal({
      kind: 'server',
      endpoint: {
        url: 'http://nlg/x',
        headers: { Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` },
        params: { token: 't' },
        timeoutSeconds: 10,
      },
    });
  });

  it('validates answers against Rasa’s response schema', () => {
    expect(parseNlgAnswer('utter_x', '')).to.equal(null);
    expect(parseNlgAnswer('utter_x', '{"text": "hi", "buttons": null}')).to.deep.equal({
      text: 'hi',
      buttons: null,
    });
    expect(() => parseNlgAnswer('utter_x', '[1]')).to.throw(/invalid response/);
    expect(() => parseNlgAnswer('utter_x', '{"image": 3}')).to.throw(/'image'/);
  });
});
