import { expect } from 'chai';
import { AppError } from '../../src/core/errors.js';
import type { UserUttered } from '../../src/core/events/types.js';
import type { RecentConversation } from '../../src/core/ports.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { ChatClient, settle, startSocketBank } from './socketio-support.js';
import type { SocketBank } from './socketio-support.js';

const ACCOUNT_QUESTION = {
  text: 'Which account?',
  quick_replies: [
    { content_type: 'text', title: 'Checking', payload: '/SetSlots(account_type=checking)' },
    { content_type: 'text', title: 'Savings', payload: '/SetSlots(account_type=savings)' },
  ],
};

const GREETING = [
  { text: 'Hello!' },
  { text: 'I am the Socket Bank assistant.' },
  { text: 'Happy to help.' },
  ACCOUNT_QUESTION,
];

async function userEvents(bank: SocketBank, conversationId: string): Promise<UserUttered[]> {
  const events = await bank.trackerStore.loadAll(conversationId);
  return events.filter((event): event is UserUttered => event.event === 'user');
}

describe('socket.io channel (no session persistence)', function () {
  this.timeout(30_000);
  let bank: SocketBank;
  const clients: ChatClient[] = [];
  const client = (): ChatClient => {
    const created = new ChatClient(bank.server.baseUrl);
    clients.push(created);
    return created;
  };

  before(async () => {
    bank = await startSocketBank('');
  });
  afterEach(() => {
    for (const created of clients.splice(0)) created.close();
  });
  after(async () => {
    await bank?.server.close();
  });

  it('answers the health check and serves the socket.io client script', async () => {
    const health = await fetch(`${bank.server.baseUrl}/webhooks/socketio/`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    const script = await fetch(`${bank.server.baseUrl}/socket.io/socket.io.js`);
    expect(script.status).to.equal(200);
    expect(script.headers.get('content-type')).to.match(/javascript/);
    expect(await script.text()).to.include('io');
  });

  it('confirms a requested session id and issues a uuid hex when none is asked for', async () => {
    const chat = client();
    await chat.connected();
    expect(await chat.requestSession()).to.match(/^[0-9a-f]{32}$/);
    expect(await chat.requestSession(null)).to.match(/^[0-9a-f]{32}$/);
    expect(await chat.requestSession('my-session')).to.equal('my-session');
  });

  it('holds a conversation with quick replies: text split on blank lines, buttons on the last part', async () => {
    const chat = client();
    await chat.connected();
    await chat.requestSession();
    expect(await chat.say({ message: 'hi' }, 4)).to.deep.equal(GREETING);
    expect(await chat.say({ message: '/SetSlots(account_type=savings)' }, 1)).to.deep.equal([
      { text: 'Your savings balance is 100 coins.' },
    ]);
    // without persistence the socket id is the sender
    const users = await userEvents(bank, chat.socket.id!);
    expect(users.map((event) => [event.text, event.input_channel])).to.deep.equal([
      ['hi', 'socketio'],
      ['/SetSlots(account_type=savings)', 'socketio'],
    ]);
  });

  it('emits images, custom JSON (a data key is spread) and attachments in Rasa web chat shapes', async () => {
    const chat = client();
    await chat.connected();
    expect(await chat.say({ message: '/rich' }, 7)).to.deep.equal([
      { text: 'A picture' },
      { attachment: { type: 'image', payload: { src: 'https://example.com/cat.png' } } },
      // Rasa's bot event carries the image as the attachment too, and its channel sends both
      { attachment: 'https://example.com/cat.png' },
      { kind: 'card', title: 'Socket Bank' },
      { kind: 'raw', value: 42 },
      { text: 'Your statement' },
      { attachment: { type: 'file', payload: { src: 'https://example.com/statement.pdf' } } },
    ]);
    await settle();
    expect(chat.received).to.have.length(7);
  });

  it('keeps two sockets apart: each is its own conversation and hears only its own answers', async () => {
    const first = client();
    const second = client();
    await Promise.all([first.connected(), second.connected()]);
    await first.say({ message: 'hi' }, 4);
    await second.say({ message: 'bye' }, 1);
    await settle();
    expect(first.received).to.deep.equal(GREETING);
    expect(second.received).to.deep.equal([{ text: 'Goodbye!' }]);
    expect((await userEvents(bank, first.socket.id!)).map((event) => event.text)).to.deep.equal(['hi']);
    expect((await userEvents(bank, second.socket.id!)).map((event) => event.text)).to.deep.equal(['bye']);
  });

  it('stores metadata on the user event: an object, a JSON string, or customData from older widgets', async () => {
    const chat = client();
    await chat.connected();
    await chat.say({ message: 'hi', metadata: { page: '/loans', user: { tier: 'gold' } } }, 4);
    await chat.say({ message: '/SetSlots(account_type=savings)', metadata: '{"page":"/cards"}' }, 1);
    await chat.say({ message: 'bye', customData: { language: 'en' } }, 1);
    await chat.say({ message: 'bye' }, 1);
    const users = await userEvents(bank, chat.socket.id!);
    expect(users.map((event) => event.metadata ?? null)).to.deep.equal([
      { page: '/loans', user: { tier: 'gold' } },
      { page: '/cards' },
      { language: 'en' },
      null,
    ]);
  });

  it('handles a message with unusable metadata without it, and ignores a malformed message', async () => {
    const chat = client();
    await chat.connected();
    expect(await chat.say({ message: 'bye', metadata: 'not json' }, 1)).to.deep.equal([{ text: 'Goodbye!' }]);
    const users = await userEvents(bank, chat.socket.id!);
    expect(users[0]?.metadata ?? null).to.equal(null);
    expect(
      bank.logs.some((line) => line.level === 'warn' && /unusable metadata/.test(line.message)),
    ).to.equal(true);
    chat.socket.emit('user_uttered', { text: 'no message key' });
    chat.socket.emit('user_uttered', 'just a string');
    await settle();
    expect(chat.received).to.have.length(1);
    expect(bank.logs.filter((line) => line.message === 'socketio: message ignored')).to.have.length(2);
    // the socket still works
    expect(await chat.say({ message: 'bye' }, 1)).to.deep.equal([{ text: 'Goodbye!' }]);
  });
});

describe('socket.io channel with session persistence', function () {
  this.timeout(30_000);
  let bank: SocketBank;
  const clients: ChatClient[] = [];
  const client = (): ChatClient => {
    const created = new ChatClient(bank.server.baseUrl);
    clients.push(created);
    return created;
  };

  before(async () => {
    bank = await startSocketBank('  session_persistence: true', {
      trackerStore: new StoreDownFor('store-down'),
    });
  });
  afterEach(() => {
    for (const created of clients.splice(0)) created.close();
  });
  after(async () => {
    await bank?.server.close();
  });

  it('continues one conversation across two sockets (a page reload) with the same session id', async () => {
    const before = client();
    await before.connected();
    expect(await before.requestSession('reload-session')).to.equal('reload-session');
    expect(await before.say({ message: 'hi', session_id: 'reload-session' }, 4)).to.deep.equal(GREETING);
    before.close();

    const after = client();
    await after.connected();
    await after.requestSession('reload-session');
    expect(
      await after.say({ message: '/SetSlots(account_type=checking)', session_id: 'reload-session' }, 1),
    ).to.deep.equal([{ text: 'Your checking balance is 100 coins.' }]);
    const users = await userEvents(bank, 'reload-session');
    expect(users.map((event) => event.text)).to.deep.equal(['hi', '/SetSlots(account_type=checking)']);
  });

  it('sends the bot messages to every socket of the session (two tabs)', async () => {
    const tabs = [client(), client()];
    await Promise.all(tabs.map((tab) => tab.connected()));
    for (const tab of tabs) await tab.requestSession('two-tabs');
    await tabs[0]!.say({ message: 'bye', session_id: 'two-tabs' }, 1);
    await tabs[1]!.waitFor(1);
    expect(tabs[1]!.received).to.deep.equal([{ text: 'Goodbye!' }]);
  });

  it('ignores a message without session_id, with a warning', async () => {
    const chat = client();
    await chat.connected();
    await chat.requestSession();
    chat.socket.emit('user_uttered', { message: 'hi' });
    await settle();
    expect(chat.received).to.deep.equal([]);
    expect(await bank.trackerStore.loadAll(chat.socket.id!)).to.deep.equal([]);
    expect(
      bank.logs.some((line) => line.level === 'warn' && /without a valid session_id/.test(line.message)),
    ).to.equal(true);
  });

  it('leaves the previous session when a socket asks for another one', async () => {
    const watcher = client();
    const mover = client();
    await Promise.all([watcher.connected(), mover.connected()]);
    await watcher.requestSession('room-b');
    await mover.requestSession('room-a');
    await mover.requestSession('room-b');
    const inA = client();
    await inA.connected();
    await inA.requestSession('room-a');
    await inA.say({ message: 'bye', session_id: 'room-a' }, 1);
    await settle();
    expect(mover.received).to.deep.equal([]);
    await watcher.say({ message: 'bye', session_id: 'room-b' }, 1);
    await mover.waitFor(1);
  });

  it('logs a failed turn, emits nothing and keeps serving', async () => {
    const chat = client();
    await chat.connected();
    await chat.requestSession('store-down');
    chat.socket.emit('user_uttered', { message: 'hi', session_id: 'store-down' });
    await settle();
    expect(chat.received).to.deep.equal([]);
    const failure = bank.logs.find((line) => line.message === 'socketio.message.received.failure');
    expect(failure?.fields).to.include({
      channel: 'socketio',
      sender: 'store-down',
      code: 'STORE_UNAVAILABLE',
    });
    expect(chat.socket.connected).to.equal(true);
    expect(await chat.say({ message: 'bye', session_id: 'store-up' }, 1)).to.deep.equal([
      { text: 'Goodbye!' },
    ]);
  });
});

describe('socket.io channel shutdown', function () {
  this.timeout(60_000);
  /** far longer than a clean shutdown takes: one that waits for it left the client connected */
  const CLOSE_GRACE_MS = 20_000;

  it('closes connected clients promptly when the server stops', async () => {
    const bank = await startSocketBank('', { closeGraceMs: CLOSE_GRACE_MS });
    const chat = new ChatClient(bank.server.baseUrl);
    try {
      await chat.connected();
      await chat.say({ message: 'bye' }, 1);
      const disconnected = new Promise<string>((resolve) => chat.socket.once('disconnect', resolve));
      const started = performance.now();
      await bank.server.close();
      const reason = await disconnected;
      // a transport close, not a server kick: clients reconnect by themselves to a restarted server
      expect(reason).to.equal('transport close');
      expect(performance.now() - started).to.be.below(CLOSE_GRACE_MS / 2);
    } finally {
      chat.close();
    }
  });
});

/** A tracker store whose one conversation cannot be loaded (a database outage, for that turn). */
class StoreDownFor extends MemoryTrackerStore {
  constructor(private readonly conversationId: string) {
    super();
  }

  override async loadRecent(conversationId: string): Promise<RecentConversation> {
    if (conversationId === this.conversationId)
      throw new AppError({ code: 'STORE_UNAVAILABLE', message: 'the database is down' });
    return super.loadRecent(conversationId);
  }
}
