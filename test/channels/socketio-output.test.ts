import { expect } from 'chai';
import { SOCKETIO_CHANNEL } from '../../src/channels/socketio/socketio-channel.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/http-server.js';
import type { RunningServer } from '../../src/server/http-server.js';
import { TurnGate } from '../../src/server/turn-gate.js';
import { inlineAssistant, startConversation } from '../support/inline-assistant.js';
import { ChatClient } from './socketio-support.js';

describe('socket.io output channel (messages pushed outside a turn, as the HTTP API does)', function () {
  this.timeout(20_000);
  const channel = SOCKETIO_CHANNEL.create({ session_persistence: true }, { logger: SILENT_LOGGER });
  let running: RunningServer;
  const clients: ChatClient[] = [];

  before(async () => {
    const assistant = inlineAssistant({
      domain: 'version: "3.1"\nresponses:\n  utter_hi:\n    - text: hi\n',
      flows: 'flows:\n  hi:\n    description: say hi\n    steps:\n      - action: utter_hi\n',
    });
    const { agent } = await startConversation(assistant);
    const gate = new TurnGate({ agent, logger: SILENT_LOGGER });
    const channels = [channel];
    running = await listen({
      app: createApp({ gate, channels }),
      gate,
      channels,
      port: 0,
      host: '127.0.0.1',
    });
  });
  afterEach(() => {
    for (const created of clients.splice(0)) created.close();
  });
  after(async () => {
    await running?.close();
  });

  async function sessionClient(sessionId: string): Promise<ChatClient> {
    const chat = new ChatClient(running.baseUrl);
    clients.push(chat);
    await chat.connected();
    await chat.requestSession(sessionId);
    return chat;
  }

  it("reaches every socket in the conversation's room, and no other", async () => {
    const [tab1, tab2, stranger] = await Promise.all([
      sessionClient('proactive'),
      sessionClient('proactive'),
      sessionClient('someone-else'),
    ]);
    const output = channel.outputChannel!()!;
    expect(output.name).to.equal('socketio');
    await output.sendResponse('proactive', {
      text: 'Your card has shipped.\n\nWant to track it?',
      buttons: [{ title: 'Track', payload: '/track' }],
    });
    const expected = [
      { text: 'Your card has shipped.' },
      {
        text: 'Want to track it?',
        quick_replies: [{ content_type: 'text', title: 'Track', payload: '/track' }],
      },
    ];
    expect(await tab1.waitFor(2)).to.deep.equal(expected);
    expect(await tab2.waitFor(2)).to.deep.equal(expected);
    expect(stranger.received).to.deep.equal([]);
  });

  it('sends each element as a generic template attachment, and custom data to the room it names', async () => {
    const [chat, other] = await Promise.all([sessionClient('elements'), sessionClient('other-room')]);
    const output = channel.outputChannel!()!;
    const card = {
      title: 'Gold card',
      subtitle: '2% back',
      buttons: [{ title: 'Apply', payload: '/apply' }],
    };
    await output.sendResponse('elements', {
      elements: [card, { title: 'Silver card' }],
      custom: { data: { note: 'for the other room' }, room: 'other-room' },
    });
    expect(await other.waitFor(1)).to.deep.equal([{ note: 'for the other room' }]);
    expect(await chat.waitFor(2)).to.deep.equal([
      { attachment: { type: 'template', payload: { template_type: 'generic', elements: card } } },
      {
        attachment: {
          type: 'template',
          payload: { template_type: 'generic', elements: { title: 'Silver card' } },
        },
      },
    ]);
  });
});
