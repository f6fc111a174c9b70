import type { Agent } from '../../runtime/agent.js';
import { renderBotMessage } from './render.js';

/** Rasa's word to end a shell session. */
export const STOP_COMMAND = '/stop';

/** The channel name Rasa records for its command-line channel. */
export const SHELL_CHANNEL = 'cmdline';

/**
 * One conversation typed in a terminal: sends each line as a user message through the agent (no
 * HTTP) and prints the bot's messages as the turn produces them.
 */
export class ShellSession {
  readonly conversationId: string;
  private readonly agent: Agent;
  private readonly write: (text: string) => void;

  constructor(options: { agent: Agent; conversationId: string; write: (text: string) => void }) {
    this.agent = options.agent;
    this.conversationId = options.conversationId;
    this.write = options.write;
  }

  /** Picks up a stored conversation; returns how many events it already has. */
  async resume(): Promise<number> {
    return (await this.agent.state(this.conversationId)).eventCount;
  }

  /**
   * Runs one turn, printing the bot's messages as they come. A number typed after a message with
   * buttons is that button: the runtime's rule for every channel (core/text/numbered-choice.ts).
   */
  async send(line: string): Promise<void> {
    await this.agent.handleMessage({
      conversationId: this.conversationId,
      text: line.trim(),
      inputChannel: SHELL_CHANNEL,
      onBotMessage: (event) => {
        for (const printed of renderBotMessage(event).lines) this.write(`${printed}\n`);
      },
    });
  }
}
