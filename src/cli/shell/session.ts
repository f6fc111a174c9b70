import type { Button } from '../../channels/bot-message.js';
import type { Agent } from '../../runtime/agent.js';
import { renderBotMessage } from './render.js';

/** Rasa's word to end a shell session. */
export const STOP_COMMAND = '/stop';

/** The channel name Rasa records for its command-line channel. */
export const SHELL_CHANNEL = 'cmdline';

/**
 * One conversation typed in a terminal: sends each line as a user message through the agent (no
 * HTTP), prints the bot's messages as the turn produces them, and turns a number typed after a
 * message with buttons into that button's payload.
 */
export class ShellSession {
  readonly conversationId: string;
  private readonly agent: Agent;
  private readonly write: (text: string) => void;
  private choices: readonly Button[] = [];

  constructor(options: { agent: Agent; conversationId: string; write: (text: string) => void }) {
    this.agent = options.agent;
    this.conversationId = options.conversationId;
    this.write = options.write;
  }

  /**
   * Picks up a stored conversation: the buttons offered since its last user message can be chosen by
   * number again. Returns how many events the conversation already has.
   */
  async resume(): Promise<number> {
    const { events } = await this.agent.load(this.conversationId);
    for (let index = events.length - 1; index >= 0; index -= 1) {
      const event = events[index];
      if (event?.event === 'user') break;
      const choices = event?.event === 'bot' ? renderBotMessage(event).choices : [];
      if (choices.length > 0) {
        this.choices = choices;
        break;
      }
    }
    return events.length;
  }

  /** What a typed line sends: the payload of the button it numbers, else the line itself. */
  messageFor(line: string): string {
    const text = line.trim();
    if (!/^\d+$/.test(text)) return text;
    const chosen = this.choices[Number(text) - 1];
    return chosen ? chosen.payload : text;
  }

  /** Runs one turn; the choices offered are those of the turn's last message with buttons. */
  async send(line: string): Promise<void> {
    const text = this.messageFor(line);
    let offered: readonly Button[] = [];
    await this.agent.handleMessage({
      conversationId: this.conversationId,
      text,
      inputChannel: SHELL_CHANNEL,
      onBotMessage: (event) => {
        const rendered = renderBotMessage(event);
        if (rendered.choices.length > 0) offered = rendered.choices;
        for (const printed of rendered.lines) this.write(`${printed}\n`);
      },
    });
    this.choices = offered;
  }
}
