import type { Namespace } from 'socket.io';
import type { Button } from '../bot-message.js';
import { OutputChannel } from '../output-channel.js';
import { isRecord } from '../request-fields.js';

/**
 * Rasa's SocketIOOutput: every bot message is emitted on the bot event to the room named by the
 * recipient (the socket's own room without session persistence, the session's room with it), in the
 * shapes Rasa's web chat widgets render.
 */
export class SocketIoOutputChannel extends OutputChannel {
  readonly name = 'socketio';
  private readonly namespace: Namespace;
  private readonly event: string;

  constructor(options: { namespace: Namespace; botMessageEvent: string }) {
    super();
    this.namespace = options.namespace;
    this.event = options.botMessageEvent;
  }

  async sendText(recipientId: string, text: string): Promise<void> {
    for (const part of text.trim().split('\n\n')) this.emit(recipientId, { text: part });
  }

  /** Each blank-line-separated part is its own message; the buttons go with the last one. */
  override async sendTextWithButtons(
    recipientId: string,
    text: string,
    buttons: readonly Button[],
  ): Promise<void> {
    const parts = text.trim().split('\n\n');
    const quickReplies = buttons.map((button) => ({
      content_type: 'text',
      title: button.title,
      payload: button.payload,
    }));
    for (const [index, part] of parts.entries())
      this.emit(
        recipientId,
        index === parts.length - 1 ? { text: part, quick_replies: quickReplies } : { text: part },
      );
  }

  override async sendImage(recipientId: string, url: string): Promise<void> {
    this.emit(recipientId, { attachment: { type: 'image', payload: { src: url } } });
  }

  override async sendAttachment(recipientId: string, attachment: unknown): Promise<void> {
    this.emit(recipientId, { attachment });
  }

  override async sendElements(recipientId: string, elements: readonly unknown[]): Promise<void> {
    for (const element of elements)
      this.emit(recipientId, {
        attachment: { type: 'template', payload: { template_type: 'generic', elements: element } },
      });
  }

  /**
   * Custom JSON goes out as it is. With a `data` key Rasa spreads it into the emit call (`data` is
   * the payload, `room`/`to` may pick another room), so a widget gets exactly `data`.
   */
  override async sendCustom(recipientId: string, custom: unknown): Promise<void> {
    if (!isRecord(custom) || !('data' in custom)) {
      this.emit(recipientId, custom);
      return;
    }
    const room = [custom['room'], custom['to']].find((value) => typeof value === 'string' && value !== '');
    this.emit(typeof room === 'string' ? room : recipientId, custom['data']);
  }

  private emit(room: string, message: unknown): void {
    this.namespace.to(room).emit(this.event, message);
  }
}
