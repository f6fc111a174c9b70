import { expect } from 'chai';
import { SignJWT } from 'jose';
import { ChatClient, settle, startSocketBank } from './socketio-support.js';
import type { SocketBank } from './socketio-support.js';

const SECRET = 'socket-bank-secret';

function token(options: { secret?: string; expiresIn?: string } = {}): Promise<string> {
  return new SignJWT({ user: 'alice' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

function connectError(chat: ChatClient): Promise<string> {
  return new Promise((resolve, reject) => {
    chat.socket.once('connect', () => reject(new Error('the connection was accepted')));
    chat.socket.once('connect_error', (error: Error) => resolve(error.message));
  });
}

describe('socket.io channel with JWT, a namespace, a path and its own event names', function () {
  this.timeout(30_000);
  let bank: SocketBank;
  const clients: ChatClient[] = [];
  const client = (auth?: Record<string, unknown>, options: { namespace?: string; path?: string } = {}) => {
    const created = new ChatClient(
      `${bank.server.baseUrl}${options.namespace ?? '/bank'}`,
      { path: options.path ?? '/chat-io', ...(auth ? { auth } : {}) },
      'bot_says',
    );
    clients.push(created);
    return created;
  };

  before(async () => {
    bank = await startSocketBank(
      [
        '  user_message_evt: user_says',
        '  bot_message_evt: bot_says',
        '  namespace: bank',
        '  socketio_path: /chat-io/',
        `  jwt_key: ${SECRET}`,
        '  jwt_method: HS256',
        '  metadata_key: context',
        '  session_persistence: true',
      ].join('\n'),
    );
  });
  afterEach(() => {
    for (const created of clients.splice(0)) created.close();
  });
  after(async () => {
    await bank?.server.close();
  });

  it('accepts a valid token, with or without the Bearer prefix, and talks on the configured events', async () => {
    for (const auth of [{ token: await token() }, { token: `Bearer ${await token()}` }]) {
      const chat = client(auth);
      await chat.connected();
      const sessionId = await chat.requestSession();
      expect(await chat.say({ message: 'bye', session_id: sessionId }, 1, 'user_says')).to.deep.equal([
        { text: 'Goodbye!' },
      ]);
    }
  });

  it('refuses a connection without a token, with a wrong signature or with an expired token', async () => {
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET));
    const refusals = [
      undefined,
      { token: '' },
      { token: 'not-a-jwt' },
      { token: await token({ secret: 'another-secret' }) },
      { token: expired },
    ];
    for (const auth of refusals)
      expect(await connectError(client(auth)), JSON.stringify(auth)).to.equal(
        'Connection rejected by server',
      );
    const reasons = bank.logs
      .filter((line) => line.message === 'socketio.connection.refused')
      .map((line) => line.fields['reason']);
    expect(reasons).to.have.length(refusals.length);
    expect(reasons).to.include('ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    expect(reasons).to.include('ERR_JWT_EXPIRED');
  });

  it('stores the metadata found under metadata_key', async () => {
    const chat = client({ token: await token() });
    await chat.connected();
    await chat.requestSession('with-context');
    await chat.say(
      { message: 'bye', session_id: 'with-context', context: { plan: 'premium' } },
      1,
      'user_says',
    );
    const events = await bank.trackerStore.loadAll('with-context');
    const user = events.find((event) => event.event === 'user');
    expect(user?.metadata).to.deep.equal({ plan: 'premium' });
  });

  it('serves only the configured path and namespace', async () => {
    // the default path is not socket.io's here: the client's handshake gets the server's 404
    expect(await connectError(client({ token: await token() }, { path: '/socket.io' }))).to.match(
      /xhr poll|websocket/,
    );
    const health = await fetch(`${bank.server.baseUrl}/webhooks/socketio/`);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    // the main namespace accepts a connection (socket.io always has it) but nobody answers there
    const elsewhere = client(undefined, { namespace: '/' });
    await elsewhere.connected();
    elsewhere.socket.emit('session_request', {});
    elsewhere.socket.emit('user_says', { message: 'bye', session_id: 'elsewhere' });
    await settle();
    expect(elsewhere.received).to.deep.equal([]);
    expect(await bank.trackerStore.loadAll('elsewhere')).to.deep.equal([]);
  });
});
