/**
 * Finding: the A2A contextId was the conversation's sender id, so a REST webhook (or socket.io) client
 * sending `sender: <contextId>` landed in that A2A conversation without any token: it changed a
 * transfer's recipient and read the bot's replies. A2A conversations now live at
 * `a2a:<caller>:<contextId>`, which no channel may address.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { ParleyServer } from '../../src/cli/serve.js';
import { send, statusData } from '../a2a/hardening-support.js';
import type { V03Task } from '../a2a/hardening-support.js';
import { ChatClient } from '../channels/socketio-support.js';
import { recordingLogger } from '../support/recording-logger.js';
import { callAs, restMessage, startSecureServer, stillServes, trackerOf, userTexts } from './support.js';

async function task(server: ParleyServer, caller: string, body: unknown): Promise<V03Task> {
  const answer = await callAs(server, caller, body);
  if (!answer.body['result']) throw new Error(JSON.stringify(answer.body));
  return answer.body['result'] as V03Task;
}

describe('Security: A2A conversations are out of reach of the channels and of other callers', function () {
  this.timeout(60_000);
  let server: ParleyServer;

  before(async () => {
    server = await startSecureServer();
  });
  after(() => server.close());

  it('a REST message whose sender is an A2A contextId lands in a conversation of its own', async () => {
    const started = await task(server, 'orchestrator', send('/transfer_money'));
    expect(statusData(started)['awaiting']).to.deep.equal({ slot: 'recipient', flow_id: 'transfer_money' });
    // the attack: an unauthenticated webhook client names the context as its sender
    const attack = await restMessage(server, {
      sender: started.contextId,
      message: '/SetSlots(recipient=Mallory)',
    });
    expect(attack.status).to.equal(200);
    const a2aConversation = await trackerOf(server, `a2a:orchestrator:${started.contextId}`);
    expect(a2aConversation.slots['recipient']).to.equal(null);
    expect(userTexts(a2aConversation)).to.deep.equal(['/transfer_money']);
    expect(userTexts(await trackerOf(server, started.contextId))).to.deep.equal([
      '/SetSlots(recipient=Mallory)',
    ]);
    // the orchestrator's task goes on as if nothing happened
    const next = await task(
      server,
      'orchestrator',
      send('/SetSlots(recipient=Anna)', { contextId: started.contextId, taskId: started.id }),
    );
    expect((statusData(next)['slots'] as Record<string, unknown>)['recipient']).to.equal('Anna');
    expect(await stillServes(server)).to.equal(true);
  });

  it('refuses REST and callback senders in the a2a: namespace with a 400 naming it', async () => {
    const started = await task(server, 'orchestrator', send('/transfer_money'));
    const conversation = `a2a:orchestrator:${started.contextId}`;
    const refused = await restMessage(server, {
      sender: conversation,
      message: '/SetSlots(recipient=Mallory)',
    });
    expect(refused.status).to.equal(400);
    expect(refused.body).to.deep.include({ reason: 'BadRequest' });
    expect((refused.body as { message: string }).message).to.match(/must not start with 'a2a:'/);
    expect((await trackerOf(server, conversation)).slots['recipient']).to.equal(null);
    expect(await stillServes(server)).to.equal(true);
  });

  it('gives a socket.io client asking for an A2A conversation a session of its own', async () => {
    const started = await task(server, 'orchestrator', send('/transfer_money'));
    const conversation = `a2a:orchestrator:${started.contextId}`;
    const client = new ChatClient(server.baseUrl);
    try {
      await client.connected();
      const issued = await client.requestSession(conversation);
      expect(issued).to.not.equal(conversation);
      expect(await client.say({ message: '/transfer_money', session_id: issued }, 1)).to.have.length(1);
      // a message naming the A2A conversation as its session is dropped, not run there
      client.socket.emit('user_uttered', { message: '/SetSlots(recipient=Eve)', session_id: conversation });
      await client.say({ message: '/SetSlots(recipient=Mallory)', session_id: issued }, 1);
    } finally {
      client.socket.close();
    }
    const a2aConversation = await trackerOf(server, conversation);
    expect(a2aConversation.slots['recipient']).to.equal(null);
    expect(userTexts(a2aConversation)).to.deep.equal(['/transfer_money']);
  });

  it('gives two callers using the same contextId two conversations', async () => {
    const contextId = `shared-${crypto.randomUUID()}`;
    const mine = await task(server, 'orchestrator', send('/transfer_money', { contextId }));
    const theirs = await task(server, 'intruder', send('/SetSlots(recipient=Eve)', { contextId }));
    expect(theirs.contextId).to.equal(contextId);
    expect(theirs.id).to.not.equal(mine.id);
    expect((await trackerOf(server, `a2a:orchestrator:${contextId}`)).slots['recipient']).to.equal(null);
    expect(userTexts(await trackerOf(server, `a2a:intruder:${contextId}`))).to.deep.equal([
      '/SetSlots(recipient=Eve)',
    ]);
  });

  it('keeps long caller names within the store’s 255 characters (hashed) and apart from each other', async () => {
    const contextId = 'c'.repeat(128);
    const caller = (letter: string) => `https://idp.example/agents/${letter.repeat(200)}`;
    for (const letter of ['a', 'b']) {
      await task(server, caller(letter), send(`/transfer_money`, { contextId, metadata: { letter } }));
      const digest = createHash('sha256').update(caller(letter)).digest('base64url');
      const id = `a2a:%sha256.${digest}:${contextId}`;
      expect(id.length).to.be.at.most(255);
      const tracker = await trackerOf(server, id);
      expect(userTexts(tracker)).to.deep.equal(['/transfer_money']);
      expect(tracker.events.find((event) => event.event === 'user')?.metadata).to.deep.equal({ letter });
    }
  });
});

describe('Security: context_id_as_sender_id restores Rasa’s mapping, with a warning', function () {
  this.timeout(60_000);
  let server: ParleyServer;
  const logger = recordingLogger();
  const warnings = logger.warnings;

  before(async () => {
    server = await startSecureServer({ a2a: ['context_id_as_sender_id: true'], logger });
  });
  after(() => server.close());

  it('says at start that any client sending that id reaches the conversation', () => {
    expect(warnings.some((line) => /context_id_as_sender_id is on/.test(line))).to.equal(true);
  });

  it('keeps the conversation under the contextId itself, and refuses that context to another caller', async () => {
    const contextId = `legacy-${crypto.randomUUID()}`;
    await task(server, 'orchestrator', send('/transfer_money', { contextId }));
    expect(userTexts(await trackerOf(server, contextId))).to.deep.equal(['/transfer_money']);
    const other = await callAs(server, 'intruder', send('/SetSlots(recipient=Eve)', { contextId }));
    expect(other.body['error']).to.deep.include({ code: -32602 });
    expect((await trackerOf(server, contextId)).slots['recipient']).to.equal(null);
    expect(await stillServes(server)).to.equal(true);
  });
});
