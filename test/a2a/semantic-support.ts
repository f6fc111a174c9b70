/** Shared set-up of the semantic handler tests: the handler over a real agent, without a wire or a server. */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A2aError } from '../../src/a2a/a2a-error.js';
import { SemanticHandler } from '../../src/a2a/semantic-handler.js';
import type { SemanticHandlerOptions, SemanticSettings } from '../../src/a2a/semantic-handler.js';
import type { A2aMessage, Part, Task } from '../../src/a2a/tasks/model.js';
import { MemoryTaskStore } from '../../src/a2a/tasks/memory/memory-task-store.js';
import type { TaskLimits } from '../../src/a2a/tasks/memory/task-retention.js';
import type { TurnAdmission } from '../../src/a2a/turn-admission.js';
import { composeAgent } from '../../src/cli/compose.js';
import type { CommandGenerator, Understanding } from '../../src/core/ports.js';
import type { Agent } from '../../src/runtime/agent.js';
import { PayloadCommandGenerator } from '../../src/understanding/direct-payloads.js';
import { inlineAssistant } from '../support/inline-assistant.js';
import { recordingLogger } from '../support/recording-logger.js';
import type { RecordingLogger } from '../support/recording-logger.js';

/**
 * The assistant of the tests: its understanding reads payloads and holds a turn on the text `wait`
 * until the test releases it.
 */
export const ASSISTANT = inlineAssistant({
  domain: `
    version: "3.1"
    intents: [transfer_money]
    slots:
      recipient: {type: text, mappings: [{type: from_llm}]}
      amount: {type: float, mappings: [{type: from_llm}]}
    responses:
      utter_ask_recipient: [{text: Who should get the money?}]
      utter_ask_amount: [{text: How much?}]
      utter_done: [{text: Done.}]
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money to another person.
        nlu_trigger:
          - intent: transfer_money
        steps:
          - collect: recipient
          - collect: amount
          - action: utter_done
  `,
});

export const START = '/transfer_money';
export const FINISH = '/SetSlots(recipient=Anna, amount=5)';
export const T0 = Date.UTC(2026, 0, 1);

/** Payload understanding; the text `wait` holds its turn until `release()`. */
export class HeldUnderstanding implements CommandGenerator {
  private readonly payloads = new PayloadCommandGenerator();
  private opened = (): void => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));

  async understand(input: Parameters<CommandGenerator['understand']>[0]): Promise<Understanding> {
    if (input.text === 'wait') await this.gate;
    return this.payloads.understand(input);
  }

  release(): void {
    this.opened();
  }
}

export interface Setup {
  readonly handler: SemanticHandler;
  readonly agent: Agent;
  readonly understanding: HeldUnderstanding;
  readonly logger: RecordingLogger;
  /** moves the handler's clock */
  advance(ms: number): void;
}

export interface SetupOptions extends Partial<SemanticHandlerOptions> {
  /** the memory store's limits (tests lower them) */
  readonly limits?: Partial<TaskLimits>;
}

export async function setup(
  settings: Partial<SemanticSettings> = {},
  options: SetupOptions = {},
): Promise<Setup> {
  const understanding = new HeldUnderstanding();
  const agent = await composeAgent({
    assistant: ASSISTANT,
    projectRoot: mkdtempSync(join(tmpdir(), 'parley-semantic-')),
    commandGenerator: understanding,
  });
  const logger = recordingLogger();
  let ids = 0;
  let now = T0;
  const chosen: SemanticSettings = {
    includeConversationRepair: false,
    taskTimeoutSeconds: 0,
    messageCacheTtlSeconds: 600,
    maxContexts: 0,
    ...settings,
  };
  const { limits, ...handlerOptions } = options;
  const store =
    options.store ??
    new MemoryTaskStore({
      replayTtlSeconds: chosen.messageCacheTtlSeconds,
      now: () => now,
      limits: {
        ...(chosen.limits?.maxContextBytes ? { maxContextBytes: chosen.limits.maxContextBytes } : {}),
        ...(chosen.limits?.maxTaskMemoryBytes ? { maxTotalBytes: chosen.limits.maxTaskMemoryBytes } : {}),
        ...limits,
      },
    });
  const handler = new SemanticHandler({
    agent,
    commandGenerator: understanding,
    settings: chosen,
    logger,
    now: () => now,
    newId: () => `id-${(ids += 1)}`,
    ...handlerOptions,
    store,
  });
  return { handler, agent, understanding, logger, advance: (ms) => void (now += ms) };
}

let messages = 0;
export function message(text: string, extra: Partial<A2aMessage> = {}): A2aMessage {
  messages += 1;
  return { messageId: `m-${messages}`, role: 'user', parts: [{ kind: 'text', text }], ...extra };
}

export const tick = () => new Promise((resolve) => setImmediate(resolve));

/** sends and waits for the answer and for the context to be free again */
export async function send(handler: SemanticHandler, sent: A2aMessage, caller = ''): Promise<Task> {
  const task = await (await handler.sendMessage({ message: sent, caller })).done;
  await tick();
  return task;
}

export function statusData(task: Task): Record<string, unknown> {
  const parts: readonly Part[] = task.status.message?.parts ?? [];
  const data = parts.find((part) => part.kind === 'data');
  return data?.kind === 'data' ? (data.data as Record<string, unknown>) : {};
}

export async function refusal(work: () => unknown): Promise<A2aError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof A2aError) return error;
    throw error;
  }
  throw new Error('expected an A2aError');
}

/** The server's door as the handler sees it: it may be closing, and may hold the next turn at the door. */
export class Door implements TurnAdmission {
  isClosing = false;
  /** true once a held turn reached the door */
  held = false;
  private holding = false;
  private open = (): void => undefined;

  async track<T>(_channel: string, _conversationId: string, turn: () => Promise<T>): Promise<T> {
    if (this.holding) {
      this.holding = false;
      this.held = true;
      await new Promise<void>((resolve) => (this.open = resolve));
    }
    return turn();
  }

  onDrained(): void {}

  holdNext(): void {
    this.holding = true;
  }

  release(): void {
    this.open();
  }
}

export async function until(condition: () => boolean): Promise<void> {
  for (let round = 0; round < 200 && !condition(); round += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).to.equal(true);
}
