/** A small bank assistant served on the socket.io channel, and a socket.io client that waits well. */
import { io } from 'socket.io-client';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import { startServer } from '../../src/cli/serve.js';
import type { ParleyServer } from '../../src/cli/serve.js';
import type { Logger } from '../../src/runtime/logger.js';
import { MemoryTrackerStore } from '../../src/stores/memory-tracker-store.js';
import { writeInlineProject } from '../support/inline-project.js';

const DOMAIN = `
  version: "3.1"
  intents:
    - greet
    - goodbye
    - rich
    - boom
  slots:
    account_type:
      type: categorical
      values: [checking, savings]
      mappings:
        - type: from_llm
  responses:
    utter_greet:
      - text: "Hello!\\n\\nI am the Socket Bank assistant."
    utter_ask_account_type:
      - text: "Happy to help.\\n\\nWhich account?"
        buttons:
          - title: Checking
            payload: /SetSlots(account_type=checking)
          - title: Savings
            payload: /SetSlots(account_type=savings)
    utter_balance:
      - text: "Your {account_type} balance is 100 coins."
    utter_goodbye:
      - text: Goodbye!
    utter_picture:
      - text: A picture
        image: https://example.com/cat.png
    utter_card:
      - custom:
          kind: card
          title: Socket Bank
    utter_raw_custom:
      - custom:
          data:
            kind: raw
            value: 42
    utter_file:
      - text: Your statement
        attachment:
          type: file
          payload:
            src: https://example.com/statement.pdf
`;

const FLOWS = `
  flows:
    check_balance:
      description: greet the user and tell them an account balance
      run_pattern_completed: false
      nlu_trigger:
        - intent: greet
      steps:
        - action: utter_greet
        - collect: account_type
        - action: utter_balance
    say_goodbye:
      description: say goodbye
      run_pattern_completed: false
      nlu_trigger:
        - intent: goodbye
      steps:
        - action: utter_goodbye
    show_rich:
      description: show every kind of rich message
      run_pattern_completed: false
      nlu_trigger:
        - intent: rich
      steps:
        - action: utter_picture
        - action: utter_card
        - action: utter_raw_custom
        - action: utter_file
`;

const NLU = `
  version: "3.1"
  nlu:
    - intent: greet
      examples: |
        - hi
        - hello
        - hey
        - hi there
        - good morning
        - hello bank
    - intent: goodbye
      examples: |
        - bye
        - goodbye
        - see you later
        - bye bye
        - good night
`;

export interface SocketBank {
  readonly server: ParleyServer;
  readonly trackerStore: MemoryTrackerStore;
  readonly logs: LogLine[];
}

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

/** Serves the bank assistant with the given `socketio:` credentials block (YAML, indented by 2). */
export async function startSocketBank(
  socketioBlock: string,
  options: { trackerStore?: MemoryTrackerStore; closeGraceMs?: number } = {},
): Promise<SocketBank> {
  const root = writeInlineProject({
    domain: DOMAIN,
    flows: FLOWS,
    nlu: NLU,
    credentials: `socketio:\n${socketioBlock}\n`,
  });
  const logs: LogLine[] = [];
  const logger: Logger = {
    info: (fields, message) => logs.push({ level: 'info', message, fields }),
    warn: (fields, message) => logs.push({ level: 'warn', message, fields }),
    error: (fields, message) => logs.push({ level: 'error', message, fields }),
  };
  const trackerStore = options.trackerStore ?? new MemoryTrackerStore();
  const server = await startServer({
    location: { project: root },
    projectRoot: root,
    port: 0,
    host: '127.0.0.1',
    logger,
    trackerStore,
    ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
  });
  return { server, trackerStore, logs };
}

/** A client that connects at once and remembers every bot message it received. */
export class ChatClient {
  readonly socket: Socket;
  readonly received: unknown[] = [];
  private waiters: (() => void)[] = [];

  constructor(url: string, options: Partial<ManagerOptions & SocketOptions> = {}, botEvent = 'bot_uttered') {
    this.socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...options });
    this.socket.on(botEvent, (message: unknown) => {
      this.received.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  /** `session_request` → the id `session_confirm` carries. */
  requestSession(sessionId?: string | null): Promise<string> {
    return new Promise((resolve) => {
      this.socket.once('session_confirm', (id: string) => resolve(id));
      this.socket.emit('session_request', sessionId === undefined ? {} : { session_id: sessionId });
    });
  }

  /** Resolves once `count` bot messages have arrived in all, or fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 15_000): Promise<unknown[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`expected ${count} bot messages, got ${JSON.stringify(this.received, null, 1)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.slice(0, count);
  }

  /** Sends a message and waits for `expected` more bot messages. */
  async say(payload: Record<string, unknown>, expected: number, event = 'user_uttered'): Promise<unknown[]> {
    const before = this.received.length;
    this.socket.emit(event, payload);
    return (await this.waitFor(before + expected)).slice(before);
  }

  close(): void {
    this.socket.close();
  }
}

/** Waits a little for anything more to arrive (for asserting that nothing does). */
export function settle(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
