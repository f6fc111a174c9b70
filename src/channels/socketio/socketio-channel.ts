import type { Server as HttpServer } from 'node:http';
import { Router } from 'express';
import { Server } from 'socket.io';
import type { Namespace, Socket } from 'socket.io';
import type { Logger } from '../../runtime/logger.js';
import type { ChannelContext, ChannelFactory, InputChannel } from '../channel.js';
import type { OutputChannel } from '../output-channel.js';
import { verifyHandshakeToken } from './jwt.js';
import { SocketIoOutputChannel } from './output.js';
import { newSessionId, sessionIdOf, userPayloadOf } from './payloads.js';
import { socketIoSettingsOf } from './settings.js';
import type { JwtSettings, SocketIoSettings } from './settings.js';

/** What python-socketio answers when a connect handler refuses: clients see it in `connect_error`. */
const REFUSED = 'Connection rejected by server';

/**
 * Rasa's socket.io channel, the one its web chat widgets speak: the engine is attached to the main
 * port at `socketio_path`, a client asks for a session (`session_request` → `session_confirm`), sends
 * user messages on `user_message_evt` and receives the bot's messages on `bot_message_evt`.
 */
export class SocketIoChannel implements InputChannel {
  readonly name = 'socketio';
  readonly settings: SocketIoSettings;
  private readonly logger: Logger;
  private readonly io: Server;
  private readonly namespace: Namespace;
  private attached = false;

  constructor(options: { settings: SocketIoSettings; logger: Logger }) {
    this.settings = options.settings;
    this.logger = options.logger;
    // Rasa leaves socket.io open to every origin (its `cors_allowed_origins=[]` workaround): the
    // widget is embedded in other sites. The origin is reflected, without credentials.
    this.io = new Server({ path: this.settings.path, serveClient: true, cors: { origin: true } });
    this.namespace = this.io.of(this.settings.namespace);
    if (this.settings.silenceTimeoutRequested)
      this.logger.warn(
        { channel: this.name },
        'socketio: enable_silence_timeout is a voice feature Parley does not support; it is ignored.',
      );
  }

  router(): Router {
    const router = Router();
    router.get('/', (_request, response) => {
      response.json({ status: 'ok' });
    });
    return router;
  }

  attach(server: HttpServer, context: ChannelContext): void {
    if (this.attached) return;
    this.attached = true;
    this.io.attach(server);
    const jwt = this.settings.jwt;
    if (jwt) this.namespace.use((socket, next) => void this.checkToken(socket, jwt, next));
    this.namespace.on('connection', (socket) => {
      socket.on('session_request', (data: unknown) => this.confirmSession(socket, data));
      socket.on(this.settings.userMessageEvent, (data: unknown) => void this.receive(socket, data, context));
    });
  }

  /** Emits to a conversation's room: the HTTP API's `output_channel=socketio` (one process only). */
  outputChannel(): OutputChannel {
    return new SocketIoOutputChannel({
      namespace: this.namespace,
      botMessageEvent: this.settings.botMessageEvent,
    });
  }

  /**
   * Closes every client's connection. Clients see a transport close and reconnect on their own, so a
   * restarted server picks them up again (the widget re-sends its session request on connect).
   */
  async close(): Promise<void> {
    if (this.attached) this.io.engine.close();
  }

  private async checkToken(socket: Socket, jwt: JwtSettings, next: (error?: Error) => void): Promise<void> {
    const check = await verifyHandshakeToken(socket.handshake.auth, jwt);
    if (check.ok) {
      next();
      return;
    }
    this.logger.warn(
      { channel: this.name, reason: check.reason, address: socket.handshake.address },
      'socketio.connection.refused',
    );
    next(new Error(REFUSED));
  }

  /** `session_request {session_id?}` → `session_confirm <id>`; with persistence the socket joins it. */
  private confirmSession(socket: Socket, data: unknown): void {
    const requested = sessionIdOf(data);
    if (!requested && typeof data === 'object' && data !== null && 'session_id' in data && data.session_id)
      this.logger.warn(
        { channel: this.name },
        'socketio: unusable session_id in session_request; a new one is issued',
      );
    const sessionId = requested ?? newSessionId();
    if (this.settings.sessionPersistence) this.joinSession(socket, sessionId);
    socket.emit('session_confirm', sessionId);
  }

  /** A socket follows one session: joining another leaves the previous one's room. */
  private joinSession(socket: Socket, sessionId: string): void {
    const previous: unknown = socket.data.sessionId;
    if (previous === sessionId) return;
    if (typeof previous === 'string') void socket.leave(previous);
    socket.data.sessionId = sessionId;
    void socket.join(sessionId);
  }

  private async receive(socket: Socket, data: unknown, context: ChannelContext): Promise<void> {
    const payload = userPayloadOf(data, this.settings.metadataKey);
    if (!payload.ok) {
      this.logger.warn({ channel: this.name, reason: payload.reason }, 'socketio: message ignored');
      return;
    }
    if (payload.metadataProblem)
      this.logger.warn(
        { channel: this.name, reason: payload.metadataProblem },
        'socketio: unusable metadata ignored; the message is handled without it',
      );
    let senderId = socket.id;
    if (this.settings.sessionPersistence) {
      if (!payload.sessionId) {
        this.logger.warn(
          { channel: this.name },
          'A message without a valid session_id was received. This message will be ignored. Make sure ' +
            'to set a proper session id using the `session_request` socketIO event.',
        );
        return;
      }
      senderId = payload.sessionId;
      // a client that skipped session_request still hears the answer to its own message
      this.joinSession(socket, senderId);
    }
    try {
      await context.handleMessage({
        senderId,
        text: payload.text,
        inputChannel: this.name,
        ...(payload.metadata ? { metadata: payload.metadata } : {}),
        output: this.outputChannel(),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      this.logger.error(
        {
          channel: this.name,
          sender: senderId,
          ...(typeof code === 'string' ? { code } : {}),
          error: String(error),
        },
        'socketio.message.received.failure',
      );
    }
  }
}

export const SOCKETIO_CHANNEL: ChannelFactory = {
  name: 'socketio',
  create: (credentials, options) =>
    new SocketIoChannel({ settings: socketIoSettingsOf(credentials), logger: options.logger }),
};
