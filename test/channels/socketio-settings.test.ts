import { expect } from 'chai';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { verifyHandshakeToken } from '../../src/channels/socketio/jwt.js';
import { SocketIoChannel } from '../../src/channels/socketio/socketio-channel.js';
import { socketIoSettingsOf } from '../../src/channels/socketio/settings.js';
import { selectChannels } from '../../src/cli/channels.js';
import { loadProject } from '../../src/project/load-project.js';
import { SILENT_LOGGER } from '../../src/runtime/logger.js';
import { MemoryLockStore } from '../../src/stores/memory-lock-store.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { startServer } from '../../src/cli/serve.js';
import { writeInlineProject } from '../support/inline-project.js';

describe('socket.io channel settings', function () {
  this.timeout(20_000);

  it("fills in Rasa's defaults for an empty block", () => {
    expect(socketIoSettingsOf({})).to.deep.equal({
      userMessageEvent: 'user_uttered',
      botMessageEvent: 'bot_uttered',
      sessionPersistence: false,
      path: '/socket.io',
      namespace: '/',
      metadataKey: 'metadata',
      silenceTimeoutRequested: false,
    });
  });

  it('normalises the path and the namespace and reads interpolated booleans', () => {
    const settings = socketIoSettingsOf({
      socketio_path: 'chat/',
      namespace: 'bank',
      session_persistence: 'true',
    });
    expect(settings).to.include({ path: '/chat', namespace: '/bank', sessionPersistence: true });
  });

  it('reports every unusable key at once', () => {
    expect(() =>
      socketIoSettingsOf({
        user_message_evt: 'connect',
        bot_message_evt: 7,
        session_persistence: 'sometimes',
        jwt_key: 'k',
        jwt_method: 'none',
      }),
    )
      .to.throw(Error)
      .that.satisfies((error: Error) =>
        ["'user_message_evt'", "'bot_message_evt'", "'session_persistence'", "'jwt_method'"].every((key) =>
          error.message.includes(key),
        ),
      );
    expect(() => socketIoSettingsOf({ jwt_key: 'not a pem', jwt_method: 'RS256' })).to.throw(
      /PEM public key/,
    );
    expect(() => socketIoSettingsOf({ jwt_key: 'k', jwt_method: ['HS256', 'RS256'] })).to.throw(/mix/);
  });

  it('verifies RS256 tokens against a PEM public key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const settings = socketIoSettingsOf({ jwt_key: await exportSPKI(publicKey), jwt_method: 'RS256' });
    const signed = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    const accepted = await verifyHandshakeToken({ token: `Bearer ${signed}` }, settings.jwt!);
    expect(accepted.ok && accepted.payload.sub).to.equal('alice');
    // an HS256 token signed with the public key text must not pass (algorithm confusion)
    const confused = await new SignJWT({ sub: 'mallory' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(await exportSPKI(publicKey)));
    expect((await verifyHandshakeToken({ token: confused }, settings.jwt!)).ok).to.equal(false);
  });

  it("is a built-in channel: the bundled assistant's credentials.yml selects it with session persistence", async () => {
    const { project } = loadProject({ project: '.' });
    const channels = await selectChannels({
      credentials: project.assistant.credentials,
      projectRoot: '.',
      logger: SILENT_LOGGER,
    });
    const socketio = channels.find((channel) => channel.name === 'socketio');
    expect(socketio).to.be.instanceOf(SocketIoChannel);
    expect((socketio as SocketIoChannel).settings).to.include({
      sessionPersistence: true,
      userMessageEvent: 'user_uttered',
      botMessageEvent: 'bot_uttered',
    });
  });

  it('stops the server at start-up when the block is unusable', async () => {
    const root = writeInlineProject({
      domain: 'version: "3.1"\nresponses:\n  utter_hi:\n    - text: hi\n',
      flows: 'flows:\n  hi:\n    description: say hi\n    steps:\n      - action: utter_hi\n',
      credentials: 'socketio:\n  session_persistence: maybe\n',
    });
    try {
      await startServer({
        location: { project: root },
        projectRoot: root,
        port: 0,
        host: '127.0.0.1',
        logger: SILENT_LOGGER,
        // memory stores: a store opened before the refusal would keep the test process alive
        trackerStore: new MemoryTrackerStore(),
        lockStore: new MemoryLockStore(),
      });
      expect.fail('the server started');
    } catch (error) {
      expect((error as { code?: string }).code).to.equal('PROJECT_INVALID');
      expect(String(error)).to.include("socketio: 'session_persistence' must be true or false.");
    }
  });
});
